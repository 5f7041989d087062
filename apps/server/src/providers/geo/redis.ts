import type { Redis } from 'ioredis';
import type { DriverPresence, GeoIndex, NearestDriver } from './port';

const FIELDS = ['lat', 'lng', 'at', 'carType', 'fleetadmin', 'name', 'vehicleNumber', 'available'] as const;

function decode(uid: string, values: (string | null)[]): DriverPresence | undefined {
  const [lat, lng, at, carType, fleetadmin, name, vehicleNumber, available] = values;
  if (lat == null || lng == null || at == null) return undefined;
  return {
    uid,
    lat: Number(lat),
    lng: Number(lng),
    at: Number(at),
    carType: carType || null,
    fleetadmin: fleetadmin || null,
    name: name ?? '',
    vehicleNumber: vehicleNumber || null,
    available: available === '1',
  };
}

/**
 * The index in Redis, shared by every server process: a GEO set per car type holds the available
 * drivers (GEOSEARCH answers nearest first), a hash per driver its presence, and a sorted set
 * by last report the online drivers.
 */
export function redisGeoIndex(redis: Redis, prefix: string): GeoIndex {
  const driverKey = (uid: string) => `${prefix}:driver:${uid}`;
  const availableKey = (carType: string) => `${prefix}:geo:${carType}`;
  const onlineKey = `${prefix}:online`;

  const read = async (uid: string) => decode(uid, await redis.hmget(driverKey(uid), ...FIELDS));

  const write = async (presence: DriverPresence, previousCarType: string | null | undefined) => {
    const multi = redis.multi();
    multi.hset(driverKey(presence.uid), {
      lat: presence.lat,
      lng: presence.lng,
      at: presence.at,
      carType: presence.carType ?? '',
      fleetadmin: presence.fleetadmin ?? '',
      name: presence.name,
      vehicleNumber: presence.vehicleNumber ?? '',
      available: presence.available ? '1' : '0',
    });
    multi.zadd(onlineKey, presence.at, presence.uid);
    if (previousCarType && previousCarType !== presence.carType) multi.zrem(availableKey(previousCarType), presence.uid);
    if (presence.carType) {
      if (presence.available) multi.geoadd(availableKey(presence.carType), presence.lng, presence.lat, presence.uid);
      else multi.zrem(availableKey(presence.carType), presence.uid);
    }
    await multi.exec();
  };

  return {
    kind: 'redis',
    async put(presence) {
      await write(presence, (await redis.hget(driverKey(presence.uid), 'carType')) ?? undefined);
    },
    async move(uid, position) {
      const current = await read(uid);
      if (!current) return undefined;
      const presence = { ...current, ...position };
      await write(presence, current.carType);
      return presence;
    },
    async remove(uid) {
      const carType = await redis.hget(driverKey(uid), 'carType');
      const multi = redis.multi().del(driverKey(uid)).zrem(onlineKey, uid);
      if (carType) multi.zrem(availableKey(carType), uid);
      await multi.exec();
    },
    get: read,
    async nearest(query) {
      if (query.limit <= 0) return [];
      // Ask for a few more than needed to make up for stale and excluded drivers; widen if short.
      let count = query.limit + (query.exclude?.size ?? 0) + 8;
      for (;;) {
        const raw = (await redis.geosearch(availableKey(query.carType), 'FROMLONLAT', query.lng, query.lat, 'BYRADIUS', query.radiusKm, 'km', 'ASC', 'COUNT', count, 'WITHDIST', 'WITHCOORD')) as [string, string, [string, string]][];
        const candidates = raw.filter(([uid]) => !query.exclude?.has(uid));
        const seen = candidates.length > 0 ? await redis.zmscore(onlineKey, ...candidates.map(([uid]) => uid)) : [];
        const found: NearestDriver[] = [];
        candidates.forEach(([uid, distance, [lng, lat]], index) => {
          const at = seen[index];
          if (at != null && Number(at) >= query.freshSince && found.length < query.limit) found.push({ uid, distanceKm: Number(distance), lat: Number(lat), lng: Number(lng) });
        });
        if (found.length >= query.limit || raw.length < count) return found;
        count *= 4;
      }
    },
    async list({ freshSince, fleetadmin }) {
      const uids = await redis.zrangebyscore(onlineKey, freshSince, '+inf');
      if (uids.length === 0) return [];
      const pipeline = redis.pipeline();
      for (const uid of uids) pipeline.hmget(driverKey(uid), ...FIELDS);
      const results = (await pipeline.exec()) ?? [];
      const listed: DriverPresence[] = [];
      results.forEach(([error, values], index) => {
        const uid = uids[index];
        const presence = !error && uid ? decode(uid, values as (string | null)[]) : undefined;
        if (presence && (fleetadmin === undefined || presence.fleetadmin === fleetadmin)) listed.push(presence);
      });
      return listed;
    },
    staleSince(before) {
      return redis.zrangebyscore(onlineKey, '-inf', `(${String(before)}`);
    },
    size() {
      return redis.zcard(onlineKey);
    },
    async close() {
      // The connection belongs to the caller.
    },
  };
}
