/**
 * Security-critical: applies the HTTP limits of rate-limits.ts with @fastify/rate-limit, on its
 * Redis store when REDIS_URL is set (every process shares the counts), in memory otherwise.
 *
 * - The write floor counts every POST, PUT, PATCH and DELETE before its body is read: per user
 *   for a signed-in caller, per address for anyone else.
 * - A named limit is looked at before the body is read (refused at once when already over) and
 *   counted once the request passed its schema, just before the handler: what it counts is work
 *   (a row, a file, a mail), and malformed input is the schema's to refuse, not a count's.
 *
 * Over a limit: 429 too_many_requests with Retry-After, and the handler never runs, so nothing
 * is stored. If Redis is lost the limits are skipped rather than every request failing.
 */
import fastifyRateLimit, { normalizeIP, type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { closeRedis } from '../providers/close-redis';
import type { Config } from '../config';
import { AppError } from './app-error';
import { allowanceOf, anyProviderRoute, limitsByRoute, limitsInForce, RATE_LIMITS, type Allowance, type LimitName, type Limits } from './rate-limits';

/** The WebSocket's own limits (realtime/socket-limits.ts). */
export type SocketAllowances = { messages: Allowance; refusals: Allowance; openPerUser: number };

export type RateLimiter = {
  /** Counts a request (or a WebSocket message, with its upgrade request) against a named limit; throws too_many_requests over it. */
  count(name: LimitName, request: FastifyRequest): Promise<void>;
  /** The WebSocket's limits; null when RATE_LIMITS=off. */
  sockets: SocketAllowances | null;
};

declare module 'fastify' {
  interface FastifyInstance {
    rateLimits: RateLimiter;
  }
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Counters each in-memory limiter keeps (least recently used out), when there is no Redis. */
const LOCAL_KEYS = 20_000;
/** How long a rate-limit command may wait for Redis before the limit is skipped. */
const REDIS_TIMEOUT_MS = 1000;

type Scoped = 'user' | 'address';
type Check = ReturnType<FastifyInstance['createRateLimit']>;
type Outcome = Awaited<ReturnType<Check>>;

const isOver = (outcome: Outcome): outcome is Extract<Outcome, { isAllowed: false }> => !outcome.isAllowed && outcome.isExceeded;

/** The key of a count: the limit, the scope and whose it is (the uid, or the address by its IPv6 /64). */
const keyOf = (name: LimitName, scope: Scoped, request: FastifyRequest): string =>
  `${name}:${scope}:${scope === 'user' ? (request.actor?.uid ?? '') : normalizeIP(request.ip, 64)}`;

const refusal = (outcomes: Outcome[]): AppError | undefined => {
  const over = outcomes.filter(isOver);
  if (over.length === 0) return undefined;
  const wait = Math.max(1, ...over.map((outcome) => outcome.ttlInSeconds));
  return new AppError('too_many_requests', undefined, { 'retry-after': String(wait) });
};

/** How often the store's reachability is checked while it is connected. */
const PROBE_MS = 1000;

/**
 * The shared store, and whether it answers now. While it does not (closed, reconnecting, or open
 * but silent) the limits are skipped at once rather than each check waiting out its timeout: a
 * silent Redis otherwise added a second per check, about three to a write request (issue 23
 * point 4). One log line per change of state, not one per reconnection attempt.
 */
async function connectStore(url: string, log: FastifyBaseLogger): Promise<{ redis: Redis; reachable: () => boolean; stop: () => void }> {
  // No queue while disconnected and a short timeout: a lost Redis skips the limits at once
  // instead of holding every request.
  // Loaded only with REDIS_URL: a single process never holds the client (issue 21 point 4).
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: REDIS_TIMEOUT_MS });
  let reachable = true;
  const mark = (now: boolean) => {
    if (now === reachable) return;
    reachable = now;
    if (now) log.info('rate limit store reachable again: limits apply');
    else log.warn('rate limit store unreachable: limits are skipped until Redis is back');
  };
  // The client's own errors are the reconnection attempts: the state change above says it once.
  redis.on('error', () => undefined);
  for (const event of ['close', 'end', 'reconnecting']) redis.on(event, () => { mark(false); });
  const probe = () => {
    if (redis.status !== 'ready') return;
    redis.ping().then(() => { mark(true); }, () => { mark(false); });
  };
  redis.on('ready', probe);
  // Out of reach at start: the limits are skipped until it answers, as when it is lost later.
  await redis.connect().catch(() => { mark(false); });
  const timer = setInterval(probe, PROBE_MS);
  timer.unref();
  return { redis, reachable: () => reachable, stop: () => { clearInterval(timer); } };
}

