import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { openDatabase } from '../../src/db/client';
import { bookings, payments, walletEntries } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { memoryStorage } from '../../src/providers/storage';
import { prepareDatabase } from '../../src/seed/prepare';
import { drop, pickup, sedan } from '../fixtures';
import { codeOf, createTestApp, ENGINES, type Engine, type TestApp } from '../harness';
import { createPostgresDatabase } from '../postgres';
import { FORM } from '../card-trips';

const CHECKOUT = '/api/payments/test/checkout';
const COMPLETE = '/api/payments/test/complete';
const formBody = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();
const payFields = (html: string): Record<string, string> => {
  const form = [...html.matchAll(/<form[^>]*>(.*?)<\/form>/g)].find((m) => m[1]?.includes('>Pay</button>'))?.[1] ?? '';
  return Object.fromEntries([...form.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1] ?? '', m[2] ?? '']));
};
const delivery = { pickup, drop, carType: 'Sedan', deliveryPerson: 'Sam', deliveryPersonPhone: '555 0100' };

/** A server on a database prepared as `npm start` prepares it, with or without the demo data. */
async function preparedServer(engine: Engine, demo: boolean) {
  const created = engine === 'postgres' ? await createPostgresDatabase(process.env.DATABASE_URL ?? '', 'provider') : undefined;
  const database = await openDatabase(created ? { databaseUrl: created.url, dataDir: '' } : { dataDir: 'memory://' });
  const config = loadConfig({ LOG_LEVEL: 'silent', DEMO_DATA: demo ? '1' : '0' });
  await prepareDatabase(database.db, config);
  const start = () => buildApp({ config, db: database.db, storage: memoryStorage(), logger: false, background: false });
  return {
    start,
    close: async () => {
      await database.close();
      await created?.drop();
    },
  };
}

/**
 * Issue 15, point 2: "A card trip paid for free. The embedded test provider is always on and its
 * checkout needs no sign-in." The test provider is on only with demo data or
 * PAYMENT_TEST_PROVIDER=1, and serves only the booking's own rider.
 */
