import { kmInUnit, type LatLng } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookings } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { offlineMaps } from '../../src/providers/maps/offline';
import { MapsProviderError, type MapsPort } from '../../src/providers/maps/port';
import { drop, pickup, sedan } from '../fixtures';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';

/**
 * Issue 16: GET /api/bookings/:id/eta, the rider's "your driver is N min away": the trip's
 * parties only, one maps call per booking and window however many ask, and the spec's keys
 * (never a 500) when there is nothing to answer.
 */

// Degrees of latitude per km, near London.
const northOfPickup = (km: number) => ({ lat: pickup.lat + km / 111.195, lng: pickup.lng });
const FOUR_KM = northOfPickup(4);

describe.each(ENGINES)('the ETA of a trip on %s (issue 16)', (engine) => {
  let t: TestApp;
  let admin: UserRow;
  const offline = offlineMaps();
  const routeCalls: LatLng[][] = [];
  let route: MapsPort['route'] = (points) => offline.route(points);
  const maps: MapsPort = {
    ...offline,
    provider: 'fake',
    route(points) {
      routeCalls.push(points);
      return route(points);
    },
  };

  const eta = (id: string, as: UserRow | null) => t.request({ method: 'GET', url: `/api/bookings/${id}/eta`, as });
  const step = async (id: string, name: string, as: UserRow) => {
    const response = await t.request({ method: 'POST', url: `/api/bookings/${id}/${name}`, as, payload: {} });
    if (response.statusCode !== 200) throw new Error(`${name}: ${response.body}`);
  };
  const move = (driver: UserRow, position: LatLng) => t.request({ method: 'POST', url: '/api/driver/location', as: driver, payload: position });

  /** A rider's booking, accepted by a driver of a fleet, four km north of the pickup. */
  async function acceptedTrip(options: { online?: boolean } = {}) {
    const fleetadmin = await t.makeUser('fleetadmin');
    const driver = await t.makeUser('driver', { carType: 'Sedan', fleetadmin: fleetadmin.id });
    const rider = await t.makeUser('rider');
    // The booking needs a driver in range; the trip's own driver is set on it directly.
    const helper = await t.makeUser('driver', { carType: 'Sedan' });
    await t.goOnline(helper, northOfPickup(1));
    const booked = await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', payment_mode: 'cash' } });
    const { id } = booked.json<{ id: string }>();
    await t.request({ method: 'PATCH', url: '/api/driver/status', as: helper, payload: { driverActiveStatus: false } });
    if (options.online !== false) await t.goOnline(driver, FOUR_KM);
    await t.db.update(bookings).set({ requestedDrivers: { [driver.id]: true } }).where(eq(bookings.id, id));
    await step(id, 'accept', driver);
    // The estimate's route is not the ETA's.
    routeCalls.length = 0;
    return { id, rider, driver, fleetadmin };
  }

  beforeAll(async () => {
    t = await createTestApp(engine, { OFFER_BATCH_SIZE: '1' }, { maps });
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    routeCalls.length = 0;
    route = (points) => offline.route(points);
    await t.setSettings({});
  });

  it("answers the driver's road distance and time to the pickup, then to the drop once started", async () => {
    const { id, rider, driver } = await acceptedTrip();
    const expected = await offline.route([FOUR_KM, { lat: pickup.lat, lng: pickup.lng }]);
    const answer = await eta(id, rider);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ target: 'pickup', distance: expected?.distanceKm, duration: expected?.durationSeconds, approximate: true, at: t.clock.now });
    expect(routeCalls).toEqual([[FOUR_KM, { lat: pickup.lat, lng: pickup.lng }]]);

    await move(driver, pickup);
    await step(id, 'arrive', driver);
    await step(id, 'start', driver);
    const started = await eta(id, rider);
    expect(started.json()).toMatchObject({ target: 'drop', approximate: true });
    expect(routeCalls.at(-1)).toEqual([{ lat: pickup.lat, lng: pickup.lng }, { lat: drop.lat, lng: drop.lng }]);

    await step(id, 'reach', driver);
    const reached = await eta(id, rider);
    expect([reached.statusCode, codeOf(reached)]).toEqual([409, 'invalid_transition']);
  });

  it('is in miles when convert_to_mile', async () => {
    const { id, rider } = await acceptedTrip();
    await t.setSettings({ convert_to_mile: true });
    const km = (await offline.route([FOUR_KM, pickup]))?.distanceKm ?? 0;
    expect((await eta(id, rider)).json().distance).toBe(Math.round(kmInUnit(km, true) * 1000) / 1000);
  });

  it('a flood costs one maps call per booking and window; the driver moving over 50 m or 30 s passing asks again', async () => {
    const { id, rider, driver } = await acceptedTrip();
    const answers = await Promise.all(Array.from({ length: 20 }, () => eta(id, rider)));
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    expect(routeCalls).toHaveLength(1);
    // About 20 m: the same answer.
    await move(driver, { lat: FOUR_KM.lat + 0.00018, lng: FOUR_KM.lng });
    t.advance(10_000);
    expect((await eta(id, driver)).statusCode).toBe(200);
    expect(routeCalls).toHaveLength(1);
    // About 110 m: asked again.
    await move(driver, { lat: FOUR_KM.lat + 0.001, lng: FOUR_KM.lng });
    expect((await eta(id, rider)).json().at).toBe(t.clock.now);
    expect(routeCalls).toHaveLength(2);
    // Older than 30 s: asked again.
    t.advance(30_001);
    await eta(id, rider);
    expect(routeCalls).toHaveLength(3);
  });

  it("is for the trip's parties: its rider, its driver, their fleet admin and admins; anyone else gets the 404 of a missing booking", async () => {
    const { id, rider, driver, fleetadmin } = await acceptedTrip();
    for (const party of [rider, driver, fleetadmin, admin]) expect((await eta(id, party)).statusCode, party.usertype).toBe(200);
    const missing = await eta('00000000-0000-4000-8000-000000000000', rider);
    for (const stranger of [await t.makeUser('rider'), await t.makeUser('driver', { carType: 'Sedan' }), await t.makeUser('fleetadmin')]) {
      const refused = await eta(id, stranger);
      expect([refused.statusCode, refused.json()], stranger.usertype).toEqual([404, missing.json()]);
    }
    const anonymous = await eta(id, null);
    expect([anonymous.statusCode, codeOf(anonymous)]).toEqual([401, 'not_logged_in']);
  });

  it('has none before a driver took the trip (409), nor without a known position of the driver (404 location_fetch_error)', async () => {
    const helper = await t.makeUser('driver', { carType: 'Sedan' });
    await t.goOnline(helper, northOfPickup(1));
    const rider = await t.makeUser('rider');
    const { id } = (await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan' } })).json<{ id: string }>();
    routeCalls.length = 0;
    const waiting = await eta(id, rider);
    expect([waiting.statusCode, codeOf(waiting)]).toEqual([409, 'invalid_transition']);
    await t.request({ method: 'PATCH', url: '/api/driver/status', as: helper, payload: { driverActiveStatus: false } });

    const unplaced = await acceptedTrip({ online: false });
    const unknown = await eta(unplaced.id, unplaced.rider);
    expect([unknown.statusCode, codeOf(unknown)]).toEqual([404, 'location_fetch_error']);
    expect(routeCalls).toEqual([]);
  });

  it.each([
    ['fails', () => Promise.reject(new MapsProviderError('fake', 'timeout', 'no_route_found', 'timed out'))],
    ['finds no road', () => Promise.resolve(undefined)],
  ])('when the maps provider %s: 422 no_route_found, never a 500, and the flood still asks once', async (_case, broken) => {
    const { id, rider } = await acceptedTrip();
    route = broken;
    const answers = await Promise.all(Array.from({ length: 5 }, () => eta(id, rider)));
    expect(answers.map((answer) => [answer.statusCode, codeOf(answer)])).toEqual(Array.from({ length: 5 }, () => [422, 'no_route_found']));
    expect(routeCalls).toHaveLength(1);
  });

  it('a flood of requests past the limit is cut off with 429 and Retry-After', async () => {
    const { id, rider } = await acceptedTrip();
    const answers = [];
    for (let i = 0; i < 61; i += 1) answers.push(await eta(id, rider));
    expect(answers.slice(0, 60).every((answer) => answer.statusCode === 200)).toBe(true);
    const refused = answers[60]!;
    expect([refused.statusCode, codeOf(refused)]).toEqual([429, 'too_many_requests']);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(routeCalls).toHaveLength(1);
  });
});
