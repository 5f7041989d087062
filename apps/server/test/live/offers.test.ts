import type { LatLng } from '@rideway/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client';
import { bookings, users } from '../../src/db/schema';
import { syncDriver } from '../../src/modules/presence/service';
import type { UserRow } from '../../src/modules/users/accounts';
import { offlineMaps } from '../../src/providers/maps/offline';
import { MapsProviderError, type Leg, type MapsPort } from '../../src/providers/maps/port';
import { drop, pickup, sedan } from '../fixtures';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';

/**
 * Issues 16 and 17: offers go to the drivers who can drive to the pickup soonest (one route-table
 * call per batch, asked with no transaction open), each driver sees its own leg and the offer's
 * timeout, and a driver can decline.
 */

// Degrees of latitude per km, near London.
const northOfPickup = (km: number) => ({ lat: pickup.lat + km / 111.195, lng: pickup.lng });
const OFFER_TIMEOUT_MS = 20_000;

type TableCall = { origins: LatLng[]; destinations: LatLng[]; transactionOpen: boolean };

describe.each(ENGINES)('offers by road time and declines on %s (issues 16 and 17)', (engine) => {
  let t: TestApp;
  let admin: UserRow;
  const drivers: UserRow[] = [];
  const offline = offlineMaps();
  const tableCalls: TableCall[] = [];
  /** What the fake provider's route table answers; the offline estimate unless a test says otherwise. */
  let answer: MapsPort['table'] = (origins, destinations) => offline.table(origins, destinations);

  /**
   * Is a transaction that touched the bookings open right now? On PostgreSQL such a transaction
   * holds a lock on the bookings table until it ends (a read, a row lock or a write, each takes
   * one); PGlite runs one transaction at a time, so a query from outside waits for it: a query
   * that cannot run within 500 ms means one is open.
   */
  const transactionOpen = async (): Promise<boolean> => {
    if (t.engine === 'postgres') {
      const result = await t.db.execute(
        sql`select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation join pg_database d on d.oid = l.database where c.relname = 'bookings' and d.datname = current_database() and l.pid <> pg_backend_pid()`,
      );
      return (rowsOf<{ n: number }>(result)[0]?.n ?? 0) > 0;
    }
    return Promise.race([t.db.execute(sql`select 1`).then(() => false), new Promise<boolean>((resolve) => setTimeout(() => { resolve(true); }, 500))]);
  };

  const maps: MapsPort = {
    ...offline,
    provider: 'fake',
    async table(origins, destinations) {
      tableCalls.push({ origins, destinations, transactionOpen: await transactionOpen() });
      return answer(origins, destinations);
    },
  };

  /** A fake table whose driving time from each origin is looked up by the origin's distance north of the pickup. */
  const timesByKm = (seconds: Record<number, number | undefined>): MapsPort['table'] => (origins) =>
    Promise.resolve(
      origins.map((origin) => {
        const km = Math.round((origin.lat - pickup.lat) * 111.195);
        const time = seconds[km];
        return [time === undefined ? undefined : ({ distanceKm: km * 1.5, durationSeconds: time } satisfies Leg)];
      }),
    );

  const driverAt = async (km: number) => {
    const made = await t.makeUser('driver', { carType: 'Sedan' });
    await t.goOnline(made, northOfPickup(km));
    drivers.push(made);
    return made;
  };
  const book = async (rider: UserRow) => t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', payment_mode: 'cash' } });
  const row = async (id: string) => (await t.db.select().from(bookings).where(eq(bookings.id, id)))[0];
  /** Whom the booking is offered to now (a set: jsonb keeps no key order). */
  const offered = async (id: string) => Object.keys((await row(id))?.requestedDrivers ?? {}).sort();
  const ids = (...people: UserRow[]) => people.map((person) => person.id).sort();
  type Task = { id: string; pickupLeg: { distance: number; duration: number } | null; offerExpiresAt: number | null };
  const tasksOf = async (driver: UserRow) => (await t.request({ method: 'GET', url: '/api/driver/tasks', as: driver })).json().tasks as Task[];
  const decline = (id: string, as: UserRow | null) => t.request({ method: 'POST', url: `/api/bookings/${id}/decline`, as, payload: {} });

  beforeAll(async () => {
    t = await createTestApp(engine, { OFFER_BATCH_SIZE: '2', OFFER_TIMEOUT_S: String(OFFER_TIMEOUT_MS / 1000), NO_TAKER_CANCEL_S: '600', DRIVER_TIMEOUT_S: '0' }, { maps });
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    // Each test sets its own scene: the drivers of earlier tests go offline, their open bookings end.
    await t.db.update(bookings).set({ status: 'CANCELLED', requestedDrivers: {} }).where(eq(bookings.status, 'NEW'));
    for (const d of drivers.splice(0)) {
      await t.db.update(users).set({ driverActiveStatus: false }).where(eq(users.id, d.id));
      await syncDriver(t.app.ctx, d.id);
    }
    tableCalls.length = 0;
    answer = (origins, destinations) => offline.table(origins, destinations);
    await t.setSettings({});
  });

  it('the probe of open transactions sees one (so the checks below can fail)', async () => {
    let inside: boolean | undefined;
    await t.db.transaction(async (tx) => {
      await tx.select({ id: bookings.id }).from(bookings).limit(1).for('update');
      inside = await transactionOpen();
    });
    expect(inside).toBe(true);
    expect(await transactionOpen()).toBe(false);
  });

  it('offers the quickest drivers by road, not the nearest in a straight line, in one table call per batch with no transaction open', async () => {
    const [oneKm, twoKm, threeKm, fourKm, fiveKm] = [await driverAt(1), await driverAt(2), await driverAt(3), await driverAt(4), await driverAt(5)];
    // The driver 1 km away is across the river (15 min); the ones 3 and 2 km away are 1 and 2 min
    // away; the one 5 km away is on the ring road (200 s); no road reaches the one 4 km away.
    answer = timesByKm({ 1: 900, 2: 120, 3: 60, 5: 200 });
    const rider = await t.makeUser('rider');
    const twoKmLive = await t.live(twoKm);
    await twoKmLive.subscribe('user:me');
    const booked = await book(rider);
    expect(booked.statusCode).toBe(201);
    const { id } = booked.json<{ id: string }>();

    // In a straight line the first batch would be the drivers 1 and 2 km away.
    expect(await offered(id)).toEqual(ids(threeKm, twoKm));
    expect(tableCalls).toHaveLength(1);
    expect(tableCalls[0]?.origins).toHaveLength(5);
    expect(tableCalls[0]?.destinations).toEqual([{ lat: pickup.lat, lng: pickup.lng }]);
    expect(tableCalls[0]?.transactionOpen).toBe(false);
    expect((await row(id))?.offerLegs).toEqual({ [threeKm.id]: { distanceKm: 4.5, durationSeconds: 60 }, [twoKm.id]: { distanceKm: 3, durationSeconds: 120 } });

    // Each driver sees its own leg and when the offer times out, live and by HTTP.
    const expiresAt = t.clock.now + OFFER_TIMEOUT_MS;
    const live = await twoKmLive.next((m) => m.event === 'offer');
    expect(live.data).toMatchObject({ id, pickupLeg: { distance: 3, duration: 120 }, offerExpiresAt: expiresAt, requestedDrivers: {} });
    expect(await tasksOf(twoKm)).toEqual([expect.objectContaining({ id, pickupLeg: { distance: 3, duration: 120 }, offerExpiresAt: expiresAt })]);
    expect(await tasksOf(threeKm)).toEqual([expect.objectContaining({ id, pickupLeg: { distance: 4.5, duration: 60 } })]);
    // Never another driver's leg, nor whom else it is offered to.
    expect(JSON.stringify(await tasksOf(twoKm))).not.toContain(threeKm.id);
    const riderView = (await t.request({ method: 'GET', url: `/api/bookings/${id}`, as: rider })).json();
    expect(riderView).not.toHaveProperty('pickupLeg');
    expect(riderView).not.toHaveProperty('offerLegs');

    // The round times out: the next batch by road, found by the job with no transaction open.
    t.advance(OFFER_TIMEOUT_MS);
    await t.runJobs();
    expect(await offered(id)).toEqual(ids(fiveKm, oneKm));
    expect(tableCalls).toHaveLength(2);
    expect(tableCalls[1]?.origins).toHaveLength(3);
    expect(tableCalls[1]?.transactionOpen).toBe(false);
    // And the driver no road joins comes last.
    t.advance(OFFER_TIMEOUT_MS);
    await t.runJobs();
    expect(await offered(id)).toEqual(ids(fourKm));
    expect(await tasksOf(fourKm)).toEqual([expect.objectContaining({ id, pickupLeg: null, offerExpiresAt: t.clock.now + OFFER_TIMEOUT_MS })]);
  });

  it('shows the leg in miles when convert_to_mile', async () => {
    const near = await driverAt(1);
    answer = timesByKm({ 1: 300 });
    await t.setSettings({ convert_to_mile: true });
    const { id } = (await book(await t.makeUser('rider'))).json<{ id: string }>();
    expect(await tasksOf(near)).toEqual([expect.objectContaining({ id, pickupLeg: { distance: Math.round((1.5 / 1.609344) * 1000) / 1000, duration: 300 } })]);
  });

  it.each([
    ['fails', () => Promise.reject(new MapsProviderError('fake', 'failed', 'no_route_found', 'provider answered 503'))],
    ['answers nonsense', () => Promise.resolve([[{ distanceKm: Number.NaN, durationSeconds: -1 }]])],
  ])('when the route table %s, offers in straight-line order and still books', async (_case, broken) => {
    const [oneKm, twoKm] = [await driverAt(1), await driverAt(2)];
    await driverAt(3);
    answer = broken;
    const booked = await book(await t.makeUser('rider'));
    expect(booked.statusCode).toBe(201);
    const { id } = booked.json<{ id: string }>();
    expect(await offered(id)).toEqual(ids(oneKm, twoKm));
    expect(await tasksOf(oneKm)).toEqual([expect.objectContaining({ id, pickupLeg: null })]);
  });

  it("an admin's assignment carries the driver's leg and no timeout", async () => {
    await t.setSettings({ autoDispatch: false });
    const d = await driverAt(2);
    answer = timesByKm({ 2: 240 });
    const { id } = (await book(await t.makeUser('rider'))).json<{ id: string }>();
    tableCalls.length = 0;
    expect((await t.request({ method: 'POST', url: `/api/bookings/${id}/assign`, as: admin, payload: { driver: d.id } })).statusCode).toBe(200);
    expect(tableCalls).toEqual([expect.objectContaining({ transactionOpen: false })]);
    expect(await tasksOf(d)).toEqual([expect.objectContaining({ id, pickupLeg: { distance: 3, duration: 240 }, offerExpiresAt: null })]);
    // Declined, the assignment is withdrawn; with autoDispatch off no round follows.
    expect((await decline(id, d)).statusCode).toBe(200);
    expect(await row(id)).toMatchObject({ requestedDrivers: {}, declinedDrivers: [d.id], dispatchRound: 0 });
  });

  describe('decline (issue 17)', () => {
    it('withdraws the offer from that driver at once; the last one out starts the next round now', async () => {
      const [a, b, c] = [await driverAt(1), await driverAt(2), await driverAt(3)];
      const { id } = (await book(await t.makeUser('rider'))).json<{ id: string }>();
      expect(await offered(id)).toEqual(ids(a, b));
      const aLive = await t.live(a);
      await aLive.subscribe('user:me');

      const declined = await decline(id, a);
      expect([declined.statusCode, declined.json()]).toEqual([200, { bookingId: id }]);
      expect(await aLive.next((m) => m.event === 'offer_withdrawn')).toMatchObject({ data: { bookingId: id } });
      expect(await tasksOf(a)).toEqual([]);
      // b is still offered: the round goes on.
      expect(await row(id)).toMatchObject({ requestedDrivers: { [b.id]: true }, declinedDrivers: [a.id], dispatchRound: 1 });

      t.advance(5000);
      tableCalls.length = 0;
      expect((await decline(id, b)).statusCode).toBe(200);
      // Nobody left in the round: c is offered now, without waiting for the timeout, its candidates found with no transaction open.
      expect(await row(id)).toMatchObject({ requestedDrivers: { [c.id]: true }, dispatchRound: 2 });
      expect(tableCalls.every((call) => !call.transactionOpen)).toBe(true);
      expect(await tasksOf(c)).toEqual([expect.objectContaining({ id, offerExpiresAt: t.clock.now + OFFER_TIMEOUT_MS })]);

      // The first round's timeout finds its round gone and does nothing.
      t.advance(OFFER_TIMEOUT_MS - 5000);
      await t.runJobs();
      expect(await row(id)).toMatchObject({ requestedDrivers: { [c.id]: true }, dispatchRound: 2 });
      // Everyone was asked: the search starts over, but never with the drivers who declined.
      t.advance(5000);
      await t.runJobs();
      expect(await row(id)).toMatchObject({ requestedDrivers: { [c.id]: true }, dispatchRound: 3 });
      expect([await tasksOf(a), await tasksOf(b)]).toEqual([[], []]);
    });

    it('a replay, alone or ten at once, answers the same and starts no second round', async () => {
      const [a, b] = [await driverAt(1), await driverAt(2)];
      await driverAt(3);
      const { id } = (await book(await t.makeUser('rider'))).json<{ id: string }>();
      expect((await decline(id, b)).statusCode).toBe(200);
      const replays = await Promise.all(Array.from({ length: 10 }, () => decline(id, b)));
      expect(replays.map((r) => [r.statusCode, r.json()])).toEqual(Array.from({ length: 10 }, () => [200, { bookingId: id }]));
      expect(await row(id)).toMatchObject({ requestedDrivers: { [a.id]: true }, declinedDrivers: [b.id], dispatchRound: 1 });

      // The round's last driver declining ten times at once starts exactly one next round.
      const last = await Promise.all(Array.from({ length: 10 }, () => decline(id, a)));
      expect(last.every((r) => r.statusCode === 200)).toBe(true);
      expect(await row(id)).toMatchObject({ declinedDrivers: [b.id, a.id], dispatchRound: 2 });
    });

    it('refuses a driver never offered the trip (404, like a missing booking), and one after the trip was taken (409)', async () => {
      const [a, b] = [await driverAt(1), await driverAt(2)];
      const stranger = await t.makeUser('driver', { carType: 'Sedan' });
      const { id } = (await book(await t.makeUser('rider'))).json<{ id: string }>();
      const notOffered = await decline(id, stranger);
      const missing = await decline('00000000-0000-4000-8000-000000000000', stranger);
      expect([notOffered.statusCode, codeOf(notOffered)]).toEqual([404, 'not_found']);
      expect(notOffered.json()).toEqual(missing.json());

      expect((await t.request({ method: 'POST', url: `/api/bookings/${id}/accept`, as: a })).statusCode).toBe(200);
      for (const late of [b, a]) {
        const refused = await decline(id, late);
        expect([refused.statusCode, codeOf(refused)]).toEqual([409, 'invalid_transition']);
      }
      expect(await row(id)).toMatchObject({ status: 'ACCEPTED', driver: a.id, declinedDrivers: [] });
    });

    it('is for drivers only: a rider, an admin (403) and anyone signed out (401) are refused, and nothing changes', async () => {
      const a = await driverAt(1);
      const rider = await t.makeUser('rider');
      const { id } = (await book(rider)).json<{ id: string }>();
      for (const [as, status, code] of [[rider, 403, 'forbidden'], [admin, 403, 'forbidden'], [null, 401, 'not_logged_in']] as const) {
        const refused = await decline(id, as);
        expect([refused.statusCode, codeOf(refused)]).toEqual([status, code]);
      }
      expect(await row(id)).toMatchObject({ requestedDrivers: { [a.id]: true }, declinedDrivers: [] });
    });

    it('a flood of declines is cut off with 429 and Retry-After', async () => {
      const flooder = await t.makeUser('driver', { carType: 'Sedan' });
      const answers = [];
      for (let i = 0; i < 31; i += 1) answers.push(await decline('00000000-0000-4000-8000-000000000000', flooder));
      expect(answers.slice(0, 30).every((r) => r.statusCode === 404)).toBe(true);
      const refused = answers[30]!;
      expect([refused.statusCode, codeOf(refused)]).toEqual([429, 'too_many_requests']);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    });
  });
});
