/**
 * Issue 17, points 1 and 4: the form's prices for every car type in one request
 * (POST /api/estimates/car-types), the rider's live search state on the booking (search_round),
 * and booking again a trip nobody took (POST /api/bookings/:id/retry). Each attack is a test:
 * anonymous, wrong role, another rider's booking, a booking no longer to retry, replays, floods.
 */
import { fareForMinor, fromMinor, NO_TAKER_REASON } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings } from '../../src/db/schema';
import type { MapsPort } from '../../src/providers/maps/port';
import { offlineMaps } from '../../src/providers/maps/offline';
import type { UserRow } from '../../src/modules/users/accounts';
import { drop, pickup, sedan } from '../fixtures';
import { codeOf, createTestApp, ENGINES, NEAR_PICKUP, type TestApp } from '../harness';

const van = { name: 'Van', base_fare: 4, rate_per_unit_distance: 2, rate_per_hour: 20, min_fare: 8, convenience_fees: 1.5, convenience_fee_type: 'flat' as const };
// Rates that price any trip past what the API carries: such a car type cannot price this trip.
const rocket = { name: 'Rocket', base_fare: 0, rate_per_unit_distance: 90_000_000_000, rate_per_hour: 0, min_fare: 0, convenience_fees: 0, convenience_fee_type: 'flat' as const };

type Booking = { id: string; status: string; pickup: unknown; drop: unknown; carType: string; payment_mode: string; search_round?: number; retried_as?: string | null; customer: string };

/** The offline maps, counting the route calls. */
function countingMaps(): { maps: MapsPort; routes: { count: number } } {
  const inner = offlineMaps();
  const routes = { count: 0 };
  return {
    routes,
    maps: {
      ...inner,
      route: (points) => {
        routes.count += 1;
        return inner.route(points);
      },
    },
  };
}

