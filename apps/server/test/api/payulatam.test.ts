import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookings, paymentAttempts, paymentEvents, payments, refunds, walletEntries } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { sedan } from '../fixtures';
import { cardDelivery as cardDeliveryOf, reachedCardTrip, FORM } from '../card-trips';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';
import { startPayulatam, type PayuStandIn } from '../stand-ins/payulatam';

const CHECKOUT = '/api/payments/payulatam/checkout';
const WEBHOOK = '/api/payments/payulatam/webhook';
const PUBLIC_URL = 'https://rides.example';

const unescapeHtml = (text: string) => text.replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code)));

/**
 * Issue 22: PayU Latam through the real adapter and the app's routes, against the PayU stand-in.
 * The checkout is our page posting the signed WebCheckout form on to PayU; the return asks the
 * Queries API; the confirmation page is checked by its sign and then by the same query; refunds
 * are REFUND transactions of the Payments API. Every case runs on each engine.
 */
describe.each(ENGINES)('PayU Latam through the API on %s (issue 22)', (engine) => {
  let standIn: PayuStandIn;
  let t: TestApp;
  let admin: UserRow;
  let driver: UserRow;

  beforeAll(async () => {
    standIn = await startPayulatam();
    // confirmationUrl is PUBLIC_URL's: the tests post the confirmations PayU would send.
    standIn.deliver = false;
    t = await createTestApp(engine, { PAYULATAM_API_KEY: standIn.apiKey, PAYULATAM_API_LOGIN: standIn.apiLogin, PAYULATAM_MERCHANT_ID: standIn.merchantId, PAYULATAM_ACCOUNT_ID: standIn.accountId, PAYULATAM_TEST: '1', PAYULATAM_API_URL: standIn.url, PAYMENT_TIMEOUT_MS: '800', PUBLIC_URL });
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

  /** A checkout: our page posting the signed form on to PayU, which opens an order; its id and our referenceCode. */
  async function started(rider: UserRow, id: string) {
    const answer = await checkout(rider, id);
    expect(answer.statusCode, answer.body).toBe(200);
    const form = /<form id="checkout" data-autopost="1" method="post" action="([^"]+)">(.*?)<\/form>/.exec(answer.body);
    expect(form?.[1]).toBe(`${standIn.url}/ppp-web-gateway-payu/`);
    const fields = Object.fromEntries([...(form?.[2] ?? '').matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [unescapeHtml(m[1] ?? ''), unescapeHtml(m[2] ?? '')]));
    const page = await (await fetch(`${standIn.url}/ppp-web-gateway-payu/`, { method: 'POST', headers: FORM, body: new URLSearchParams(fields).toString() })).text();
    const orderId = Number(/ppp-web-gateway-payu\/(\d+)\/pay/.exec(page)?.[1]);
    if (!orderId) throw new Error(`PayU refused the form: ${String(standIn.refused.at(-1))}`);
    return { orderId, fields };
  }

  /** The rider clicks on PayU's page: where the browser is sent back (responseUrl, with PayU's parameters). */
  async function atPayu(orderId: number, button: 'pay' | 'decline' | 'cancel' = 'pay') {
    const clicked = await fetch(`${standIn.url}/ppp-web-gateway-payu/${String(orderId)}/${button}`, { method: 'POST', redirect: 'manual' });
    expect(clicked.status).toBe(303);
    const back = new URL(clicked.headers.get('location') ?? '');
    expect(back.origin + back.pathname).toBe(`${PUBLIC_URL}/api/payments/payulatam/return`);
    return back;
  }

  async function returnTo(back: URL) {
    const answer = await t.request({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(answer.statusCode, answer.body).toBe(303);
    return String(answer.headers.location);
  }

  const postConfirmation = (rawBody: Buffer | string) => t.request({ method: 'POST', url: WEBHOOK, payload: rawBody, headers: FORM });
  const lastTransaction = (orderId: number) => standIn.orders.get(orderId)?.transactions.at(-1);

  async function payThrough(rider: UserRow, id: string) {
    const { orderId } = await started(rider, id);
    expect(await returnTo(await atPayu(orderId))).toBe(`/bookings/${id}?payment=paid`);
    return { orderId, transactionId: lastTransaction(orderId)?.id ?? '' };
  }

  async function runAllJobs() {
    for (let round = 0; round < 50; round += 1) if ((await t.runJobs()).done === 0) return;
    throw new Error('jobs keep coming');
  }

  const rowsOf = async (id: string) => ({
    status: (await t.db.select().from(bookings).where(eq(bookings.id, id)))[0]?.status,
    payments: await t.db.select().from(payments).where(eq(payments.bookingId, id)),
    ledger: await t.db.select().from(walletEntries).where(eq(walletEntries.bookingId, id)),
    events: await t.db.select().from(paymentEvents).where(eq(paymentEvents.reference, id)),
    attempts: await t.db.select({ id: paymentAttempts.id, status: paymentAttempts.status, checkoutId: paymentAttempts.checkoutId }).from(paymentAttempts).where(eq(paymentAttempts.reference, id)),
  });

  it("is listed; a rider's checkout is our page posting the signed form, for the booking's own amount, which PayU accepts", async () => {
    expect((await t.request({ method: 'GET', url: '/get_providers' })).json()).toContainEqual({ name: 'payulatam', link: CHECKOUT });
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { fields } = await started(rider, b.id);
    const rows = await rowsOf(b.id);
    const attempt = rows.attempts[0]?.id ?? '';
    expect(fields).toMatchObject({ amount: (b.paidMinor / 100).toFixed(2), currency: 'USD', referenceCode: `${b.id}.${attempt}`, extra1: b.id, confirmationUrl: `${PUBLIC_URL}${WEBHOOK}`, responseUrl: `${PUBLIC_URL}/api/payments/payulatam/return?attempt=${attempt}` });
    expect(rows).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], attempts: [{ status: 'open', checkoutId: `${b.id}.${attempt}` }] });
  });

  it('the rider pays; the return asks PayU and pays the booking once (NEW); the confirmation and 10 replays change nothing', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { orderId, transactionId } = await payThrough(rider, b.id);
    const paid = await rowsOf(b.id);
    expect(paid.status).toBe('NEW');
    expect(paid.payments).toEqual([expect.objectContaining({ provider: 'payulatam', transactionId: `${String(orderId)}/${transactionId}`, amountMinor: b.paidMinor, currency: 'USD', outcome: 'succeeded' })]);
    expect(paid.events).toEqual([expect.objectContaining({ type: 'payment_succeeded', source: 'lookup', outcome: 'paid' })]);
    const { rawBody } = standIn.confirmation(orderId, transactionId);
    const replies = await Promise.all(Array.from({ length: 10 }, () => postConfirmation(rawBody)));
    expect(replies.map((reply) => reply.statusCode)).toEqual(Array.from({ length: 10 }, () => 200));
    const after = await rowsOf(b.id);
    expect(after.payments).toEqual(paid.payments);
    expect(after.ledger).toEqual(paid.ledger);
    expect(after.events).toEqual(paid.events);
  });

  it('a lost return: the confirmation pays; a decline first leaves the booking payable', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { orderId } = await started(rider, b.id);
    await atPayu(orderId, 'decline');
    const declined = lastTransaction(orderId);
    expect((await postConfirmation(standIn.confirmation(orderId, declined?.id ?? '').rawBody)).statusCode).toBe(200);
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], events: [expect.objectContaining({ type: 'payment_failed', source: 'notification' })] });
    const again = await started(rider, b.id);
    await atPayu(again.orderId, 'pay');
    const approved = lastTransaction(again.orderId);
    expect((await postConfirmation(standIn.confirmation(again.orderId, approved?.id ?? '').rawBody)).statusCode).toBe(200);
    const rows = await rowsOf(b.id);
    expect(rows.status).toBe('NEW');
    expect(rows.payments).toEqual([expect.objectContaining({ outcome: 'succeeded', amountMinor: b.paidMinor })]);
  });

  it('a forged or altered confirmation (state, reference, wrong key, no sign) is 400 and changes nothing', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { orderId } = await started(rider, b.id);
    await atPayu(orderId, 'decline');
    const text = standIn.confirmation(orderId, lastTransaction(orderId)?.id ?? '').rawBody.toString('utf8');
    const { createHash } = await import('node:crypto');
    const guessed = new URLSearchParams(text);
    guessed.set('state_pol', '4');
    guessed.set('sign', createHash('md5').update(`guessed~${standIn.merchantId}~${guessed.get('reference_sale') ?? ''}~${guessed.get('value') ?? ''}~USD~4`).digest('hex'));
    const unsigned = new URLSearchParams(text);
    unsigned.delete('sign');
    for (const body of [text.replace('state_pol=6', 'state_pol=4'), text.replace(/reference_sale=[^&]+/, `reference_sale=${randomUUID()}.${randomUUID()}`), guessed.toString(), unsigned.toString()]) {
      const reply = await postConfirmation(body);
      expect([reply.statusCode, codeOf(reply)]).toEqual([400, 'validation_error']);
    }
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], events: [] });
  });

  it.each([
    ['amount', (transaction: { value: number; currency: string }) => { transaction.value -= 1; }],
    ['currency', (transaction: { value: number; currency: string }) => { transaction.currency = 'COP'; }],
  ] as const)('an order of another %s than the booking owes is recorded, not paid', async (_what, tamper) => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { orderId } = await started(rider, b.id);
    const back = await atPayu(orderId);
    const transaction = lastTransaction(orderId);
    if (!transaction) throw new Error('no transaction');
    tamper(transaction);
    expect(await returnTo(back)).toBe(`/bookings/${b.id}?payment=failed`);
    const rows = await rowsOf(b.id);
    expect(rows).toMatchObject({ status: 'PAYMENT_PENDING', ledger: [] });
    expect(rows.payments).toEqual([expect.objectContaining({ outcome: 'mismatch', amountMinor: Math.round(transaction.value * 100), currency: transaction.currency })]);
  });

  it('PayU not answering: the return is pending, nothing paid; the lookup job settles it later', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { orderId } = await started(rider, b.id);
    const back = await atPayu(orderId);
    standIn.mode = 'fail';
    expect(await returnTo(back)).toBe(`/bookings/${b.id}?payment=pending`);
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [] });
    standIn.mode = 'ok';
    t.advance(6 * 60_000);
    await runAllJobs();
    expect((await rowsOf(b.id)).status).toBe('NEW');
  });

  it("an admin refunds a PayU-paid trip in part: a pending REFUND transaction, found again on retry (never twice), settled once PayU approves it", async () => {
    const rider = await t.makeUser('rider');
    const b = await reachedTrip(rider);
    const { orderId, transactionId } = await payThrough(rider, b.id);
    expect((await rowsOf(b.id)).status).toBe('PAID');
    const part = await t.request({ method: 'POST', url: `/api/bookings/${b.id}/refunds`, as: admin, payload: { amount: 1.5, reason: 'Detour' }, headers: { 'idempotency-key': randomUUID() } });
    expect(part.statusCode, part.body).toBe(200);
    await runAllJobs();
    const made = () => standIn.orders.get(orderId)?.transactions.filter((transaction) => transaction.type === 'REFUND') ?? [];
    expect(made()).toMatchObject([{ state: 'PENDING', value: 1.5, currency: 'USD', parentTransactionId: transactionId }]);
    expect((await t.db.select().from(refunds).where(eq(refunds.bookingId, b.id)))[0]).toMatchObject({ status: 'requested' });
    t.advance(24 * 3600_000);
    await runAllJobs();
    expect(made()).toHaveLength(1);
    standIn.review(orderId, 'APPROVED');
    t.advance(24 * 3600_000);
    await runAllJobs();
    expect((await t.db.select().from(refunds).where(eq(refunds.bookingId, b.id)))[0]).toMatchObject({ status: 'succeeded', providerRefundId: made()[0]?.id, amountMinor: 150 });
    expect(made()).toHaveLength(1);
  });

  it('PayU answering a malformed query: the return is pending, nothing paid or failed; the lookup job settles it once PayU answers properly', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { orderId } = await started(rider, b.id);
    const back = await atPayu(orderId);
    standIn.mode = 'malformed';
    expect(await returnTo(back)).toBe(`/bookings/${b.id}?payment=pending`);
    // The confirmation is checked by the same query: 5xx, so PayU posts it again.
    const confirmed = await postConfirmation(standIn.confirmation(orderId, lastTransaction(orderId)?.id ?? '').rawBody);
    expect([confirmed.statusCode, codeOf(confirmed)]).toEqual([502, 'payment_provider_error']);
    t.advance(6 * 60_000);
    await runAllJobs();
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], events: [], attempts: [expect.objectContaining({ status: 'open' })] });
    standIn.mode = 'ok';
    t.advance(15 * 60_000);
    await runAllJobs();
    expect((await rowsOf(b.id)).status).toBe('NEW');
  });

  it('a malformed answer to a refund leaves it requested and asks again (never failed, never made twice)', async () => {
    const rider = await t.makeUser('rider');
    const b = await reachedTrip(rider);
    const { orderId } = await payThrough(rider, b.id);
    standIn.mode = 'malformed';
    const part = await t.request({ method: 'POST', url: `/api/bookings/${b.id}/refunds`, as: admin, payload: { amount: 1.5, reason: 'Detour' }, headers: { 'idempotency-key': randomUUID() } });
    expect(part.statusCode, part.body).toBe(200);
    await runAllJobs();
    const made = () => standIn.orders.get(orderId)?.transactions.filter((transaction) => transaction.type === 'REFUND') ?? [];
    expect(made()).toEqual([]);
    expect((await t.db.select().from(refunds).where(eq(refunds.bookingId, b.id)))[0]).toMatchObject({ status: 'requested', attempts: 1, lastError: expect.stringContaining('malformed') });
    standIn.mode = 'ok';
    t.advance(3600_000);
    await runAllJobs();
    expect(made()).toMatchObject([{ state: 'PENDING', value: 1.5 }]);
    standIn.review(orderId, 'APPROVED');
    t.advance(24 * 3600_000);
    await runAllJobs();
    expect((await t.db.select().from(refunds).where(eq(refunds.bookingId, b.id)))[0]).toMatchObject({ status: 'succeeded', providerRefundId: made()[0]?.id, amountMinor: 150 });
    expect(made()).toHaveLength(1);
  });

  it('a settings currency PayU does not take: not listed, no checkout, and the admins are told why', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    await t.setSettings({ appcat: 'delivery', code: 'EUR' });
    expect((await t.request({ method: 'GET', url: '/get_providers' })).json()).not.toContainEqual(expect.objectContaining({ name: 'payulatam' }));
    const answer = await checkout(rider, b.id);
    expect([answer.statusCode, codeOf(answer)]).toEqual([404, 'not_found']);
    const listed = await t.request({ method: 'GET', url: '/api/payments/providers', as: admin });
    expect(listed.json()).toMatchObject({ providers: expect.arrayContaining([expect.objectContaining({ name: 'payulatam', takesCurrency: false })]) });
  });
});
