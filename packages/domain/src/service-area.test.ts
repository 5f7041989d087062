import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LatLng } from './geo';
import {
  insideServiceArea,
  MAX_SERVICE_AREA_POLYGONS,
  MAX_SERVICE_AREA_TOTAL_VERTICES,
  MAX_SERVICE_AREA_VERTICES,
  validateServiceArea,
  type ServiceAreaPolygon,
} from './service-area';

/** A box around a centre, as an admin would draw it: four corners in order. */
const box = (south: number, west: number, north: number, east: number): ServiceAreaPolygon => [
  { lat: south, lng: west },
  { lat: south, lng: east },
  { lat: north, lng: east },
  { lat: north, lng: west },
];

// Central London, and a concave "L" shape beside it.
const london = box(51.45, -0.25, 51.56, 0.0);
const ell: ServiceAreaPolygon = [
  { lat: 0, lng: 0 },
  { lat: 0, lng: 2 },
  { lat: 1, lng: 2 },
  { lat: 1, lng: 1 },
  { lat: 2, lng: 1 },
  { lat: 2, lng: 0 },
];
const refused = { ok: false, key: 'proper_service_area', field: 'serviceArea' };

describe('issue 16 point 6: a pickup must be inside the service area', () => {
  it('serves everywhere while no area is drawn', () => {
    fc.assert(fc.property(fc.double({ min: -90, max: 90, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true }), (lat, lng) => insideServiceArea({ lat, lng }, [])));
  });

  it('knows a point inside from one outside, in a convex and a concave polygon', () => {
    expect(insideServiceArea({ lat: 51.5074, lng: -0.1278 }, [london])).toBe(true);
    expect(insideServiceArea({ lat: 48.8566, lng: 2.3522 }, [london])).toBe(false);
    expect(insideServiceArea({ lat: 0.5, lng: 1.5 }, [ell])).toBe(true);
    expect(insideServiceArea({ lat: 1.5, lng: 0.5 }, [ell])).toBe(true);
    // The notch of the L.
    expect(insideServiceArea({ lat: 1.5, lng: 1.5 }, [ell])).toBe(false);
  });

  it('counts a point on an edge or a corner as inside', () => {
    expect(insideServiceArea({ lat: 0, lng: 1 }, [ell])).toBe(true);
    expect(insideServiceArea({ lat: 2, lng: 1 }, [ell])).toBe(true);
  });

  it('serves the union of the polygons, whatever their order or winding', () => {
    const polygon = fc.tuple(fc.double({ min: -60, max: 59, noNaN: true }), fc.double({ min: -170, max: 169, noNaN: true }), fc.double({ min: 0.01, max: 1, noNaN: true }))
      .map(([south, west, size]) => box(south, west, south + size, west + size));
    const point = fc.record({ lat: fc.double({ min: -61, max: 61, noNaN: true }), lng: fc.double({ min: -171, max: 171, noNaN: true }) });
    fc.assert(
      fc.property(polygon, polygon, point, (a, b, p: LatLng) => {
        const either = insideServiceArea(p, [a]) || insideServiceArea(p, [b]);
        expect(insideServiceArea(p, [a, b])).toBe(either);
        expect(insideServiceArea(p, [b, a])).toBe(either);
        expect(insideServiceArea(p, [[...a].reverse()])).toBe(insideServiceArea(p, [a]));
      }),
    );
  });

  it('agrees with the box test for any box and point', () => {
    // Where the point lies across the box, in thousandths: never on an edge, which a rounding error
    // of the Mercator projection could put either side (edges are tested above).
    const offset = fc.integer({ min: -500, max: 1500 }).filter((n) => n !== 0 && n !== 1000).map((n) => n / 1000);
    fc.assert(
      fc.property(
        fc.double({ min: -80, max: 79, noNaN: true }),
        fc.double({ min: -179, max: 178, noNaN: true }),
        fc.double({ min: 0.001, max: 1, noNaN: true }),
        offset,
        offset,
        (south, west, size, u, v) => {
          const p = { lat: south + v * size, lng: west + u * size };
          const inBox = p.lat >= south && p.lat <= south + size && p.lng >= west && p.lng <= west + size;
          expect(insideServiceArea(p, [box(south, west, south + size, west + size)])).toBe(inBox);
        },
      ),
    );
  });

  it('draws edges straight on the Web Mercator map the admin drew on', () => {
    // A triangle with a long slanted edge from (10, 0) to (60, 50). Straight on the Mercator map,
    // the edge crosses longitude 25 at about latitude 39.3, not at 35 as in plain degrees.
    const triangle: ServiceAreaPolygon = [{ lat: 10, lng: 0 }, { lat: 60, lng: 50 }, { lat: 10, lng: 50 }];
    expect(insideServiceArea({ lat: 37, lng: 25 }, [triangle])).toBe(true);
    expect(insideServiceArea({ lat: 39.2, lng: 25 }, [triangle])).toBe(true);
    expect(insideServiceArea({ lat: 39.4, lng: 25 }, [triangle])).toBe(false);
  });
});

