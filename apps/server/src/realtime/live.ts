import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { fallbackGeoIndex, type GeoSeed } from '../providers/geo/fallback';
import { memoryGeoIndex } from '../providers/geo/memory';
import type { GeoIndex } from '../providers/geo/port';
import { redisGeoIndex } from '../providers/geo/redis';
import { memoryBus, redisBus, type EventBus } from './bus';
import { catchingUpBus } from './catch-up';
import { closeRedis } from '../providers/close-redis';
import { isConnectionError, REDIS_CLIENT_OPTIONS, redisLink, type FallbackOperation } from './redis-link';
import { eventRelay, type EventRelay } from './relay';

/** Redis as this process sees it, read at a metrics scrape (issue 23 point 4). */
export type RedisStatus = {
  /** The connection answers and the bus's subscription is in place. */
  up: boolean;
  /** Operations served by this process's own means while Redis was out of reach, by operation. */
  fallbacks: ReadonlyMap<FallbackOperation, number>;
  /** Events delivered from the database's cursor rather than from Redis. */
  replayed: number;
};

/** The ports of the live layer: in-process by default, Redis when REDIS_URL is set (issue 5). */
export type LiveLayer = {
  geo: GeoIndex;
  bus: EventBus;
  relay: EventRelay;
  /** Positions reported since the last write to the users table (written behind, in batches). */
  pendingPositions: Map<string, { lat: number; lng: number; at: number }>;
  /** Redis's state for the metrics; undefined without REDIS_URL. */
  redisStatus?: () => RedisStatus;
  /**
   * What fills this process's own driver index from the database when Redis is lost (the app
   * passes the presence module's warm-up); a no-op without Redis, whose index is always its own.
   */
  seedFallbackWith(seed: GeoSeed): void;
  close(): Promise<void>;
};

type LiveLog = Pick<FastifyBaseLogger, 'warn' | 'info'>;

export async function createLiveLayer(options: { config: Config; db: Db; now: () => number; onError: (error: unknown) => void; log?: LiveLog }): Promise<LiveLayer> {
  const { config, db, now, onError } = options;
  if (!config.REDIS_URL) {
    const bus = memoryBus();
    const geo = memoryGeoIndex();
    const relay = eventRelay(db, bus, now, onError);
    return {
      geo,
      bus,
      relay,
      pendingPositions: new Map(),
      seedFallbackWith() {},
      async close() {
        await relay.drain();
        await bus.close();
        await geo.close();
      },
    };
  }
  // Loaded only with REDIS_URL: a single process never holds the client (issue 21 point 4).
  const { Redis: Client } = await import('ioredis');
  const redis: Redis = new Client(config.REDIS_URL, REDIS_CLIENT_OPTIONS);
  const link = redisLink(redis);
  // A lost connection is a state (logged once below, at each change), not an error per reconnect attempt.
  const quiet = (error: unknown) => {
    if (!isConnectionError(error)) onError(error);
  };
  redis.on('error', quiet);
  // Out of reach at start: the process starts on its own index and the database, as when Redis
  // is lost later, and the client keeps trying (issue 23 point 4); the link tells when it answers.
  let cause: unknown;
  await redis.connect().catch((error: unknown) => {
    cause = error;
    quiet(error);
  });
  const inner = await redisBus(redis, config.REDIS_PREFIX, quiet);
  const geo = fallbackGeoIndex({ primary: redisGeoIndex(redis, config.REDIS_PREFIX), upstream: link, onError });
  const bus = await catchingUpBus(inner, { db, upstream: link, onError });
  const relay = eventRelay(db, bus, now, onError);

  // One line per change of state, never one per request (issue 23 point 4).
  const isUp = () => link.isUp() && bus.healthy();
  // Up unless shown otherwise: a Redis out of reach at start is reported at once, below.
  let wasUp = true;
  const report = () => {
    const up = isUp();
    if (up === wasUp) return;
    wasUp = up;
    if (up) options.log?.info({ redis: 'up' }, 'Redis reachable again: the shared driver index and the events between processes are back; missed events are read from the database');
    else
      options.log?.warn(
        { redis: 'down', ...(cause instanceof Error ? { err: cause } : { reason: typeof cause === 'string' ? cause : 'subscription lost' }) },
        "Redis unreachable: driver positions and dispatch use this process's own index and the database, and events reach the other processes from the database",
      );
  };
  link.onChange((_up, why) => {
    cause = why;
    report();
  });
  bus.onHealthChange(report);
  if (cause !== undefined) report();

  return {
    geo,
    bus,
    relay,
    pendingPositions: new Map(),
    redisStatus: () => ({ up: isUp(), fallbacks: link.fallbacks(), replayed: bus.replayed() }),
    seedFallbackWith(seed) {
      geo.seedWith(seed);
    },
    async close() {
      await relay.drain();
      await bus.close();
      await geo.close();
      link.close();
      await closeRedis(redis);
    },
  };
}
