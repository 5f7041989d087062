import diagnostics from 'node:diagnostics_channel';
import type { LatLng } from '@rideway/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PLACES, STAND_IN_COPYRIGHT, standInRoute, startGoogleMaps, type GoogleStandIn, type GoogleStandInMode } from '../../../test/stand-ins/google-maps';
import { loadConfig } from '../../config';
import { googleMaps, googleOptions, MAX_INTERMEDIATES } from './google';
import { FALLBACK_COPYRIGHT, googleMapTiles, googleTilesOptions, RETRY_AFTER_MS, type GoogleTilesOptions } from './google-tiles';
import { MapsProviderError, type MapsPort } from './port';

const KINGS_CROSS = { lat: 51.5309, lng: -0.1233 };
const PADDINGTON = { lat: 51.5154, lng: -0.1755 };
const BAKER_STREET = { lat: 51.5238, lng: -0.1586 };
/** The stand-in's roads reach nothing south of 60° S. */
const ANTARCTICA = { lat: -75, lng: 0 };
const TIMEOUT_MS = 400;

const [BAKER_221B] = PLACES as [(typeof PLACES)[number]];

let standIn: GoogleStandIn;
let maps: MapsPort;
const adapter = (env: Record<string, string> = {}) =>
  googleMaps(loadConfig({ MAPS_PROVIDER: 'google', GOOGLE_MAPS_API_KEY: standIn.key, GOOGLE_MAPS_API_URL: standIn.url, MAPS_TIMEOUT_MS: String(TIMEOUT_MS), ...env }));

beforeAll(async () => {
  standIn = await startGoogleMaps();
  maps = adapter();
});
afterAll(async () => {
  await standIn.close();
});
beforeEach(() => {
  standIn.mode = 'ok';
  standIn.requests.length = 0;
});

const lastRequest = () => standIn.requests[standIn.requests.length - 1];

describe('the google maps adapter: configuration', () => {
  it("uses Google's addresses unless one base or one per service is set", () => {
    const base = { MAPS_PROVIDER: 'google', GOOGLE_MAPS_API_KEY: 'AIzaTestKey_123456' };
    expect(googleOptions(loadConfig(base))).toMatchObject({ routesUrl: 'https://routes.googleapis.com', placesUrl: 'https://places.googleapis.com', geocodingUrl: 'https://maps.googleapis.com', timeoutMs: 4000 });
    expect(googleOptions(loadConfig({ ...base, GOOGLE_MAPS_API_URL: 'http://127.0.0.1:9000', GOOGLE_PLACES_API_URL: 'http://127.0.0.1:9001' }))).toMatchObject({
      routesUrl: 'http://127.0.0.1:9000',
      placesUrl: 'http://127.0.0.1:9001',
      geocodingUrl: 'http://127.0.0.1:9000',
    });
  });

  it('needs a key when MAPS_PROVIDER=google, and an address without a path', () => {
    expect(() => loadConfig({ MAPS_PROVIDER: 'google' })).toThrow(/GOOGLE_MAPS_API_KEY: required when MAPS_PROVIDER=google/);
    expect(() => loadConfig({ GOOGLE_MAPS_API_URL: 'http://127.0.0.1:9000/maps' })).toThrow(/GOOGLE_MAPS_API_URL/);
    expect(() => loadConfig({ GOOGLE_MAPS_API_KEY: 'not a key!' })).toThrow(/GOOGLE_MAPS_API_KEY/);
  });
});

