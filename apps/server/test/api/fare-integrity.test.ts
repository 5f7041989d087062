import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, tracking } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { drop, pickup, sedan } from '../fixtures';
import { codeOf, createTestApp, driveTrip, ENGINES, type TestApp } from '../harness';

const CAMBRIDGE = { lat: 52.2053, lng: 0.1218 };
const OXFORD = { lat: 51.752, lng: -1.2577 };

describe.each(ENGINES)('fare integrity on %s (issue 15: the fare is not bent by the driver GPS)', (engine) => {
  let t: TestApp;
  let admin: UserRow;

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
  });
  afterAll(() => t.close());

  /** A rider with 1000 in the wallet, a wallet booking, accepted by a fresh driver at the pickup. */
  async function acceptedWalletTrip() {
    const rider = await t.makeUser('rider');
    await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: rider.id, amount: 1000 } });
    const driver = await t.makeUser('driver', { carType: 'Sedan' });
    await t.goOnline(driver);
    const booked = (await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', payment_mode: 'wallet' } })).json<{ id: string; estimate: number }>();
    await t.db.update(bookings).set({ requestedDrivers: { [driver.id]: true } }).where(eq(bookings.id, booked.id));
    expect((await t.request({ method: 'POST', url: `/api/bookings/${booked.id}/accept`, as: driver })).statusCode).toBe(200);
    return { rider, driver, id: booked.id, estimate: booked.estimate };
  }
  const balance = async (user: UserRow) => (await t.request({ method: 'GET', url: '/api/wallet', as: user })).json<{ walletBalance: number }>().walletBalance;
  const bound = (estimate: number) => Math.round(estimate * 130) / 100;

  it('discards points in Cambridge then Oxford, and the wallet charge stays within the estimate plus 30 %', async () => {
    const { rider, driver, id, estimate } = await acceptedWalletTrip();
    for (const step of ['arrive', 'start']) expect((await t.request({ method: 'POST', url: `/api/bookings/${id}/${step}`, as: driver, payload: {} })).statusCode).toBe(200);
    for (const point of [CAMBRIDGE, OXFORD]) {
      t.advance(5_000);
      expect((await t.request({ method: 'POST', url: '/api/driver/location', as: driver, payload: point })).statusCode).toBe(200);
    }
    t.advance(5_000);
    const reached = (await t.request({ method: 'POST', url: `/api/bookings/${id}/reach`, as: driver, payload: {} })).json<{ trip_cost: number }>();
    expect(reached.trip_cost).toBeLessThanOrEqual(bound(estimate));
    // Neither jump is a point of the trip.
    const points = await t.db.select().from(tracking).where(eq(tracking.bookingId, id));
    for (const point of points) expect(Math.abs(point.lat - pickup.lat)).toBeLessThan(0.05);

    const before = await balance(rider);
    const paid = await t.request({ method: 'POST', url: `/api/bookings/${id}/pay`, as: driver, payload: { payment_mode: 'wallet' } });
    if (paid.statusCode !== 200) expect(codeOf(paid)).toBe('wallet_payment_needs_rider');
    expect(before - (await balance(rider))).toBeLessThanOrEqual(bound(estimate));
    expect(await balance(rider)).toBeGreaterThan(1000 - bound(estimate) - 0.001);
  });

  it('caps a long plausible detour at the estimate plus the margin, records it, and leaves the wallet charge to the rider', async () => {
    const { rider, driver, id, estimate } = await acceptedWalletTrip();
    // North about 1.5 km a minute (90 km/h) for 20 minutes: plausible, and far above the estimate.
    const detour = Array.from({ length: 20 }, (_, i) => ({ lat: pickup.lat + 0.0135 * (i + 1), lng: pickup.lng }));
    const reached = await driveTrip(t, driver, id, detour);
    expect(reached.trip_cost).toBe(bound(estimate));
    expect(reached.convenience_fees + reached.driver_share).toBeCloseTo(reached.trip_cost, 2);
    const seen = (await t.request({ method: 'GET', url: `/api/bookings/${id}`, as: rider })).json<{ fareCapped: boolean; uncappedFare: number | null }>();
    expect(seen.fareCapped).toBe(true);
    expect(seen.uncappedFare).toBeGreaterThan(bound(estimate));

    // The driver cannot close a wallet payment above the estimate; the rider pays it.
    expect(codeOf(await t.request({ method: 'POST', url: `/api/bookings/${id}/pay`, as: driver, payload: { payment_mode: 'wallet' } }))).toBe('wallet_payment_needs_rider');
    expect(await balance(rider)).toBe(1000);
    const paid = await t.request({ method: 'POST', url: `/api/bookings/${id}/pay`, as: rider, payload: { payment_mode: 'wallet' } });
    expect(paid.json()).toMatchObject({ status: 'PAID', customer_paid: bound(estimate) });
    expect(await balance(rider)).toBeCloseTo(1000 - bound(estimate), 2);
  });

  it('a fare within the margin is not capped', async () => {
    const { rider, driver, id, estimate } = await acceptedWalletTrip();
    const reached = await driveTrip(t, driver, id, [{ lat: 51.52, lng: -0.1 }, drop]);
    expect(reached.trip_cost).toBeLessThanOrEqual(bound(estimate));
    const seen = (await t.request({ method: 'GET', url: `/api/bookings/${id}`, as: rider })).json<{ fareCapped: boolean; uncappedFare: number | null }>();
    expect(seen).toMatchObject({ fareCapped: false, uncappedFare: null });
  });
});
