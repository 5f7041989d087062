import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookings, paymentAttempts, paymentEvents, payments, refunds, walletEntries } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { sedan } from '../fixtures';
import { cardDelivery as cardDeliveryOf, reachedCardTrip, FORM } from '../card-trips';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';
import { startPaystack, type PaystackStandIn } from '../stand-ins/paystack';

const CHECKOUT = '/api/payments/paystack/checkout';
const WEBHOOK = '/api/payments/paystack/webhook';
const PUBLIC_URL = 'https://rides.example';

/**
 * Issue 22: Paystack through the real adapter and the app's routes, against the Paystack
 * stand-in. The rider pays on the stand-in's hosted page; the return verifies the transaction
 * server-side; webhooks are checked by their HMAC-SHA512 and then verified. Every case runs on
 * each engine.
 */
describe.each(ENGINES)('Paystack through the API on %s (issue 22)', (engine) => {
  let standIn: PaystackStandIn;
  let t: TestApp;
  let admin: UserRow;
  let driver: UserRow;

  beforeAll(async () => {
    standIn = await startPaystack();
    t = await createTestApp(engine, { PAYSTACK_SECRET_KEY: standIn.secretKey, PAYSTACK_API_URL: standIn.url, PAYMENT_TIMEOUT_MS: '800', PUBLIC_URL });
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
    driver = await t.makeUser('driver', { carType: 'Sedan' });
  });
  beforeEach(async () => {
    standIn.mode = 'ok';
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

  /** A checkout that reached Paystack: the transaction's reference (the attempt's id). */
  async function started(rider: UserRow, id: string) {
    const answer = await checkout(rider, id);
    expect(answer.statusCode, answer.body).toBe(303);
    const location = String(answer.headers.location);
    expect(location).toMatch(new RegExp(`^${standIn.url}/checkout/[0-9a-f]+$`));
    const transaction = [...standIn.transactions.values()].find((candidate) => location.endsWith(candidate.accessCode));
    if (!transaction) throw new Error('no transaction');
    return { reference: transaction.reference, page: location };
  }

  /** The rider clicks on the stand-in's hosted page: where Paystack sends the browser back. */
  async function atPaystack(page: string, button: 'pay' | 'decline' | 'cancel' = 'pay') {
    const shown = await fetch(page);
    expect(await shown.text()).toContain('Paystack (stand-in)');
    const clicked = await fetch(`${page}/${button}`, { method: 'POST', redirect: 'manual' });
    expect(clicked.status).toBe(303);
    const back = new URL(clicked.headers.get('location') ?? '');
    expect(back.origin + back.pathname).toBe(`${PUBLIC_URL}/api/payments/paystack/return`);
    return back;
  }

  async function returnTo(back: URL) {
    const answer = await t.request({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(answer.statusCode, answer.body).toBe(303);
    return String(answer.headers.location);
  }

  async function payThrough(rider: UserRow, id: string) {
    const { reference, page } = await started(rider, id);
    expect(await returnTo(await atPaystack(page))).toBe(`/bookings/${id}?payment=paid`);
    return reference;
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

  it("is listed; a rider's checkout initializes a transaction for the booking's own amount and 303s to Paystack's page", async () => {
    expect((await t.request({ method: 'GET', url: '/get_providers' })).json()).toContainEqual({ name: 'paystack', link: CHECKOUT });
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { reference } = await started(rider, b.id);
    // The server's amount and currency (USD cents), not the 0.01 EUR the form posted.
    expect(standIn.transactions.get(reference)).toMatchObject({ amount: b.paidMinor, currency: 'USD', status: 'abandoned', metadata: { rideway_reference: b.id } });
    expect(standIn.transactions.get(reference)?.callbackUrl).toBe(`${PUBLIC_URL}/api/payments/paystack/return?attempt=${reference}`);
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], attempts: [{ status: 'open', checkoutId: reference }] });
  });

  it('the rider pays on the hosted page; the return verifies and pays the booking once (NEW); a second return asks nothing more', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { reference, page } = await started(rider, b.id);
    const back = await atPaystack(page);
    expect(back.searchParams.get('reference')).toBe(reference);
    expect(await returnTo(back)).toBe(`/bookings/${b.id}?payment=paid`);
    const paid = await rowsOf(b.id);
    expect(paid.status).toBe('NEW');
    expect(paid.payments).toEqual([expect.objectContaining({ provider: 'paystack', transactionId: reference, amountMinor: b.paidMinor, currency: 'USD', outcome: 'succeeded' })]);
    expect(paid.events).toEqual([expect.objectContaining({ provider: 'paystack', type: 'payment_succeeded', source: 'lookup', outcome: 'paid' })]);
    expect(paid.attempts).toEqual([{ status: 'succeeded', checkoutId: reference }]);
    const verifies = standIn.requests.filter((request) => request.path.startsWith('/transaction/verify/')).length;
    expect(await returnTo(back)).toBe(`/bookings/${b.id}?payment=paid`);
    expect(standIn.requests.filter((request) => request.path.startsWith('/transaction/verify/')).length).toBe(verifies);
    expect(await rowsOf(b.id)).toEqual(paid);
  });

  it('a declined payment leaves the booking payable; a cancel pays nothing; the rider then pays', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const first = await started(rider, b.id);
    expect(await returnTo(await atPaystack(first.page, 'cancel'))).toBe(`/bookings/${b.id}?payment=cancelled`);
    const second = await started(rider, b.id);
    expect(await returnTo(await atPaystack(second.page, 'decline'))).toBe(`/bookings/${b.id}?payment=failed`);
    const declined = await rowsOf(b.id);
    expect(declined).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [] });
    expect(declined.events).toEqual([expect.objectContaining({ type: 'payment_failed', outcome: 'failed' })]);
    await payThrough(rider, b.id);
    const after = await rowsOf(b.id);
    expect(after.status).toBe('NEW');
    expect(after.payments).toEqual([expect.objectContaining({ outcome: 'succeeded', amountMinor: b.paidMinor })]);
  });

  it('a lost return: the signed charge.success pays; 10 replays at once and the late return change nothing', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { reference, page } = await started(rider, b.id);
    const back = await atPaystack(page);
    const { rawBody, headers } = standIn.signedWebhook('charge.success', standIn.transactionJson(reference));
    const first = await postWebhook(rawBody, headers);
    expect([first.statusCode, first.json()]).toEqual([200, { received: true }]);
    const paid = await rowsOf(b.id);
    expect(paid.status).toBe('NEW');
    expect(paid.payments).toEqual([expect.objectContaining({ transactionId: reference, amountMinor: b.paidMinor, outcome: 'succeeded' })]);
    const replays = await Promise.all(Array.from({ length: 10 }, () => postWebhook(rawBody, headers)));
    expect(replays.map((reply) => reply.statusCode)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(await returnTo(back)).toBe(`/bookings/${b.id}?payment=paid`);
    const after = await rowsOf(b.id);
    expect(after.payments).toEqual(paid.payments);
    expect(after.ledger).toEqual(paid.ledger);
    expect(after.events).toEqual(paid.events);
    expect(after.events).toEqual([expect.objectContaining({ source: 'notification', outcome: 'paid' })]);
  });

  it('a forged or altered notification (changed body, wrong key, no signature) is 400 and changes nothing', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { reference } = await started(rider, b.id);
    standIn.settle(reference, 'success');
    const { rawBody, headers } = standIn.signedWebhook('charge.success', standIn.transactionJson(reference));
    const changed = Buffer.from(rawBody.toString('utf8').replace(`"reference":"${reference}"`, `"reference":"${randomUUID()}"`));
    const { createHmac } = await import('node:crypto');
    const wrongKey = { ...headers, 'x-paystack-signature': createHmac('sha512', 'sk_test_guessed_key_0000').update(rawBody).digest('hex') };
    const { 'x-paystack-signature': _signature, ...unsigned } = headers;
    for (const [body, sent] of [[changed, headers], [rawBody, wrongKey], [rawBody, unsigned]] as const) {
      const reply = await postWebhook(body, sent);
      expect([reply.statusCode, codeOf(reply)]).toEqual([400, 'validation_error']);
    }
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], events: [] });
    expect(await t.db.select().from(paymentEvents).where(eq(paymentEvents.transactionId, reference))).toEqual([]);
  });

  it.each([
    ['amount', (transaction: { amount: number; currency: string }) => { transaction.amount -= 100; }],
    ['currency', (transaction: { amount: number; currency: string }) => { transaction.currency = 'NGN'; }],
  ] as const)('a transaction of another %s than the booking owes is recorded, not paid', async (_what, tamper) => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { reference, page } = await started(rider, b.id);
    const back = await atPaystack(page);
    const transaction = standIn.transactions.get(reference);
    if (!transaction) throw new Error('no transaction');
    tamper(transaction);
    expect(await returnTo(back)).toBe(`/bookings/${b.id}?payment=failed`);
    const rows = await rowsOf(b.id);
    expect(rows.status).toBe('PAYMENT_PENDING');
    expect(rows.ledger).toEqual([]);
    expect(rows.payments).toEqual([expect.objectContaining({ outcome: 'mismatch', amountMinor: transaction.amount, currency: transaction.currency })]);
    expect(rows.events).toEqual([expect.objectContaining({ type: 'payment_succeeded', outcome: 'mismatch' })]);
  });

  it("an admin refunds a Paystack-paid trip in part: Paystack queues it, the retry finds it (never twice), refund.processed settles it", async () => {
    const rider = await t.makeUser('rider');
    const b = await reachedTrip(rider);
    const reference = await payThrough(rider, b.id);
    expect((await rowsOf(b.id)).status).toBe('PAID');
    const part = await t.request({ method: 'POST', url: `/api/bookings/${b.id}/refunds`, as: admin, payload: { amount: 1.5, reason: 'Detour' }, headers: { 'idempotency-key': randomUUID() } });
    expect(part.statusCode, part.body).toBe(200);
    await runAllJobs();
    const made = () => [...standIn.refunds.values()].filter((refund) => refund.reference === reference);
    expect(made()).toMatchObject([{ amount: 150, currency: 'USD', status: 'pending' }]);
    const row = (await t.db.select().from(refunds).where(eq(refunds.bookingId, b.id)))[0];
    expect(row).toMatchObject({ status: 'requested', attempts: 1 });
    // The refund job asks again (its retry, later): the queued refund is found by its note, not made again.
    t.advance(24 * 3600_000);
    await runAllJobs();
    expect(made()).toHaveLength(1);
    expect((await t.db.select().from(refunds).where(eq(refunds.bookingId, b.id)))[0]?.attempts).toBeGreaterThan(1);
    standIn.processRefund(made()[0]?.id ?? 0);
    const { rawBody, headers } = standIn.signedWebhook('refund.processed', standIn.refundEventJson(made()[0]?.id ?? 0));
    expect((await postWebhook(rawBody, headers)).statusCode).toBe(200);
    expect((await t.db.select().from(refunds).where(eq(refunds.bookingId, b.id)))[0]).toMatchObject({ status: 'succeeded', providerRefundId: String(made()[0]?.id), amountMinor: 150 });
    // Later retries change nothing.
    t.advance(24 * 3600_000);
    await runAllJobs();
    expect(made()).toHaveLength(1);
  });

  it.each(['hang', 'fail'] as const)('Paystack down (%s): the checkout answers payment_provider_error and nothing is paid', async (mode) => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    standIn.mode = mode;
    const answer = await checkout(rider, b.id);
    expect([answer.statusCode, codeOf(answer)]).toEqual([502, 'payment_provider_error']);
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], events: [], attempts: [{ status: 'open', checkoutId: null }] });
  });

  it('a settings currency Paystack does not take: not listed, no checkout, and the admins are told why', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    await t.setSettings({ appcat: 'delivery', code: 'EUR' });
    expect((await t.request({ method: 'GET', url: '/get_providers' })).json()).not.toContainEqual(expect.objectContaining({ name: 'paystack' }));
    const answer = await checkout(rider, b.id);
    expect([answer.statusCode, codeOf(answer)]).toEqual([404, 'not_found']);
    const listed = await t.request({ method: 'GET', url: '/api/payments/providers', as: admin });
    expect(listed.json()).toMatchObject({ currency: 'EUR', providers: expect.arrayContaining([expect.objectContaining({ name: 'paystack', takesCurrency: false, currencies: ['NGN', 'GHS', 'ZAR', 'KES', 'USD'] })]) });
  });
});
