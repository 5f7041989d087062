import polylineCodec from '@googlemaps/polyline-codec';
import { greatCircleKm } from '@rideway/domain';
import { describe, expect, it } from 'vitest';
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