describe('the google maps adapter against a Google stand-in', () => {
  it("routes with computeRoutes: the key and field mask in headers, metres to km, '123s' to seconds, the polyline kept", async () => {
    const route = await maps.route([KINGS_CROSS, PADDINGTON]);
    const expected = standInRoute([KINGS_CROSS, PADDINGTON]);
    expect(route).toEqual({ distanceKm: expected.metres / 1000, durationSeconds: expected.seconds, polylinePoints: expected.polyline, approximate: false });
    const seen = lastRequest();
    expect(seen).toMatchObject({ method: 'POST', path: '/directions/v2:computeRoutes' });
    expect(seen?.headers['x-goog-api-key']).toBe(standIn.key);
    expect(seen?.headers['x-goog-fieldmask']).toBe('routes.distanceMeters,routes.duration,routes.polyline.encodedPolyline');
    // The key is never in a URL; no quota project is claimed for it.
    expect(seen?.query.get('key')).toBeNull();
    expect(seen?.headers['x-goog-user-project']).toBeUndefined();
    expect(seen?.body).toMatchObject({
      origin: { location: { latLng: { latitude: KINGS_CROSS.lat, longitude: KINGS_CROSS.lng } } },
      destination: { location: { latLng: { latitude: PADDINGTON.lat, longitude: PADDINGTON.lng } } },
    });
  });

  it("asks only the configured address: never Google's metadata server, whatever the clients would look up", async () => {
    const hosts: string[] = [];
    const listener = (message: unknown) => hosts.push((message as { request: { host: string } }).request.host);
    diagnostics.subscribe('http.client.request.start', listener);
    try {
      const fresh = adapter();
      await fresh.route([KINGS_CROSS, PADDINGTON]);
      await fresh.table([KINGS_CROSS], [PADDINGTON]);
      await fresh.placeById(BAKER_221B.id);
      await fresh.reverseGeocode(KINGS_CROSS);
    } finally {
      diagnostics.unsubscribe('http.client.request.start', listener);
    }
    expect(hosts).toHaveLength(4);
    expect(new Set(hosts)).toEqual(new Set(['127.0.0.1']));
  });

  it('routes through intermediate waypoints in order, at most 25 of them', async () => {
    const route = await maps.route([KINGS_CROSS, BAKER_STREET, PADDINGTON]);
    expect(route?.distanceKm).toBe(standInRoute([KINGS_CROSS, BAKER_STREET, PADDINGTON]).metres / 1000);
    expect((lastRequest()?.body as { intermediates: unknown[] }).intermediates).toEqual([{ location: { latLng: { latitude: BAKER_STREET.lat, longitude: BAKER_STREET.lng } } }]);

    const track: LatLng[] = Array.from({ length: 60 }, (_, i) => ({ lat: 51.5 + i * 0.001, lng: -0.12 }));
    expect(await maps.route(track)).toMatchObject({ approximate: false });
    const body = lastRequest()?.body as { origin: unknown; destination: unknown; intermediates: unknown[] };
    expect(body.intermediates).toHaveLength(MAX_INTERMEDIATES);
    expect(body.origin).toEqual({ location: { latLng: { latitude: 51.5, longitude: -0.12 } } });
    expect(body.destination).toEqual({ location: { latLng: { latitude: track[59]?.lat, longitude: -0.12 } } });
  });

  it('answers no route (undefined) when Google answers {}, and asks nothing for fewer than two points', async () => {
    expect(await maps.route([KINGS_CROSS, ANTARCTICA])).toBeUndefined();
    standIn.mode = 'nothing';
    expect(await maps.route([KINGS_CROSS, PADDINGTON])).toBeUndefined();
    const asked = standIn.requests.length;
    expect(await maps.route([KINGS_CROSS])).toBeUndefined();
    expect(standIn.requests).toHaveLength(asked);
  });

  it('fills a route table from computeRouteMatrix by the elements’ indexes, empty where no route exists', async () => {
    const table = await maps.table([KINGS_CROSS, ANTARCTICA], [PADDINGTON, BAKER_STREET, KINGS_CROSS]);
    const leg = (from: LatLng, to: LatLng) => {
      const { metres, seconds } = standInRoute([from, to]);
      return { distanceKm: metres / 1000, durationSeconds: seconds };
    };
    expect(table).toEqual([
      [leg(KINGS_CROSS, PADDINGTON), leg(KINGS_CROSS, BAKER_STREET), leg(KINGS_CROSS, KINGS_CROSS)],
      [undefined, undefined, undefined],
    ]);
    const seen = lastRequest();
    expect(seen).toMatchObject({ method: 'POST', path: '/distanceMatrix/v2:computeRouteMatrix' });
    expect(seen?.headers['x-goog-fieldmask']).toBe('originIndex,destinationIndex,status,condition,distanceMeters,duration');
    expect(standIn.requests).toHaveLength(1);
    expect(await maps.table([], [PADDINGTON])).toEqual([]);
  });

  it('splits a table above 625 elements into several matrix calls', async () => {
    const points = (n: number, lng: number): LatLng[] => Array.from({ length: n }, (_, i) => ({ lat: 51.45 + i * 0.002, lng }));
    const table = await maps.table(points(30, -0.1), points(30, -0.2));
    expect(standIn.requests).toHaveLength(2);
    expect(table).toHaveLength(30);
    expect(table.every((row) => row.length === 30 && row.every((cell) => cell !== undefined && cell.distanceKm > 0))).toBe(true);
  });

  it('suggests places with Places API (New) autocomplete', async () => {
    const suggestions = await maps.autocomplete('  221B   Baker ');
    expect(suggestions).toEqual([{ place_id: BAKER_221B.id, description: `${BAKER_221B.name}, ${BAKER_221B.formattedAddress}` }]);
    const seen = lastRequest();
    expect(seen).toMatchObject({ method: 'POST', path: '/v1/places:autocomplete', body: { input: '221B Baker' } });
    expect(seen?.headers['x-goog-api-key']).toBe(standIn.key);
    standIn.mode = 'nothing';
    expect(await maps.autocomplete('Baker')).toEqual([]);
  });

  it('carries one search session token from the suggestions to the chosen place, as Google bills them (sessionToken)', async () => {
    const token = '3519edfe-0f75-4a30-bfe4-7cbd89340b2c';
    await maps.autocomplete('221B', token);
    await maps.autocomplete('221B Baker', token);
    await maps.placeById(BAKER_221B.id, token);
    const [first, second, details] = standIn.requests;
    expect([first?.body, second?.body]).toEqual([{ input: '221B', sessionToken: token }, { input: '221B Baker', sessionToken: token }]);
    expect(details).toMatchObject({ method: 'GET', path: `/v1/places/${BAKER_221B.id}` });
    expect(details?.query.get('sessionToken')).toBe(token);
    // Without a token (or with one Google would not take), each call is billed on its own.
    standIn.requests.length = 0;
    await maps.autocomplete('Paddington');
    await maps.placeById(BAKER_221B.id, 'not a token!');
    expect(standIn.requests[0]?.body).toEqual({ input: 'Paddington' });
    expect(standIn.requests[1]?.query.has('sessionToken')).toBe(false);
    expect(maps.placeSessions).toBe(true);
  });

  it('asks nothing for a typed "lat,lng" or a query too short to search', async () => {
    expect(await maps.autocomplete('51.5, -0.12')).toEqual([{ place_id: 'latlng:51.5,-0.12', description: '51.5, -0.12' }]);
    expect(await maps.autocomplete('ba')).toEqual([]);
    expect(await maps.placeById('latlng:51.5,-0.12')).toEqual({ lat: 51.5, lng: -0.12, add: '51.5, -0.12' });
    expect(standIn.requests).toHaveLength(0);
  });

  it('looks a place up with Place Details (New), its name and address as the place', async () => {
    expect(await maps.placeById(BAKER_221B.id)).toEqual({ lat: BAKER_221B.lat, lng: BAKER_221B.lng, add: `${BAKER_221B.name}, ${BAKER_221B.formattedAddress}` });
    const seen = lastRequest();
    expect(seen).toMatchObject({ method: 'GET', path: `/v1/places/${BAKER_221B.id}` });
    expect(seen?.headers['x-goog-fieldmask']).toBe('id,formattedAddress,location,displayName');
    // 404 NOT_FOUND is no such place; an id outside Google's alphabet is not asked about.
    expect(await maps.placeById('ChIJunknown')).toBeUndefined();
    const asked = standIn.requests.length;
    expect(await maps.placeById('city:123')).toBeUndefined();
    expect(await maps.placeById('../v1/places:autocomplete')).toBeUndefined();
    expect(standIn.requests).toHaveLength(asked);
  });

  it('reverse-geocodes with the Geocoding API, the key as its query parameter; ZERO_RESULTS is the point itself', async () => {
    expect(await maps.reverseGeocode({ lat: 51.5312, lng: -0.1231 })).toBe("Euston Rd, London N1 9AL, UK");
    const seen = lastRequest();
    expect(seen).toMatchObject({ method: 'GET', path: '/maps/api/geocode/json' });
    expect(seen?.query.get('latlng')).toBe('51.5312,-0.1231');
    expect(seen?.query.get('key')).toBe(standIn.key);
    expect(await maps.reverseGeocode(ANTARCTICA)).toBe('-75.00000, 0.00000');
  });
});

