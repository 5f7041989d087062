import type { Redis } from 'ioredis';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { memoryGeoIndex } from '../providers/geo/memory';
import type { GeoIndex } from '../providers/geo/port';
import { redisGeoIndex } from '../providers/geo/redis';
import { memoryBus, redisBus, type EventBus } from './bus';
import { closeRedis } from '../providers/close-redis';
import { eventRelay, type EventRelay } from './relay';

/** The ports of the live layer: in-process by default, Redis when REDIS_URL is set (issue 5). */
export type LiveLayer = {
  geo: GeoIndex;
  bus: EventBus;
  relay: EventRelay;
  /** Positions reported since the last write to the users table (written behind, in batches). */
  pendingPositions: Map<string, { lat: number; lng: number; at: number }>;
  close(): Promise<void>;
};

export async function createLiveLayer(options: { config: Config; db: Db; now: () => number; onError: (error: unknown) => void }): Promise<LiveLayer> {
  const { config, db, now, onError } = options;
  let redis: Redis | undefined;
  let geo: GeoIndex;
  let bus: EventBus;
  if (config.REDIS_URL) {
    // Loaded only with REDIS_URL: a single process never holds the client (issue 21 point 4).
    const { Redis: Client } = await import('ioredis');
    redis = new Client(config.REDIS_URL, { maxRetriesPerRequest: 3, lazyConnect: true });
    redis.on('error', onError);
    await redis.connect();
    geo = redisGeoIndex(redis, config.REDIS_PREFIX);
    bus = await redisBus(redis, config.REDIS_PREFIX, onError);
  } else {
    geo = memoryGeoIndex();
    bus = memoryBus();
  }
  const relay = eventRelay(db, bus, now, onError);
  return {
    geo,
    bus,
    relay,
    pendingPositions: new Map(),
    async close() {
      await relay.drain();
      await bus.close();
      await geo.close();
      if (redis) await closeRedis(redis);
    },
  };
}
