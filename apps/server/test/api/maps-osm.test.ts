import { fareFor, greatCircleKm, type LatLng } from '@rideway/domain';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookings } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { drop, pickup, sedan } from '../fixtures';
import { codeOf, createTestApp, driveTrip, ENGINES, NEAR_PICKUP, type TestApp } from '../harness';
import { expectSection7Routes, MIDPOINT } from '../maps-routes';
import { startNominatim } from '../stand-ins/nominatim';
import { displayName, OSM_PLACES } from '../stand-ins/osm-places';
import { standInMatching, standInRoute, startOsrm, type OsrmStandIn } from '../stand-ins/osrm';
import { startPhoton } from '../stand-ins/photon';
import type { StandIn, StandInMode } from '../stand-ins/stand-in-server';

/** The route the OSRM stand-in answers through these points, as the adapter reads it (km, whole seconds). */
const road = (points: LatLng[]) => {
  const { metres, seconds, geometry } = standInRoute(points);
  return { km: Math.round(metres) / 1000, seconds: Math.round(seconds), polyline: geometry };
};
const TOWER = OSM_PLACES[2]!;

describe.each(ENGINES)('real maps (MAPS_PROVIDER=osm) against local OSRM, Nominatim and Photon on %s', (engine) => {
  let t: TestApp;
  let osrm: OsrmStandIn;
  let nominatim: StandIn;
  let photon: StandIn;
  let admin: UserRow;
  let rider: UserRow;

  const setModes = (mode: StandInMode) => {
    for (const standIn of [osrm, nominatim, photon]) standIn.mode = mode;
  };
  const post = (url: string, payload: Record<string, unknown>, as: UserRow = rider) => t.request({ method: 'POST', url, as, payload });
  const bookingCount = async () => (await t.db.select({ n: count() }).from(bookings))[0]?.n ?? 0;

  beforeAll(async () => {
    [osrm, nominatim, photon] = await Promise.all([startOsrm(), startNominatim(), startPhoton()]);
    t = await createTestApp(engine, {
      MAPS_PROVIDER: 'osm',
      OSRM_URL: osrm.url,
      NOMINATIM_URL: nominatim.url,
      PHOTON_URL: photon.url,
      MAPS_TIMEOUT_MS: '400',
      // Every call reaches the stand-ins (the cache has its own tests).
      MAPS_CACHE_S: '0',
    });
    admin = await t.makeUser('admin');
    rider = await t.makeUser('rider');
    await post('/api/cartypes', sedan, admin);
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([osrm.close(), nominatim.close(), photon.close()]);
  });
  beforeEach(() => {
    setModes('ok');
    for (const standIn of [osrm, nominatim, photon]) {
      standIn.requests.length = 0;
      delete standIn.beforeAnswer;
    }
    osrm.match = 'ok';
  });

  /** A cash trip booked by the rider and accepted by a new driver: its id and driver. */
  const acceptedTrip = async () => {
    const driver = await t.makeUser('driver', { carType: 'Sedan' });
    await t.goOnline(driver);
    const { id } = (await post('/api/bookings', { pickup, drop, carType: 'Sedan', payment_mode: 'cash' })).json<{ id: string }>();
    await t.db.update(bookings).set({ requestedDrivers: { [driver.id]: true } }).where(eq(bookings.id, id));
    expect((await post(`/api/bookings/${id}/accept`, {}, driver)).statusCode).toBe(200);
    return { id, driver };
  };

  it("estimates with OSRM's road distance and duration, not the gazetteer's guess", async () => {
    const expected = road([pickup, drop]);
    const response = await post('/api/estimates', { pickup, drop, carType: 'Sedan' });
    expect(response.statusCode).toBe(200);
    const fare = fareFor(sedan, { distance: expected.km, duration: expected.seconds });
    expect(response.json()).toMatchObject({ distance: expected.km, duration: expected.seconds, approximate: false, estimateFare: fare.grandTotal, grandTotal: fare.grandTotal });
    expect(osrm.requests[0]?.path).toBe('/route/v1/driving/-0.123800,51.530800;-0.075900,51.508100');
  });

  it('answers the section 7 maps calls from the providers, with their payloads', async () => {
    const search = await post('/googleapis-autocomplete', { searchKeyword: 'tower' });
    expect(search.json()).toEqual({ searchResults: [{ place_id: `R${TOWER.osmId}`, description: 'Tower of London, London, United Kingdom' }] });
    const coords = await post('/googleapis-getcoords', { place_id: `R${TOWER.osmId}` });
    expect(coords.json()).toEqual({ coords: { lat: TOWER.lat, lng: TOWER.lng }, address: displayName(TOWER) });
    expect((await post('/googleapis-getaddress', { latlng: '51.5081,-0.0759' })).json()).toEqual({ address: displayName(TOWER) });
    await expectSection7Routes(post, road);
    expect(codeOf(await post('/googleapis-getcoords', { place_id: 'N1' }))).toBe('google_places_error');
  });

  it("books at the provider's quote, and a trip reached after tracking is charged by OSRM's matched road distance, asked with no transaction open", async () => {
    const driver = await t.makeUser('driver', { carType: 'Sedan' });
    await t.goOnline(driver);
    const booked = await post('/api/bookings', { pickup, drop, carType: 'Sedan', payment_mode: 'cash' });
    expect(booked.statusCode).toBe(201);
    const quote = road([pickup, drop]);
    expect(booked.json()).toMatchObject({ estimateDistance: quote.km, estimateTime: quote.seconds, estimate: fareFor(sedan, { distance: quote.km, duration: quote.seconds }).grandTotal });
    const { id } = booked.json<{ id: string }>();
    await t.db.update(bookings).set({ requestedDrivers: { [driver.id]: true } }).where(eq(bookings.id, id));
    expect((await post(`/api/bookings/${id}/accept`, {}, driver)).statusCode).toBe(200);

    // While the provider is asked at reach, the booking's row can be locked from outside: the
    // step asks first, then opens its transaction (ARCHITECTURE rule 2).
    const lockedWhileAsked: string[] = [];
    // The route and the address are asked at once: the probes take turns, so neither sees the other's lock.
    let probes = Promise.resolve();
    const probe = async () => {
      try {
        await t.db.transaction(async (tx) => {
          await tx.select({ id: bookings.id }).from(bookings).where(eq(bookings.id, id)).for('update', { noWait: true });
        });
        lockedWhileAsked.push('free');
      } catch {
        lockedWhileAsked.push('held by a transaction');
      }
    };
    const tryLock = () => {
      probes = probes.then(probe);
      return probes;
    };
    osrm.beforeAnswer = tryLock;
    nominatim.beforeAnswer = tryLock;
    const reached = await driveTrip(t, driver, id, [MIDPOINT, drop]);
    expect(lockedWhileAsked).toEqual(['free', 'free']);

    // Section 9: the tracked points (start, the reports, the reach position) as one GPS trace,
    // matched to the roads by OSRM's match service, their times in seconds.
    const trace = [NEAR_PICKUP, MIDPOINT, drop, drop];
    const driven = { km: Math.round(standInMatching(trace).metres) / 1000 };
    expect(driven.km).not.toBe(road(trace).km);
    const matchAsked = osrm.requests.filter((request) => request.path.startsWith('/match/'));
    expect(matchAsked).toHaveLength(1);
    expect(matchAsked[0]?.path.split('/').pop()?.split(';')).toHaveLength(4);
    const seconds = matchAsked[0]?.query.get('timestamps')?.split(';').map(Number) ?? [];
    expect(seconds).toHaveLength(4);
    expect(seconds.every((value, i) => i === 0 || value >= (seconds[i - 1] ?? 0))).toBe(true);
    expect(osrm.requests.filter((request) => request.path.startsWith('/route/')).length).toBe(1);
    const fare = fareFor(sedan, { distance: driven.km, duration: reached.total_trip_time });
    expect(reached).toMatchObject({ status: 'REACHED', distance: driven.km, trip_cost: fare.grandTotal, convenience_fees: fare.convenience_fees, driver_share: fare.totalCost });
    expect(reached.drop).toEqual({ lat: drop.lat, lng: drop.lng, add: displayName(TOWER) });
  });

  it.each<OsrmStandIn['match']>(['NoMatch', 'refused'])('a trace OSRM answers %s for is charged by the route through its points instead', async (matching) => {
    const { id, driver } = await acceptedTrip();
    osrm.match = matching;
    const reached = await driveTrip(t, driver, id, [MIDPOINT, drop]);
    expect(osrm.requests.filter((request) => request.path.startsWith('/match/'))).toHaveLength(1);
    expect(osrm.requests.at(-1)?.path.split('/').pop()?.split(';')).toHaveLength(4);
    expect(reached).toMatchObject({ status: 'REACHED', distance: road([NEAR_PICKUP, MIDPOINT, drop, drop]).km });
  });

  it('two tracked points are the drive-time route, not a match (section 9)', async () => {
    const { id, driver } = await acceptedTrip();
    // The start and the reach position, nothing tracked between.
    const reached = await driveTrip(t, driver, id, []);
    expect(osrm.requests.some((request) => request.path.startsWith('/match/'))).toBe(false);
    expect(osrm.requests.at(-1)?.path.split('/').pop()?.split(';')).toHaveLength(2);
    expect(reached.distance).toBe(road([NEAR_PICKUP, { lat: reached.drop.lat, lng: reached.drop.lng }]).km);
  });

  it.each<StandInMode>(['hang', 'fail', 'garbage', 'wrongShape'])('a provider that answers %s: each call answers its spec key with a 4xx, nothing is stored, no 500', async (mode) => {
    const driver = await t.makeUser('driver', { carType: 'Sedan' });
    await t.goOnline(driver);
    setModes(mode);
    const before = await bookingCount();
    const answers = {
      estimate: await post('/api/estimates', { pickup, drop, carType: 'Sedan' }),
      booking: await post('/api/bookings', { pickup, drop, carType: 'Sedan', payment_mode: 'cash' }),
      drivetime: await post('/googleapis-getdrivetime', { start: '51.5308,-0.1238', dest: '51.5081,-0.0759' }),
      multiloctime: await post('/googleapis-getmultiloctime', { start: '51.5308,-0.1238', waypoints: '51.52,-0.1', dest: '51.5081,-0.0759' }),
      route: await post('/googleapis-getroute', { start: '51.5308,-0.1238', dest: '51.5081,-0.0759' }),
      address: await post('/googleapis-getaddress', { latlng: '51.5081,-0.0759' }),
      autocomplete: await post('/googleapis-autocomplete', { searchKeyword: 'tower' }),
      coords: await post('/googleapis-getcoords', { place_id: `R${TOWER.osmId}` }),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([call, response]) => [call, [response.statusCode, codeOf(response)]]))).toEqual({
      estimate: [422, 'no_route_found'],
      booking: [422, 'no_route_found'],
      drivetime: [422, 'no_route_found'],
      multiloctime: [422, 'no_route_found'],
      route: [422, 'no_route_found'],
      address: [422, 'place_to_coords_error'],
      autocomplete: [422, 'google_places_error'],
      coords: [422, 'google_places_error'],
    });
    expect(await bookingCount()).toBe(before);
  });

  it('a driver at the drop is not held there by a maps outage: the tracked path is charged, the drop kept as a point', async () => {
    const driver = await t.makeUser('driver', { carType: 'Sedan' });
    await t.goOnline(driver);
    const { id } = (await post('/api/bookings', { pickup, drop, carType: 'Sedan', payment_mode: 'cash' })).json<{ id: string }>();
    await t.db.update(bookings).set({ requestedDrivers: { [driver.id]: true } }).where(eq(bookings.id, id));
    await post(`/api/bookings/${id}/accept`, {}, driver);
    osrm.mode = 'fail';
    nominatim.mode = 'hang';
    const reached = await driveTrip(t, driver, id, [MIDPOINT, drop]);
    const path = [NEAR_PICKUP, MIDPOINT, drop, drop];
    const km = path.slice(1).reduce((sum, point, i) => sum + greatCircleKm(path[i]!, point), 0);
    expect(reached).toMatchObject({ status: 'REACHED', distance: Math.round(km * 1000) / 1000 });
    expect(reached.drop).toEqual({ lat: drop.lat, lng: drop.lng, add: '51.50810, -0.07590' });
  });
});
