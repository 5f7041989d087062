import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookings, paymentAttempts, paymentEvents, payments, refunds, walletEntries } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { sedan } from '../fixtures';
import { cardDelivery as cardDeliveryOf, reachedCardTrip, FORM } from '../card-trips';
import { checkoutPageFacts, expectNothingReflected, expectStylesheetServed, MARKUP_APP_NAME, pageAmount } from '../checkout-pages';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';
import { startPayfast, type PayfastStandIn } from '../stand-ins/payfast';

const CHECKOUT = '/api/payments/payfast/checkout';
const WEBHOOK = '/api/payments/payfast/webhook';
const PUBLIC_URL = 'https://rides.example';

const unescapeHtml = (text: string) => text.replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code)));

/**
 * Issue 22: PayFast through the real adapter and the app's routes, against the PayFast stand-in.
 * The checkout is our page posting the signed form on to PayFast; the payment is confirmed by its
 * ITN (signature, then PayFast's validate call); refunds are the admin's, in PayFast's dashboard.
 * Every case runs on each engine, in rand (PayFast takes ZAR only).
 */
describe.each(ENGINES)('PayFast through the API on %s (issue 22)', (engine) => {
  let standIn: PayfastStandIn;
  let t: TestApp;
  let admin: UserRow;
  let driver: UserRow;

  beforeAll(async () => {
    standIn = await startPayfast();
    // notify_url is PUBLIC_URL's: the tests post the ITNs PayFast would send.
    standIn.deliver = false;
    t = await createTestApp(engine, { PAYFAST_MERCHANT_ID: standIn.merchantId, PAYFAST_MERCHANT_KEY: standIn.merchantKey, PAYFAST_PASSPHRASE: standIn.passphrase, PAYFAST_API_URL: standIn.url, PAYMENT_TIMEOUT_MS: '800', PUBLIC_URL });
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
    driver = await t.makeUser('driver', { carType: 'Sedan' });
  });
  beforeEach(async () => {
    standIn.mode = 'ok';
    await t.setSettings({ appcat: 'delivery', code: 'ZAR' });
    await t.goOnline(driver);
  });
  afterAll(async () => {
    await t.close();
    await standIn.close();
  });

  const cardDelivery = (rider: UserRow) => cardDeliveryOf(t, rider);

  const reachedTrip = (rider: UserRow) => reachedCardTrip(t, driver, rider, { code: 'ZAR' });

  const checkout = (rider: UserRow, id: string) => t.request({ method: 'POST', url: CHECKOUT, as: rider, payload: new URLSearchParams({ order_id: id, amount: '0.01', currency: 'EUR' }).toString(), headers: FORM });

  /** A checkout: our page posting the signed form on to PayFast, which shows its page; PayFast's id of the payment. */
  async function started(rider: UserRow, id: string) {
    const answer = await checkout(rider, id);
    expect(answer.statusCode, answer.body).toBe(200);
    const form = /<form id="checkout" data-autopost="1" method="post" action="([^"]+)">(.*?)<\/form>/.exec(answer.body);
    expect(form?.[1]).toBe(`${standIn.url}/eng/process`);
    const fields = Object.fromEntries([...(form?.[2] ?? '').matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [unescapeHtml(m[1] ?? ''), unescapeHtml(m[2] ?? '')]));
    const before = new Set(standIn.payments.keys());
    const page = await fetch(`${standIn.url}/eng/process`, { method: 'POST', headers: FORM, body: new URLSearchParams(fields).toString() });
    expect(await page.text()).toContain('PayFast (stand-in)');
    const pfPaymentId = [...standIn.payments.keys()].find((candidate) => !before.has(candidate));
    if (!pfPaymentId) throw new Error(`PayFast refused the form: ${String(standIn.refused.at(-1))}`);
    return { pfPaymentId, fields };
  }

  /** The rider clicks on PayFast's page: where the browser is sent back. */
  async function atPayfast(pfPaymentId: string, button: 'pay' | 'decline' | 'cancel' = 'pay') {
    const clicked = await fetch(`${standIn.url}/eng/process/${pfPaymentId}/${button}`, { method: 'POST', redirect: 'manual' });
    expect(clicked.status).toBe(303);
    const back = new URL(clicked.headers.get('location') ?? '');
    expect(back.origin + back.pathname).toBe(`${PUBLIC_URL}/api/payments/payfast/return`);
    return back;
  }

  async function returnTo(back: URL) {
    const answer = await t.request({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(answer.statusCode, answer.body).toBe(303);
    return String(answer.headers.location);
  }

  const postItn = (rawBody: Buffer | string, headers: Record<string, string> = FORM) => t.request({ method: 'POST', url: WEBHOOK, payload: rawBody, headers });

  async function payThrough(rider: UserRow, id: string) {
    const { pfPaymentId } = await started(rider, id);
    const back = await atPayfast(pfPaymentId);
    const { rawBody } = standIn.itn(pfPaymentId, 'COMPLETE');
    expect((await postItn(rawBody)).statusCode).toBe(200);
    expect(await returnTo(back)).toBe(`/bookings/${id}?payment=paid`);
    return pfPaymentId;
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

  it("is listed in rand; a rider's checkout is our page posting the signed form, for the booking's own amount, which PayFast accepts", async () => {
    expect((await t.request({ method: 'GET', url: '/get_providers' })).json()).toContainEqual({ name: 'payfast', link: CHECKOUT });
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { fields } = await started(rider, b.id);
    const rows = await rowsOf(b.id);
    expect(fields).toMatchObject({ amount: (b.paidMinor / 100).toFixed(2), custom_str1: b.id, m_payment_id: rows.attempts[0]?.id, notify_url: `${PUBLIC_URL}${WEBHOOK}`, return_url: `${PUBLIC_URL}/api/payments/payfast/return?attempt=${rows.attempts[0]?.id ?? ''}` });
    expect(rows).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], attempts: [{ status: 'open', checkoutId: rows.attempts[0]?.id }] });
  });

  it("the page posting on to PayFast says who charges, for which booking or top-up and how much, with a way back to the booking or the wallet", async () => {
    const rider = await t.makeUser('rider');
    await t.setSettings({ appcat: 'delivery', code: 'ZAR', symbol: 'R', appName: MARKUP_APP_NAME });
    const b = await cardDelivery(rider);
    const reference = (await t.db.select({ reference: bookings.reference }).from(bookings).where(eq(bookings.id, b.id)))[0]?.reference ?? '';
    const page = await checkout(rider, b.id);
    expect(page.statusCode, page.body).toBe(200);
    expectNothingReflected(page.body);
    const facts = checkoutPageFacts(page.body);
    expect(facts).toMatchObject({
      lang: 'en',
      brand: MARKUP_APP_NAME,
      heading: 'Pay for your booking',
      summary: [['Booking', reference], ['Amount', pageAmount(b.paidMinor, 'R', 'ZAR')]],
      button: 'Continue to PayFast',
      back: { href: `/bookings/${b.id}`, text: 'Cancel and go back' },
      alert: null,
    });
    await expectStylesheetServed(t, facts.stylesheet);

    // A wallet top-up: what is paid is the top-up, and the way back is the wallet (the profile page).
    const topup = await t.request({ method: 'POST', url: '/api/wallet/topup', as: rider, payload: { amount: 20, provider: 'payfast' } });
    expect(topup.statusCode, topup.body).toBe(200);
    const { topup_id } = topup.json<{ topup_id: string }>();
    const topupPage = await t.request({ method: 'POST', url: CHECKOUT, as: rider, payload: new URLSearchParams({ topup_id }).toString(), headers: FORM });
    expect(topupPage.statusCode, topupPage.body).toBe(200);
    expect(checkoutPageFacts(topupPage.body)).toMatchObject({ heading: 'Top up your wallet', summary: [['Wallet top-up', 'R20.00 ZAR']], back: { href: '/profile' } });
  });

  it('the ITN pays the booking once (NEW); 10 replays at once and the return change nothing', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { pfPaymentId } = await started(rider, b.id);
    const back = await atPayfast(pfPaymentId);
    // Back before the ITN: pending, nothing paid.
    expect(await returnTo(back)).toBe(`/bookings/${b.id}?payment=pending`);
    const { rawBody } = standIn.itn(pfPaymentId, 'COMPLETE');
    const first = await postItn(rawBody);
    expect([first.statusCode, first.json()]).toEqual([200, { received: true }]);
    const paid = await rowsOf(b.id);
    expect(paid.status).toBe('NEW');
    expect(paid.payments).toEqual([expect.objectContaining({ provider: 'payfast', transactionId: pfPaymentId, amountMinor: b.paidMinor, currency: 'ZAR', outcome: 'succeeded' })]);
    expect(paid.events).toEqual([expect.objectContaining({ type: 'payment_succeeded', source: 'notification', outcome: 'paid' })]);
    const replays = await Promise.all(Array.from({ length: 10 }, () => postItn(rawBody)));
    expect(replays.map((reply) => reply.statusCode)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(await returnTo(back)).toBe(`/bookings/${b.id}?payment=paid`);
    expect(await rowsOf(b.id)).toEqual({ ...paid, attempts: [expect.objectContaining({ status: 'succeeded' })] });
  });

  it('a cancel pays nothing; a FAILED ITN leaves the booking payable; the rider then pays', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const first = await started(rider, b.id);
    expect(await returnTo(await atPayfast(first.pfPaymentId, 'cancel'))).toBe(`/bookings/${b.id}?payment=cancelled`);
    const second = await started(rider, b.id);
    const back = await atPayfast(second.pfPaymentId, 'decline');
    expect((await postItn(standIn.itn(second.pfPaymentId, 'FAILED').rawBody)).statusCode).toBe(200);
    expect(await returnTo(back)).toBe(`/bookings/${b.id}?payment=failed`);
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], events: [expect.objectContaining({ type: 'payment_failed', outcome: 'failed' })] });
    await payThrough(rider, b.id);
    expect((await rowsOf(b.id)).status).toBe('NEW');
  });

  it('a forged or altered ITN (changed amount, guessed passphrase, unsigned, not sent by PayFast) is 400 and changes nothing', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { pfPaymentId } = await started(rider, b.id);
    const text = standIn.itn(pfPaymentId, 'COMPLETE').rawBody.toString('utf8');
    const unsigned = text.replace(/&signature=[0-9a-f]+$/, '');
    const { createHash } = await import('node:crypto');
    const notSent = `m_payment_id=x&pf_payment_id=${pfPaymentId}&payment_status=COMPLETE&amount_gross=${(b.paidMinor / 100).toFixed(2)}&custom_str1=${b.id}&merchant_id=${standIn.merchantId}`;
    for (const body of [
      text.replace(/amount_gross=[0-9.]+/, 'amount_gross=5.00'),
      `${unsigned}&signature=${createHash('md5').update(`${unsigned}&passphrase=guessed-passphrase`).digest('hex')}`,
      unsigned,
      `${notSent}&signature=${createHash('md5').update(`${notSent}&passphrase=${standIn.passphrase}`).digest('hex')}`,
    ]) {
      const reply = await postItn(body);
      expect([reply.statusCode, codeOf(reply)]).toEqual([400, 'validation_error']);
    }
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], events: [] });
  });

  it('a PayFast-signed ITN of another amount than the booking owes is recorded, not paid', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { pfPaymentId } = await started(rider, b.id);
    const { rawBody } = standIn.itn(pfPaymentId, 'COMPLETE', { amount_gross: ((b.paidMinor - 100) / 100).toFixed(2) });
    expect((await postItn(rawBody)).statusCode).toBe(200);
    const rows = await rowsOf(b.id);
    expect(rows).toMatchObject({ status: 'PAYMENT_PENDING', ledger: [] });
    expect(rows.payments).toEqual([expect.objectContaining({ outcome: 'mismatch', amountMinor: b.paidMinor - 100, currency: 'ZAR' })]);
  });

  it('PayFast cannot validate now (hang, 500, an answer neither VALID nor INVALID): 502, nothing recorded; its retry pays', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { pfPaymentId } = await started(rider, b.id);
    const { rawBody } = standIn.itn(pfPaymentId, 'COMPLETE');
    for (const mode of ['hang', 'fail', 'malformed'] as const) {
      standIn.mode = mode;
      const reply = await postItn(rawBody);
      expect([reply.statusCode, codeOf(reply)]).toEqual([502, 'payment_provider_error']);
    }
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], events: [] });
    standIn.mode = 'ok';
    expect((await postItn(rawBody)).statusCode).toBe(200);
    expect((await rowsOf(b.id)).status).toBe('NEW');
  });

  it("an admin's refund of a PayFast-paid trip is not made through the API: it awaits the admin's refund in the dashboard, and nothing is credited", async () => {
    const rider = await t.makeUser('rider');
    const b = await reachedTrip(rider);
    await payThrough(rider, b.id);
    expect((await rowsOf(b.id)).status).toBe('PAID');
    const part = await t.request({ method: 'POST', url: `/api/bookings/${b.id}/refunds`, as: admin, payload: { amount: 1.5, reason: 'Detour' }, headers: { 'idempotency-key': randomUUID() } });
    expect(part.statusCode, part.body).toBe(200);
    await runAllJobs();
    expect((await t.db.select().from(refunds).where(eq(refunds.bookingId, b.id)))[0]).toMatchObject({ status: 'awaiting_dashboard', lastError: expect.stringContaining("PayFast's dashboard") });
    expect((await rowsOf(b.id)).ledger.filter((entry) => entry.txRef === 'Refund')).toEqual([]);
  });

  it('a settings currency other than rand: PayFast is not listed, no checkout, and the admins are told why', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    await t.setSettings({ appcat: 'delivery', code: 'USD' });
    expect((await t.request({ method: 'GET', url: '/get_providers' })).json()).not.toContainEqual(expect.objectContaining({ name: 'payfast' }));
    const answer = await checkout(rider, b.id);
    expect([answer.statusCode, codeOf(answer)]).toEqual([404, 'not_found']);
    const listed = await t.request({ method: 'GET', url: '/api/payments/providers', as: admin });
    expect(listed.json()).toMatchObject({ providers: expect.arrayContaining([expect.objectContaining({ name: 'payfast', takesCurrency: false, currencies: ['ZAR'] })]) });
  });
});
