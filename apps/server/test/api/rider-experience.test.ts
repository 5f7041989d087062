/**
 * Issue 17, points 3 and 8: a promo code's Apply in the estimate dialog (POST /api/estimates/promo),
 * the driver's car on the booking, the fare's parts that explain estimate against charge, and a
 * comment with the rating. Each attack is a test: other riders' promo use, floods, over-long and
 * HTML comments, comments on other people's trips.
 */
import { fareForMinor, fromMinor, toMinor } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, promos } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { offlineMaps } from '../../src/providers/maps/offline';
import { drop, pickup, sedan } from '../fixtures';
import { codeOf, createTestApp, driveTrip, ENGINES, type TestApp } from '../harness';

const DAY = 86_400_000;

type Booking = {
  id: string;
  status: string;
  estimate: number;
  trip_cost: number;
  convenience_fees: number;
  discount: number;
  customer_paid: number;
  rating: number | null;
  rating_comment?: string;
  vehicleMake: string | null;
  vehicleModel: string | null;
  vehicle_number: string | null;
  fare_breakdown: { base_fare: number; distance_fare: number; time_fare: number; extras: number; min_fare_top_up: number; fare_cap_reduction: number } | null;
};

/** The fare's parts add up to the trip cost less the fee, to the cent. */
const partsTotal = (b: Booking): number => {
  const p = b.fare_breakdown;
  if (!p) throw new Error('no fare breakdown');
  return fromMinor(toMinor(p.base_fare) + toMinor(p.distance_fare) + toMinor(p.time_fare) + toMinor(p.extras) + toMinor(p.min_fare_top_up) - toMinor(p.fare_cap_reduction));
};

