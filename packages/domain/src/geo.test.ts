import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  distanceInUnit,
  greatCircleKm,
  isLatLng,
  kmToMiles,
  recordSavedAddress,
  routeKmFromMetres,
  thinWaypoints,
  trackedRoutePlan,
  tracksTripDistance,
} from './geo';
import { BOOKING_STATUSES } from './booking-status';

const london = { lat: 51.5074, lng: -0.1278 };
const paris = { lat: 48.8566, lng: 2.3522 };

describe('section 9: distance between points is great-circle in km, miles when convert_to_mile', () => {
  it('measures known distances', () => {
    expect(greatCircleKm(london, paris)).toBeCloseTo(343.9, 0);
    expect(greatCircleKm(london, london)).toBe(0);
    // A quarter of the equator.
    expect(greatCircleKm({ lat: 0, lng: 0 }, { lat: 0, lng: 90 })).toBeCloseTo(10007.5, 0);
    // Antipodes do not produce NaN.
    expect(greatCircleKm({ lat: 0, lng: 0 }, { lat: 0, lng: 180 })).toBeCloseTo(20015.1, 0);
  });

  it('divides by 1.609344 for miles', () => {
    expect(kmToMiles(1.609344)).toBe(1);
    expect(distanceInUnit(london, paris, true)).toBeCloseTo(greatCircleKm(london, paris) / 1.609344, 10);
    expect(distanceInUnit(london, paris, false)).toBe(greatCircleKm(london, paris));
  });

  it('takes route km as route metres / 1000', () => {
    expect(routeKmFromMetres(12345)).toBe(12.345);
  });

  it('property: distance is symmetric and non-negative', () => {
    const point = fc.record({
      lat: fc.double({ min: -90, max: 90, noNaN: true }),
      lng: fc.double({ min: -180, max: 180, noNaN: true }),
    });
    fc.assert(
      fc.property(point, point, (a, b) => {
        const d = greatCircleKm(a, b);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(Math.abs(d - greatCircleKm(b, a))).toBeLessThan(1e-6);
      }),
    );
  });

  it('recognises valid coordinates only', () => {
    expect(isLatLng(london)).toBe(true);
    expect(isLatLng({ lat: 91, lng: 0 })).toBe(false);
    expect(isLatLng({ lat: '1', lng: 0 })).toBe(false);
    expect(isLatLng({ lat: Number.NaN, lng: 0 })).toBe(false);
    expect(isLatLng(null)).toBe(false);
  });
});

describe('section 9: above 25 points, waypoints are thinned to every Nth, N = int(count / 25) + 1', () => {
  const points = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

  it('keeps 25 or fewer as they are', () => {
    expect(thinWaypoints(points(25))).toEqual(points(25));
    expect(thinWaypoints([])).toEqual([]);
  });

  it('takes every 2nd of 26 and every 3rd of 50', () => {
    expect(thinWaypoints(points(26))).toEqual(points(13).map((i) => i * 2));
    expect(thinWaypoints(points(50))).toEqual(points(17).map((i) => i * 3));
  });

  it('property: never more than 25, always a subsequence starting at the first point', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5000 }), (n) => {
        const thinned = thinWaypoints(points(n));
        expect(thinned.length).toBeLessThanOrEqual(Math.min(n, 25));
        if (n > 0) expect(thinned[0]).toBe(0);
        const step = n > 25 ? Math.floor(n / 25) + 1 : 1;
        thinned.forEach((value, i) => {
          expect(value).toBe(i * step);
        });
      }),
    );
  });
});

describe('section 9: route from tracked points', () => {
  it('gives distance 0 for 0 or 1 points', () => {
    expect(trackedRoutePlan([])).toEqual({ kind: 'none' });
    expect(trackedRoutePlan([london])).toEqual({ kind: 'none' });
  });

  it('uses the drive-time call for 2 points', () => {
    expect(trackedRoutePlan([london, paris])).toEqual({ kind: 'pair', start: london, dest: paris });
  });

  it('uses the multi-location call for 3 or more, with thinned waypoints between', () => {
    const many = Array.from({ length: 60 }, (_, i) => i);
    const plan = trackedRoutePlan(many);
    expect(plan.kind).toBe('multi');
    if (plan.kind !== 'multi') return;
    expect(plan.start).toBe(0);
    expect(plan.dest).toBe(59);
    expect(plan.waypoints).toEqual(thinWaypoints(many.slice(1, -1)));
    expect(plan.waypoints.length).toBeLessThanOrEqual(25);
  });
});

describe('section 4: tracking points count only if status is STARTED or REACHED', () => {
  it.each(BOOKING_STATUSES)('%s', (status) => {
    expect(tracksTripDistance(status)).toBe(status === 'STARTED' || status === 'REACHED');
  });
});

describe('section 4 REACHED and section 9: saved addresses match within 0.1 distance units', () => {
  const home = { description: 'Home', lat: 51.5, lng: -0.12, count: 2 };

  it('counts up an entry within 0.1 km', () => {
    const near = { description: 'Home door', lat: 51.5005, lng: -0.12 }; // about 56 m away
    expect(recordSavedAddress([home], near, false)).toEqual([{ ...home, count: 3 }]);
  });

  it('adds a new entry with count 1 beyond 0.1', () => {
    const far = { description: 'Office', lat: 51.51, lng: -0.12 }; // about 1.1 km away
    expect(recordSavedAddress([home], far, false)).toEqual([home, { ...far, count: 1 }]);
  });

  it('measures in miles when convert_to_mile: 0.15 km is within 0.1 mile but not 0.1 km', () => {
    const drop = { description: 'Corner', lat: 51.50135, lng: -0.12 }; // about 150 m
    expect(recordSavedAddress([home], drop, false)).toHaveLength(2);
    expect(recordSavedAddress([home], drop, true)).toEqual([{ ...home, count: 3 }]);
  });

  it('counts up only the nearest of several matches and leaves the input unchanged', () => {
    const a = { description: 'A', lat: 51.5, lng: -0.12, count: 1 };
    const b = { description: 'B', lat: 51.5004, lng: -0.12, count: 1 };
    const list = [a, b];
    const result = recordSavedAddress(list, { description: 'x', lat: 51.5003, lng: -0.12 }, false);
    expect(result).toEqual([a, { ...b, count: 2 }]);
    expect(list[1]!.count).toBe(1);
  });
});
