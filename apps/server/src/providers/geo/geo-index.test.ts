import { randomUUID } from 'node:crypto';
import { driversWithinRadius, greatCircleKm } from '@rideway/domain';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryGeoIndex } from './memory';
import { beyondMeridianKm } from './nearest-search';
import { OverlayGrid } from './overlay-grid';
import type { DriverPresence, GeoIndex } from './port';
import { redisGeoIndex } from './redis';

const REDIS_URL = process.env.REDIS_URL;
const redis = REDIS_URL ? new Redis(REDIS_URL) : undefined;
const prefix = `test-geo-${randomUUID().slice(0, 8)}`;

const factories: [string, () => GeoIndex][] = [['memory', memoryGeoIndex]];
if (redis) factories.push(['redis', () => redisGeoIndex(redis, `${prefix}-${randomUUID().slice(0, 6)}`)]);

afterAll(async () => {
  if (!redis) return;
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

const london = { lat: 51.5074, lng: -0.1278 };
const presence = (uid: string, at: { lat: number; lng: number }, extra: Partial<DriverPresence> = {}): DriverPresence => ({
  uid,
  ...at,
  at: 1000,
  carType: 'Sedan',
  fleetadmin: null,
  name: uid,
  vehicleNumber: null,
  available: true,
  ...extra,
});
const north = (km: number) => ({ lat: london.lat + km / 111.195, lng: london.lng });
const query = { ...london, radiusKm: 10, carType: 'Sedan', limit: 10, freshSince: 0 };

describe.each(factories)('the %s driver index (issue 5)', (_name, make) => {
  let index: GeoIndex;
  beforeAll(() => {
    index = make();
  });

  it('finds available drivers of the car type within the radius, nearest first', async () => {
    await index.put(presence('far', north(9)));
    await index.put(presence('near', north(1)));
    await index.put(presence('out', north(11)));
    await index.put(presence('van', north(2), { carType: 'Van' }));
    await index.put(presence('busy', north(3), { available: false }));
    const found = await index.nearest(query);
    expect(found.map((d) => d.uid)).toEqual(['near', 'far']);
    expect(found[0]?.distanceKm).toBeCloseTo(1, 1);
  });

  it('moves a driver, skips stale and excluded ones, and stops at the limit', async () => {
    await index.move('far', { lat: north(0.5).lat, lng: london.lng, at: 2000 });
    expect((await index.nearest(query)).map((d) => d.uid)).toEqual(['far', 'near']);
    expect((await index.nearest({ ...query, freshSince: 1500 })).map((d) => d.uid)).toEqual(['far']);
    expect((await index.nearest({ ...query, exclude: new Set(['far']) })).map((d) => d.uid)).toEqual(['near']);
    expect((await index.nearest({ ...query, limit: 1 })).map((d) => d.uid)).toEqual(['far']);
    expect(await index.move('nobody', { lat: 0, lng: 0, at: 1 })).toBeUndefined();
    expect(await index.get('nobody')).toBeUndefined();
  });

  it('follows a change of availability and car type, lists online drivers and the silent ones', async () => {
    await index.put(presence('near', north(1), { available: false }));
    expect((await index.nearest(query)).map((d) => d.uid)).toEqual(['far']);
    await index.put(presence('near', north(1), { carType: 'Van', fleetadmin: 'f1', at: 3000 }));
    expect((await index.nearest(query)).map((d) => d.uid)).toEqual(['far']);
    expect((await index.nearest({ ...query, carType: 'Van' })).map((d) => d.uid)).toEqual(['near', 'van']);
    expect((await index.list({ freshSince: 0, fleetadmin: 'f1' })).map((d) => d.uid)).toEqual(['near']);
    expect((await index.list({ freshSince: 2500 })).map((d) => d.uid)).toEqual(['near']);
    expect((await index.staleSince(1500)).sort()).toEqual(['busy', 'out', 'van']);
    await index.remove('near');
    expect(await index.get('near')).toBeUndefined();
    expect((await index.nearest({ ...query, carType: 'Van' })).map((d) => d.uid)).toEqual(['van']);
  });
});

describe('the in-process index agrees with the domain rule it replaces', () => {
  it('answers exactly what a brute-force scan answers (fast-check, 200 worlds)', async () => {
    const point = fc.record({ lat: fc.double({ min: -60, max: 60, noNaN: true }), lng: fc.double({ min: -179.9, max: 179.9, noNaN: true }) });
    await fc.assert(
      fc.asyncProperty(
        point,
        fc.array(fc.tuple(fc.double({ min: -0.5, max: 0.5, noNaN: true }), fc.double({ min: -0.5, max: 0.5, noNaN: true }), fc.boolean(), fc.constantFrom('Sedan', 'Van')), { maxLength: 120 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 8 }),
        async (center, offsets, radiusKm, limit) => {
          const index = memoryGeoIndex();
          const drivers = offsets.map(([dLat, dLng, available, carType], i) => ({
            uid: `d${String(i)}`,
            usertype: 'driver',
            approved: true,
            queue: !available,
            driverActiveStatus: true,
            carType,
            location: { lat: center.lat + dLat, lng: Math.max(-180, Math.min(180, center.lng + dLng)) },
          }));
          for (const d of drivers) await index.put(presence(d.uid, d.location, { available: !d.queue, carType: d.carType }));
          const found = await index.nearest({ ...center, radiusKm, carType: 'Sedan', limit, freshSince: 0 });
          const brute = driversWithinRadius(drivers, { pickup: center, driverRadius: radiusKm, convertToMile: false, carType: 'Sedan' }).slice(0, limit);
          expect(found.map((d) => d.distanceKm)).toEqual(brute.map((d) => d.distance));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('still agrees after thousands of moves, across the repacking of its trees', async () => {
    const index = memoryGeoIndex();
    const next = (() => {
      let seed = 7;
      return () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    })();
    const drivers = Array.from({ length: 3000 }, (_, i) => ({ uid: `d${String(i)}`, usertype: 'driver', approved: true, queue: false, driverActiveStatus: true, carType: 'Sedan', location: { lat: 51.3 + next() * 0.4, lng: -0.4 + next() * 0.5 } }));
    for (const d of drivers) await index.put(presence(d.uid, d.location));
    for (let round = 0; round < 3; round += 1) {
      for (const d of drivers) {
        d.location = { lat: d.location.lat + (next() - 0.5) / 100, lng: d.location.lng + (next() - 0.5) / 100 };
        await index.move(d.uid, { ...d.location, at: 1000 });
      }
    }
    for (let q = 0; q < 50; q += 1) {
      const center = { lat: 51.3 + next() * 0.4, lng: -0.4 + next() * 0.5 };
      const found = await index.nearest({ ...center, radiusKm: 5, carType: 'Sedan', limit: 5, freshSince: 0 });
      const brute = driversWithinRadius(drivers, { pickup: center, driverRadius: 5, convertToMile: false, carType: 'Sedan' }).slice(0, 5);
      expect(found.map((d) => d.distanceKm)).toEqual(brute.map((d) => d.distance));
    }
  });

  it('never overestimates the distance beyond a meridian (the kd-tree walk prunes on it)', () => {
    fc.assert(
      fc.property(
        fc.record({ lat: fc.double({ min: -85, max: 85, noNaN: true }), lng: fc.double({ min: -180, max: 180, noNaN: true }) }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: -89, max: 89, noNaN: true }),
        (point, meridian, u, lat) => {
          const eastward = point.lng < meridian;
          // Anywhere on the far side: east of the meridian up to 180, or west of it down to -180.
          const beyond = { lat, lng: eastward ? meridian + (180 - meridian) * u : meridian - (meridian + 180) * u };
          const bound = beyondMeridianKm(point.lng, Math.cos((point.lat * Math.PI) / 180), meridian, eastward);
          expect(bound).toBeLessThanOrEqual(greatCircleKm(point, beyond) + 1e-6);
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('visits every overlay driver within the radius, near the poles and across the antimeridian too', () => {
    fc.assert(
      fc.property(
        fc.record({ lat: fc.double({ min: -89.9, max: 89.9, noNaN: true }), lng: fc.double({ min: -180, max: 180, noNaN: true }) }),
        fc.array(fc.record({ lat: fc.double({ min: -89.9, max: 89.9, noNaN: true }), lng: fc.double({ min: -180, max: 180, noNaN: true }) }), { maxLength: 60 }),
        fc.array(fc.tuple(fc.double({ min: -0.3, max: 0.3, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true })), { maxLength: 60 }),
        fc.double({ min: 0.01, max: 40, noNaN: true }),
        (point, anywhere, nearby, radiusKm) => {
          const grid = new OverlayGrid();
          const wrapLng = (lng: number) => ((((lng + 180) % 360) + 360) % 360) - 180;
          const points = [...anywhere, ...nearby.map(([dLat, dLng]) => ({ lat: Math.max(-90, Math.min(90, point.lat + dLat)), lng: wrapLng(point.lng + dLng) }))];
          points.forEach((at, i) => grid.insert(String(i), at.lat, at.lng, 0));
          const visited = new Set<string>();
          grid.near(point, radiusKm, (item) => visited.add(item.uid));
          points.forEach((at, i) => {
            if (greatCircleKm(point, at) <= radiusKm) expect(visited.has(String(i))).toBe(true);
          });
        },
      ),
      { numRuns: 2000 },
    );
  });
});