describe.each(ENGINES)('the rider experience on %s (issue 17, points 3 and 8)', (engine) => {
  let t: TestApp;
  let admin: UserRow;
  let estimateFare: number;

  const check = (as: UserRow, extra: Record<string, unknown>) => t.request({ method: 'POST', url: '/api/estimates/promo', as, payload: { pickup, drop, carType: 'Sedan', ...extra } });
  const book = (as: UserRow, extra: Record<string, unknown> = {}) => t.request({ method: 'POST', url: '/api/bookings', as, payload: { pickup, drop, carType: 'Sedan', ...extra } });
  const addPromo = async (payload: Record<string, unknown>) =>
    (await t.request({ method: 'POST', url: '/api/promos', as: admin, payload: { promo_discount_type: 'flat', promo_discount_value: 3, promo_validity: t.clock.now + DAY, promo_usage_limit: 0, ...payload } })).json<{ promo: { id: string } }>().promo;
  const uses = async (id: string) => (await t.db.select({ n: promos.userAvail }).from(promos).where(eq(promos.id, id)))[0]?.n;

  /** A booking of `rider` accepted by a fresh driver with a car on file. */
  async function acceptedTrip(rider: UserRow, extra: Record<string, unknown> = {}) {
    const driver = await t.makeUser('driver', { carType: 'Sedan', vehicleNumber: 'LD21 ABC', vehicleMake: 'Toyota', vehicleModel: 'Prius' });
    await t.goOnline(driver);
    const booked = await book(rider, extra);
    expect(booked.statusCode, booked.body).toBe(201);
    const { id } = booked.json<Booking>();
    await t.db.update(bookings).set({ requestedDrivers: { [driver.id]: true } }).where(eq(bookings.id, id));
    const accepted = await t.request({ method: 'POST', url: `/api/bookings/${id}/accept`, as: driver });
    expect(accepted.statusCode, accepted.body).toBe(200);
    return { id, driver, accepted: accepted.json<Booking>() };
  }

  /** A cash trip of `rider` driven to the drop and paid: ready to rate. */
  async function paidTrip(rider: UserRow) {
    const { id, driver } = await acceptedTrip(rider);
    await driveTrip(t, driver, id, [{ lat: 51.52, lng: -0.1 }, drop]);
    expect((await t.request({ method: 'POST', url: `/api/bookings/${id}/pay`, as: driver, payload: { payment_mode: 'cash' } })).statusCode).toBe(200);
    return { id, driver };
  }

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
    const route = await offlineMaps().route([pickup, drop]);
    estimateFare = fromMinor(fareForMinor(sedan, { distance: route?.distanceKm ?? 0, duration: route?.durationSeconds ?? 0 }).grandTotal);
  });
  afterAll(() => t.close());

  describe('Apply: a promo code checked against this estimate and this rider', () => {
    it("answers the server's discount and total, uses nothing up, and the booking then gives the same", async () => {
      const rider = await t.makeUser('rider');
      const promo = await addPromo({ promo_name: 'TAKE3' });
      const applied = await check(rider, { promo: ' take3 ' });
      expect(applied.statusCode, applied.body).toBe(200);
      expect(applied.json()).toEqual({
        promo_details: { promo_name: 'TAKE3', promo_discount_type: 'flat', promo_discount_value: 3 },
        estimateFare,
        discount: 3,
        customer_paid: fromMinor(toMinor(estimateFare) - 300),
      });
      expect(await uses(promo.id)).toBe(0);
      // Apply twice is still nothing used; the booking counts the use once.
      expect((await check(rider, { promo: 'TAKE3' })).statusCode).toBe(200);
      const booked = (await book(rider, { promo: 'TAKE3', bookLater: true, tripdate: t.clock.now + 3_600_000 })).json<Booking>();
      expect(booked).toMatchObject({ discount: 3, customer_paid: applied.json<{ customer_paid: number }>().customer_paid });
      expect(await uses(promo.id)).toBe(1);
      expect(codeOf(await check(rider, { promo: 'TAKE3' }))).toBe('promo_already_used');
    });

    it("refuses with the promo keys at the promo field: unknown, below the minimum order, expired, used up", async () => {
      const rider = await t.makeUser('rider');
      const unknown = await check(rider, { promo: 'NOPE' });
      expect([unknown.statusCode, unknown.json().error]).toEqual([404, { code: 'promo_not_found', message: 'This promo code does not exist.', field: 'promo' }]);
      await addPromo({ promo_name: 'BIGTRIP', min_order: estimateFare + 1 });
      const small = await check(rider, { promo: 'BIGTRIP' });
      expect([small.statusCode, small.json().error.code, small.json().error.field]).toEqual([400, 'promo_min_order', 'promo']);
      await addPromo({ promo_name: 'OLDCODE', promo_validity: t.clock.now - 2 * DAY });
      expect(codeOf(await check(rider, { promo: 'OLDCODE' }))).toBe('promo_expired');
      const once = await addPromo({ promo_name: 'ONEUSE', promo_usage_limit: 1 });
      await t.db.update(promos).set({ userAvail: 1 }).where(eq(promos.id, once.id));
      expect(codeOf(await check(rider, { promo: 'ONEUSE' }))).toBe('promo_exhausted');
      // A blank or over-long code is no code.
      expect(codeOf(await check(rider, { promo: '   ' }))).toBe('promo_not_found');
      expect(codeOf(await check(rider, { promo: 'X'.repeat(51) }))).toBe('promo_not_found');
    });

    it("an unknown code costs no maps call", async () => {
      const rider = await t.makeUser('rider');
      const maps = t.app.ctx.maps;
      let asked = 0;
      t.app.ctx.maps = { ...maps, route: (points) => { asked += 1; return maps.route(points); } };
      try {
        expect(codeOf(await check(rider, { promo: 'GUESS1' }))).toBe('promo_not_found');
        expect(asked).toBe(0);
      } finally {
        t.app.ctx.maps = maps;
      }
    });

    it("a rider cannot learn another rider's use: the customer it sends is ignored", async () => {
      const [used, prober] = [await t.makeUser('rider'), await t.makeUser('rider')];
      await addPromo({ promo_name: 'PROBE' });
      expect((await book(used, { promo: 'PROBE', bookLater: true, tripdate: t.clock.now + 3_600_000 })).statusCode).toBe(201);
      expect(codeOf(await check(used, { promo: 'PROBE' }))).toBe('promo_already_used');
      const probe = await check(prober, { promo: 'PROBE', customer: used.id });
      expect(probe.statusCode).toBe(200);
    });

    it('an admin checks for the rider it books for, and must name one', async () => {
      const rider = await t.makeUser('rider');
      await addPromo({ promo_name: 'ADMINFOR' });
      expect(codeOf(await check(admin, { promo: 'ADMINFOR' }))).toBe('select_proper');
      expect(codeOf(await check(admin, { promo: 'ADMINFOR', customer: admin.id }))).toBe('select_proper');
      expect((await check(admin, { promo: 'ADMINFOR', customer: rider.id })).json()).toMatchObject({ discount: 3 });
      const driver = await t.makeUser('driver');
      expect(codeOf(await check(driver, { promo: 'ADMINFOR' }))).toBe('forbidden');
    });
  });

  describe('the live page: the driver and the car', () => {
    it("copies the accepting driver's car beside its plate", async () => {
      const rider = await t.makeUser('rider');
      const { accepted, id } = await acceptedTrip(rider);
      expect(accepted).toMatchObject({ vehicleMake: 'Toyota', vehicleModel: 'Prius', vehicle_number: 'LD21 ABC' });
      expect((await t.request({ method: 'GET', url: `/api/bookings/${id}`, as: rider })).json()).toMatchObject({ vehicleMake: 'Toyota', vehicleModel: 'Prius' });
    });
  });

  describe('the fare breakdown: estimate against charge', () => {
    it("holds the estimate's parts from booking, then the parts of the route driven", async () => {
      const rider = await t.makeUser('rider');
      const promo = await addPromo({ promo_name: 'PARTS' });
      const { id, driver } = await acceptedTrip(rider, { promo: 'PARTS' });
      const booked = (await t.request({ method: 'GET', url: `/api/bookings/${id}`, as: rider })).json<Booking>();
      expect(booked.fare_breakdown).toMatchObject({ base_fare: sedan.base_fare, extras: 0, fare_cap_reduction: 0 });
      expect(partsTotal(booked)).toBe(fromMinor(toMinor(booked.trip_cost) - toMinor(booked.convenience_fees)));
      expect(booked.customer_paid).toBe(fromMinor(toMinor(booked.trip_cost) - 300));
      // A short trip: the fare driven is below the estimate, and its parts say why.
      const reached = await driveTrip(t, driver, id, [{ lat: 51.525, lng: -0.11 }]);
      const after = (await t.request({ method: 'GET', url: `/api/bookings/${id}`, as: rider })).json<Booking>();
      expect(after.trip_cost).toBe(reached.trip_cost);
      expect(after.trip_cost).toBeLessThan(after.estimate);
      expect(partsTotal(after)).toBe(fromMinor(toMinor(after.trip_cost) - toMinor(after.convenience_fees)));
      expect(after.fare_breakdown?.distance_fare).toBeLessThan(booked.fare_breakdown?.distance_fare ?? 0);
      expect(after.customer_paid).toBe(fromMinor(toMinor(after.trip_cost) - toMinor(after.discount)));
      expect(await uses(promo.id)).toBe(1);
    });

    it('shows what the fare cap took off a long detour', async () => {
      const rider = await t.makeUser('rider');
      const { id, driver } = await acceptedTrip(rider);
      const detour = Array.from({ length: 20 }, (_, i) => ({ lat: pickup.lat + 0.0135 * (i + 1), lng: pickup.lng }));
      await driveTrip(t, driver, id, detour);
      const capped = (await t.request({ method: 'GET', url: `/api/bookings/${id}`, as: rider })).json<Booking & { fareCapped: boolean }>();
      expect(capped.fareCapped).toBe(true);
      expect(capped.fare_breakdown?.fare_cap_reduction).toBeGreaterThan(0);
      expect(partsTotal(capped)).toBe(fromMinor(toMinor(capped.trip_cost) - toMinor(capped.convenience_fees)));
    });
  });

  describe('a comment with the rating', () => {
    it('is kept as typed, HTML included, shown to the rider and admins, never to the driver', async () => {
      const rider = await t.makeUser('rider');
      const { id, driver } = await paidTrip(rider);
      const html = '  <img src=x onerror="alert(1)"> Great <b>driver</b> & clean car  ';
      const done = await t.request({ method: 'POST', url: `/api/bookings/${id}/complete`, as: rider, payload: { rating: 5, comment: html } });
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json()).toMatchObject({ status: 'COMPLETE', rating: 5, rating_comment: html.trim() });
      expect((await t.db.select({ c: bookings.ratingComment }).from(bookings).where(eq(bookings.id, id)))[0]?.c).toBe(html.trim());
      const asAdmin = (await t.request({ method: 'GET', url: `/api/bookings/${id}`, as: admin })).json<Booking>();
      expect(asAdmin).toMatchObject({ rating: 5, rating_comment: html.trim() });
      const asDriver = (await t.request({ method: 'GET', url: `/api/bookings/${id}`, as: driver })).json<Booking>();
      expect(asDriver.rating).toBe(5);
      expect(asDriver).not.toHaveProperty('rating_comment');
      expect((await t.request({ method: 'GET', url: '/api/bookings', as: admin })).json<{ bookings: Booking[] }>().bookings.find((b) => b.id === id)?.rating_comment).toBe(html.trim());
    });

    it('refuses an over-long comment and a comment without stars, and writes nothing', async () => {
      const rider = await t.makeUser('rider');
      const { id } = await paidTrip(rider);
      const long = await t.request({ method: 'POST', url: `/api/bookings/${id}/complete`, as: rider, payload: { rating: 4, comment: 'x'.repeat(501) } });
      expect([long.statusCode, long.json().error.code, long.json().error.field]).toEqual([400, 'rating_comment_too_long', 'comment']);
      expect(codeOf(await t.request({ method: 'POST', url: `/api/bookings/${id}/complete`, as: rider, payload: { rating: 4, comment: 42 } }))).toBe('rating_comment_too_long');
      const starless = await t.request({ method: 'POST', url: `/api/bookings/${id}/complete`, as: rider, payload: { comment: 'nice' } });
      expect([starless.statusCode, codeOf(starless)]).toEqual([400, 'rating_invalid']);
      const row = (await t.db.select().from(bookings).where(eq(bookings.id, id)))[0];
      expect([row?.status, row?.rating, row?.ratingComment]).toEqual(['PAID', null, null]);
      // 500 characters is the most; a blank comment is none.
      const most = await t.request({ method: 'POST', url: `/api/bookings/${id}/complete`, as: rider, payload: { rating: 4, comment: 'y'.repeat(500) } });
      expect(most.json()).toMatchObject({ status: 'COMPLETE', rating_comment: 'y'.repeat(500) });
      const other = await paidTrip(rider);
      const blank = await t.request({ method: 'POST', url: `/api/bookings/${other.id}/complete`, as: rider, payload: { rating: 3, comment: '   ' } });
      expect(blank.json()).toMatchObject({ status: 'COMPLETE', rating: 3 });
      expect(blank.json()).not.toHaveProperty('rating_comment');
    });

    it('only the rider of a finished trip comments: not another rider, not the driver, not before it is paid, not twice', async () => {
      const rider = await t.makeUser('rider');
      const stranger = await t.makeUser('rider');
      const { id, driver } = await paidTrip(rider);
      const body = { rating: 1, comment: 'not mine to rate' };
      expect(codeOf(await t.request({ method: 'POST', url: `/api/bookings/${id}/complete`, as: stranger, payload: body }))).toBe('not_found');
      expect(codeOf(await t.request({ method: 'POST', url: `/api/bookings/${id}/complete`, as: driver, payload: body }))).toBe('forbidden');
      const running = await acceptedTrip(rider);
      expect(codeOf(await t.request({ method: 'POST', url: `/api/bookings/${running.id}/complete`, as: rider, payload: body }))).toBe('invalid_transition');
      expect((await t.db.select({ c: bookings.ratingComment }).from(bookings).where(eq(bookings.id, running.id)))[0]?.c).toBeNull();
      expect((await t.request({ method: 'POST', url: `/api/bookings/${id}/complete`, as: rider, payload: { rating: 5, comment: 'first' } })).statusCode).toBe(200);
      expect(codeOf(await t.request({ method: 'POST', url: `/api/bookings/${id}/complete`, as: rider, payload: { rating: 1, comment: 'second' } }))).toBe('invalid_transition');
      expect((await t.db.select({ c: bookings.ratingComment }).from(bookings).where(eq(bookings.id, id)))[0]?.c).toBe('first');
    });
  });
});

