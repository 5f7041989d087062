import { describe, expect, it } from 'vitest';
import { fallbackGeoIndex, type GeoUpstream } from './fallback';
import { memoryGeoIndex } from './memory';
import type { DriverPresence, GeoIndex, NearestQuery } from './port';

const london = { lat: 51.5074, lng: -0.1278 };
const north = (km: number) => ({ lat: london.lat + km / 111.195, lng: london.lng });
const presence = (uid: string, km: number, at: number, extra: Partial<DriverPresence> = {}): DriverPresence => ({
  uid,
  ...north(km),
  at,
  carType: 'Sedan',
  fleetadmin: null,
  name: uid,
  vehicleNumber: null,
  available: true,
  ...extra,
});
const query = { ...london, radiusKm: 10, carType: 'Sedan', limit: 10, freshSince: 0 };

/** Redis as a test drives it: an index that answers, or fails every call while `broken`. */
function redisStandIn() {
  const index = memoryGeoIndex();
  const state = { broken: false, calls: 0 };
  const guarded = <A extends unknown[], R>(call: (...args: A) => Promise<R>) => (...args: A): Promise<R> => {
    state.calls += 1;
    return state.broken ? Promise.reject(new Error('Connection is closed.')) : call(...args);
  };
  const primary: GeoIndex = {
    kind: 'redis',
    put: guarded((driver: DriverPresence) => index.put(driver)),
    move: guarded((uid: string, position: { lat: number; lng: number; at: number }) => index.move(uid, position)),
    remove: guarded((uid: string) => index.remove(uid)),
    get: guarded((uid: string) => index.get(uid)),
    nearest: guarded((wanted: NearestQuery) => index.nearest(wanted)),
    list: guarded((filter: { freshSince: number; fleetadmin?: string }) => index.list(filter)),
    staleSince: guarded((before: number) => index.staleSince(before)),
    size: guarded(() => index.size()),
    close: () => index.close(),
  };
  return { primary, index, state };
}

/** The Redis link as a test drives it (realtime/redis-link.ts): down at a failure, up when told. */
function linkStandIn() {
  let up = true;
  const handlers: ((up: boolean) => void)[] = [];
  const fallbacks = { geo_write: 0, geo_read: 0 };
  const set = (now: boolean) => {
    if (now === up) return;
    up = now;
    for (const handler of handlers) handler(now);
  };
  const upstream: GeoUpstream = {
    isUp: () => up,
    fellBack(operation, error) {
      fallbacks[operation] += 1;
      if (error !== undefined) set(false);
    },
    onChange(handler) {
      handlers.push(handler);
    },
  };
  return { upstream, fallbacks, set };
}

/** `stored`: every online driver at the position last written to the database. */
function setUp(stored: DriverPresence[] = []) {
  const redis = redisStandIn();
  const link = linkStandIn();
  const errors: unknown[] = [];
  const geo = fallbackGeoIndex({ primary: redis.primary, upstream: link.upstream, onError: (error) => errors.push(error) });
  const database = [presence('elsewhere', 2, 500), presence('here', 9, 400), ...stored];
  let seeded = 0;
  geo.seedWith(async (into) => {
    seeded += 1;
    for (const row of database) await into.put(row);
  });
  return { geo, redis, link, errors, database, seeded: () => seeded };
}

describe('the driver index when Redis is lost (issue 23 point 4)', () => {
  it('serves from Redis while it answers, and keeps nothing of its own', async () => {
    const { geo, redis, link, seeded } = setUp();
    await geo.put(presence('here', 1, 1000));
    expect((await redis.index.get('here'))?.lat).toBeCloseTo(north(1).lat);
    expect((await geo.nearest(query)).map((driver) => driver.uid)).toEqual(['here']);
    expect([geo.isFallingBack(), seeded(), link.fallbacks]).toEqual([false, 0, { geo_write: 0, geo_read: 0 }]);
  });

  it('answers from its own index, filled from the database, once a call to Redis fails; a report here wins over the database', async () => {
    const { geo, redis, link, seeded } = setUp();
    await geo.put(presence('here', 1, 1000));
    redis.state.broken = true;

    // The report that finds Redis gone is not lost: the own index has it.
    expect(await geo.move('here', { ...north(0.5), at: 2000 })).toMatchObject({ uid: 'here', at: 2000 });
    expect([geo.isFallingBack(), link.upstream.isUp(), seeded()]).toEqual([true, false, 1]);
    // Book-now: the driver who reported here, and the one the database knows of.
    expect((await geo.nearest(query)).map((driver) => driver.uid)).toEqual(['here', 'elsewhere']);
    expect((await geo.get('here'))?.at).toBe(2000);

    // While Redis is known to be down it is not even asked.
    const asked = redis.state.calls;
    await geo.nearest(query);
    await geo.move('elsewhere', { ...north(3), at: 2100 });
    expect(redis.state.calls).toBe(asked);
    expect(link.fallbacks.geo_read).toBeGreaterThanOrEqual(2);
    expect(link.fallbacks.geo_write).toBeGreaterThanOrEqual(2);
  });

  it("writes back what changed here when Redis returns, unless another process's news is newer, then lets Redis serve again", async () => {
    const before = [presence('moved', 1, 1000), presence('busy', 2, 1000), presence('gone', 3, 1000), presence('newer-there', 4, 1000)];
    const { geo, redis, link } = setUp(before);
    for (const driver of before) await geo.put(driver);
    redis.state.broken = true;
    link.set(false);

    await geo.move('moved', { ...north(0.2), at: 2000 });
    await geo.put(presence('busy', 2, 1000, { available: false }));
    await geo.remove('gone');
    await geo.move('newer-there', { ...north(5), at: 2000 });
    // Meanwhile another process, whose Redis was fine, heard from this driver later.
    await redis.index.put(presence('newer-there', 6, 3000));

    redis.state.broken = false;
    link.set(true);
    await geo.recovered();
    expect(geo.isFallingBack()).toBe(false);
    expect(await redis.index.get('moved')).toMatchObject({ at: 2000, lat: north(0.2).lat });
    expect((await redis.index.get('busy'))?.available).toBe(false);
    expect(await redis.index.get('gone')).toBeUndefined();
    expect(await redis.index.get('newer-there')).toMatchObject({ at: 3000, lat: north(6).lat });
    // The database's drivers, never reported here, are not written to Redis.
    expect(await redis.index.get('elsewhere')).toBeUndefined();
    // Redis answers again: a driver it does not hold is not found in the old own index.
    expect((await geo.nearest(query)).map((driver) => driver.uid)).toEqual(['moved', 'newer-there']);
  });

  it('stays on its own index if Redis drops again while it writes back, and finishes the next time', async () => {
    const { geo, redis, link } = setUp();
    redis.state.broken = true;
    link.set(false);
    await geo.put(presence('a', 1, 2000));
    await geo.put(presence('b', 1.5, 2000));

    // Up for the link, but the write-back fails: still served here, nothing forgotten.
    link.set(true);
    await geo.recovered();
    expect([geo.isFallingBack(), link.upstream.isUp()]).toEqual([true, false]);
    expect((await geo.nearest(query)).map((driver) => driver.uid)).toEqual(['a', 'b', 'elsewhere', 'here']);

    redis.state.broken = false;
    link.set(true);
    await geo.recovered();
    expect(geo.isFallingBack()).toBe(false);
    expect((await geo.nearest(query)).map((driver) => driver.uid)).toEqual(['a', 'b']);
  });
});
