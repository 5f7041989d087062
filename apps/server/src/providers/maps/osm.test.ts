import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startNominatim } from '../../../test/stand-ins/nominatim';
import polylineCodec from '@googlemaps/polyline-codec';
import { greatCircleKm } from '@rideway/domain';
import { MATCH_FACTOR, standInMatching, standInRoute, startOsrm, type OsrmStandIn } from '../../../test/stand-ins/osrm';
import { displayName, OSM_PLACES } from '../../../test/stand-ins/osm-places';
import { startPhoton } from '../../../test/stand-ins/photon';
import type { StandIn, StandInMode } from '../../../test/stand-ins/stand-in-server';
import { osmMaps, type OsmOptions } from './osm';
import { TRACE_RADIUS_M } from './osrm';
import { MapsProviderError, type MapsPort } from './port';

const KINGS_CROSS = { lat: 51.5308, lng: -0.1238 };
const TOWER = { lat: 51.5081, lng: -0.0759 };
const OLD_STREET = { lat: 51.52, lng: -0.1 };
const ANTARCTICA = { lat: -75, lng: 0 };
const USER_AGENT = 'Rideway/0.1 (https://rideway.example; tests)';
const [MUSEUM, STATION] = OSM_PLACES;

/** A port on this machine that nobody listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => { resolve(); }));
  return port;
}

/** The MapsProviderError a call rejects with (it must reject with one). */
async function failureOf(call: Promise<unknown>): Promise<MapsProviderError> {
  const error: unknown = await call.then(() => undefined, (reason: unknown) => reason);
  expect(error).toBeInstanceOf(MapsProviderError);
  return error as MapsProviderError;
}