describe.each(ENGINES)('promo guessing is rate-limited on %s (issue 17)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT_OVERRIDES: 'promo.user=5/1h,promo.address=8/1h' });
    const admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
  });
  afterAll(() => t.close());

  it('a flood of guesses gets 429 with Retry-After; a booking with a code counts too, one without does not', async () => {
    const rider = await t.makeUser('rider');
    const guess = (code: string, remoteAddress = '203.0.113.7') => t.request({ method: 'POST', url: '/api/estimates/promo', as: rider, remoteAddress, payload: { pickup, drop, carType: 'Sedan', promo: code } });
    const answers = [];
    for (let i = 0; i < 8; i += 1) answers.push(await guess(`GUESS${String(i)}`));
    expect(answers.slice(0, 5).map(codeOf)).toEqual(Array(5).fill('promo_not_found'));
    for (const refused of answers.slice(5)) {
      expect([refused.statusCode, codeOf(refused)]).toEqual([429, 'too_many_requests']);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    // From elsewhere, the rider is still counted; a booking with a code is refused, one without is not.
    expect((await guess('AGAIN', '203.0.113.99')).statusCode).toBe(429);
    const withCode = await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', promo: 'GUESS9', bookLater: true, tripdate: t.clock.now + 3_600_000 } });
    expect(withCode.statusCode).toBe(429);
    const without = await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', bookLater: true, tripdate: t.clock.now + 3_600_000 } });
    expect(without.statusCode).toBe(201);
    // Another rider has a count of its own.
    const other = await t.makeUser('rider');
    expect(codeOf(await t.request({ method: 'POST', url: '/api/estimates/promo', as: other, remoteAddress: '203.0.113.50', payload: { pickup, drop, carType: 'Sedan', promo: 'MINE' } }))).toBe('promo_not_found');
  });
});
