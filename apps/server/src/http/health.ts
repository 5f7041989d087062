import { getHeapStatistics } from 'node:v8';
import fastifyUnderPressure from '@fastify/under-pressure';
import { errorBody, healthResponse, readinessResponse, type Readiness } from '@rideway/contract';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { AppContext } from '../context';
import { checkDatabase } from '../db/availability';
import type { RouteApp } from './routing';

/** Seconds a client waits before asking again after a 503 (load shed, database out of reach). */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

/**
 * Never shed: liveness answers while the process runs, however loaded (an orchestrator restarts
 * a process whose liveness fails), and the metrics are what tells the operator why it is loaded.
 */
const NEVER_SHED = new Set(['/api/health', '/api/health/live', '/metrics']);
const READINESS_PATH = '/api/health/ready';

const MB = 1024 * 1024;

/** The heap limit past which requests are shed: the operator's, or 90% of what V8 may use. */
function maxHeapUsedBytes(config: Pick<Config, 'PRESSURE_MAX_HEAP_USED_MB'>): number {
  if (config.PRESSURE_MAX_HEAP_USED_MB !== undefined) return config.PRESSURE_MAX_HEAP_USED_MB * MB;
  return Math.floor(getHeapStatistics().heap_size_limit * 0.9);
}

/**
 * Load shedding (issue 23 point 1): while the event loop lags or memory is near its limit, a
 * request is answered at once with 503 service_unavailable and Retry-After instead of waiting
 * in a queue that only grows. Liveness and readiness are never shed: readiness reports the
 * shedding itself, so a load balancer sends the traffic elsewhere. Registered before the routes
 * so its onRequest hook runs first.
 */
export async function registerLoadShedding(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(fastifyUnderPressure, {
    maxEventLoopDelay: config.PRESSURE_MAX_EVENT_LOOP_DELAY_MS ?? (config.DATABASE_URL ? 1000 : 0),
    maxHeapUsedBytes: maxHeapUsedBytes(config),
    maxRssBytes: config.PRESSURE_MAX_RSS_MB * MB,
    maxEventLoopUtilization: config.PRESSURE_MAX_EVENT_LOOP_UTILIZATION,
    // Nothing returned: the request goes on. Answered here: Fastify runs nothing more for it
    // (a sent reply ends the onRequest chain).
    pressureHandler: (request, reply, type, value) => {
      const path = request.url.split('?')[0] ?? '';
      if (NEVER_SHED.has(path) || path === READINESS_PATH) return;
      request.log.warn({ type, value }, 'shedding load');
      void reply.status(503).header('retry-after', String(UNAVAILABLE_RETRY_AFTER_S)).send(errorBody('service_unavailable'));
    },
  });
}

/** GET /api/health/ready's answer: the database and its migrations, Redis, and the load. */
async function readiness(app: FastifyInstance, ctx: AppContext): Promise<{ ready: boolean; body: Readiness }> {
  const database = await checkDatabase(ctx.db, ctx.config.HEALTH_TIMEOUT_MS);
  const redis = ctx.config.REDIS_URL ? (ctx.live.bus.healthy() ? 'ok' : 'down') : 'not_configured';
  const load = app.isUnderPressure() ? 'shedding' : 'ok';
  const ready = database.database === 'ok' && database.migrations === 'ok' && load === 'ok';
  const status = !ready ? 'unavailable' : redis === 'down' ? 'degraded' : 'ok';
  return { ready, body: { status, uptime: Math.round(process.uptime()), checks: { ...database, redis, load } } };
}

/**
 * Issue 23 point 1: liveness (`/api/health/live`, and `/api/health` as before) says the process
 * runs; readiness (`/api/health/ready`) says whether it should be sent traffic.
 */
export function healthRoutes(app: RouteApp, ctx: AppContext): void {
  const live = () => ({ status: 'ok' as const, uptime: Math.round(process.uptime()) });
  app.get('/api/health', { config: { access: 'public' }, schema: { summary: 'Liveness (the same as /api/health/live)', response: { 200: healthResponse } } }, live);
  app.get('/api/health/live', { config: { access: 'public' }, schema: { summary: 'Liveness: the process runs', response: { 200: healthResponse } } }, live);
  app.get(READINESS_PATH, {
    config: { access: 'public' },
    schema: { summary: 'Readiness: the database answers with every migration applied, and the process is not shedding load', response: { 200: readinessResponse, 503: readinessResponse } },
  }, async (_request, reply) => {
    const { ready, body } = await readiness(app, ctx);
    if (!ready) void reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_S));
    return reply.status(ready ? 200 : 503).send(body);
  });
}
