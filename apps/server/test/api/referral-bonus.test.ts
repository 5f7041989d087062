import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, referralBonuses, walletEntries } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { drop, pickup, sedan } from '../fixtures';
import { createTestApp, driveTrip, ENGINES, reload, type TestApp } from '../harness';

const signUp = (n: number, referralId: string) => ({
  firstName: 'Farm',
  lastName: 'Bot',
  email: `farm.${String(n)}.${referralId}@example.com`,
  mobile: `6${String(n).padStart(8, '0')}`,
  password: 'farm123',
  referralId,
});

/**
 * Issue 15, point 8: "Referral farming: 10 scripted sign-ups credited 50 (withdrawable) to one
 * driver." The referrer's bonus is paid only when a referred user completes a first trip, at most
 * once per referred user (docs/decisions.md, referral bonus).
 */
describe.each(ENGINES)('the referral bonus on %s (issue 15, point 8)', (engine) => {
  let t: TestApp;
  let admin: UserRow;

  const bonusEntries = (user: UserRow) => t.db.select().from(walletEntries).where(and(eq(walletEntries.uid, user.id), eq(walletEntries.txRef, 'ReferralBonus')));
  const wallet = async (user: UserRow) => (await t.request({ method: 'GET', url: '/api/wallet', as: user })).json<{ walletBalance: number }>().walletBalance;
  const ledgerSum = async (user: UserRow) => (await t.db.select().from(walletEntries).where(eq(walletEntries.uid, user.id))).reduce((sum, entry) => sum + entry.amountMinor, 0);

  /** A cash trip of the rider, run by the driver to PAID (where a first trip's bonus is paid) and completed by the rider. */
  async function completedTrip(rider: UserRow, driver: UserRow): Promise<string> {
    await t.goOnline(driver);
    const created = await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan' } });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: string }>().id;
    await t.db.update(bookings).set({ requestedDrivers: { [driver.id]: true } }).where(eq(bookings.id, id));
    expect((await t.request({ method: 'POST', url: `/api/bookings/${id}/accept`, as: driver })).statusCode).toBe(200);
    await driveTrip(t, driver, id, [drop]);
    expect((await t.request({ method: 'POST', url: `/api/bookings/${id}/pay`, as: driver, payload: { payment_mode: 'cash' } })).json().status).toBe('PAID');
    const done = await t.request({ method: 'POST', url: `/api/bookings/${id}/complete`, as: rider, payload: {} });
    expect(done.json().status).toBe('COMPLETE');
    return id;
  }

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
    await t.setSettings({ bonus: 5 });
  });
  afterAll(() => t.close());

  it('10 scripted sign-ups with one referral id credit the referrer nothing', async () => {
    const referrer = await t.makeUser('driver', { carType: 'Sedan' });
    for (let n = 0; n < 10; n += 1) {
      // From ten addresses, as a farm would: the rule holds whatever the sign-up limits are.
      const created = await t.request({ method: 'POST', url: '/api/auth/register', remoteAddress: `198.51.100.${String(10 + n)}`, payload: signUp(100 + n, referrer.referralId ?? '') });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().user).toMatchObject({ signupViaReferral: referrer.id, walletBalance: 0 });
    }
    expect(await wallet(referrer)).toBe(0);
    expect(await bonusEntries(referrer)).toEqual([]);
    expect(await t.db.select().from(referralBonuses)).toEqual([]);
  });

  it('the bonus is paid when the first trip is paid, without waiting for the rider to complete and rate it', async () => {
    const referrer = await t.makeUser('driver', { carType: 'Sedan' });
    const driver = await t.makeUser('driver', { carType: 'Sedan', signupViaReferral: referrer.id });
    const rider = await t.makeUser('rider');
    await t.goOnline(driver);
    const id = (await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan' } })).json<{ id: string }>().id;
    await t.db.update(bookings).set({ requestedDrivers: { [driver.id]: true } }).where(eq(bookings.id, id));
    await t.request({ method: 'POST', url: `/api/bookings/${id}/accept`, as: driver });
    await driveTrip(t, driver, id, [drop]);
    expect(await bonusEntries(driver)).toEqual([]);
    expect((await t.request({ method: 'POST', url: `/api/bookings/${id}/pay`, as: driver, payload: { payment_mode: 'cash' } })).json().status).toBe('PAID');
    expect((await bonusEntries(driver)).map((e) => [e.amountMinor, e.bookingId])).toEqual([[500, id]]);
    expect((await bonusEntries(referrer)).map((e) => [e.amountMinor, e.bookingId])).toEqual([[500, id]]);
  });

  it("a referred rider's first completed trip pays both once; the second trip pays nothing", async () => {
    const referrer = await t.makeUser('rider');
    const created = await t.request({ method: 'POST', url: '/api/auth/register', payload: signUp(200, referrer.referralId ?? '') });
    const rider = await reload(t, { id: created.json<{ user: { id: string } }>().user.id } as UserRow);
    if (!rider) throw new Error('no rider');
    const driver = await t.makeUser('driver', { carType: 'Sedan' });
    const first = await completedTrip(rider, driver);
    expect((await bonusEntries(referrer)).map((e) => [e.type, e.amountMinor, e.bookingId])).toEqual([['Credit', 500, first]]);
    expect((await bonusEntries(rider)).map((e) => [e.type, e.amountMinor, e.bookingId])).toEqual([['Credit', 500, first]]);
    expect(await wallet(referrer)).toBe(5);
    await completedTrip(rider, driver);
    expect(await bonusEntries(referrer)).toHaveLength(1);
    expect(await bonusEntries(rider)).toHaveLength(1);
    expect(await wallet(referrer)).toBe(5);
    expect(await wallet(rider)).toBe(5);
    // The driver was not referred: it collects no bonus.
    expect(await bonusEntries(driver)).toEqual([]);
  });

  it("a referred driver's first completed trip pays the driver and its referrer", async () => {
    const referrer = await t.makeUser('driver', { carType: 'Sedan' });
    const driver = await t.makeUser('driver', { carType: 'Sedan', signupViaReferral: referrer.id });
    const rider = await t.makeUser('rider');
    const id = await completedTrip(rider, driver);
    expect((await bonusEntries(driver)).map((e) => [e.amountMinor, e.bookingId])).toEqual([[500, id]]);
    expect((await bonusEntries(referrer)).map((e) => [e.amountMinor, e.bookingId])).toEqual([[500, id]]);
    await completedTrip(await t.makeUser('rider'), driver);
    expect(await bonusEntries(referrer)).toHaveLength(1);
    expect(await ledgerSum(referrer)).toBe(500);
  });

  it('two first trips completing at once pay one bonus', async () => {
    const referrer = await t.makeUser('rider');
    const rider = await t.makeUser('rider', { signupViaReferral: referrer.id });
    const drivers = [await t.makeUser('driver', { carType: 'Sedan' }), await t.makeUser('driver', { carType: 'Sedan' })];
    const ids: string[] = [];
    for (const driver of drivers) {
      await t.goOnline(driver);
      const id = (await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan' } })).json<{ id: string }>().id;
      // Both trips have reached the drop: their drivers close them at once.
      await t.db.update(bookings).set({ status: 'REACHED', driver: driver.id }).where(eq(bookings.id, id));
      ids.push(id);
    }
    const answers = await Promise.all(ids.map((id, n) => t.request({ method: 'POST', url: `/api/bookings/${id}/pay`, as: drivers[n], payload: { payment_mode: 'cash' } })));
    expect(answers.map((answer) => [answer.statusCode, answer.json().status])).toEqual([[200, 'PAID'], [200, 'PAID']]);
    expect(await bonusEntries(referrer)).toHaveLength(1);
    expect(await bonusEntries(rider)).toHaveLength(1);
    expect(await t.db.select().from(referralBonuses).where(eq(referralBonuses.referredUid, rider.id))).toEqual([expect.objectContaining({ referrerUid: referrer.id, amountMinor: 500 })]);
    expect(await ledgerSum(referrer)).toBe(500);
    expect(await wallet(referrer)).toBe(5);
  });

  it('a first trip completed while the bonus is 0 uses up the referral', async () => {
    const referrer = await t.makeUser('rider');
    const rider = await t.makeUser('rider', { signupViaReferral: referrer.id });
    await t.setSettings({ bonus: 0 });
    await completedTrip(rider, await t.makeUser('driver', { carType: 'Sedan' }));
    await t.setSettings({ bonus: 5 });
    await completedTrip(rider, await t.makeUser('driver', { carType: 'Sedan' }));
    expect(await bonusEntries(referrer)).toEqual([]);
    expect(await bonusEntries(rider)).toEqual([]);
  });
});
