/**
 * Security-critical: Prometheus metrics at /metrics (issue 23 point 2), never public by default.
 * They tell how busy the platform is and where it hurts, which is the operator's business only:
 *
 * - METRICS_TOKEN: GET /metrics on the main server answers only `Authorization: Bearer <token>`,
 *   compared in constant time; anything else (no header, a rider's session) gets 401.
 * - METRICS_PORT (on METRICS_HOST, the loopback by default): a plain listener of its own that
 *   serves only /metrics, for a scraper on a private network; it asks for the token too when set.
 * - Neither: no /metrics route at all (404), and nothing is measured.
 *
 * The route is `public` to the session layer (a scraper has no account); its own check is the
 * token. A GET needs no CSRF check, and no rate limit applies: the token is long and random, so
 * guessing it is hopeless however fast one asks.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metricsTextResponse } from '@rideway/contract';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../context';
import { createMetrics, type AppMetrics } from './registry';
import { AppError } from '../http/app-error';

declare module 'fastify' {
  interface FastifyInstance {
    /** The METRICS_PORT listener's address once it listens (`http://host:port/metrics`); absent without METRICS_PORT. */
    metricsListenerUrl?: () => string | undefined;
  }
}

/** The route label of a request no route matched: one series for all of them, whatever their URLs. */
const UNMATCHED = 'unmatched';
const CHALLENGE = { 'www-authenticate': 'Bearer realm="metrics"' };

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** Whether the Authorization header carries the token; digests of equal length keep the comparison constant in time and silent about the length. */
function presentsToken(header: string | undefined, expected: Buffer): boolean {
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
  return presented !== undefined && timingSafeEqual(digest(presented), expected);
}

/** The separate listener: /metrics and nothing else, the token asked for when one is set. */
function metricsListener(metrics: AppMetrics, expected: Buffer | undefined, log: FastifyBaseLogger): Server {
  const answer = (response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers }).end(body);
  };
  /** Why the request is refused (status, text, headers), or undefined when it may have the metrics. */
  const refusal = (request: IncomingMessage): [number, string, Record<string, string>?] | undefined => {
    if ((request.url ?? '').split('?')[0] !== '/metrics') return [404, 'not found\n'];
    if (request.method !== 'GET' && request.method !== 'HEAD') return [405, 'method not allowed\n', { allow: 'GET, HEAD' }];
    if (expected && !presentsToken(request.headers.authorization, expected)) return [401, 'not signed in\n', CHALLENGE];
    return undefined;
  };
  return createServer((request: IncomingMessage, response: ServerResponse) => {
    const refused = refusal(request);
    if (refused) {
      answer(response, ...refused);
      return;
    }
    metrics.scrape().then(
      (body) => {
        answer(response, 200, request.method === 'HEAD' ? '' : body, { 'content-type': metrics.contentType });
      },
      (error: unknown) => {
        log.error({ err: error }, 'metrics scrape failed');
        answer(response, 500, 'scrape failed\n');
      },
    );
  });
}

/** Measures every request, serves /metrics as configured and hands the services `ctx.metrics`; does nothing when metrics are off. */
export function registerMetrics(app: FastifyInstance, ctx: AppContext): void {
  const { METRICS_TOKEN: token, METRICS_PORT: port, METRICS_HOST: host } = ctx.config;
  if (token === undefined && port === undefined) return;
  const metrics = createMetrics({ db: ctx.db, now: ctx.now, geo: ctx.live.geo, sockets: () => (app.hasDecorator('liveSocketStats') ? app.liveSocketStats() : undefined), ...(ctx.live.redisStatus ? { redis: ctx.live.redisStatus } : {}), log: app.log });
  ctx.metrics = metrics;
  const expected = token === undefined ? undefined : digest(token);

  // The route's pattern (`/api/bookings/:id`), never the URL: one series per route, not per id.
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request.method, request.routeOptions.url ?? UNMATCHED, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  if (expected) {
    app.withTypeProvider<ZodTypeProvider>().get(
      '/metrics',
      {
        config: { access: 'public', writesEvents: false },
        schema: {
          summary: 'Prometheus metrics (issue 23 point 2)',
          description: "The operator's scraper only: `Authorization: Bearer <METRICS_TOKEN>`; anything else answers 401.",
          security: [{ bearerAuth: [] }],
          response: { 200: metricsTextResponse },
        },
      },
      async (request, reply) => {
        if (!presentsToken(request.headers.authorization, expected)) throw new AppError('not_logged_in', undefined, CHALLENGE);
        return reply.header('cache-control', 'no-store').type(metrics.contentType).send(await metrics.scrape());
      },
    );
  }

  if (port === undefined) return;
  const server = metricsListener(metrics, expected, app.log);
  server.on('error', (error) => {
    app.log.error({ err: error }, 'metrics listener error');
  });
  let url: string | undefined;
  app.decorate('metricsListenerUrl', () => url);
  // Listening once the app is ready, so an app that fails to build leaves no listener behind.
  app.addHook('onReady', async () => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address() as AddressInfo;
    url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${String(address.port)}/metrics`;
    app.log.info({ url }, 'metrics listening');
  });
  app.addHook('onClose', async () => {
    if (!server.listening) return;
    const closed = new Promise<void>((resolve) => server.close(() => { resolve(); }));
    // A scraper's keep-alive connection would hold the close open.
    server.closeAllConnections();
    await closed;
  });
}
