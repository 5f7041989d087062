import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/modules/users/accounts';
import { drop, pickup, sedan } from '../fixtures';
import { createTestApp, driveTrip, ENGINES, type TestApp } from '../harness';

/** Issue 17: a wallet line names its trip (the booking's reference) or its reason (txRef). */
describe.each(ENGINES)('wallet lines name their trip on %s (issue 17)', (engine) => {
  let t: TestApp;
  let admin: UserRow;
  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
  });
  afterAll(() => t.close());

  it("a cash trip's lines carry the booking's id and reference; an admin credit carries none", async () => {
    const driver = await t.makeUser('driver', { carType: 'Sedan' });
    await t.goOnline(driver);
    const rider = await t.makeUser('rider');
    const booked = (await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', payment_mode: 'cash' } })).json<{ id: string; booking_id: string }>();
    expect((await t.request({ method: 'POST', url: `/api/bookings/${booked.id}/accept`, as: driver })).statusCode).toBe(200);
    await driveTrip(t, driver, booked.id, [drop]);
    expect((await t.request({ method: 'POST', url: `/api/bookings/${booked.id}/pay`, as: driver, payload: { payment_mode: 'cash' } })).statusCode).toBe(200);
    await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: driver.id, amount: 5 } });

    const history = (await t.request({ method: 'GET', url: '/api/wallet', as: driver })).json().walletHistory as Record<string, unknown>[];
    const trip = { bookingId: booked.id, booking_id: booked.booking_id };
    expect(history).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'Credit', txRef: 'AdminCredit', bookingId: null, booking_id: null }),
        expect.objectContaining({ type: 'Credit', txRef: 'TripEarning', ...trip }),
        expect.objectContaining({ type: 'Debit', txRef: 'CashCollected', ...trip }),
      ]),
    );
  });
});
