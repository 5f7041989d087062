import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOsrm } from '../../../test/stand-ins/osrm';
import type { StandIn } from '../../../test/stand-ins/stand-in-server';
import { cachedMaps } from './cache';
import { osmMaps } from './osm';
import { MapsProviderError, type MapsPort, type Route } from './port';

const A = { lat: 51.5308, lng: -0.1238 };
const B = { lat: 51.5081, lng: -0.0759 };
const ROUTE: Route = { distanceKm: 5, durationSeconds: 600, polylinePoints: 'abc', approximate: false };

/** A port that counts its calls and answers what the test says. */
function countingPort(answer: () => Promise<Route | undefined> = () => Promise.resolve(ROUTE)) {
  const calls: string[] = [];
  const port: MapsPort = {
    provider: 'counting',
    autocomplete: (query, sessionToken) => {
      calls.push(`autocomplete ${query}${sessionToken ? ` ${sessionToken}` : ''}`);
      return Promise.resolve([{ place_id: 'N1', description: query }]);
    },
    placeById: (placeId, sessionToken) => {
      calls.push(`placeById ${placeId}${sessionToken ? ` ${sessionToken}` : ''}`);
      return Promise.resolve({ lat: 1, lng: 2, add: placeId });
    },
    reverseGeocode: (point) => {
      calls.push(`reverseGeocode ${point.lat}`);
      return Promise.resolve('somewhere');
    },
    route: () => {
      calls.push('route');
      return answer();
    },
    table: (origins, destinations) => {
      calls.push('table');
      return Promise.resolve(origins.map(() => destinations.map(() => undefined)));
    },
  };
  return { port, calls };
}

