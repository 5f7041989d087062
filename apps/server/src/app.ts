import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifySwagger from '@fastify/swagger';
import { ERROR_CATALOGUE, errorBody } from '@rideway/contract';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { AppContext } from './context';
import type { Db } from './db/client';
import { accessFor } from './http/access';
import { describeAccess } from './http/docs';
import { registerActorHook } from './http/actor';
import { sessionCache } from './http/session-cache';
import { registerNulGuard } from './http/nul-guard';
import { AppError } from './http/app-error';
import { authRoutes } from './modules/auth/routes';
import { bookingRoutes, estimateRoutes } from './modules/bookings/routes';
import { mapsRoutes } from './modules/maps/routes';
import { cancelReasonRoutes } from './modules/cancelreasons/routes';
import { carTypeRoutes } from './modules/cartypes/routes';
import { compatRoutes } from './modules/compat/routes';
import { fileRoutes } from './modules/files/routes';
import { notificationRoutes } from './modules/notifications/routes';
import { outboxRoutes } from './modules/outbox/routes';
import { paymentRoutes } from './modules/payments/routes';
import { promoRoutes } from './modules/promos/routes';
import { reportRoutes } from './modules/reports/routes';
import { getSettings } from './modules/settings/service';
import { settingsRoutes } from './modules/settings/routes';
import { userRoutes } from './modules/users/routes';
import { walletRoutes } from './modules/wallet/routes';
import { withdrawRoutes } from './modules/withdraws/routes';
import { offlineMaps } from './providers/maps/offline';
import type { MapsPort } from './providers/maps/port';
import type { FileStorage } from './providers/storage';
import { statusPage } from './status-page';
import { registerWebApp } from './http/web-app';
import { startBackground } from './jobs/background';
import { chatRoutes } from './modules/chat/routes';
import { jobHandlers } from './jobs/handlers';
import { vapidKeys } from './modules/push/service';
import { webPushSender } from './providers/push/webpush';
import { presenceRoutes } from './modules/presence/routes';
import { pushRoutes } from './modules/push/routes';
import { flushPositions, warmIndex } from './modules/presence/service';
import { trackingRoutes } from './modules/tracking/routes';
import { registerGateway, registerWebSocket } from './realtime/gateway';
import { createLiveLayer } from './realtime/live';

declare module 'fastify' {
  interface FastifyInstance {
    /** The services' context, for tests and the process entry point. */
    ctx: AppContext;
  }
}


export type AppOptions = {
  config: Config;
  db: Db;
  storage: FileStorage;
  /** The maps adapter; the offline one by default. */
  maps?: MapsPort;
  /** Run the timers (job runner, event relay poll, position writes, silent-driver sweep); tests drive them by hand. */
  background?: boolean;
  now?: () => number;
  logger?: FastifyServerOptions['logger'];
};

/** Fastify's own client errors (bad JSON, wrong content type, body too large) are bad input. */
const clientStatus = (error: unknown): number | undefined => {
  if (typeof error !== 'object' || error === null || !('statusCode' in error)) return undefined;
  const status = error.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
};

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const now = options.now ?? Date.now;
  const app = Fastify({
    logger: options.logger ?? { level: options.config.LOG_LEVEL },
    // Licence images arrive as data URLs inside JSON.
    bodyLimit: 8 * 1024 * 1024,
    trustProxy: options.config.TRUST_PROXY,
  });

  // Every route must have a row in the route table: a route without one stops the server here.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      const access = accessFor(method, route.url);
      if (access === undefined) throw new Error(`route ${method} ${route.url} has no row in ROUTE_ACCESS`);
      route.schema = { ...describeAccess(route.url, access), ...route.schema };
    }
  });

  const live = await createLiveLayer({ config: options.config, db: options.db, now, onError: (error) => { app.log.error({ err: error }, 'live layer error'); } });
  const ctx: AppContext = { db: options.db, config: options.config, storage: options.storage, maps: options.maps ?? offlineMaps(), now, live };
  app.decorate('ctx', ctx);

  await app.register(fastifyHelmet, { global: true });
  await app.register(fastifyCookie);
  // Route schemas come from packages/contract and document the API. Requests are checked by the
  // services with the domain's validators, which answer the spec's error keys, so Fastify's own
  // schema validation is switched off rather than answering a generic error first.
  app.setValidatorCompiler(() => (data: unknown) => ({ value: data }));
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Rideway API', version: '0.1.0', description: 'Taxi and parcel-delivery platform. Errors: {"error": {"code", "message"}} with the spec key as code.' },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer' },
          cookieAuth: { type: 'apiKey', in: 'cookie', name: 'rideway_session' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await registerWebSocket(app);
  const sessions = sessionCache();
  registerActorHook(app, ctx, sessions);
  registerNulGuard(app);

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof AppError) {
      return reply
        .headers(error.headers)
        .status(ERROR_CATALOGUE[error.key].status)
        .send(errorBody(error.key, error.field === undefined ? {} : { field: error.field }));
    }
    const status = clientStatus(error);
    if (status !== undefined) return reply.status(status).send(errorBody(status === 404 ? 'not_found' : 'validation_error'));
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(errorBody('internal_error'));
  });
  await registerWebApp(app, async () => statusPage((await getSettings(ctx.db)).appName, Math.round(process.uptime())));

  app.get('/api/health', () => ({ status: 'ok' as const, uptime: Math.round(process.uptime()) }));
  app.get('/api/openapi.json', () => app.swagger());

  // A change that committed may have written events: they leave now rather than at the next poll.
  app.addHook('onResponse', (request, _reply, done) => {
    const quiet = (request.routeOptions.config as { writesEvents?: boolean }).writesEvents === false;
    if (request.method !== 'GET' && request.method !== 'HEAD' && !quiet) ctx.live.relay.kick();
    // A signed-out session leaves the cache of hot routes at once.
    if (request.routeOptions.url === '/api/auth/logout' && request.sessionToken) sessions.drop(request.sessionToken);
    done();
  });
  registerGateway(app, ctx);

  for (const routes of [pushRoutes, presenceRoutes, chatRoutes, trackingRoutes, authRoutes, userRoutes, settingsRoutes, carTypeRoutes, cancelReasonRoutes, promoRoutes, notificationRoutes, walletRoutes, withdrawRoutes, outboxRoutes, fileRoutes, compatRoutes, mapsRoutes, estimateRoutes, bookingRoutes, reportRoutes]) {
    routes(app, ctx);
  }
  await paymentRoutes(app, ctx);

  if (ctx.live.geo.kind === 'memory') await warmIndex(ctx);
  const timers = options.background === false ? [] : startBackground(ctx, jobHandlers(ctx), webPushSender(await vapidKeys(ctx)), (error) => { app.log.error({ err: error }, 'background work failed'); });
  app.addHook('onClose', async () => {
    for (const timer of timers) clearInterval(timer);
    await flushPositions(ctx);
    await ctx.live.close();
  });
  return app;
}