describe.each(ENGINES)('the embedded test payment provider on %s (issue 15, point 2)', (engine) => {
  describe('off: no demo data, no PAYMENT_TEST_PROVIDER', () => {
    let t: TestApp;
    let rider: UserRow;
    beforeAll(async () => {
      t = await createTestApp(engine);
      const admin = await t.makeUser('admin');
      await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
      await t.goOnline(await t.makeUser('driver', { carType: 'Sedan' }));
      rider = await t.makeUser('rider');
    });
    afterAll(() => t.close());

    it('is not listed, and its checkout and confirmation do not exist, for anyone', async () => {
      expect((await t.request({ method: 'GET', url: '/get_providers' })).json()).toEqual([]);
      for (const as of [null, rider]) {
        for (const url of [CHECKOUT, COMPLETE]) {
          const response = await t.request({ method: 'POST', url, as, payload: formBody({ order_id: 'x', amount: '1.00', currency: 'USD' }), headers: FORM });
          expect([response.statusCode, codeOf(response)], url).toEqual([404, 'not_found']);
        }
      }
      const paths = Object.keys((await t.request({ method: 'GET', url: '/api/openapi.json' })).json<{ paths: Record<string, unknown> }>().paths);
      expect(paths.filter((path) => path.startsWith('/api/payments/test'))).toEqual([]);
    });

    it('a card booking is refused up front with payment_provider_unavailable; cash still books', async () => {
      const refused = await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', payment_mode: 'card' } });
      expect([refused.statusCode, codeOf(refused), refused.json().error.field]).toEqual([409, 'payment_provider_unavailable', 'payment_mode']);
      expect(await t.db.select().from(bookings).where(eq(bookings.customer, rider.id))).toEqual([]);
      const cash = await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', payment_mode: 'cash' } });
      expect(cash.statusCode).toBe(201);
    });

    it('a card payment owed from before answers payment_provider_unavailable, never a form to the test checkout', async () => {
      const other = await t.makeUser('rider');
      const id = (await t.request({ method: 'POST', url: '/api/bookings', as: other, payload: { pickup, drop, carType: 'Sedan' } })).json<{ id: string }>().id;
      await t.db.update(bookings).set({ status: 'PENDING', paymentMode: 'card' }).where(eq(bookings.id, id));
      const pay = await t.request({ method: 'POST', url: `/api/bookings/${id}/pay`, as: other, payload: { payment_mode: 'card' } });
      expect([pay.statusCode, codeOf(pay)]).toEqual([409, 'payment_provider_unavailable']);
      expect(pay.body).not.toContain(CHECKOUT);
    });
  });

  describe('on (PAYMENT_TEST_PROVIDER=1): only the booking\'s own rider pays', () => {
    let t: TestApp;
    let rider: UserRow;
    let stranger: UserRow;
    let driver: UserRow;
    beforeAll(async () => {
      t = await createTestApp(engine, { PAYMENT_TEST_PROVIDER: '1' });
      const admin = await t.makeUser('admin');
      await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
      await t.setSettings({ appcat: 'delivery' });
      driver = await t.makeUser('driver', { carType: 'Sedan' });
      await t.goOnline(driver);
      rider = await t.makeUser('rider');
      stranger = await t.makeUser('rider');
    });
    afterAll(() => t.close());

    it('is listed by /get_providers', async () => {
      expect((await t.request({ method: 'GET', url: '/get_providers' })).json()).toEqual([{ name: 'test', link: CHECKOUT }]);
    });

    it('the attack: anonymous, a driver or another rider cannot check out or confirm; nothing is paid or credited', async () => {
      const b = (await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { ...delivery, payment_mode: 'card' } })).json<{ id: string; customer_paid: number }>();
      const order = formBody({ order_id: b.id, amount: b.customer_paid.toFixed(2), currency: 'USD' });
      const anonymous = await t.request({ method: 'POST', url: CHECKOUT, payload: order, headers: FORM });
      expect([anonymous.statusCode, codeOf(anonymous)]).toEqual([401, 'not_logged_in']);
      const asDriver = await t.request({ method: 'POST', url: CHECKOUT, as: driver, payload: order, headers: FORM });
      expect([asDriver.statusCode, codeOf(asDriver)]).toEqual([403, 'forbidden']);
      const asStranger = await t.request({ method: 'POST', url: CHECKOUT, as: stranger, payload: order, headers: FORM });
      expect([asStranger.statusCode, codeOf(asStranger)]).toEqual([404, 'not_found']);

      // The owner's checkout page holds the signed fields; someone else who gets hold of them cannot use them.
      const page = await t.request({ method: 'POST', url: CHECKOUT, as: rider, payload: order, headers: FORM });
      expect(page.statusCode).toBe(200);
      const signed = formBody(payFields(page.body));
      expect((await t.request({ method: 'POST', url: COMPLETE, payload: signed, headers: FORM })).statusCode).toBe(401);
      expect((await t.request({ method: 'POST', url: COMPLETE, as: driver, payload: signed, headers: FORM })).statusCode).toBe(403);
      const foreign = await t.request({ method: 'POST', url: COMPLETE, as: stranger, payload: signed, headers: FORM });
      expect([foreign.statusCode, codeOf(foreign)]).toEqual([404, 'not_found']);
      // Nor can another site make the rider's browser post them.
      const cookie = `rideway_session=${await t.tokenOf(rider)}`;
      const crossSite = await t.request({ method: 'POST', url: COMPLETE, payload: signed, headers: { ...FORM, cookie, origin: 'https://evil.example' } });
      expect([crossSite.statusCode, codeOf(crossSite)]).toEqual([403, 'forbidden']);
      expect((await t.db.select().from(bookings).where(eq(bookings.id, b.id)))[0]?.status).toBe('PAYMENT_PENDING');
      expect(await t.db.select().from(payments).where(eq(payments.bookingId, b.id))).toEqual([]);
      expect(await t.db.select().from(walletEntries).where(eq(walletEntries.bookingId, b.id))).toEqual([]);

      // The owner, signed in by the session cookie as the browser posts it, pays as before.
      const done = await t.request({ method: 'POST', url: COMPLETE, payload: signed, headers: { ...FORM, cookie, origin: 'http://localhost:80' } });
      expect(done.body).toContain('Payment received');
      expect((await t.request({ method: 'GET', url: `/api/bookings/${b.id}`, as: rider })).json()).toMatchObject({ status: 'NEW', prepaid: true, gateway: 'test' });
      // A paid booking has nothing left to check out.
      expect(codeOf(await t.request({ method: 'POST', url: CHECKOUT, as: rider, payload: order, headers: FORM }))).toBe('invalid_transition');
    });
  });

  describe('with demo data: on in the database the demo data was seeded into, across restarts', () => {
    it('lists the test provider and serves its routes only there', async () => {
      for (const demo of [true, false]) {
        const server = await preparedServer(engine, demo);
        try {
          for (let start = 0; start < 2; start += 1) {
            const app = await server.start();
            const listed = (await app.inject({ method: 'GET', url: '/get_providers' })).json();
            expect(listed).toEqual(demo ? [{ name: 'test', link: CHECKOUT }] : []);
            expect(app.hasRoute({ method: 'POST', url: CHECKOUT }), `demo ${String(demo)}`).toBe(demo);
            await app.close();
          }
        } finally {
          await server.close();
        }
      }
    });
  });
});