describe.each(ENGINES)('the book flow on %s (issue 17, points 1 and 4)', (engine) => {
  let t: TestApp;
  let admin: UserRow;
  let counted: ReturnType<typeof countingMaps>;

  const prices = (as: UserRow | null, payload: unknown, remoteAddress?: string) =>
    t.request({ method: 'POST', url: '/api/estimates/car-types', as, payload: payload as Record<string, unknown>, ...(remoteAddress ? { remoteAddress } : {}) });
  const book = (as: UserRow, extra: Record<string, unknown> = {}) => t.request({ method: 'POST', url: '/api/bookings', as, payload: { pickup, drop, carType: 'Sedan', ...extra } });
  const retry = (as: UserRow | null, id: string) => t.request({ method: 'POST', url: `/api/bookings/${id}/retry`, as });
  const rowsOf = async (rider: UserRow) => t.db.select().from(bookings).where(eq(bookings.customer, rider.id));
  const read = async (id: string) => (await t.db.select().from(bookings).where(eq(bookings.id, id)))[0];

  /** A driver of the car type online near the pickup, who never accepts. */
  async function silentDriver(): Promise<UserRow> {
    const driver = await t.makeUser('driver', { carType: 'Sedan' });
    await t.goOnline(driver);
    return driver;
  }

  /** A booking of `rider` the system cancelled because nobody took it (the dispatch's own timer). */
  async function untakenBooking(rider: UserRow, extra: Record<string, unknown> = {}): Promise<string> {
    const driver = await silentDriver();
    const booked = await book(rider, extra);
    expect(booked.statusCode, booked.body).toBe(201);
    const { id } = booked.json<Booking>();
    for (let waited = 0; waited < t.config.NO_TAKER_CANCEL_S * 1000; waited += 20_000) {
      t.advance(20_000);
      await t.request({ method: 'POST', url: '/api/driver/location', as: driver, payload: NEAR_PICKUP });
      await t.runJobs();
    }
    expect(await read(id)).toMatchObject({ status: 'CANCELLED', cancelledBy: 'system', reason: NO_TAKER_REASON });
    return id;
  }

  beforeAll(async () => {
    counted = countingMaps();
    t = await createTestApp(engine, { OFFER_BATCH_SIZE: '1', OFFER_TIMEOUT_S: '20', NO_TAKER_CANCEL_S: '60' }, { maps: counted.maps });
    admin = await t.makeUser('admin');
    for (const carType of [sedan, van, rocket]) expect((await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: carType })).statusCode).toBe(201);
  });
  afterAll(() => t.close());

  describe('prices for every car type', () => {
    it('answers each car type the single estimate would, from ONE route call; a car type that cannot price the trip is left out', async () => {
      const rider = await t.makeUser('rider');
      const before = counted.routes.count;
      const answer = await prices(rider, { pickup, drop });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(counted.routes.count - before).toBe(1);
      const body = answer.json<{ distance: number; duration: number; estimates: { carType: string; estimateFare: number; convenience_fees: number }[] }>();
      expect(body.estimates.map((e) => e.carType)).toEqual(['Sedan', 'Van']);
      const route = await offlineMaps().route([pickup, drop]);
      for (const carType of [sedan, van]) {
        const fare = fareForMinor(carType, { distance: body.distance, duration: route?.durationSeconds ?? 0 });
        expect(body.estimates.find((e) => e.carType === carType.name)).toEqual({ carType: carType.name, estimateFare: fromMinor(fare.grandTotal), convenience_fees: fromMinor(fare.convenience_fees) });
        const single = await t.request({ method: 'POST', url: '/api/estimates', as: rider, payload: { pickup, drop, carType: carType.name } });
        expect(single.json<{ estimateFare: number }>().estimateFare).toBe(fromMinor(fare.grandTotal));
      }
      // The single estimate refuses the car type left out, with its key (never a 500).
      const rocketAlone = await t.request({ method: 'POST', url: '/api/estimates', as: rider, payload: { pickup, drop, carType: 'Rocket' } });
      expect([rocketAlone.statusCode, codeOf(rocketAlone)]).toEqual([400, 'validation_error']);
      // An admin booking for a rider sees the same prices.
      expect((await prices(admin, { pickup, drop })).json()).toEqual(body);
    });

    it('is behind sign-in and for riders and admins only; bad input answers its key, asks no maps and stores nothing', async () => {
      const before = counted.routes.count;
      const stored = (await t.db.select().from(bookings)).length;
      const anonymous = await prices(null, { pickup, drop });
      expect(anonymous.statusCode).toBe(401);
      const driver = await t.makeUser('driver');
      const fleet = await t.makeUser('fleetadmin');
      for (const who of [driver, fleet]) expect((await prices(who, { pickup, drop })).statusCode).toBe(403);
      const rider = await t.makeUser('rider');
      for (const bad of [{ pickup }, { pickup, drop: { ...drop, lat: 91 } }, { pickup: { ...pickup, add: ' ' }, drop }, { pickup, drop: 'Tower' }]) {
        const refused = await prices(rider, bad);
        expect([refused.statusCode, codeOf(refused)], JSON.stringify(bad)).toEqual([400, 'select_proper']);
      }
      expect(codeOf(await prices(rider, [pickup, drop]))).toBe('validation_error');
      expect(counted.routes.count).toBe(before);
      expect((await t.db.select().from(bookings)).length).toBe(stored);
    });

    it('a pickup outside the service area is refused before the maps provider is asked', async () => {
      const rider = await t.makeUser('rider');
      await t.setSettings({ serviceArea: [[{ lat: 51.6, lng: -0.2 }, { lat: 51.6, lng: 0 }, { lat: 51.55, lng: 0 }, { lat: 51.55, lng: -0.2 }]] });
      try {
        const before = counted.routes.count;
        const refused = await prices(rider, { pickup, drop });
        expect([refused.statusCode, codeOf(refused)]).toEqual([422, 'outside_service_area']);
        expect(counted.routes.count).toBe(before);
      } finally {
        await t.setSettings({});
      }
    });
  });

  describe('the live search state', () => {
    it('shows the rider how many rounds of offers went out, live and by GET, naming no driver', async () => {
      await silentDriver();
      await silentDriver();
      const rider = await t.makeUser('rider');
      const booked = await book(rider);
      const { id } = booked.json<Booking>();
      expect(booked.json<Booking>()).toMatchObject({ status: 'NEW', search_round: 1, retried_as: null });
      const live = await t.live(rider);
      await live.subscribe(`booking:${id}`);
      t.advance(20_000);
      await t.runJobs();
      const next = await live.next((m) => m.event === 'booking' && (m.data as Booking).search_round === 2);
      expect(next.data).toMatchObject({ id, status: 'NEW', requestedDrivers: {} });
      const seen = (await t.request({ method: 'GET', url: `/api/bookings/${id}`, as: rider })).json<Booking & { requestedDrivers: object }>();
      expect([seen.search_round, seen.requestedDrivers]).toEqual([2, {}]);
      await t.request({ method: 'POST', url: `/api/bookings/${id}/cancel`, as: rider, payload: { reason: 'Changed my mind' } });
    });
  });

  describe('booking again a trip nobody took', () => {
    it('books the same trip anew, once; the old booking names the new one and is not retried again', async () => {
      const rider = await t.makeUser('rider');
      const old = await untakenBooking(rider, { payment_mode: 'wallet' });
      await silentDriver();
      const again = await retry(rider, old);
      expect(again.statusCode, again.body).toBe(201);
      const fresh = again.json<Booking>();
      expect(fresh).toMatchObject({ status: 'NEW', customer: rider.id, pickup, drop, carType: 'Sedan', payment_mode: 'wallet', search_round: 1 });
      expect(fresh.id).not.toBe(old);
      const oldSeen = (await t.request({ method: 'GET', url: `/api/bookings/${old}`, as: rider })).json<Booking>();
      expect([oldSeen.status, oldSeen.retried_as]).toEqual(['CANCELLED', fresh.id]);
      // A replay books nothing more.
      const replay = await retry(rider, old);
      expect([replay.statusCode, codeOf(replay)]).toEqual([409, 'invalid_transition']);
      expect((await rowsOf(rider)).length).toBe(2);
      await t.request({ method: 'POST', url: `/api/bookings/${fresh.id}/cancel`, as: rider, payload: { reason: 'Changed my mind' } });
    });

    it('two retries at once make one booking', async () => {
      const rider = await t.makeUser('rider');
      const old = await untakenBooking(rider);
      await silentDriver();
      const answers = await Promise.all([retry(rider, old), retry(rider, old), retry(rider, old)]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409]);
      expect((await rowsOf(rider)).length).toBe(2);
      const made = answers.find((a) => a.statusCode === 201)?.json<Booking>();
      expect((await read(old))?.retriedAs).toBe(made?.id);
      await t.request({ method: 'POST', url: `/api/bookings/${made?.id ?? ''}/cancel`, as: rider, payload: { reason: 'Changed my mind' } });
    });

    it('refuses anyone but its rider: another rider and a missing booking alike 404, a driver, an admin and anonymous by role', async () => {
      const rider = await t.makeUser('rider');
      const old = await untakenBooking(rider);
      await silentDriver();
      const stranger = await t.makeUser('rider');
      expect([(await retry(stranger, old)).statusCode, codeOf(await retry(stranger, old))]).toEqual([404, 'not_found']);
      expect(codeOf(await retry(rider, '00000000-0000-4000-8000-000000000000'))).toBe('not_found');
      const driver = await t.makeUser('driver', { carType: 'Sedan' });
      expect((await retry(driver, old)).statusCode).toBe(403);
      expect((await retry(admin, old)).statusCode).toBe(403);
      expect((await retry(null, old)).statusCode).toBe(401);
      expect((await rowsOf(rider)).length).toBe(1);
      expect(await rowsOf(stranger)).toEqual([]);
      expect((await read(old))?.retriedAs).toBeNull();
    });

    it('refuses a booking still searching, one cancelled by its rider, and one taken', async () => {
      await silentDriver();
      const rider = await t.makeUser('rider');
      const searching = (await book(rider)).json<Booking>().id;
      expect(codeOf(await retry(rider, searching))).toBe('invalid_transition');
      await t.request({ method: 'POST', url: `/api/bookings/${searching}/cancel`, as: rider, payload: { reason: 'Changed my mind' } });
      const cancelled = await retry(rider, searching);
      expect([cancelled.statusCode, codeOf(cancelled)]).toEqual([409, 'invalid_transition']);
      expect((await rowsOf(rider)).length).toBe(1);
      expect((await read(searching))?.retriedAs).toBeNull();
    });

    it('when still no driver is near, answers no_driver_found_alert_messege and marks nothing', async () => {
      const rider = await t.makeUser('rider');
      const old = await untakenBooking(rider);
      // Every driver falls silent: none is available any more.
      t.advance(t.config.DRIVER_TIMEOUT_S * 1000 + 1000);
      const refused = await retry(rider, old);
      expect([refused.statusCode, codeOf(refused)]).toEqual([409, 'no_driver_found_alert_messege']);
      expect((await rowsOf(rider)).length).toBe(1);
      expect((await read(old))?.retriedAs).toBeNull();
    });
  });
});