describe('the google maps adapter when Google fails', () => {
  const calls = {
    route: { key: 'no_route_found', run: (m: MapsPort) => m.route([KINGS_CROSS, PADDINGTON]) },
    table: { key: 'no_route_found', run: (m: MapsPort) => m.table([KINGS_CROSS], [PADDINGTON, BAKER_STREET]) },
    autocomplete: { key: 'google_places_error', run: (m: MapsPort) => m.autocomplete('Baker') },
    placeById: { key: 'google_places_error', run: (m: MapsPort) => m.placeById(BAKER_221B.id) },
    reverseGeocode: { key: 'place_to_coords_error', run: (m: MapsPort) => m.reverseGeocode(KINGS_CROSS) },
  } as const;
  const cases: [GoogleStandInMode, MapsProviderError['reason']][] = [
    ['hang', 'timeout'],
    ['fail', 'failed'],
    ['garbage', 'malformed'],
    ['wrongShape', 'malformed'],
    ['quota', 'refused'],
    ['blocked', 'refused'],
  ];

  /** The call's failure, which must be a MapsProviderError: never an answer, never the key. */
  async function failure(run: () => Promise<unknown>): Promise<MapsProviderError> {
    const outcome = await run().then(
      (answer) => ({ answer }),
      (error: unknown) => ({ error }),
    );
    expect(outcome).not.toHaveProperty('answer');
    const error = (outcome as { error: unknown }).error;
    expect(error).toBeInstanceOf(MapsProviderError);
    expect(JSON.stringify({ message: (error as Error).message, stack: (error as Error).stack, ...(error as object) })).not.toContain(standIn.key);
    return error as MapsProviderError;
  }

  describe.each(cases)('in mode %s', (mode, reason) => {
    it.each(Object.entries(calls))(`%s fails with reason ${reason} and its spec key`, async (_name, call) => {
      standIn.mode = mode;
      const error = await failure(() => call.run(maps));
      expect({ provider: error.provider, reason: error.reason, key: error.key }).toEqual({ provider: 'google', reason, key: call.key });
      // One attempt: no retries behind the timeout's back.
      expect(standIn.requests).toHaveLength(1);
    });
  });

  it('is refused with a wrong key, and never says the key', async () => {
    const wrong = adapter({ GOOGLE_MAPS_API_KEY: 'AIzaWrongKey_00000000000' });
    for (const call of Object.values(calls)) {
      const error = await failure(() => call.run(wrong));
      expect(error.reason).toBe('refused');
      expect(error.message).not.toContain('AIzaWrongKey');
    }
  });

  it('is refused when nobody listens at the address', async () => {
    const closed = await startGoogleMaps();
    await closed.close();
    const nowhere = adapter({ GOOGLE_MAPS_API_URL: closed.url });
    for (const call of Object.values(calls)) expect((await failure(() => call.run(nowhere))).reason).toBe('refused');
  });
});

