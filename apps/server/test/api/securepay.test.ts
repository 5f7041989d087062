import { randomUUID } from 'node:crypto';
import { formatMoney } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookings, paymentAttempts, paymentEvents, payments, refunds, users, walletEntries } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { sedan } from '../fixtures';
import { cardDelivery as cardDeliveryOf, reachedCardTrip, FORM, unescapeHtml } from '../card-trips';
import { checkoutPageFacts, expectNothingReflected, expectStylesheetServed, MARKUP_APP_NAME } from '../checkout-pages';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';
import { startSecurePay, type SecurePayStandIn } from '../stand-ins/securepay';

const CHECKOUT = '/api/payments/securepay/checkout';
const COMPLETE = '/api/payments/securepay/complete';
const PUBLIC_URL = 'https://rides.example';

/**
 * SecurePay through the real adapter and the app's routes, against the SecurePay stand-in (OAuth
 * token, /v2/payments, /v2/orders/{id}/refunds). SecurePay's card component runs only on SecurePay's
 * script: here the stand-in makes the card token it would give the browser, and the rider's page
 * posts it to our `complete`, which pays it server-side. SecurePay sends no notification of a card
 * payment: the answer to our own call is the only word taken. Every case runs on each engine.
 */
describe.each(ENGINES)('SecurePay through the API on %s', (engine) => {
  let standIn: SecurePayStandIn;
  let t: TestApp;
  let admin: UserRow;
  let driver: UserRow;

  beforeAll(async () => {
    standIn = await startSecurePay();
    t = await createTestApp(engine, {
      SECUREPAY_CLIENT_ID: standIn.clientId,
      SECUREPAY_CLIENT_SECRET: standIn.clientSecret,
      SECUREPAY_MERCHANT_CODE: standIn.merchantCode,
      SECUREPAY_SANDBOX: '1',
      SECUREPAY_API_URL: standIn.url,
      SECUREPAY_AUTH_URL: standIn.authUrl,
      PAYMENT_TIMEOUT_MS: '800',
      PUBLIC_URL,
      // The embedded PGlite runs on the test's own thread: on a loaded machine its work would trip load shedding (503), which is not what is tested here.
      PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
    });
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
    driver = await t.makeUser('driver', { carType: 'Sedan' });
  });
  beforeEach(async () => {
    standIn.mode = 'ok';
    standIn.loseAnswer = false;
    standIn.answerWith = undefined;
    await t.setSettings({ appcat: 'delivery', code: 'AUD' });
    await t.goOnline(driver);
  });
  afterAll(async () => {
    await t.close();
    await standIn.close();
  });

  const cardDelivery = (rider: UserRow) => cardDeliveryOf(t, rider);
  const reachedTrip = (rider: UserRow) => reachedCardTrip(t, driver, rider, { code: 'AUD' });

  /** The checkout page: SecurePay's card component, its settings, and the attempt our form posts back. */
  async function started(rider: UserRow, id: string) {
    const answer = await t.request({ method: 'POST', url: CHECKOUT, as: rider, payload: new URLSearchParams({ order_id: id, amount: '0.01', currency: 'EUR' }).toString(), headers: FORM });
    expect(answer.statusCode, answer.body).toBe(200);
    const settings = JSON.parse(unescapeHtml(/data-client-token="([^"]*)"/.exec(answer.body)?.[1] ?? '{}')) as { clientId: string; merchantCode: string; amount: number; currency: string };
    const attempt = /name="attempt" value="([^"]+)"/.exec(answer.body)?.[1] ?? '';
    return { page: answer.body, settings, attempt, csp: JSON.stringify(answer.headers['content-security-policy'] ?? '') };
  }

  const complete = (rider: UserRow, attempt: string, token: string, extra: Record<string, string> = {}, remoteAddress?: string) =>
    t.request({ method: 'POST', url: COMPLETE, as: rider, payload: new URLSearchParams({ attempt, payment_method_nonce: token, ...extra }).toString(), headers: FORM, ...(remoteAddress ? { remoteAddress } : {}) });

  const paymentsOf = (orderIds: (string | null | undefined)[]) => [...standIn.payments.values()].filter((payment) => orderIds.includes(payment.orderId));

  async function payThrough(rider: UserRow, id: string) {
    const { attempt } = await started(rider, id);
    const answer = await complete(rider, attempt, standIn.tokenize());
    expect([answer.statusCode, answer.headers.location]).toEqual([303, `/bookings/${id}?payment=paid`]);
    const paid = (await rowsOf(id)).payments[0]?.transactionId;
    if (!paid) throw new Error('no payment');
    return paid;
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
    attempts: await t.db.select({ status: paymentAttempts.status }).from(paymentAttempts).where(eq(paymentAttempts.reference, id)),
  });

  it("is listed; the checkout page offers SecurePay's card component with the client id and merchant code (never the secret) and the booking's amount in cents", async () => {
    expect((await t.request({ method: 'GET', url: '/get_providers' })).json()).toContainEqual({ name: 'securepay', link: CHECKOUT });
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const before = standIn.requests.length;
    const { page, settings, csp } = await started(rider, b.id);
    expect(settings).toEqual({ clientId: standIn.clientId, merchantCode: standIn.merchantCode, amount: b.paidMinor, currency: 'AUD' });
    expect(page).toContain(`<script src="${standIn.url}/v3/ui/client/securepay-ui.min.js" defer></script>`);
    expect(page).not.toContain(standIn.clientSecret);
    expect(csp).toContain(standIn.url);
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], attempts: [{ status: 'open' }] });
    // Nothing is asked of SecurePay before the rider gives a card.
    expect(standIn.requests.length).toBe(before);
  });

  it("the page is in the rider's language and its direction (Arabic: right to left), with the amount written for Arabic, Pay and a way back; the app's name is text", async () => {
    const rider = await t.makeUser('rider');
    await t.db.update(users).set({ language: 'ar' }).where(eq(users.id, rider.id));
    await t.setSettings({ appcat: 'delivery', code: 'AUD', appName: MARKUP_APP_NAME });
    const b = await cardDelivery(rider);
    const reference = (await t.db.select({ reference: bookings.reference }).from(bookings).where(eq(bookings.id, b.id)))[0]?.reference ?? '';
    const { page } = await started(rider, b.id);
    expectNothingReflected(page);
    expect(page).not.toContain('EUR');
    // Grouped and marked as Arabic writes numbers (CLDR's Arabic keeps Latin digits).
    const amount = formatMoney(b.paidMinor, { symbol: '$', code: 'AUD' }, { withCode: true, locale: 'ar' });
    const facts = checkoutPageFacts(page);
    expect(facts).toMatchObject({
      lang: 'ar',
      dir: 'rtl',
      brand: MARKUP_APP_NAME,
      heading: 'ادفع ثمن حجزك',
      summary: [['الحجز', reference], ['المبلغ', amount]],
      button: `ادفع ${amount}`,
      back: { href: `/bookings/${b.id}`, text: 'إلغاء والعودة' },
      alert: { scriptFailed: expect.stringContaining('تعذّر تحميل'), cardFailed: expect.stringContaining('تعذّر استخدام بطاقتك') },
    });
    await expectStylesheetServed(t, facts.stylesheet);
  });

  it("the rider's token is paid for the server's amount, whatever the browser posts; the booking is paid once", async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { attempt } = await started(rider, b.id);
    // The rider's own address goes to SecurePay's fraud screening, whatever the browser posts as customer_ip.
    const answer = await complete(rider, attempt, standIn.tokenize(), { amount_minor: '1', currency: 'USD', reference: randomUUID(), customer_ip: '198.51.100.9' }, '203.0.113.7');
    expect([answer.statusCode, answer.headers.location]).toEqual([303, `/bookings/${b.id}?payment=paid`]);
    const paid = await rowsOf(b.id);
    expect(paid.status).toBe('NEW');
    const orderId = paid.payments[0]?.transactionId;
    expect(paid.payments).toEqual([expect.objectContaining({ provider: 'securepay', amountMinor: b.paidMinor, currency: 'AUD', outcome: 'succeeded' })]);
    expect(paymentsOf([orderId])).toMatchObject([{ amount: b.paidMinor, status: 'paid', currency: 'AUD', ip: '203.0.113.7' }]);
    // The same page posted again: nothing more is asked or paid.
    const calls = standIn.requests.length;
    expect((await complete(rider, attempt, standIn.tokenize())).headers.location).toBe(`/bookings/${b.id}?payment=paid`);
    expect(standIn.requests.length).toBe(calls);
    expect(await rowsOf(b.id)).toEqual(paid);
  });

  it("another rider cannot complete someone's checkout", async () => {
    const rider = await t.makeUser('rider');
    const other = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { attempt } = await started(rider, b.id);
    const calls = standIn.requests.length;
    const answer = await complete(other, attempt, standIn.tokenize());
    expect([answer.statusCode, codeOf(answer)]).toEqual([404, 'not_found']);
    expect(standIn.requests.length).toBe(calls);
  });

  it('a declined card leaves the booking payable; the rider then pays', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { attempt } = await started(rider, b.id);
    const declined = await complete(rider, attempt, standIn.tokenize('4000000000000002'));
    expect(declined.headers.location).toBe(`/bookings/${b.id}?payment=failed`);
    const rows = await rowsOf(b.id);
    expect(rows).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [] });
    expect(rows.events).toEqual([expect.objectContaining({ provider: 'securepay', type: 'payment_failed', outcome: 'failed' })]);
    await payThrough(rider, b.id);
    expect((await rowsOf(b.id)).status).toBe('NEW');
  });

  it('a lost answer: the page posted again is answered the same payment (Idempotency-Key), one payment at SecurePay; 10 replays at once change nothing', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { attempt } = await started(rider, b.id);
    // SecurePay took the payment but its answer was lost on the way back.
    standIn.loseAnswer = true;
    const lost = await complete(rider, attempt, standIn.tokenize());
    standIn.loseAnswer = false;
    expect(lost.headers.location).toBe(`/bookings/${b.id}?payment=pending`);
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], events: [], attempts: [{ status: 'open' }] });
    expect(standIn.payments.size).toBeGreaterThan(0);
    // The rider tries again (the component gives a new token): SecurePay answers the first payment.
    const again = await complete(rider, attempt, standIn.tokenize());
    expect(again.headers.location).toBe(`/bookings/${b.id}?payment=paid`);
    const paid = await rowsOf(b.id);
    expect(paid.status).toBe('NEW');
    expect(paymentsOf(paid.payments.map((payment) => payment.transactionId))).toHaveLength(1);
    const replays = await Promise.all(Array.from({ length: 10 }, () => complete(rider, attempt, standIn.tokenize())));
    expect(replays.map((reply) => reply.headers.location)).toEqual(Array.from({ length: 10 }, () => `/bookings/${b.id}?payment=paid`));
    expect(await rowsOf(b.id)).toEqual(paid);
  });

  it('a forged confirmation changes nothing: a token SecurePay never issued, an empty post (400), and no notification path to post to', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { attempt } = await started(rider, b.id);
    const forged = await complete(rider, attempt, 'forged-card-token-0001');
    expect([forged.statusCode, forged.headers.location]).toEqual([303, `/bookings/${b.id}?payment=pending`]);
    const empty = await t.request({ method: 'POST', url: COMPLETE, as: rider, payload: new URLSearchParams({ attempt }).toString(), headers: FORM });
    expect([empty.statusCode, codeOf(empty)]).toEqual([400, 'validation_error']);
    const notification = await t.request({ method: 'POST', url: '/api/payments/securepay/webhook', payload: JSON.stringify({ orderId: attempt, status: 'paid', amount: b.paidMinor }), headers: { 'content-type': 'application/json' } });
    expect(notification.statusCode).toBe(404);
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], events: [], attempts: [{ status: 'open' }] });
    // The checkout is still payable.
    expect((await complete(rider, attempt, standIn.tokenize())).headers.location).toBe(`/bookings/${b.id}?payment=paid`);
  });

  it.each([
    ['amount', { amount: 1 }],
    ['currency', { currency: 'NZD' }],
  ] as const)('a payment of another %s than the booking owes is recorded, not paid', async (_what, answerWith) => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { attempt } = await started(rider, b.id);
    standIn.answerWith = answerWith;
    const answer = await complete(rider, attempt, standIn.tokenize());
    expect(answer.headers.location).toBe(`/bookings/${b.id}?payment=failed`);
    const rows = await rowsOf(b.id);
    expect(rows.status).toBe('PAYMENT_PENDING');
    expect(rows.ledger).toEqual([]);
    expect(rows.payments).toEqual([expect.objectContaining({ outcome: 'mismatch', ...('amount' in answerWith ? { amountMinor: 1 } : { currency: 'NZD' }) })]);
  });

  it('an admin refunds a SecurePay-paid trip in part: one refund, by its Idempotency-Key on a retry', async () => {
    const rider = await t.makeUser('rider');
    const b = await reachedTrip(rider);
    const orderId = await payThrough(rider, b.id);
    expect((await rowsOf(b.id)).status).toBe('PAID');
    const part = await t.request({ method: 'POST', url: `/api/bookings/${b.id}/refunds`, as: admin, payload: { amount: 1.5, reason: 'Detour' }, headers: { 'idempotency-key': randomUUID() } });
    expect(part.statusCode, part.body).toBe(200);
    await runAllJobs();
    const made = () => standIn.refunds.filter((refund) => refund.orderId === orderId);
    expect(made()).toMatchObject([{ amount: 150 }]);
    expect((await t.db.select().from(refunds).where(eq(refunds.bookingId, b.id)))[0]).toMatchObject({ status: 'succeeded', providerRefundId: made()[0]?.bankTransactionId, amountMinor: 150 });
    t.advance(24 * 3600_000);
    await runAllJobs();
    expect(made()).toHaveLength(1);
  });

  it.each(['hang', 'fail', 'garbage', 'wrongShape'] as const)('SecurePay %s (timeout, 5xx, malformed): the payment stays pending, nothing recorded; a refund stays requested and is sent once later', async (mode) => {
    const rider = await t.makeUser('rider');
    const b = await reachedTrip(rider);
    const { attempt } = await started(rider, b.id);
    standIn.mode = mode;
    const unknown = await complete(rider, attempt, standIn.tokenize());
    expect(unknown.headers.location).toBe(`/bookings/${b.id}?payment=pending`);
    expect(await rowsOf(b.id)).toMatchObject({ payments: [], ledger: [], events: [], attempts: [{ status: 'open' }] });
    standIn.mode = 'ok';
    // Posted again once SecurePay answers: one payment (a payment made before the outage is answered again).
    expect((await complete(rider, attempt, standIn.tokenize())).headers.location).toBe(`/bookings/${b.id}?payment=paid`);
    const orderId = (await rowsOf(b.id)).payments[0]?.transactionId;
    standIn.mode = mode;
    const part = await t.request({ method: 'POST', url: `/api/bookings/${b.id}/refunds`, as: admin, payload: { amount: 1, reason: 'Outage' }, headers: { 'idempotency-key': randomUUID() } });
    expect(part.statusCode, part.body).toBe(200);
    await t.runJobs();
    expect((await t.db.select().from(refunds).where(eq(refunds.bookingId, b.id)))[0]).toMatchObject({ status: 'requested' });
    standIn.mode = 'ok';
    t.advance(3600_000);
    await runAllJobs();
    expect((await t.db.select().from(refunds).where(eq(refunds.bookingId, b.id)))[0]).toMatchObject({ status: 'succeeded', amountMinor: 100 });
    expect(standIn.refunds.filter((refund) => refund.orderId === orderId).map((refund) => refund.amount)).toEqual([100]);
  });

  it('a settings currency SecurePay does not take: not listed, and no checkout', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    await t.setSettings({ appcat: 'delivery', code: 'NZD' });
    expect((await t.request({ method: 'GET', url: '/get_providers' })).json()).not.toContainEqual(expect.objectContaining({ name: 'securepay' }));
    const answer = await t.request({ method: 'POST', url: CHECKOUT, as: rider, payload: new URLSearchParams({ order_id: b.id }).toString(), headers: FORM });
    expect([answer.statusCode, codeOf(answer)]).toEqual([404, 'not_found']);
  });
});
