import { randomUUID } from 'node:crypto';
import { driverEarningsByMonth, earningsByMonth, fromMinor, grossEarnings, KM_PER_MILE, type EarningBooking } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, users, walletEntries, withdraws } from '../../src/db/schema';
import { offlineMaps } from '../../src/providers/maps/offline';
import type { UserRow } from '../../src/modules/users/accounts';
import { DEMO_LOCALE, seedDemoData } from '../../src/seed/demo-data';
import { drop, pickup, sedan } from '../fixtures';
import { codeOf, createTestApp, driveTrip, ENGINES, type TestApp } from '../harness';
import { FORM } from '../card-trips';

const formBody = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();
const formFields = (html: string, label: string): Record<string, string> => {
  const form = [...html.matchAll(/<form[^>]*>(.*?)<\/form>/g)].find((m) => m[1]?.includes(`>${label}</button>`))?.[1] ?? '';
  return Object.fromEntries([...form.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1] ?? '', m[2] ?? '']));
};

/**
 * Issue 17, point 6: "The demo city is London, but money is in USD, distances in km and the phone
 * default is +1. Changing the currency in Settings relabels every past trip."
 */
describe.each(ENGINES)('locale: currency recorded per record, the operator time zone (issue 17) on %s', (engine) => {
  describe('the demo data', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(engine);
      await seedDemoData(t.db, t.clock.now);
    });
    afterAll(() => t.close());

    it('is in pounds, miles, British numbers and London time, and its records say so', async () => {
      const open = (await t.request({ method: 'GET', url: '/api/settings' })).json().settings;
      expect(open).toMatchObject({ symbol: '£', code: 'GBP', country: 'United Kingdom', convert_to_mile: true, timezone: 'Europe/London' });
      expect(open).toMatchObject(DEMO_LOCALE);
      const rider = (await t.db.select().from(users).where(eq(users.email, 'rider1@rideway.demo')))[0] as UserRow;
      expect(rider.mobile).toMatch(/^44/);
      const trips = (await t.request({ method: 'GET', url: '/api/bookings', as: rider })).json().bookings as { currency: string; distance: number; pickup: typeof pickup; drop: typeof drop }[];
      expect(trips.length).toBeGreaterThan(0);
      expect(new Set(trips.map((trip) => trip.currency))).toEqual(new Set(['GBP']));
      const wallet = (await t.request({ method: 'GET', url: '/api/wallet', as: rider })).json();
      expect(new Set(wallet.walletHistory.map((entry: { currency: string }) => entry.currency))).toEqual(new Set(['GBP']));
      expect(new Set((await t.db.select({ currency: walletEntries.currency }).from(walletEntries)).map((row) => row.currency))).toEqual(new Set(['GBP']));
      // An estimate in the demo city is in miles.
      const route = await offlineMaps().route([pickup, drop]);
      const estimate = (await t.request({ method: 'POST', url: '/api/estimates', as: rider, payload: { pickup, drop, carType: 'Economy' } })).json();
      expect(estimate.distance).toBeCloseTo((route?.distanceKm ?? 0) / KM_PER_MILE, 2);
    });
  });

  describe('a change of the currency setting', () => {
    let t: TestApp;
    let admin: UserRow;
    let driver: UserRow;
    let rider: UserRow;
    const trips: Record<'walletPaid' | 'cardPending', string> = { walletPaid: '', cardPending: '' };

    const reachedTrip = async (paymentMode: 'cash' | 'wallet' | 'card') => {
      await t.goOnline(driver);
      const created = await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', payment_mode: paymentMode } });
      expect(created.statusCode, created.body).toBe(201);
      const b = created.json<{ id: string; currency: string }>();
      await t.db.update(bookings).set({ requestedDrivers: { [driver.id]: true } }).where(eq(bookings.id, b.id));
      expect((await t.request({ method: 'POST', url: `/api/bookings/${b.id}/accept`, as: driver, payload: {} })).statusCode).toBe(200);
      await driveTrip(t, driver, b.id, [drop]);
      return b;
    };
    const bookingOf = async (id: string) => (await t.request({ method: 'GET', url: `/api/bookings/${id}`, as: rider })).json<{ currency: string; status: string; customer_paid: number }>();
    const walletOf = async (user: UserRow) => (await t.request({ method: 'GET', url: '/api/wallet', as: user })).json<{ walletHistory: { currency: string; txRef: string; bookingId?: string | null }[] }>();

    beforeAll(async () => {
      t = await createTestApp(engine, { PAYMENT_TEST_PROVIDER: '1' });
      admin = await t.makeUser('admin');
      driver = await t.makeUser('driver', { carType: 'Sedan', bankName: 'Bank', bankCode: '0400', bankAccount: '12345678' });
      rider = await t.makeUser('rider');
      await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
      // Made in dollars: a credit, a trip paid from the wallet, and a card trip handed over unpaid.
      await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: rider.id, amount: 100 } });
      const walletTrip = await reachedTrip('wallet');
      expect((await t.request({ method: 'POST', url: `/api/bookings/${walletTrip.id}/pay`, as: rider, payload: { payment_mode: 'wallet' } })).json().status).toBe('PAID');
      trips.walletPaid = walletTrip.id;
      const cardTrip = await reachedTrip('card');
      expect((await t.request({ method: 'POST', url: `/api/bookings/${cardTrip.id}/pay`, as: driver, payload: { payment_mode: 'card' } })).json().status).toBe('PENDING');
      trips.cardPending = cardTrip.id;
      expect([walletTrip.currency, cardTrip.currency]).toEqual(['USD', 'USD']);
      const saved = await t.request({ method: 'PATCH', url: '/api/settings', as: admin, payload: { code: 'EUR', symbol: '€' } });
      expect(saved.statusCode, saved.body).toBe(200);
    });
    afterAll(() => t.close());

    it('leaves past trips and their ledger entries in the currency they were made in', async () => {
      expect((await bookingOf(trips.walletPaid)).currency).toBe('USD');
      const listed = (await t.request({ method: 'GET', url: '/api/bookings', as: rider })).json().bookings as { id: string; currency: string }[];
      expect(listed.map((b) => b.currency)).toEqual(['USD', 'USD']);
      const riderWallet = await walletOf(rider);
      expect(riderWallet.walletHistory.map((entry) => [entry.txRef, entry.currency])).toEqual(expect.arrayContaining([['AdminCredit', 'USD']]));
      expect(new Set(riderWallet.walletHistory.map((entry) => entry.currency))).toEqual(new Set(['USD']));
      expect(new Set((await walletOf(driver)).walletHistory.map((entry) => entry.currency))).toEqual(new Set(['USD']));
    });

    it('pays an old trip in its own currency: the form says USD, a checkout in the new currency is refused, the driver is credited in USD', async () => {
      const form = await t.request({ method: 'POST', url: `/api/bookings/${trips.cardPending}/pay`, as: rider, payload: { payment_mode: 'card', provider: 'test' } });
      const { redirect, fields } = form.json<{ redirect: string; fields: Record<string, string> }>();
      expect(fields.currency).toBe('USD');
      const inEuros = await t.request({ method: 'POST', url: redirect, as: rider, payload: formBody({ ...fields, currency: 'EUR' }), headers: FORM });
      expect([inEuros.statusCode, codeOf(inEuros)]).toEqual([400, 'amount_mismatch']);
      const page = await t.request({ method: 'POST', url: redirect, as: rider, payload: formBody(fields), headers: FORM });
      const done = await t.request({ method: 'POST', url: '/api/payments/test/complete', as: rider, payload: formBody(formFields(page.body, 'Pay')), headers: FORM });
      expect(done.body).toContain('Payment received');
      expect(await bookingOf(trips.cardPending)).toMatchObject({ status: 'PAID', currency: 'USD' });
      const credit = await t.db.select().from(walletEntries).where(eq(walletEntries.bookingId, trips.cardPending));
      expect(credit.map((entry) => entry.currency)).toEqual(['USD']);
      const receipt = await t.request({ method: 'GET', url: `/api/bookings/${trips.cardPending}/receipt`, as: rider });
      expect(receipt.body).toContain(`$${(await bookingOf(trips.cardPending)).customer_paid.toFixed(2)} USD`);
    });

    it('makes new trips, credits and withdrawals in the new currency', async () => {
      const trip = await reachedTrip('cash');
      expect(trip.currency).toBe('EUR');
      expect((await t.request({ method: 'POST', url: `/api/bookings/${trip.id}/pay`, as: driver, payload: { payment_mode: 'cash' } })).json()).toMatchObject({ status: 'PAID', currency: 'EUR' });
      const cashMoves = await t.db.select().from(walletEntries).where(eq(walletEntries.bookingId, trip.id));
      expect(new Set(cashMoves.map((entry) => entry.currency))).toEqual(new Set(['EUR']));
      await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: driver.id, amount: 20 } });
      const withdrawn = await t.request({ method: 'POST', url: '/api/withdraws', as: driver, payload: { amount: 5 } });
      expect(withdrawn.statusCode, withdrawn.body).toBe(201);
      expect(withdrawn.json().withdraw.currency).toBe('EUR');
      expect((await t.db.select().from(withdraws).where(eq(withdraws.uid, driver.id))).map((row) => row.currency)).toEqual(['EUR']);
      const history = (await walletOf(driver)).walletHistory;
      expect(history.slice(0, 2).map((entry) => [entry.txRef, entry.currency])).toEqual([[expect.any(String), 'EUR'], ['AdminCredit', 'EUR']]);
      // The month's report never adds dollars to euros: a row for each; the dashboard counts euros only.
      const rows = (await t.request({ method: 'GET', url: '/api/reports/earnings', as: admin })).json().rows as { currency: string; bookings: number }[];
      expect(rows.map((row) => [row.currency, row.bookings])).toEqual([['EUR', 1], ['USD', 2]]);
      const cards = (await t.request({ method: 'GET', url: '/api/dashboard', as: admin })).json().earnings;
      const fee = (await t.db.select().from(bookings).where(eq(bookings.id, trip.id)))[0]?.convenienceFeesMinor ?? 0;
      expect(cards).toEqual({ today: fromMinor(fee), thisMonth: fromMinor(fee), total: fromMinor(fee), currency: 'EUR' });
    });
  });

  describe('the operator time zone', () => {
    let t: TestApp;
    let admin: UserRow;
    let rider: UserRow;
    beforeAll(async () => {
      t = await createTestApp(engine);
      admin = await t.makeUser('admin');
      rider = await t.makeUser('rider');
    });
    afterAll(() => t.close());

    it('is an IANA name, UTC by default, read by anyone, saved by admins only; anything else answers proper_timezone', async () => {
      expect((await t.request({ method: 'GET', url: '/api/settings' })).json().settings.timezone).toBe('UTC');
      for (const timezone of ['+05:30', 'UTC+3', 'Mars/Olympus_Mons', '', 'Europe/London\'; drop table bookings; --', 42]) {
        const refused = await t.request({ method: 'PATCH', url: '/api/settings', as: admin, payload: { timezone } });
        expect([refused.statusCode, codeOf(refused)], String(timezone)).toEqual([400, 'proper_timezone']);
      }
      expect((await t.request({ method: 'PATCH', url: '/api/settings', as: rider, payload: { timezone: 'Asia/Tokyo' } })).statusCode).toBe(403);
      const saved = await t.request({ method: 'PATCH', url: '/api/settings', as: admin, payload: { timezone: 'Asia/Tokyo' } });
      expect([saved.statusCode, saved.json().settings.timezone]).toEqual([200, 'Asia/Tokyo']);
      expect((await t.request({ method: 'GET', url: '/api/settings' })).json().settings.timezone).toBe('Asia/Tokyo');
    });

    it('draws the month boundaries of the reports and of the dashboard in that zone', async () => {
      const driver = await t.makeUser('driver', { carType: 'Sedan' });
      // Three trips next to month ends, in a currency of their own so the rows are theirs alone.
      const at = { oct31Late: Date.UTC(2026, 9, 31, 23, 30), nov1Early: Date.UTC(2026, 10, 1, 3, 30), nov30Late: Date.UTC(2026, 10, 30, 20, 0) };
      const base = {
        status: 'COMPLETE', carType: 'Sedan', customer: rider.id, customerName: 'R', pickup, drop, estimateMinor: 1500, estimateDistance: 3, estimateTime: 600,
        bookingDate: at.oct31Late, tripCostMinor: 1500, currency: 'JPY', convenienceFeesMinor: 150, driverShareMinor: 1350, customerPaidMinor: 1500,
        driver: driver.id, driverName: 'Dee Driver', vehicleNumber: 'AB12', updatedAt: at.oct31Late,
      };
      await t.db.insert(bookings).values(Object.values(at).map((tripdate) => ({ ...base, id: randomUUID(), reference: randomUUID().slice(0, 8), tripdate })));
      const reference: EarningBooking[] = Object.values(at).map((tripdate) => ({ status: 'COMPLETE', tripdate, trip_cost: 15, discount: 0, customer_paid: 15, convenience_fees: 1.5, driver_share: 13.5, driver: driver.id, driver_name: 'Dee Driver', vehicle_number: 'AB12', currency: 'JPY' }));
      const months = async () =>
        ((await t.request({ method: 'GET', url: '/api/reports/earnings', as: admin })).json().rows as { year: number; month: number; currency: string; bookings: number }[])
          .filter((row) => row.currency === 'JPY')
          .map((row) => [row.year, row.month, row.bookings]);
      const expected = {
        // 23:30 UTC on 31 October is 1 November in Tokyo; 03:30 UTC on 1 November is still 31 October in New York (EDT).
        UTC: [[2026, 11, 2], [2026, 10, 1]],
        'America/New_York': [[2026, 11, 1], [2026, 10, 2]],
        'Asia/Tokyo': [[2026, 12, 1], [2026, 11, 2]],
        'Europe/London': [[2026, 11, 2], [2026, 10, 1]],
      };
      for (const [timezone, rows] of Object.entries(expected)) {
        expect((await t.request({ method: 'PATCH', url: '/api/settings', as: admin, payload: { timezone, code: 'JPY', symbol: '¥' } })).statusCode).toBe(200);
        expect(await months(), timezone).toEqual(rows);
        const all = (await t.request({ method: 'GET', url: '/api/reports/earnings', as: admin })).json().rows.filter((row: { currency: string }) => row.currency === 'JPY');
        expect(all).toEqual(earningsByMonth(reference, timezone));
        const drivers = (await t.request({ method: 'GET', url: '/api/reports/driver-earnings', as: driver })).json().rows;
        expect(drivers).toEqual(driverEarningsByMonth(reference, timezone));
        // The dashboard at 05:00 UTC on 1 November: today and this month began at different instants in each zone.
        t.clock.now = Date.UTC(2026, 10, 1, 5, 0);
        const cards = (await t.request({ method: 'GET', url: '/api/dashboard', as: admin })).json().earnings;
        expect(cards, timezone).toEqual({ ...grossEarnings(reference, t.clock.now, timezone, 'JPY'), currency: 'JPY' });
      }
      // At 05:00 UTC on 1 November, New York's 1 November began at 04:00 UTC, after the 03:30 trip;
      // Tokyo's began at 15:00 UTC on 31 October, before both early trips, and its November holds them.
      const cardsIn = async (timezone: string) => {
        await t.request({ method: 'PATCH', url: '/api/settings', as: admin, payload: { timezone } });
        return (await t.request({ method: 'GET', url: '/api/dashboard', as: admin })).json().earnings;
      };
      expect(await cardsIn('UTC')).toEqual({ today: 1.5, thisMonth: 3, total: 4.5, currency: 'JPY' });
      expect(await cardsIn('America/New_York')).toEqual({ today: 0, thisMonth: 1.5, total: 4.5, currency: 'JPY' });
      expect(await cardsIn('Asia/Tokyo')).toEqual({ today: 3, thisMonth: 3, total: 4.5, currency: 'JPY' });
    });
  });
});