describe('the Google stand-in', () => {
  it("answers as Google does without a field mask or a key, and lets autocomplete go without a mask", async () => {
    const post = (path: string, headers: Record<string, string>) =>
      fetch(`${standIn.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ input: 'Baker', origin: {}, destination: {} }) });
    const noMask = await post('/directions/v2:computeRoutes', { 'x-goog-api-key': standIn.key });
    expect(noMask.status).toBe(400);
    expect(await noMask.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
    const noKey = await post('/directions/v2:computeRoutes', { 'x-goog-fieldmask': 'routes.duration' });
    expect(noKey.status).toBe(403);
    expect(await noKey.json()).toMatchObject({ error: { code: 403, status: 'PERMISSION_DENIED' } });
    const autocomplete = await post('/v1/places:autocomplete', { 'x-goog-api-key': standIn.key });
    expect(autocomplete.status).toBe(200);
    expect(await autocomplete.json()).toMatchObject({ suggestions: expect.arrayContaining([{ placePrediction: expect.objectContaining({ placeId: PLACES[0]?.id }) as unknown }]) as unknown });
  });
});

describe("Google's map tiles (Map Tiles API, 2D roadmap tiles)", () => {
  const DAY = 24 * 3600_000;
  let clock: { now: number };
  const tilesAt = (changes: Partial<GoogleTilesOptions> = {}) =>
    googleMapTiles({ apiKey: standIn.tileKey, baseUrl: standIn.url, language: 'en-GB', region: 'GB', referer: 'https://rides.example.com/', timeoutMs: TIMEOUT_MS, now: () => clock.now, ...changes });
  const sessionCalls = () => standIn.requests.filter((request) => request.path === '/v1/createSession');
  beforeEach(() => {
    clock = { now: Date.now() };
    delete standIn.tileReferer;
    standIn.sessionSeconds = 14 * 24 * 3600;
  });

  it('is on with a browser key only, at Google\'s address unless one is set, the public address as its Referer', () => {
    const base = { MAPS_PROVIDER: 'google', GOOGLE_MAPS_API_KEY: 'AIzaServerKey_123456' };
    expect(googleTilesOptions(loadConfig(base))).toBeUndefined();
    expect(googleMaps(loadConfig(base)).mapTiles).toBeUndefined();
    expect(googleTilesOptions(loadConfig({ GOOGLE_MAP_TILES_API_KEY: 'AIzaBrowserKey_123456' }))).toBeUndefined();
    const on = { ...base, GOOGLE_MAP_TILES_API_KEY: 'AIzaBrowserKey_123456' };
    expect(googleTilesOptions(loadConfig(on))).toEqual({ apiKey: 'AIzaBrowserKey_123456', baseUrl: 'https://tile.googleapis.com', language: 'en-US', region: 'US', timeoutMs: 4000 });
    expect(googleMaps(loadConfig(on)).mapTiles).toBeTypeOf('function');
    expect(googleTilesOptions(loadConfig({ ...on, GOOGLE_MAPS_API_URL: 'http://127.0.0.1:9000', PUBLIC_URL: 'https://rides.example.com', GOOGLE_MAP_TILES_LANGUAGE: 'es-MX', GOOGLE_MAP_TILES_REGION: 'MX' }))).toMatchObject({
      baseUrl: 'http://127.0.0.1:9000',
      referer: 'https://rides.example.com/',
      language: 'es-MX',
      region: 'MX',
    });
    expect(googleTilesOptions(loadConfig({ ...on, GOOGLE_MAPS_API_URL: 'http://127.0.0.1:9000', GOOGLE_MAP_TILES_URL: 'http://127.0.0.1:9001' }))?.baseUrl).toBe('http://127.0.0.1:9001');
    expect(() => loadConfig({ GOOGLE_MAP_TILES_LANGUAGE: 'english please' })).toThrow(/GOOGLE_MAP_TILES_LANGUAGE/);
    expect(() => loadConfig({ GOOGLE_MAP_TILES_REGION: 'USA' })).toThrow(/GOOGLE_MAP_TILES_REGION/);
  });

  it("creates a roadmap session with the browser key and hands out its tile URL and Google's attribution, escaped", async () => {
    standIn.tileReferer = 'https://rides.example.com/';
    const { tiles, failure } = await tilesAt()();
    expect(failure).toBeUndefined();
    const session = standIn.sessions.at(-1) ?? '';
    expect(tiles).toEqual({
      mapTileUrl: `${standIn.url}/v1/2dtiles/{z}/{x}/{y}?session=${session}&key=${standIn.tileKey}`,
      mapTileAttribution: `Google Maps · ${STAND_IN_COPYRIGHT.replace('<', '&#60;').replace('>', '&#62;')}`,
    });
    const [created, viewport] = standIn.requests;
    expect(created).toMatchObject({ method: 'POST', path: '/v1/createSession', body: { mapType: 'roadmap', language: 'en-GB', region: 'GB' } });
    expect(created?.query.get('key')).toBe(standIn.tileKey);
    expect(created?.headers.referer).toBe('https://rides.example.com/');
    expect(Object.fromEntries(viewport?.query ?? [])).toMatchObject({ session, zoom: '2', north: '85', south: '-85', east: '180', west: '-180' });
    // The URL the web draws loads a tile.
    const tile = await fetch((tiles?.mapTileUrl ?? '').replace('{z}', '3').replace('{x}', '4').replace('{y}', '2'), { headers: { referer: 'https://rides.example.com/book' } });
    expect([tile.status, tile.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(Buffer.from(await tile.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
  });

  it('keeps the session until shortly before its expiry, then renews it; a failed renewal keeps the old one while it lasts', async () => {
    const tiles = tilesAt();
    const first = (await tiles()).tiles;
    expect((await tiles()).tiles).toEqual(first);
    clock.now += 12 * DAY;
    expect((await tiles()).tiles).toEqual(first);
    expect(sessionCalls()).toHaveLength(1);
    clock.now += 1.5 * DAY;
    standIn.mode = 'fail';
    const renewal = await tiles();
    expect(renewal.tiles).toEqual(first);
    expect(renewal.failure?.reason).toBe('failed');
    standIn.mode = 'ok';
    clock.now += RETRY_AFTER_MS + 1;
    const renewed = await tiles();
    expect(renewed.failure).toBeUndefined();
    expect(renewed.tiles?.mapTileUrl).not.toBe(first?.mapTileUrl);
    expect(sessionCalls()).toHaveLength(3);
  });

  it('asks once for a burst of readers, all of whom get the tiles', async () => {
    const tiles = tilesAt();
    const answers = await Promise.all(Array.from({ length: 20 }, () => tiles()));
    expect(sessionCalls()).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.tiles?.mapTileUrl)).size).toBe(1);
    expect(answers.every((answer) => answer.tiles !== undefined && answer.failure === undefined)).toBe(true);
  });

  const failing: [string, (s: GoogleStandIn) => void, Partial<GoogleTilesOptions>, MapsProviderError['reason']][] = [
    ['the Map Tiles API not enabled (403)', (s) => { s.mode = 'blocked'; }, {}, 'refused'],
    ['a quota (429)', (s) => { s.mode = 'quota'; }, {}, 'refused'],
    ['the server key instead of the browser key', () => undefined, { apiKey: 'AIzaStandInKey_0123456789abcdefghij' }, 'refused'],
    ['a key restricted to another site', (s) => { s.tileReferer = 'https://elsewhere.example/'; }, {}, 'refused'],
    ['no answer in time', (s) => { s.mode = 'hang'; }, {}, 'timeout'],
    ['a 5xx', (s) => { s.mode = 'fail'; }, {}, 'failed'],
    ['not JSON', (s) => { s.mode = 'garbage'; }, {}, 'malformed'],
    ['no session in the answer', (s) => { s.mode = 'wrongShape'; }, {}, 'malformed'],
    ['a session that expires at once', (s) => { s.sessionSeconds = 60; }, {}, 'malformed'],
  ];
  it.each(failing)('%s: no tiles and the failure to log, then no new attempt for a while', async (_name, arrange, options, reason) => {
    arrange(standIn);
    const tiles = tilesAt(options);
    const { tiles: none, failure } = await tiles();
    expect(none).toBeUndefined();
    expect([failure?.provider, failure?.reason]).toEqual(['google', reason]);
    expect(JSON.stringify({ message: failure?.message, stack: failure?.stack })).not.toContain(standIn.tileKey);
    expect(await tiles()).toEqual({});
    expect(sessionCalls()).toHaveLength(1);
    standIn.mode = 'ok';
    delete standIn.tileReferer;
    standIn.sessionSeconds = 14 * 24 * 3600;
    clock.now += RETRY_AFTER_MS + 1;
    expect((await tilesAt()()).tiles).toBeDefined();
  });

  it("falls back to Google's fixed wording when the viewport information cannot be had", async () => {
    standIn.viewportDown = true;
    try {
      const { tiles, failure } = await tilesAt()();
      expect(failure).toBeUndefined();
      expect(tiles?.mapTileAttribution).toBe(`Google Maps · ${FALLBACK_COPYRIGHT}`);
      expect(tiles?.mapTileUrl).toContain(`session=${standIn.sessions.at(-1) ?? ''}`);
    } finally {
      delete standIn.viewportDown;
    }
  });
});