describe.each(ENGINES)('floods on %s (issue 17, points 1 and 4)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT_OVERRIDES: 'maps.user=3/1h,maps.address=5/1h,booking.user=2/1h,booking.address=4/1h' });
    const admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
  });
  afterAll(() => t.close());

  it('prices for every car type count toward the maps limit: 429 with Retry-After', async () => {
    const rider = await t.makeUser('rider');
    const ask = (remoteAddress = '203.0.113.7') => t.request({ method: 'POST', url: '/api/estimates/car-types', as: rider, remoteAddress, payload: { pickup, drop } });
    const answers = [];
    for (let i = 0; i < 5; i += 1) answers.push(await ask());
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 429, 429]);
    expect(Number(answers[4]?.headers['retry-after'])).toBeGreaterThan(0);
    expect((await ask('203.0.113.99')).statusCode).toBe(429);
  });

  it('retries count toward the booking limit: 429 with Retry-After, nothing stored', async () => {
    const rider = await t.makeUser('rider');
    const id = '00000000-0000-4000-8000-000000000001';
    const answers = [];
    for (let i = 0; i < 4; i += 1) answers.push(await t.request({ method: 'POST', url: `/api/bookings/${id}/retry`, as: rider, remoteAddress: '203.0.113.8' }));
    expect(answers.map((a) => a.statusCode)).toEqual([404, 404, 429, 429]);
    expect(Number(answers[3]?.headers['retry-after'])).toBeGreaterThan(0);
    expect(await t.db.select().from(bookings).where(eq(bookings.customer, rider.id))).toEqual([]);
  });
});
