import { randomUUID } from 'node:crypto';
import { toMinor } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookings, paymentAttempts, paymentEvents, payments, refunds, walletEntries } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { sedan } from '../fixtures';
import { cardDelivery as cardDeliveryOf, reachedCardTrip, FORM } from '../card-trips';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';
import { startFlutterwave, type FlutterwaveStandIn } from '../stand-ins/flutterwave';

const CHECKOUT = '/api/payments/flutterwave/checkout';
const WEBHOOK = '/api/payments/flutterwave/webhook';
const PUBLIC_URL = 'https://rides.example';

/**
 * Issue 22: Flutterwave through the real adapter and the app's routes, against the Flutterwave
 * stand-in. The rider pays on the stand-in's hosted page; the return looks the transaction up by
 * its tx_ref; webhooks are checked by their verif-hash and then verified by id. Every case runs
 * on each engine.
 */
describe.each(ENGINES)('Flutterwave through the API on %s (issue 22)', (engine) => {
  let standIn: FlutterwaveStandIn;
  let t: TestApp;
  let admin: UserRow;
  let driver: UserRow;

  beforeAll(async () => {
    standIn = await startFlutterwave();
    t = await createTestApp(engine, { FLUTTERWAVE_SECRET_KEY: standIn.secretKey, FLUTTERWAVE_SECRET_HASH: standIn.secretHash, FLUTTERWAVE_API_URL: standIn.url, PAYMENT_TIMEOUT_MS: '800', PUBLIC_URL });
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
    driver = await t.makeUser('driver', { carType: 'Sedan' });
  });
  beforeEach(async () => {
    standIn.mode = 'ok';
    standIn.refundStatus = 'completed';
    await t.setSettings({ appcat: 'delivery' });
    await t.goOnline(driver);
  });
  afterAll(async () => {
    await t.close();
    await standIn.close();
  });

  const cardDelivery = (rider: UserRow) => cardDeliveryOf(t, rider);

  const reachedTrip = (rider: UserRow) => reachedCardTrip(t, driver, rider);

  const checkout = (rider: UserRow, id: string) => t.request({ method: 'POST', url: CHECKOUT, as: rider, payload: new URLSearchParams({ order_id: id, amount: '0.01', currency: 'EUR' }).toString(), headers: FORM });

  /** A checkout that reached Flutterwave: its tx_ref (the attempt's id) and hosted page. */
  async function started(rider: UserRow, id: string) {
    const answer = await checkout(rider, id);
    expect(answer.statusCode, answer.body).toBe(303);
    const location = String(answer.headers.location);
    expect(location).toMatch(new RegExp(`^${standIn.url}/v3/hosted/pay/[0-9a-f]+$`));
    const payment = [...standIn.payments.values()].find((candidate) => location.endsWith(candidate.code));
    if (!payment) throw new Error('no payment');
    return { txRef: payment.txRef, page: location };
  }

  async function atFlutterwave(page: string, button: 'pay' | 'decline' | 'cancel' = 'pay') {
    expect(await (await fetch(page)).text()).toContain('Flutterwave (stand-in)');
    const clicked = await fetch(`${page}/${button}`, { method: 'POST', redirect: 'manual' });
    expect(clicked.status).toBe(303);
    const back = new URL(clicked.headers.get('location') ?? '');
    expect(back.origin + back.pathname).toBe(`${PUBLIC_URL}/api/payments/flutterwave/return`);
    return back;
  }

  async function returnTo(back: URL) {
    const answer = await t.request({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(answer.statusCode, answer.body).toBe(303);
    return String(answer.headers.location);
  }

  async function payThrough(rider: UserRow, id: string) {
    const { txRef, page } = await started(rider, id);
    expect(await returnTo(await atFlutterwave(page))).toBe(`/bookings/${id}?payment=paid`);
    return standIn.payments.get(txRef)?.transactionId ?? 0;
  }

  async function runAllJobs() {
    for (let round = 0; round < 50; round += 1) if ((await t.runJobs()).done === 0) return;
    throw new Error('jobs keep coming');
  }

  const postWebhook = (rawBody: Buffer | string, headers: Record<string, string>) => t.request({ method: 'POST', url: WEBHOOK, payload: rawBody, headers });
  const rowsOf = async (id: string) => ({
    status: (await t.db.select().from(bookings).where(eq(bookings.id, id)))[0]?.status,
    payments: await t.db.select().from(payments).where(eq(payments.bookingId, id)),
    ledger: await t.db.select().from(walletEntries).where(eq(walletEntries.bookingId, id)),
    events: await t.db.select().from(paymentEvents).where(eq(paymentEvents.reference, id)),
    attempts: await t.db.select({ status: paymentAttempts.status, checkoutId: paymentAttempts.checkoutId }).from(paymentAttempts).where(eq(paymentAttempts.reference, id)),
  });

  it("is listed; a rider's checkout creates a hosted payment for the booking's own amount and 303s to its link", async () => {
    expect((await t.request({ method: 'GET', url: '/get_providers' })).json()).toContainEqual({ name: 'flutterwave', link: CHECKOUT });
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { txRef } = await started(rider, b.id);
    expect(standIn.payments.get(txRef)).toMatchObject({ amount: b.paidMinor / 100, currency: 'USD', meta: { rideway_reference: b.id }, redirectUrl: `${PUBLIC_URL}/api/payments/flutterwave/return?attempt=${txRef}` });
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], attempts: [{ status: 'open', checkoutId: txRef }] });
  });

  it('the rider pays on the hosted page; the return looks it up and pays the booking once; a second return asks nothing more', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { txRef, page } = await started(rider, b.id);
    const back = await atFlutterwave(page);
    expect(back.searchParams.get('status')).toBe('successful');
    expect(await returnTo(back)).toBe(`/bookings/${b.id}?payment=paid`);
    const id = String(standIn.payments.get(txRef)?.transactionId);
    const paid = await rowsOf(b.id);
    expect(paid.status).toBe('NEW');
    expect(paid.payments).toEqual([expect.objectContaining({ provider: 'flutterwave', transactionId: id, amountMinor: b.paidMinor, currency: 'USD', outcome: 'succeeded' })]);
    expect(paid.attempts).toEqual([{ status: 'succeeded', checkoutId: txRef }]);
    const asked = standIn.requests.length;
    expect(await returnTo(back)).toBe(`/bookings/${b.id}?payment=paid`);
    expect(standIn.requests.length).toBe(asked);
    expect(await rowsOf(b.id)).toEqual(paid);
  });

  it('a cancel pays nothing (cancelled), a decline leaves the booking payable (failed); the rider then pays', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const first = await started(rider, b.id);
    expect(await returnTo(await atFlutterwave(first.page, 'cancel'))).toBe(`/bookings/${b.id}?payment=cancelled`);
    const second = await started(rider, b.id);
    expect(await returnTo(await atFlutterwave(second.page, 'decline'))).toBe(`/bookings/${b.id}?payment=failed`);
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [] });
    await payThrough(rider, b.id);
    expect((await rowsOf(b.id)).status).toBe('NEW');
  });

  it('a lost return: the charge.completed notification pays; 10 replays at once and the late return change nothing', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { txRef, page } = await started(rider, b.id);
    const back = await atFlutterwave(page);
    const id = standIn.payments.get(txRef)?.transactionId ?? 0;
    const { rawBody, headers } = standIn.signedWebhook('charge.completed', standIn.transactionJson(id));
    const first = await postWebhook(rawBody, headers);
    expect([first.statusCode, first.json()]).toEqual([200, { received: true }]);
    const paid = await rowsOf(b.id);
    expect(paid.status).toBe('NEW');
    const replays = await Promise.all(Array.from({ length: 10 }, () => postWebhook(rawBody, headers)));
    expect(replays.map((reply) => reply.statusCode)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(await returnTo(back)).toBe(`/bookings/${b.id}?payment=paid`);
    const after = await rowsOf(b.id);
    expect(after.payments).toEqual(paid.payments);
    expect(after.ledger).toEqual(paid.ledger);
    expect(after.events).toEqual([expect.objectContaining({ source: 'notification', outcome: 'paid' })]);
  });

  it('a notification with a wrong or missing verif-hash is 400 and changes nothing', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { txRef } = await started(rider, b.id);
    const transaction = standIn.pay(txRef);
    const { rawBody, headers } = standIn.signedWebhook('charge.completed', standIn.transactionJson(transaction.id));
    const { 'verif-hash': _hash, ...unsigned } = headers;
    for (const sent of [{ ...headers, 'verif-hash': 'guessed-secret-hash-0000' }, { ...headers, 'verif-hash': standIn.secretKey }, unsigned]) {
      const reply = await postWebhook(rawBody, sent);
      expect([reply.statusCode, codeOf(reply)]).toEqual([400, 'validation_error']);
    }
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], events: [] });
  });

  it.each([
    ['amount', (transaction: { amount: number; currency: string }) => { transaction.amount -= 1; }],
    ['currency', (transaction: { amount: number; currency: string }) => { transaction.currency = 'NGN'; }],
  ] as const)('a transaction of another %s than the booking owes is recorded, not paid', async (_what, tamper) => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { txRef, page } = await started(rider, b.id);
    const back = await atFlutterwave(page);
    const transaction = standIn.transactions.get(standIn.payments.get(txRef)?.transactionId ?? 0);
    if (!transaction) throw new Error('no transaction');
    tamper(transaction);
    expect(await returnTo(back)).toBe(`/bookings/${b.id}?payment=failed`);
    const rows = await rowsOf(b.id);
    expect(rows.status).toBe('PAYMENT_PENDING');
    expect(rows.ledger).toEqual([]);
    expect(rows.payments).toEqual([expect.objectContaining({ outcome: 'mismatch', amountMinor: toMinor(transaction.amount), currency: transaction.currency })]);
  });

  it('an admin refunds a Flutterwave-paid trip in part, then the rest: Flutterwave refunds those amounts once each', async () => {
    const rider = await t.makeUser('rider');
    const b = await reachedTrip(rider);
    const id = await payThrough(rider, b.id);
    expect((await rowsOf(b.id)).status).toBe('PAID');
    const refund = (amount: number) => t.request({ method: 'POST', url: `/api/bookings/${b.id}/refunds`, as: admin, payload: { amount, reason: 'Detour' }, headers: { 'idempotency-key': randomUUID() } });
    expect((await refund(1.5)).statusCode).toBe(200);
    await runAllJobs();
    expect((await refund((b.paidMinor - 150) / 100)).statusCode).toBe(200);
    await runAllJobs();
    expect([...standIn.refunds.values()].filter((candidate) => candidate.txId === id).map((candidate) => candidate.amount)).toEqual([1.5, (b.paidMinor - 150) / 100]);
    const rows = await t.db.select().from(refunds).where(eq(refunds.bookingId, b.id));
    expect(rows.map((row) => [row.status, row.amountMinor, row.transactionId])).toEqual([['succeeded', 150, String(id)], ['succeeded', b.paidMinor - 150, String(id)]]);
  });

  it.each(['hang', 'fail'] as const)('Flutterwave down (%s): the checkout answers payment_provider_error and nothing is paid', async (mode) => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    standIn.mode = mode;
    const answer = await checkout(rider, b.id);
    expect([answer.statusCode, codeOf(answer)]).toEqual([502, 'payment_provider_error']);
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], events: [], attempts: [{ status: 'open', checkoutId: null }] });
  });

  it('a settings currency Flutterwave does not take (JPY): not listed, and the admins are told why', async () => {
    await t.setSettings({ appcat: 'delivery', code: 'JPY' });
    expect((await t.request({ method: 'GET', url: '/get_providers' })).json()).not.toContainEqual(expect.objectContaining({ name: 'flutterwave' }));
    const listed = await t.request({ method: 'GET', url: '/api/payments/providers', as: admin });
    expect(listed.json()).toMatchObject({ currency: 'JPY', providers: expect.arrayContaining([expect.objectContaining({ name: 'flutterwave', takesCurrency: false })]) });
  });
});
