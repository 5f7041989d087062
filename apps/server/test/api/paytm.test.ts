import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import PaytmChecksum from 'paytmchecksum';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookings, paymentAttempts, paymentEvents, payments, refunds, walletEntries } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { sedan } from '../fixtures';
import { cardDelivery as cardDeliveryOf, reachedCardTrip, FORM } from '../card-trips';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';
import { startPaytm, type PaytmStandIn } from '../stand-ins/paytm';

const CHECKOUT = '/api/payments/paytm/checkout';
const WEBHOOK = '/api/payments/paytm/webhook';
const PUBLIC_URL = 'https://rides.example';

/**
 * Issue 22: Paytm through the real adapter and the app's routes, against the Paytm stand-in, in
 * rupees. The checkout initiates a signed transaction and posts mid, orderId and txnToken to the
 * stand-in's page; Paytm posts the browser back (the return asks the Transaction Status API);
 * its webhook is checked by its CHECKSUMHASH and then confirmed the same way. Every case runs on
 * each engine.
 */
describe.each(ENGINES)('Paytm through the API on %s (issue 22)', (engine) => {
  let standIn: PaytmStandIn;
  let t: TestApp;
  let admin: UserRow;
  let driver: UserRow;

  beforeAll(async () => {
    standIn = await startPaytm();
    t = await createTestApp(engine, { PAYTM_MERCHANT_ID: standIn.mid, PAYTM_MERCHANT_KEY: standIn.merchantKey, PAYTM_WEBSITE: 'WEBSTAGING', PAYTM_API_URL: standIn.url, PAYMENT_TIMEOUT_MS: '800', PUBLIC_URL });
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
    driver = await t.makeUser('driver', { carType: 'Sedan' });
  });
  beforeEach(async () => {
    standIn.mode = 'ok';
    await t.setSettings({ appcat: 'delivery', code: 'INR', symbol: '₹' });
    await t.goOnline(driver);
  });
  afterAll(async () => {
    await t.close();
    await standIn.close();
  });

  const cardDelivery = (rider: UserRow) => cardDeliveryOf(t, rider);

  const reachedTrip = (rider: UserRow) => reachedCardTrip(t, driver, rider, { code: 'INR', symbol: '₹' });

  const checkout = (rider: UserRow, id: string) => t.request({ method: 'POST', url: CHECKOUT, as: rider, payload: new URLSearchParams({ order_id: id, amount: '0.01', currency: 'USD' }).toString(), headers: FORM });

  /** A checkout: our page posting mid, orderId and txnToken on to Paytm's page. */
  async function started(rider: UserRow, id: string) {
    const answer = await checkout(rider, id);
    expect(answer.statusCode, answer.body).toBe(200);
    const form = /<form id="checkout" data-autopost="1" method="post" action="([^"]+)">(.*?)<\/form>/.exec(answer.body);
    const action = (form?.[1] ?? '').replaceAll('&#38;', '&');
    expect(action.startsWith(`${standIn.url}/theia/api/v1/showPaymentPage?mid=${standIn.mid}&orderId=`)).toBe(true);
    const fields = Object.fromEntries([...(form?.[2] ?? '').matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1] ?? '', m[2] ?? '']));
    expect(Object.keys(fields).sort()).toEqual(['mid', 'orderId', 'txnToken']);
    const page = await fetch(action, { method: 'POST', headers: FORM, body: new URLSearchParams(fields).toString() });
    expect(await page.text()).toContain('Paytm (stand-in)');
    return { orderId: fields.orderId ?? '', token: fields.txnToken ?? '' };
  }

  /** The rider clicks on Paytm's page; Paytm's self-submitting page posts the browser back: that post, to the app. */
  async function atPaytm(token: string, button: 'pay' | 'decline' | 'cancel' = 'pay') {
    const clicked = await (await fetch(`${standIn.url}/theia/api/v1/showPaymentPage/${token}/${button}`, { method: 'POST' })).text();
    const back = /<form id="back" method="post" action="([^"]+)">(.*?)<\/form>/.exec(clicked);
    const url = new URL((back?.[1] ?? '').replaceAll('&#38;', '&'));
    expect(url.origin + url.pathname).toBe(`${PUBLIC_URL}/api/payments/paytm/return`);
    const fields = Object.fromEntries([...(back?.[2] ?? '').matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1] ?? '', (m[2] ?? '').replace(/&#(\d+);/g, (_all, code: string) => String.fromCharCode(Number(code)))]));
    const answer = await t.request({ method: 'POST', url: `${url.pathname}${url.search}`, payload: new URLSearchParams(fields).toString(), headers: { ...FORM, origin: standIn.url } });
    expect(answer.statusCode, answer.body).toBe(303);
    return String(answer.headers.location);
  }

  const postWebhook = async (orderId: string, overrides: Record<string, string> = {}) => t.request({ method: 'POST', url: WEBHOOK, payload: new URLSearchParams(await standIn.responseFields(orderId, overrides)).toString(), headers: FORM });

  async function runAllJobs() {
    for (let round = 0; round < 50; round += 1) if ((await t.runJobs()).done === 0) return;
    throw new Error('jobs keep coming');
  }

  const rowsOf = async (id: string) => ({
    status: (await t.db.select().from(bookings).where(eq(bookings.id, id)))[0]?.status,
    payments: await t.db.select().from(payments).where(eq(payments.bookingId, id)),
    ledger: await t.db.select().from(walletEntries).where(eq(walletEntries.bookingId, id)),
    events: await t.db.select().from(paymentEvents).where(eq(paymentEvents.reference, id)),
    attempts: await t.db.select({ status: paymentAttempts.status, checkoutId: paymentAttempts.checkoutId }).from(paymentAttempts).where(eq(paymentAttempts.reference, id)),
  });

  it("is listed in rupees; a rider's checkout initiates the booking's own amount and Paytm posts the browser back paid, once", async () => {
    expect((await t.request({ method: 'GET', url: '/get_providers' })).json()).toContainEqual({ name: 'paytm', link: CHECKOUT });
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { orderId, token } = await started(rider, b.id);
    expect(standIn.orders.get(orderId)).toMatchObject({ amount: (b.paidMinor / 100).toFixed(2), currency: 'INR', status: 'OPEN', websiteName: 'WEBSTAGING' });
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], attempts: [{ status: 'open', checkoutId: orderId }] });
    expect(await atPaytm(token)).toBe(`/bookings/${b.id}?payment=paid`);
    const paid = await rowsOf(b.id);
    expect(paid.status).toBe('NEW');
    expect(paid.payments).toEqual([expect.objectContaining({ provider: 'paytm', transactionId: orderId, amountMinor: b.paidMinor, currency: 'INR', outcome: 'succeeded' })]);
    expect(paid.events).toEqual([expect.objectContaining({ type: 'payment_succeeded', source: 'lookup', outcome: 'paid' })]);
    // The webhook comes after, and 10 replays of it: nothing changes.
    const replays = await Promise.all(Array.from({ length: 10 }, () => postWebhook(orderId)));
    expect(replays.map((reply) => reply.statusCode)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(await rowsOf(b.id)).toEqual(paid);
  });

  it('a declined or cancelled payment leaves the booking payable; the rider then pays', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    expect(await atPaytm((await started(rider, b.id)).token, 'cancel')).toBe(`/bookings/${b.id}?payment=failed`);
    expect(await atPaytm((await started(rider, b.id)).token, 'decline')).toBe(`/bookings/${b.id}?payment=failed`);
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [] });
    expect(await atPaytm((await started(rider, b.id)).token)).toBe(`/bookings/${b.id}?payment=paid`);
    expect((await rowsOf(b.id)).status).toBe('NEW');
  });

  it('a lost return: the signed webhook pays the booking', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { orderId } = await started(rider, b.id);
    standIn.settle(orderId, 'paid');
    const reply = await postWebhook(orderId);
    expect([reply.statusCode, reply.json()]).toEqual([200, { received: true }]);
    const rows = await rowsOf(b.id);
    expect(rows.status).toBe('NEW');
    expect(rows.events).toEqual([expect.objectContaining({ source: 'notification', outcome: 'paid' })]);
  });

  it('a forged or altered webhook (changed field, another key, no checksum) is 400 and changes nothing', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { orderId } = await started(rider, b.id);
    standIn.settle(orderId, 'paid');
    const fields = await standIn.responseFields(orderId);
    const { CHECKSUMHASH: _checksum, ...unsigned } = fields;
    const otherKey = { ...unsigned, CHECKSUMHASH: await PaytmChecksum.generateSignature({ ...unsigned }, 'guessedKey123456') };
    for (const sent of [{ ...fields, ORDERID: `${randomUUID()}.abc` }, otherKey, unsigned]) {
      const reply = await t.request({ method: 'POST', url: WEBHOOK, payload: new URLSearchParams(sent).toString(), headers: FORM });
      expect([reply.statusCode, codeOf(reply)]).toEqual([400, 'validation_error']);
    }
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], events: [] });
  });

  it('an order paid for another amount than the booking owes is recorded, not paid', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { orderId, token } = await started(rider, b.id);
    const stored = standIn.orders.get(orderId);
    if (!stored) throw new Error('no order');
    stored.amount = '1.00';
    expect(await atPaytm(token)).toBe(`/bookings/${b.id}?payment=failed`);
    const rows = await rowsOf(b.id);
    expect(rows).toMatchObject({ status: 'PAYMENT_PENDING', ledger: [] });
    expect(rows.payments).toEqual([expect.objectContaining({ outcome: 'mismatch', amountMinor: 100, currency: 'INR' })]);
  });

  it('an admin refunds a Paytm-paid trip in part: PENDING at Paytm, the retry finds it by refId (never twice), TXN_SUCCESS settles it', async () => {
    const rider = await t.makeUser('rider');
    const b = await reachedTrip(rider);
    const { orderId, token } = await started(rider, b.id);
    expect(await atPaytm(token)).toBe(`/bookings/${b.id}?payment=paid`);
    expect((await rowsOf(b.id)).status).toBe('PAID');
    const part = await t.request({ method: 'POST', url: `/api/bookings/${b.id}/refunds`, as: admin, payload: { amount: 1.5, reason: 'Detour' }, headers: { 'idempotency-key': randomUUID() } });
    expect(part.statusCode, part.body).toBe(200);
    await runAllJobs();
    const made = () => [...standIn.refunds.values()].filter((refund) => refund.orderId === orderId);
    expect(made()).toMatchObject([{ amount: '1.50', status: 'PENDING' }]);
    expect((await t.db.select().from(refunds).where(eq(refunds.bookingId, b.id)))[0]).toMatchObject({ status: 'requested' });
    t.advance(24 * 3600_000);
    await runAllJobs();
    expect(made()).toHaveLength(1);
    standIn.processRefund(made()[0]?.refId ?? '');
    t.advance(24 * 3600_000);
    await runAllJobs();
    expect((await t.db.select().from(refunds).where(eq(refunds.bookingId, b.id)))[0]).toMatchObject({ status: 'succeeded', providerRefundId: made()[0]?.refundId, amountMinor: 150 });
    expect(made()).toHaveLength(1);
  });

  it('Paytm down: the checkout answers payment_provider_error; a settings currency other than INR: not listed', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    standIn.mode = 'fail';
    const answer = await checkout(rider, b.id);
    expect([answer.statusCode, codeOf(answer)]).toEqual([502, 'payment_provider_error']);
    standIn.mode = 'ok';
    await t.setSettings({ appcat: 'delivery', code: 'USD', symbol: '$' });
    expect((await t.request({ method: 'GET', url: '/get_providers' })).json()).not.toContainEqual(expect.objectContaining({ name: 'paytm' }));
    const listed = await t.request({ method: 'GET', url: '/api/payments/providers', as: admin });
    expect(listed.json()).toMatchObject({ providers: expect.arrayContaining([expect.objectContaining({ name: 'paytm', takesCurrency: false, currencies: ['INR'] })]) });
  });
});