describe('issue 16 point 6: the service area rule (proper_service_area)', () => {
  it('accepts no area, and areas within the limits, keeping only lat and lng', () => {
    expect(validateServiceArea([])).toEqual({ ok: true, value: [] });
    expect(validateServiceArea([[...london.map((vertex) => ({ ...vertex, note: 'x' }))], ell])).toEqual({ ok: true, value: [london, ell] });
    const vertices = fc.record({ lat: fc.double({ min: -90, max: 90, noNaN: true }), lng: fc.double({ min: -180, max: 180, noNaN: true }) });
    fc.assert(
      fc.property(fc.array(fc.uniqueArray(vertices, { minLength: 3, maxLength: 20, selector: (v) => `${String(v.lat)},${String(v.lng)}` }), { maxLength: MAX_SERVICE_AREA_POLYGONS }), (area) => {
        expect(validateServiceArea(area)).toEqual({ ok: true, value: area });
      }),
    );
  });

  it('refuses too many polygons, too few or too many vertices, and too many in all', () => {
    expect(validateServiceArea(Array.from({ length: MAX_SERVICE_AREA_POLYGONS + 1 }, () => london))).toEqual(refused);
    expect(validateServiceArea([london.slice(0, 2)])).toEqual(refused);
    const ring = (count: number) => Array.from({ length: count }, (_, index) => ({ lat: Math.sin((index / count) * 2 * Math.PI), lng: Math.cos((index / count) * 2 * Math.PI) }));
    expect(validateServiceArea([ring(MAX_SERVICE_AREA_VERTICES)]).ok).toBe(true);
    expect(validateServiceArea([ring(MAX_SERVICE_AREA_VERTICES + 1)])).toEqual(refused);
    const perPolygon = MAX_SERVICE_AREA_TOTAL_VERTICES / 4;
    expect(validateServiceArea(Array.from({ length: 4 }, () => ring(perPolygon))).ok).toBe(true);
    expect(validateServiceArea([...Array.from({ length: 4 }, () => ring(perPolygon)), ring(3)])).toEqual(refused);
  });

  it('refuses malformed coordinates and shapes that enclose nothing', () => {
    const bad: unknown[] = [
      null,
      'everywhere',
      {},
      [null],
      [{ lat: 1, lng: 1 }],
      [[{ lat: 1, lng: 1 }, { lat: 2, lng: 2 }, 'x']],
      [[{ lat: 91, lng: 0 }, { lat: 0, lng: 1 }, { lat: 1, lng: 0 }]],
      [[{ lat: 0, lng: -180.5 }, { lat: 0, lng: 1 }, { lat: 1, lng: 0 }]],
      [[{ lat: Number.NaN, lng: 0 }, { lat: 0, lng: 1 }, { lat: 1, lng: 0 }]],
      [[{ lat: Number.POSITIVE_INFINITY, lng: 0 }, { lat: 0, lng: 1 }, { lat: 1, lng: 0 }]],
      [[{ lat: '1', lng: '0' }, { lat: 0, lng: 1 }, { lat: 1, lng: 0 }]],
      [[{ lat: 0 }, { lat: 0, lng: 1 }, { lat: 1, lng: 0 }]],
      // Three vertices, two of them the same: a line.
      [[{ lat: 0, lng: 0 }, { lat: 1, lng: 1 }, { lat: 0, lng: 0 }]],
    ];
    for (const value of bad) expect(validateServiceArea(value), JSON.stringify(value)).toEqual(refused);
  });
});