/** Registers the limits (or, with RATE_LIMITS=off, warns that there are none) and decorates `app.rateLimits`. */
export async function registerRateLimits(app: FastifyInstance, config: Config): Promise<void> {
  if (config.RATE_LIMITS === 'off') {
    app.log.warn('RATE_LIMITS=off: no rate limit applies to any request or WebSocket. For load tests and benchmarks only; never set it in production.');
    app.decorate('rateLimits', { count: () => Promise.resolve(), sockets: null });
    return;
  }
  const limits = limitsInForce(config.RATE_LIMIT_OVERRIDES);
  const store = config.REDIS_URL ? await connectStore(config.REDIS_URL, app.log) : undefined;
  if (store) {
    app.addHook('onClose', async () => {
      store.stop();
      await closeRedis(store.redis);
    });
  }
  await app.register(fastifyRateLimit, {
    global: false,
    skipOnError: true,
    ...(store ? { redis: store.redis, nameSpace: `${config.REDIS_PREFIX}:rate-limit:` } : {}),
  });
  /** The shared counts cannot be read now: skipped, as a failed check would be, without waiting for it. */
  const skipped = () => store !== undefined && !store.reachable();

  const checks = countersOf(app, limits);
  const run = async (name: LimitName, request: FastifyRequest, increment: boolean) => {
    if (skipped()) return;
    const scoped = checks.get(name) ?? [];
    const due = scoped.filter(({ scope }) => scope === 'address' || request.actor !== null);
    const error = refusal(await Promise.all(due.map(({ check }) => check(request, { increment }))));
    if (error) throw error;
  };
  const floor = (scope: Scoped) => checks.get('write')?.find((counter) => counter.scope === scope)?.check;
  const [floorForUsers, floorForOthers] = [floor('user'), floor('address')];
  const byRoute = limitsByRoute(limits);
  const routeLimit = (request: FastifyRequest) => {
    if (request.routeOptions.url === undefined) return undefined;
    // Fastify answers HEAD on every GET route: it counts as the GET, or it would be a way round the limit.
    const route = `${request.method === 'HEAD' ? 'GET' : request.method} ${request.routeOptions.url}`;
    return byRoute.get(route) ?? byRoute.get(anyProviderRoute(route));
  };

  app.addHook('preParsing', async (request) => {
    if (request.routeOptions.url === undefined) return;
    const name = routeLimit(request);
    if (UNSAFE_METHODS.has(request.method) && !(name && limits[name].replacesFloor) && !skipped()) {
      const check = request.actor ? floorForUsers : floorForOthers;
      const error = check ? refusal([await check(request)]) : undefined;
      if (error) throw error;
    }
    if (name) await run(name, request, false);
  });
  app.addHook('preHandler', async (request) => {
    const name = routeLimit(request);
    if (name) await run(name, request, true);
  });
  // A route renamed in its module must not silently lose its limit.
  app.addHook('onReady', (done) => {
    const missing = [...byRoute.keys()].filter((route) => !route.includes('/*/') && !app.routeAccess.has(route));
    done(missing.length > 0 ? new Error(`rate limits name routes that do not exist: ${missing.join(', ')}`) : undefined);
  });

  app.decorate('rateLimits', {
    count: (name: LimitName, request: FastifyRequest) => run(name, request, true),
    sockets: { messages: limits['socket-messages'].socket, refusals: limits['socket-refusals'].socket, openPerUser: limits['open-sockets'].user.max },
  });
}

/** One limiter of the plugin per limit and scope counted over HTTP (the socket limits count in the gateway). */
function countersOf(app: FastifyInstance, limits: Limits): Map<LimitName, { scope: Scoped; check: Check }[]> {
  const checks = new Map<LimitName, { scope: Scoped; check: Check }[]>();
  for (const name of Object.keys(RATE_LIMITS) as LimitName[]) {
    for (const scope of ['user', 'address'] as const) {
      const allowance = allowanceOf(limits, name, scope);
      if (!allowance || allowance.windowMs === 0) continue;
      const options: RateLimitOptions = { max: allowance.max, timeWindow: allowance.windowMs, keyGenerator: (request) => keyOf(name, scope, request), cache: LOCAL_KEYS };
      checks.set(name, [...(checks.get(name) ?? []), { scope, check: app.createRateLimit(options) }]);
    }
  }
  return checks;
}