describe('cachedMaps', () => {
  it('answers the same call with the same inputs (points to about a metre) from memory within the window', async () => {
    const clock = { now: 0 };
    const { port, calls } = countingPort();
    const maps = cachedMaps(port, { ttlSeconds: 60, now: () => clock.now });
    expect(maps.provider).toBe('counting');
    expect(await maps.route([A, B])).toEqual(ROUTE);
    expect(await maps.route([{ lat: A.lat + 0.000001, lng: A.lng }, B])).toEqual(ROUTE);
    expect(calls).toEqual(['route']);
    await maps.route([B, A]);
    await maps.autocomplete('Baker  Street');
    await maps.autocomplete(' baker street ');
    await maps.placeById('N1');
    await maps.placeById('N1');
    await maps.reverseGeocode(A);
    await maps.reverseGeocode(A);
    await maps.table([A], [B]);
    await maps.table([A], [B]);
    expect(calls).toEqual(['route', 'route', 'autocomplete Baker  Street', 'placeById N1', `reverseGeocode ${A.lat}`, 'table']);
    clock.now += 60_001;
    await maps.route([A, B]);
    expect(calls.filter((call) => call === 'route')).toHaveLength(3);
  });

  it('keeps no failure: the next call asks again', async () => {
    let fail = true;
    const { port, calls } = countingPort(() => (fail ? Promise.reject(new MapsProviderError('counting', 'failed', 'no_route_found', 'down')) : Promise.resolve(ROUTE)));
    const maps = cachedMaps(port, { ttlSeconds: 60 });
    await expect(maps.route([A, B])).rejects.toBeInstanceOf(MapsProviderError);
    fail = false;
    expect(await maps.route([A, B])).toEqual(ROUTE);
    expect(await maps.route([A, B])).toEqual(ROUTE);
    expect(calls).toEqual(['route', 'route']);
  });

  it('keeps "no route" (an answer), and shares a call in flight', async () => {
    const { port, calls } = countingPort(() => Promise.resolve(undefined));
    const maps = cachedMaps(port, { ttlSeconds: 60 });
    expect(await Promise.all([maps.route([A, B]), maps.route([A, B])])).toEqual([undefined, undefined]);
    expect(await maps.route([A, B])).toBeUndefined();
    expect(calls).toEqual(['route']);
  });

  it('forgets the least recently used answer beyond its size', async () => {
    const { port, calls } = countingPort();
    const maps = cachedMaps(port, { ttlSeconds: 60, maxEntries: 2 });
    await maps.placeById('N1');
    await maps.placeById('N2');
    await maps.placeById('N1');
    await maps.placeById('N3');
    await maps.placeById('N1');
    await maps.placeById('N2');
    expect(calls).toEqual(['placeById N1', 'placeById N2', 'placeById N3', 'placeById N2']);
  });

  it('keeps only the calls it is told to, and nothing with a window of 0', async () => {
    const { port, calls } = countingPort();
    const maps = cachedMaps(port, { ttlSeconds: 60, calls: ['placeById'] });
    await maps.autocomplete('abc');
    await maps.autocomplete('abc');
    await maps.placeById('N1');
    await maps.placeById('N1');
    expect(calls).toEqual(['autocomplete abc', 'autocomplete abc', 'placeById N1']);
    expect(cachedMaps(port, { ttlSeconds: 0 })).toBe(port);
  });

  it("keeps each place search session's answers apart where the provider bills by session, and shares them where it does not", async () => {
    const billing = countingPort();
    const sessions = cachedMaps({ ...billing.port, placeSessions: true }, { ttlSeconds: 60 });
    expect(sessions.placeSessions).toBe(true);
    // Two riders typing the same text at once: each call carries its own session's token.
    await Promise.all([sessions.autocomplete('tower', 'session-a'), sessions.autocomplete('tower', 'session-b')]);
    await sessions.autocomplete('tower', 'session-a');
    await sessions.placeById('N1', 'session-a');
    await sessions.placeById('N1', 'session-b');
    expect(billing.calls).toEqual(['autocomplete tower session-a', 'autocomplete tower session-b', 'placeById N1 session-a', 'placeById N1 session-b']);

    const open = countingPort();
    const shared = cachedMaps(open.port, { ttlSeconds: 60 });
    await Promise.all([shared.autocomplete('tower', 'session-a'), shared.autocomplete('tower', 'session-b'), shared.autocomplete('tower')]);
    await shared.placeById('N1', 'session-b');
    await shared.placeById('N1');
    // The token still reaches the adapter with the call that asks.
    expect(open.calls).toEqual(['autocomplete tower session-a', 'placeById N1 session-b']);
  });

  it("passes a trace match and the provider's tiles through, keeping neither", async () => {
    const { port } = countingPort();
    let matched = 0;
    let tiled = 0;
    const maps = cachedMaps(
      {
        ...port,
        matchTrace: () => Promise.resolve({ ...ROUTE, distanceKm: (matched += 1) }),
        mapTiles: () => Promise.resolve({ tiles: { mapTileUrl: `https://t.example/${String((tiled += 1))}/{z}/{x}/{y}`, mapTileAttribution: 'T' } }),
      },
      { ttlSeconds: 60 },
    );
    expect((await maps.matchTrace?.([A, B]))?.distanceKm).toBe(1);
    expect((await maps.matchTrace?.([A, B]))?.distanceKm).toBe(2);
    expect((await maps.mapTiles?.())?.tiles?.mapTileUrl).toBe('https://t.example/1/{z}/{x}/{y}');
    expect((await maps.mapTiles?.())?.tiles?.mapTileUrl).toBe('https://t.example/2/{z}/{x}/{y}');
    const plain = cachedMaps(port, { ttlSeconds: 60 });
    expect([plain.matchTrace, plain.mapTiles, plain.placeSessions]).toEqual([undefined, undefined, undefined]);
  });

  describe('in front of the osm adapter', () => {
    let osrm: StandIn;
    beforeAll(async () => {
      osrm = await startOsrm();
    });
    afterAll(() => osrm.close());

    it('a second identical route does not reach OSRM; a failed one is asked again', async () => {
      const maps = cachedMaps(osmMaps({ osrmUrl: osrm.url, nominatimUrl: 'http://127.0.0.1:9', timeoutMs: 300, userAgent: 'Rideway tests' }), { ttlSeconds: 300 });
      const first = await maps.route([A, B]);
      expect(await maps.route([A, B])).toEqual(first);
      expect(osrm.requests).toHaveLength(1);
      osrm.mode = 'fail';
      await expect(maps.route([B, A])).rejects.toBeInstanceOf(MapsProviderError);
      osrm.mode = 'ok';
      expect((await maps.route([B, A]))?.approximate).toBe(false);
      expect(osrm.requests).toHaveLength(3);
    });
  });
});