describe('the osm maps adapter against local OSRM, Nominatim and Photon stand-ins', () => {
  let osrm: OsrmStandIn;
  let nominatim: StandIn;
  let photon: StandIn;
  let options: OsmOptions;
  let maps: MapsPort;

  beforeAll(async () => {
    [osrm, nominatim, photon] = await Promise.all([startOsrm(), startNominatim(), startPhoton()]);
    options = { osrmUrl: osrm.url, nominatimUrl: `${nominatim.url}/`, timeoutMs: 300, userAgent: USER_AGENT };
    maps = osmMaps(options);
  });
  afterAll(async () => {
    await Promise.all([osrm.close(), nominatim.close(), photon.close()]);
  });
  beforeEach(() => {
    for (const standIn of [osrm, nominatim, photon]) {
      standIn.mode = 'ok';
      standIn.requests.length = 0;
    }
    osrm.match = 'ok';
  });

  describe('routes (OSRM route service)', () => {
    it("answers the road network's distance (km), duration (s) and polyline, not approximate", async () => {
      const expected = standInRoute([KINGS_CROSS, TOWER]);
      expect(await maps.route([KINGS_CROSS, TOWER])).toEqual({
        distanceKm: Math.round(expected.metres) / 1000,
        durationSeconds: Math.round(expected.seconds),
        polylinePoints: expected.geometry,
        approximate: false,
      });
      const [request] = osrm.requests;
      expect(request?.path).toBe('/route/v1/driving/-0.123800,51.530800;-0.075900,51.508100');
      expect(Object.fromEntries(request?.query ?? [])).toEqual({ overview: 'full', geometries: 'polyline', steps: 'false' });
      expect(request?.headers['user-agent']).toBe(USER_AGENT);
    });

    it('routes through waypoints in order', async () => {
      const route = await maps.route([KINGS_CROSS, OLD_STREET, TOWER]);
      expect(route?.distanceKm).toBe(Math.round(standInRoute([KINGS_CROSS, OLD_STREET, TOWER]).metres) / 1000);
      expect(osrm.requests[0]?.path.split('/').pop()?.split(';')).toHaveLength(3);
    });

    it('answers no route (undefined) for NoRoute, and asks nothing for fewer than two points', async () => {
      expect(await maps.route([KINGS_CROSS, ANTARCTICA])).toBeUndefined();
      osrm.mode = 'nothing';
      expect(await maps.route([KINGS_CROSS, TOWER])).toBeUndefined();
      const asked = osrm.requests.length;
      expect(await maps.route([KINGS_CROSS])).toBeUndefined();
      expect(await maps.route([KINGS_CROSS, { lat: 95, lng: 0 }])).toBeUndefined();
      expect(osrm.requests).toHaveLength(asked);
    });

    it.each<[StandInMode, MapsProviderError['reason']]>([
      ['hang', 'timeout'],
      ['fail', 'failed'],
      ['garbage', 'malformed'],
      ['wrongShape', 'malformed'],
    ])('a provider that answers %s is a MapsProviderError (%s) carrying no_route_found, never a route', async (mode, reason) => {
      osrm.mode = mode;
      const error = await failureOf(maps.route([KINGS_CROSS, TOWER]));
      expect([error.provider, error.reason, error.key]).toEqual(['osrm', reason, 'no_route_found']);
    });

    it('a server that is not there refuses', async () => {
      const gone = osmMaps({ ...options, osrmUrl: `http://127.0.0.1:${await closedPort()}` });
      const error = await failureOf(gone.route([KINGS_CROSS, TOWER]));
      expect([error.reason, error.key]).toEqual(['refused', 'no_route_found']);
    });

    it('the stand-in refuses a malformed coordinate list as OSRM does (400 InvalidQuery)', async () => {
      const response = await fetch(`${osrm.url}/route/v1/driving/51.5,-0.12;abc`);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'InvalidQuery' });
    });
  });

  describe('route tables (OSRM table service)', () => {
    it('answers every origin to every destination in one call, undefined where no road joins them', async () => {
      const table = await maps.table([KINGS_CROSS, OLD_STREET], [TOWER, ANTARCTICA]);
      const leg = (from: typeof KINGS_CROSS) => {
        const { metres, seconds } = standInRoute([from, TOWER]);
        return { distanceKm: Math.round(metres) / 1000, durationSeconds: Math.round(seconds) };
      };
      expect(table).toEqual([[leg(KINGS_CROSS), undefined], [leg(OLD_STREET), undefined]]);
      expect(osrm.requests).toHaveLength(1);
      const [request] = osrm.requests;
      expect(request?.path.startsWith('/table/v1/driving/')).toBe(true);
      expect(Object.fromEntries(request?.query ?? [])).toEqual({ sources: '0;1', destinations: '2;3', annotations: 'duration,distance' });
    });

    it('asks nothing for an empty side, and answers no route everywhere for NoTable', async () => {
      expect(await maps.table([], [TOWER])).toEqual([]);
      expect(await maps.table([KINGS_CROSS], [])).toEqual([[]]);
      expect(osrm.requests).toHaveLength(0);
      osrm.mode = 'nothing';
      expect(await maps.table([KINGS_CROSS], [TOWER, OLD_STREET])).toEqual([[undefined, undefined]]);
    });

    it.each<[StandInMode, MapsProviderError['reason']]>([
      ['hang', 'timeout'],
      ['fail', 'failed'],
      ['garbage', 'malformed'],
      ['wrongShape', 'malformed'],
    ])('a provider that answers %s is a MapsProviderError (%s)', async (mode, reason) => {
      osrm.mode = mode;
      const error = await failureOf(maps.table([KINGS_CROSS, OLD_STREET], [TOWER]));
      expect([error.reason, error.key]).toEqual([reason, 'no_route_found']);
    });
  });

  describe('GPS traces (OSRM match service)', () => {
    const T0 = 1_767_000_000_000;
    const trace = [
      { ...KINGS_CROSS, at: T0 },
      { ...OLD_STREET, at: T0 + 240_500 },
      { lat: 51.514, lng: -0.088, at: T0 + 400_000 },
      { ...TOWER, at: T0 + 600_999 },
    ];
    const km = (metres: number) => Math.round(metres) / 1000;

    it("answers the matched road's distance and duration, asked with the documented options, timestamps in seconds and a radius per point", async () => {
      const expected = standInMatching(trace);
      expect(await maps.matchTrace?.(trace)).toEqual({ distanceKm: km(expected.metres), durationSeconds: Math.round(expected.seconds), polylinePoints: expected.geometry, approximate: false });
      const [request] = osrm.requests;
      expect(request?.path).toBe('/match/v1/driving/-0.123800,51.530800;-0.100000,51.520000;-0.088000,51.514000;-0.075900,51.508100');
      expect(Object.fromEntries(request?.query ?? [])).toEqual({
        overview: 'full',
        geometries: 'polyline',
        radiuses: Array.from({ length: 4 }, () => String(TRACE_RADIUS_M)).join(';'),
        gaps: 'ignore',
        timestamps: [T0, T0 + 240_500, T0 + 400_000, T0 + 600_999].map((at) => String(Math.floor(at / 1000))).join(';'),
      });
      expect(request?.headers['user-agent']).toBe(USER_AGENT);
      // Not the route through every point: the matched road is shorter than its detours.
      expect(expected.metres).toBeLessThan(standInRoute(trace).metres);
    });

    it('leaves the timestamps out when a point has none or they go backwards, rather than be refused', async () => {
      await maps.matchTrace?.([KINGS_CROSS, { ...OLD_STREET, at: T0 }, TOWER]);
      await maps.matchTrace?.([{ ...KINGS_CROSS, at: T0 + 5000 }, { ...TOWER, at: T0 }]);
      expect(osrm.requests.map((request) => request.query.has('timestamps'))).toEqual([false, false]);
    });

    it('sums the matchings of a trace split in two, with the straight line between them, and joins their lines', async () => {
      // An outlier in Antarctica is left out; the jump to Oxford splits the trace.
      const OXFORD = { lat: 51.752, lng: -1.2577 };
      const HEADINGTON = { lat: 51.7606, lng: -1.2203 };
      const split = [KINGS_CROSS, OLD_STREET, ANTARCTICA, OXFORD, HEADINGTON];
      const first = standInMatching([KINGS_CROSS, OLD_STREET]);
      const second = standInMatching([OXFORD, HEADINGTON]);
      const route = await maps.matchTrace?.(split);
      expect(route?.distanceKm).toBe(km(first.metres + second.metres + greatCircleKm(OLD_STREET, OXFORD) * 1000));
      expect(route?.durationSeconds).toBe(Math.round(first.seconds + second.seconds));
      expect(polylineCodec.decode(route?.polylinePoints ?? '', 5)).toEqual([...polylineCodec.decode(first.geometry, 5), ...polylineCodec.decode(second.geometry, 5)]);
      expect(MATCH_FACTOR).toBeLessThan(1.4);
    });

    it('answers no match (undefined) for NoMatch, and asks nothing for fewer than two points', async () => {
      osrm.match = 'NoMatch';
      expect(await maps.matchTrace?.(trace)).toBeUndefined();
      osrm.match = 'ok';
      expect(await maps.matchTrace?.([ANTARCTICA, { lat: -80, lng: 10 }, { lat: -81, lng: 10 }])).toBeUndefined();
      osrm.mode = 'nothing';
      expect(await maps.matchTrace?.(trace)).toBeUndefined();
      const asked = osrm.requests.length;
      expect(await maps.matchTrace?.([KINGS_CROSS])).toBeUndefined();
      expect(await maps.matchTrace?.([KINGS_CROSS, { lat: 95, lng: 0 }])).toBeUndefined();
      expect(osrm.requests).toHaveLength(asked);
    });

    it.each<[StandInMode, MapsProviderError['reason']]>([
      ['hang', 'timeout'],
      ['fail', 'failed'],
      ['garbage', 'malformed'],
      ['wrongShape', 'malformed'],
    ])('a provider that answers %s is a MapsProviderError (%s) carrying no_route_found', async (mode, reason) => {
      osrm.mode = mode;
      const error = await failureOf(maps.matchTrace?.(trace) ?? Promise.resolve());
      expect([error.provider, error.reason, error.key]).toEqual(['osrm', reason, 'no_route_found']);
    });

    it('an OSRM that refuses the match (TooBig) is refused, for the caller to route instead', async () => {
      osrm.match = 'refused';
      const error = await failureOf(maps.matchTrace?.(trace) ?? Promise.resolve());
      expect([error.reason, error.message]).toEqual(['refused', 'osrm matchTrace: TooBig: Too many trace coordinates']);
    });

    it('the stand-in refuses timestamps that go backwards or miscount, as OSRM does', async () => {
      const ask = async (query: string) => (await fetch(`${osrm.url}/match/v1/driving/-0.12,51.53;-0.1,51.52?${query}`)).json() as Promise<{ code: string }>;
      expect((await ask('timestamps=20;10')).code).toBe('InvalidValue');
      expect((await ask('timestamps=10')).code).toBe('InvalidOptions');
      expect((await ask('radiuses=5;x')).code).toBe('InvalidOptions');
      expect((await ask('gaps=never')).code).toBe('InvalidOptions');
    });
  });

  describe('places and addresses (Nominatim)', () => {
    it('searches with Nominatim when no Photon is set: OSM type and id as the place_id', async () => {
      expect(await maps.autocomplete('  baker   street ')).toEqual([{ place_id: `N${MUSEUM?.osmId}`, description: displayName(MUSEUM!) }]);
      const [request] = nominatim.requests;
      expect(request?.path).toBe('/search');
      expect(Object.fromEntries(request?.query ?? [])).toEqual({ q: 'baker street', limit: '8', format: 'jsonv2' });
      expect(request?.headers['user-agent']).toBe(USER_AGENT);
    });

    it('answers a typed "lat,lng" itself and ignores text too short to search, asking no one', async () => {
      expect(await maps.autocomplete('51.5, -0.12')).toEqual([{ place_id: 'latlng:51.5,-0.12', description: '51.5, -0.12' }]);
      expect(await maps.placeById('latlng:51.5,-0.12')).toEqual({ lat: 51.5, lng: -0.12, add: '51.5, -0.12' });
      expect(await maps.autocomplete('ba')).toEqual([]);
      expect(await maps.placeById('nowhere')).toBeUndefined();
      expect(await maps.placeById('latlng:95,0')).toBeUndefined();
      expect(nominatim.requests).toHaveLength(0);
    });

    it('looks a place up by its OSM type and id', async () => {
      expect(await maps.placeById(`W${STATION?.osmId}`)).toEqual({ lat: STATION?.lat, lng: STATION?.lng, add: displayName(STATION!) });
      expect(Object.fromEntries(nominatim.requests[0]?.query ?? [])).toEqual({ osm_ids: `W${STATION?.osmId}`, format: 'jsonv2' });
      expect(await maps.placeById('N1')).toBeUndefined();
    });

    it('reverse-geocodes to the nearest object, or the point itself where there is no data', async () => {
      expect(await maps.reverseGeocode({ lat: 51.5082, lng: -0.076 })).toBe(displayName(OSM_PLACES[2]!));
      expect(Object.fromEntries(nominatim.requests[0]?.query ?? [])).toEqual({ lat: '51.508200', lon: '-0.076000', format: 'jsonv2' });
      expect(await maps.reverseGeocode({ lat: 10, lng: 10 })).toBe('10.00000, 10.00000');
      nominatim.mode = 'nothing';
      expect(await maps.autocomplete('Tower of London')).toEqual([]);
      expect(await maps.placeById(`W${STATION?.osmId}`)).toBeUndefined();
    });

    it.each<[StandInMode, MapsProviderError['reason']]>([
      ['hang', 'timeout'],
      ['fail', 'failed'],
      ['garbage', 'malformed'],
      ['wrongShape', 'malformed'],
    ])('a provider that answers %s fails each call with its key (%s)', async (mode, reason) => {
      nominatim.mode = mode;
      const failures = await Promise.all([
        failureOf(maps.autocomplete('Tower of London')),
        failureOf(maps.placeById(`W${STATION?.osmId}`)),
        failureOf(maps.reverseGeocode(TOWER)),
      ]);
      expect(failures.map((error) => [error.provider, error.reason, error.key])).toEqual([
        ['nominatim', reason, 'google_places_error'],
        ['nominatim', reason, 'google_places_error'],
        ['nominatim', reason, 'place_to_coords_error'],
      ]);
    });

    it("is refused without a User-Agent naming the application (Nominatim's usage policy)", async () => {
      const anonymous = osmMaps({ ...options, userAgent: 'node' });
      const error = await failureOf(anonymous.reverseGeocode(TOWER));
      expect([error.reason, error.key, error.message]).toEqual(['refused', 'place_to_coords_error', 'nominatim reverseGeocode: HTTP 403']);
    });
  });

  describe('type-ahead (Photon)', () => {
    it('suggests from Photon when set, with ids Nominatim looks up', async () => {
      const typing = osmMaps({ ...options, photonUrl: photon.url });
      const suggestions = await typing.autocomplete('tower');
      expect(suggestions).toEqual([{ place_id: `R${OSM_PLACES[2]?.osmId}`, description: 'Tower of London, London, United Kingdom' }]);
      expect(Object.fromEntries(photon.requests[0]?.query ?? [])).toEqual({ q: 'tower', limit: '8' });
      expect(nominatim.requests).toHaveLength(0);
      expect(await typing.placeById(suggestions[0]?.place_id ?? '')).toEqual({ lat: 51.5081, lng: -0.0759, add: displayName(OSM_PLACES[2]!) });
      expect((await typing.autocomplete('baker'))[0]?.description).toBe('Sherlock Holmes Museum, 221b Baker Street, London, United Kingdom');
    });

    it.each<[StandInMode, MapsProviderError['reason']]>([
      ['hang', 'timeout'],
      ['fail', 'failed'],
      ['garbage', 'malformed'],
      ['wrongShape', 'malformed'],
    ])('a Photon that answers %s fails the search with google_places_error (%s)', async (mode, reason) => {
      photon.mode = mode;
      const error = await failureOf(osmMaps({ ...options, photonUrl: photon.url }).autocomplete('tower'));
      expect([error.provider, error.reason, error.key]).toEqual(['photon', reason, 'google_places_error']);
    });
  });
});
