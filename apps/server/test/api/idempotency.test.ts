import { toMinor } from '@rideway/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, idempotencyKeys, walletEntries, withdraws } from '../../src/db/schema';
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS } from '../../src/http/idempotency';
import { MapsProviderError, type MapsPort } from '../../src/providers/maps/port';
import type { UserRow } from '../../src/modules/users/accounts';
import { drop, pickup, sedan } from '../fixtures';
import { codeOf, createTestApp, driveTrip, ENGINES, type TestApp } from '../harness';

/**
 * Issue 15, point 11: `Idempotency-Key` on booking creation, payment, withdraw request and wallet
 * credit. The attack: a write commits, the client never hears back and retries; without a key
 * the retry is a second booking or a second withdrawal.
 */
describe.each(ENGINES)('Idempotency-Key on %s (issue 15, point 11)', (engine) => {
  let t: TestApp;
  let admin: UserRow;
  let keys = 0;
  const newKey = () => `key-${engine}-${String((keys += 1))}-${String(Date.now())}`;
  const keyed = (key: string) => ({ 'idempotency-key': key });
  const BANK = { bankName: 'Test Bank', bankCode: 'TB01', bankAccount: '12345678' };

  const book = (as: UserRow, key?: string, extra: Record<string, unknown> = {}) =>
    t.request({ method: 'POST', url: '/api/bookings', as, payload: { pickup, drop, carType: 'Sedan', ...extra }, ...(key === undefined ? {} : { headers: keyed(key) }) });
  const credit = (uid: string, amount: unknown, key?: string) =>
    t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid, amount }, ...(key === undefined ? {} : { headers: keyed(key) }) });
  const withdraw = (driver: UserRow, amount: number, key: string) => t.request({ method: 'POST', url: '/api/withdraws', as: driver, payload: { amount, ...BANK }, headers: keyed(key) });
  const bookingsOf = async (rider: UserRow) => t.db.select().from(bookings).where(eq(bookings.customer, rider.id));
  const entriesOf = async (user: UserRow) => t.db.select().from(walletEntries).where(eq(walletEntries.uid, user.id));
  const balance = async (user: UserRow) => (await t.request({ method: 'GET', url: '/api/wallet', as: user })).json<{ walletBalance: number }>().walletBalance;
  const replayed = (response: LightMyRequestResponse) => response.headers['idempotent-replayed'] === 'true';
  const answer = (response: LightMyRequestResponse) => [response.statusCode, response.body];

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
    await t.goOnline(await t.makeUser('driver', { carType: 'Sedan' }));
  });
  afterAll(() => t.close());

  it('a booking retried with its key is one booking: the first status and body again, marked replayed (the rider, and an admin for a rider)', async () => {
    for (const as of ['rider', 'admin'] as const) {
      const rider = await t.makeUser('rider');
      const caller = as === 'rider' ? rider : admin;
      const key = newKey();
      const extra = as === 'admin' ? { customer: rider.id } : {};
      const first = await book(caller, key, extra);
      expect(first.statusCode, first.body).toBe(201);
      expect(replayed(first)).toBe(false);
      const retry = await book(caller, key, extra);
      expect(answer(retry)).toEqual(answer(first));
      expect(replayed(retry)).toBe(true);
      expect(retry.headers['content-type']).toBe(first.headers['content-type']);
      expect(await bookingsOf(rider)).toHaveLength(1);
    }
  });

  it('a withdraw request retried with its key debits the balance once', async () => {
    const driver = await t.makeUser('driver');
    await credit(driver.id, 20);
    const key = newKey();
    const first = await withdraw(driver, 5, key);
    expect(first.statusCode, first.body).toBe(201);
    const retry = await withdraw(driver, 5, key);
    expect(answer(retry)).toEqual(answer(first));
    expect(replayed(retry)).toBe(true);
    expect(await t.db.select().from(withdraws).where(eq(withdraws.uid, driver.id))).toHaveLength(1);
    expect(await balance(driver)).toBe(15);
  });

  it('a wallet credit retried with its key is one ledger entry', async () => {
    const rider = await t.makeUser('rider');
    const key = newKey();
    const first = await credit(rider.id, 12.5, key);
    expect(first.json()).toEqual({ walletBalance: 12.5 });
    const retry = await credit(rider.id, 12.5, key);
    expect(answer(retry)).toEqual(answer(first));
    expect(replayed(retry)).toBe(true);
    expect(await entriesOf(rider)).toHaveLength(1);
  });

  it("a payment retried with its key debits the rider once; the handler's refusal is replayed as it was, a new key pays", async () => {
    const rider = await t.makeUser('rider');
    const driver = await t.makeUser('driver', { carType: 'Sedan' });
    await t.goOnline(driver);
    const b = (await book(rider, undefined, { payment_mode: 'wallet' })).json<{ id: string }>();
    await t.db.update(bookings).set({ requestedDrivers: { [driver.id]: true } }).where(eq(bookings.id, b.id));
    expect((await t.request({ method: 'POST', url: `/api/bookings/${b.id}/accept`, as: driver })).statusCode).toBe(200);
    const reached = await driveTrip(t, driver, b.id, [drop]);
    const pay = (key: string) => t.request({ method: 'POST', url: `/api/bookings/${b.id}/pay`, as: rider, payload: { payment_mode: 'wallet' }, headers: keyed(key) });

    const shortKey = newKey();
    const short = await pay(shortKey);
    expect([short.statusCode, codeOf(short)]).toEqual([409, 'insufficient_balance']);
    await credit(rider.id, 100);
    // The key's answer is final (Stripe): the same key answers the same refusal, the wallet untouched.
    const sameKey = await pay(shortKey);
    expect(answer(sameKey)).toEqual(answer(short));
    expect(replayed(sameKey)).toBe(true);
    expect(await balance(rider)).toBe(100);

    const key = newKey();
    const paid = await pay(key);
    expect(paid.json()).toMatchObject({ status: 'PAID', usedWalletMoney: reached.trip_cost });
    const retry = await pay(key);
    expect(answer(retry)).toEqual(answer(paid));
    expect(replayed(retry)).toBe(true);
    const debits = (await entriesOf(rider)).filter((entry) => entry.amountMinor < 0);
    expect(debits.map((entry) => entry.amountMinor)).toEqual([-toMinor(reached.trip_cost)]);
  });

  it('ten parallel retries with one key write one booking and one withdrawal; the others answer the replay or 409', async () => {
    const rider = await t.makeUser('rider');
    const key = newKey();
    const booked = await Promise.all(Array.from({ length: 10 }, () => book(rider, key)));
    const rows = await bookingsOf(rider);
    expect(rows).toHaveLength(1);
    for (const response of booked) {
      if (response.statusCode === 201) expect(response.json<{ id: string }>().id).toBe(rows[0]?.id);
      else expect([response.statusCode, codeOf(response)]).toEqual([409, 'idempotency_key_in_use']);
    }
    expect(booked.filter((response) => response.statusCode === 201 && !replayed(response))).toHaveLength(1);

    const driver = await t.makeUser('driver');
    await credit(driver.id, 30);
    const withdrawKey = newKey();
    const asked = await Promise.all(Array.from({ length: 10 }, () => withdraw(driver, 4, withdrawKey)));
    expect(asked.every((response) => response.statusCode === 201 || codeOf(response) === 'idempotency_key_in_use')).toBe(true);
    expect(await t.db.select().from(withdraws).where(eq(withdraws.uid, driver.id))).toHaveLength(1);
    expect(await balance(driver)).toBe(26);
  });

  it('the same key with another body or on another route is refused with 422 and writes nothing; another user has keys of its own', async () => {
    const rider = await t.makeUser('rider');
    const key = newKey();
    expect((await book(rider, key)).statusCode).toBe(201);
    const otherBody = await book(rider, key, { payment_mode: 'wallet' });
    expect([otherBody.statusCode, codeOf(otherBody), otherBody.json<{ error: { field?: string } }>().error.field]).toEqual([422, 'idempotency_key_reused', 'idempotency-key']);
    expect(await bookingsOf(rider)).toHaveLength(1);

    const stranger = await t.makeUser('rider');
    expect((await book(stranger, key)).statusCode).toBe(201);
    expect(await bookingsOf(stranger)).toHaveLength(1);

    const adminKey = newKey();
    expect((await credit(rider.id, 5, adminKey)).statusCode).toBe(200);
    const otherRoute = await book(admin, adminKey, { customer: rider.id });
    expect([otherRoute.statusCode, codeOf(otherRoute)]).toEqual([422, 'idempotency_key_reused']);
    expect(await bookingsOf(rider)).toHaveLength(1);
  });

  it('a request refused before its handler (bad input) keeps nothing: the corrected request runs with the same key', async () => {
    const rider = await t.makeUser('rider');
    const key = newKey();
    const bad = await credit(rider.id, 'lots', key);
    expect([bad.statusCode, codeOf(bad)]).toEqual([400, 'no_details_error']);
    const corrected = await credit(rider.id, 7, key);
    expect(corrected.json()).toEqual({ walletBalance: 7 });
    expect(replayed(corrected)).toBe(false);
    expect(await entriesOf(rider)).toHaveLength(1);
  });

  it('refuses a key that is empty, longer than 255 characters or not printable ASCII with 400', async () => {
    const rider = await t.makeUser('rider');
    for (const key of ['', 'k'.repeat(256), 'clé-ünïcode', 'tab\there']) {
      const response = await credit(rider.id, 1, key);
      expect([response.statusCode, codeOf(response), response.json<{ error: { field?: string } }>().error.field], JSON.stringify(key)).toEqual([400, 'validation_error', 'idempotency-key']);
    }
    expect(await entriesOf(rider)).toHaveLength(0);
    expect((await credit(rider.id, 1, 'k'.repeat(255))).statusCode).toBe(200);
  });

  it('without the header every write behaves as before: two requests, two bookings, no key kept', async () => {
    const rider = await t.makeUser('rider');
    expect((await book(rider)).statusCode).toBe(201);
    expect((await book(rider)).statusCode).toBe(201);
    expect(await bookingsOf(rider)).toHaveLength(2);
    expect(await t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.uid, rider.id))).toEqual([]);
  });

  describe('when the server fails', () => {
    const maps = () => t.app.ctx.maps;
    const withMaps = async <T>(route: MapsPort['route'], work: () => Promise<T>): Promise<T> => {
      const original = maps();
      t.app.ctx.maps = { ...original, route };
      try {
        return await work();
      } finally {
        t.app.ctx.maps = original;
      }
    };

    it('a server fault before any write releases the key: the retry runs', async () => {
      const rider = await t.makeUser('rider');
      const key = newKey();
      const failed = await withMaps(() => Promise.reject(new Error('maps down')), () => book(rider, key));
      expect([failed.statusCode, codeOf(failed)]).toEqual([500, 'internal_error']);
      const retry = await book(rider, key);
      expect(retry.statusCode).toBe(201);
      expect(replayed(retry)).toBe(false);
      expect(await bookingsOf(rider)).toHaveLength(1);
    });

    it('a maps provider down for now answers its key with Retry-After and releases the key: the retry books once it is back', async () => {
      const rider = await t.makeUser('rider');
      const key = newKey();
      const down = () => Promise.reject(new MapsProviderError('osm', 'timeout', 'no_route_found', 'OSRM timed out'));
      const failed = await withMaps(down, () => book(rider, key));
      expect([failed.statusCode, codeOf(failed), failed.headers['retry-after']]).toEqual([422, 'no_route_found', '5']);
      expect(await bookingsOf(rider)).toHaveLength(0);
      const retry = await book(rider, key);
      expect([retry.statusCode, replayed(retry)]).toEqual([201, false]);
      expect(await bookingsOf(rider)).toHaveLength(1);
      // A malformed answer will not mend: that refusal is kept and replayed like any other.
      const other = newKey();
      const malformed = () => Promise.reject(new MapsProviderError('osm', 'malformed', 'no_route_found', 'not JSON'));
      const refused = await withMaps(malformed, () => book(rider, other));
      expect([refused.statusCode, refused.headers['retry-after']]).toEqual([422, undefined]);
      const again = await book(rider, other);
      expect([again.statusCode, replayed(again)]).toEqual([422, true]);
    });

    it('a request that outlived its claim cannot spend the key: its write rolls back, the retry that took over books once', async () => {
      const rider = await t.makeUser('rider');
      const key = newKey();
      const original = maps();
      let release = () => {};
      const held = new Promise<void>((resolve) => { release = resolve; });
      let calls = 0;
      const [slow, retry] = await withMaps(async (points) => {
        calls += 1;
        if (calls === 1) await held;
        return original.route(points);
      }, async () => {
        const first = book(rider, key);
        while (calls === 0) await new Promise((resolve) => setTimeout(resolve, 5));
        // The first request hangs past its lease; the client retries.
        t.advance(IDEMPOTENCY_LEASE_MS + 1);
        const second = await book(rider, key);
        release();
        return [await first, second];
      });
      expect(retry.statusCode, retry.body).toBe(201);
      expect([slow.statusCode, codeOf(slow)]).toEqual([409, 'idempotency_key_in_use']);
      expect((await bookingsOf(rider)).map((row) => row.id)).toEqual([retry.json<{ id: string }>().id]);
      const again = await book(rider, key);
      expect(answer(again)).toEqual(answer(retry));
    });

    it('a claim whose request died answers 409 for a minute, then a retry takes it over', async () => {
      const rider = await t.makeUser('rider');
      const key = newKey();
      expect((await credit(rider.id, 3, key)).statusCode).toBe(200);
      // As if the process died after the claim and before the write: the key is held, unspent.
      await t.db.delete(walletEntries).where(eq(walletEntries.uid, rider.id));
      await t.db.update(idempotencyKeys).set({ state: 'in_flight', statusCode: null, response: null, lockedAt: t.clock.now }).where(and(eq(idempotencyKeys.uid, admin.id), eq(idempotencyKeys.key, key)));
      const early = await credit(rider.id, 3, key);
      expect([early.statusCode, codeOf(early)]).toEqual([409, 'idempotency_key_in_use']);
      t.advance(IDEMPOTENCY_LEASE_MS + 1);
      const late = await credit(rider.id, 3, key);
      expect([late.statusCode, replayed(late)]).toEqual([200, false]);
      expect(await entriesOf(rider)).toHaveLength(1);
    });

    it('a key spent by a write whose answer was lost answers 409 and writes nothing', async () => {
      const rider = await t.makeUser('rider');
      const key = newKey();
      expect((await credit(rider.id, 3, key)).statusCode).toBe(200);
      // As if the process died between the write's commit and the storing of its answer.
      await t.db.update(idempotencyKeys).set({ state: 'committed', statusCode: null, response: null }).where(and(eq(idempotencyKeys.uid, admin.id), eq(idempotencyKeys.key, key)));
      t.advance(IDEMPOTENCY_LEASE_MS + 1);
      const retry = await credit(rider.id, 3, key);
      expect([retry.statusCode, codeOf(retry)]).toEqual([409, 'idempotency_key_in_use']);
      expect(await entriesOf(rider)).toHaveLength(1);
    });
  });

  it('a key is kept 24 hours: after that the same key runs again, and expired keys are deleted', async () => {
    const rider = await t.makeUser('rider');
    const key = newKey();
    expect((await credit(rider.id, 2, key)).statusCode).toBe(200);
    t.advance(IDEMPOTENCY_TTL_MS - 1000);
    expect(replayed(await credit(rider.id, 2, key))).toBe(true);
    t.advance(1000);
    const later = await credit(rider.id, 2, key);
    expect([later.statusCode, replayed(later)]).toEqual([200, false]);
    expect(await entriesOf(rider)).toHaveLength(2);
    const expired = await t.db.select({ count: sql<number>`count(*)::int` }).from(idempotencyKeys).where(sql`${idempotencyKeys.createdAt} <= ${t.clock.now - IDEMPOTENCY_TTL_MS}`);
    expect(expired[0]?.count).toBe(0);
  });

  it('documents the header on the four writes', async () => {
    const document = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json<{ paths: Record<string, Record<string, { parameters?: { in: string; name: string; required?: boolean }[] }>> }>();
    for (const [path, method] of [['/api/bookings', 'post'], ['/api/bookings/{id}/pay', 'post'], ['/api/withdraws', 'post'], ['/api/wallet/credit', 'post']] as const) {
      const header = document.paths[path]?.[method]?.parameters?.find((parameter) => parameter.in === 'header' && parameter.name === 'idempotency-key');
      expect(header, path).toMatchObject({ in: 'header', name: 'idempotency-key', required: false });
    }
  });
});
