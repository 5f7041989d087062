import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookings, paymentAttempts, paymentEvents, payments, refunds, walletEntries } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { sedan } from '../fixtures';
import { cardDelivery as cardDeliveryOf, reachedCardTrip, FORM } from '../card-trips';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';
import { startMercadoPago, type MercadoPagoStandIn } from '../stand-ins/mercadopago';

const CHECKOUT = '/api/payments/mercadopago/checkout';
const WEBHOOK = '/api/payments/mercadopago/webhook';
const PUBLIC_URL = 'https://rides.example';

/**
 * Issue 22: Mercado Pago (Checkout Pro) through the real adapter, its official SDK and the app's
 * routes, against the Mercado Pago stand-in. The rider pays on the stand-in's checkout page; the
 * return searches the payment server-side; notifications are checked by their x-signature and the
 * payment then fetched. Every case runs on each engine.
 */
describe.each(ENGINES)('Mercado Pago through the API on %s (issue 22)', (engine) => {
  let standIn: MercadoPagoStandIn;
  let t: TestApp;
  let admin: UserRow;
  let driver: UserRow;

  beforeAll(async () => {
    standIn = await startMercadoPago();
    t = await createTestApp(engine, { MERCADOPAGO_ACCESS_TOKEN: standIn.accessToken, MERCADOPAGO_WEBHOOK_SECRET: standIn.webhookSecret, MERCADOPAGO_API_URL: standIn.url, PAYMENT_TIMEOUT_MS: '800', PUBLIC_URL });
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
    driver = await t.makeUser('driver', { carType: 'Sedan' });
  });
  beforeEach(async () => {
    standIn.mode = 'ok';
    await t.setSettings({ appcat: 'delivery', code: 'MXN' });
    await t.goOnline(driver);
  });
  afterAll(async () => {
    await t.close();
    await standIn.close();
  });

  const cardDelivery = (rider: UserRow) => cardDeliveryOf(t, rider);

  const reachedTrip = (rider: UserRow) => reachedCardTrip(t, driver, rider, { code: 'MXN' });

  const checkout = (rider: UserRow, id: string) => t.request({ method: 'POST', url: CHECKOUT, as: rider, payload: new URLSearchParams({ order_id: id, amount: '0.01', currency: 'EUR' }).toString(), headers: FORM });

  /** A checkout that reached Mercado Pago: its preference and the page the rider is sent to. */
  async function started(rider: UserRow, id: string) {
    const answer = await checkout(rider, id);
    expect(answer.statusCode, answer.body).toBe(303);
    const page = new URL(String(answer.headers.location));
    expect(`${page.origin}${page.pathname}`).toBe(`${standIn.url}/sandbox/checkout/v1/redirect`);
    const preferenceId = page.searchParams.get('pref_id') ?? '';
    expect(standIn.preferences.has(preferenceId)).toBe(true);
    return { preferenceId, page };
  }

  /** The rider clicks on the stand-in's checkout page: where Mercado Pago sends the browser back. */
  async function atMercadoPago(page: URL, button: 'pay' | 'decline' | 'cancel' = 'pay') {
    const shown = await fetch(page);
    expect(await shown.text()).toContain('Mercado Pago (stand-in)');
    const clicked = await fetch(`${page.origin}${page.pathname}/${button}${page.search}`, { method: 'POST', redirect: 'manual' });
    expect(clicked.status).toBe(303);
    const back = new URL(clicked.headers.get('location') ?? '');
    expect(back.origin + back.pathname).toBe(`${PUBLIC_URL}/api/payments/mercadopago/return`);
    return back;
  }

  async function returnTo(back: URL) {
    const answer = await t.request({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(answer.statusCode, answer.body).toBe(303);
    return String(answer.headers.location);
  }

  async function payThrough(rider: UserRow, id: string) {
    const { page } = await started(rider, id);
    expect(await returnTo(await atMercadoPago(page))).toBe(`/bookings/${id}?payment=paid`);
    const paid = [...standIn.payments.values()].find((payment) => payment.externalReference === id && payment.status === 'approved');
    if (!paid) throw new Error('no payment');
    return paid.id;
  }

  async function runAllJobs() {
    for (let round = 0; round < 50; round += 1) if ((await t.runJobs()).done === 0) return;
    throw new Error('jobs keep coming');
  }

  const postWebhook = (rawBody: Buffer | string, headers: Record<string, string>) => t.request({ method: 'POST', url: `${WEBHOOK}?data.id=1&type=payment&source_news=webhooks`, payload: rawBody, headers });
  const rowsOf = async (id: string) => ({
    status: (await t.db.select().from(bookings).where(eq(bookings.id, id)))[0]?.status,
    payments: await t.db.select().from(payments).where(eq(payments.bookingId, id)),
    ledger: await t.db.select().from(walletEntries).where(eq(walletEntries.bookingId, id)),
    events: await t.db.select().from(paymentEvents).where(eq(paymentEvents.reference, id)),
    attempts: await t.db.select({ status: paymentAttempts.status, checkoutId: paymentAttempts.checkoutId }).from(paymentAttempts).where(eq(paymentAttempts.reference, id)),
  });

  it("is listed; a rider's checkout creates a preference for the booking's own amount and 303s to Checkout Pro", async () => {
    expect((await t.request({ method: 'GET', url: '/get_providers' })).json()).toContainEqual({ name: 'mercadopago', link: CHECKOUT });
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { preferenceId } = await started(rider, b.id);
    // The server's amount and currency (MXN), not the 0.01 EUR the form posted.
    const body = standIn.preferences.get(preferenceId)?.body;
    expect(body).toMatchObject({ items: [{ unit_price: b.paidMinor / 100, currency_id: 'MXN', quantity: 1 }], external_reference: b.id, notification_url: `${PUBLIC_URL}/api/payments/mercadopago/webhook?source_news=webhooks` });
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], attempts: [{ status: 'open', checkoutId: `${preferenceId}|${b.id}` }] });
  });

  it('the rider pays on the checkout page; the return searches and pays the booking once (NEW); a second return asks nothing more', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { page } = await started(rider, b.id);
    const back = await atMercadoPago(page);
    expect(back.searchParams.get('status')).toBe('approved');
    expect(await returnTo(back)).toBe(`/bookings/${b.id}?payment=paid`);
    const paid = await rowsOf(b.id);
    expect(paid.status).toBe('NEW');
    const payment = [...standIn.payments.values()].find((candidate) => candidate.externalReference === b.id);
    expect(paid.payments).toEqual([expect.objectContaining({ provider: 'mercadopago', transactionId: String(payment?.id), amountMinor: b.paidMinor, currency: 'MXN', outcome: 'succeeded' })]);
    expect(paid.events).toEqual([expect.objectContaining({ provider: 'mercadopago', type: 'payment_succeeded', source: 'lookup', outcome: 'paid' })]);
    const searches = standIn.requests.filter((request) => request.path === '/v1/payments/search').length;
    expect(await returnTo(back)).toBe(`/bookings/${b.id}?payment=paid`);
    expect(standIn.requests.filter((request) => request.path === '/v1/payments/search').length).toBe(searches);
    expect(await rowsOf(b.id)).toEqual(paid);
  });

  it('a declined payment leaves the booking payable; a cancel pays nothing; the rider then pays', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const first = await started(rider, b.id);
    expect(await returnTo(await atMercadoPago(first.page, 'cancel'))).toBe(`/bookings/${b.id}?payment=cancelled`);
    const second = await started(rider, b.id);
    expect(await returnTo(await atMercadoPago(second.page, 'decline'))).toBe(`/bookings/${b.id}?payment=failed`);
    const declined = await rowsOf(b.id);
    expect(declined).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [] });
    expect(declined.events).toEqual([expect.objectContaining({ type: 'payment_failed', outcome: 'failed' })]);
    await payThrough(rider, b.id);
    const after = await rowsOf(b.id);
    expect(after.status).toBe('NEW');
    expect(after.payments).toEqual([expect.objectContaining({ outcome: 'succeeded', amountMinor: b.paidMinor })]);
  });

  it('a lost return: the signed notification pays; 10 replays at once and the late return change nothing', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { page } = await started(rider, b.id);
    const back = await atMercadoPago(page);
    const payment = [...standIn.payments.values()].find((candidate) => candidate.externalReference === b.id);
    const { rawBody, headers } = standIn.signedWebhook(payment?.id ?? 0);
    const first = await postWebhook(rawBody, headers);
    expect([first.statusCode, first.json()]).toEqual([200, { received: true }]);
    const paid = await rowsOf(b.id);
    expect(paid.status).toBe('NEW');
    expect(paid.payments).toEqual([expect.objectContaining({ transactionId: String(payment?.id), amountMinor: b.paidMinor, outcome: 'succeeded' })]);
    const replays = await Promise.all(Array.from({ length: 10 }, () => postWebhook(rawBody, headers)));
    expect(replays.map((reply) => reply.statusCode)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(await returnTo(back)).toBe(`/bookings/${b.id}?payment=paid`);
    const after = await rowsOf(b.id);
    expect(after.payments).toEqual(paid.payments);
    expect(after.ledger).toEqual(paid.ledger);
    expect(after.events).toEqual(paid.events);
    expect(after.events).toEqual([expect.objectContaining({ source: 'notification', outcome: 'paid' })]);
  });

  it('a forged or altered notification (another data id, wrong secret, another request id, no signature) is 400 and changes nothing', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { preferenceId } = await started(rider, b.id);
    const payment = standIn.pay(preferenceId);
    const { rawBody, headers } = standIn.signedWebhook(payment.id);
    const changed = Buffer.from(rawBody.toString('utf8').replace(`"id":"${String(payment.id)}"`, `"id":"${String(payment.id + 1)}"`));
    const wrongKey = standIn.signedWebhook(payment.id, 'payment.updated', 'a'.repeat(64));
    const { 'x-signature': _signature, ...unsigned } = headers;
    for (const [body, sent] of [[changed, headers], [wrongKey.rawBody, wrongKey.headers], [rawBody, { ...headers, 'x-request-id': randomUUID() }], [rawBody, unsigned]] as const) {
      const reply = await postWebhook(body, sent);
      expect([reply.statusCode, codeOf(reply)]).toEqual([400, 'validation_error']);
    }
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], events: [] });
    expect(await t.db.select().from(paymentEvents).where(eq(paymentEvents.transactionId, String(payment.id)))).toEqual([]);
  });

  it.each([
    ['amount', (payment: { transactionAmount: number; currency: string }) => { payment.transactionAmount -= 1; }],
    ['currency', (payment: { transactionAmount: number; currency: string }) => { payment.currency = 'ARS'; }],
  ] as const)('a payment of another %s than the booking owes is recorded, not paid', async (_what, tamper) => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { page } = await started(rider, b.id);
    const back = await atMercadoPago(page);
    const payment = [...standIn.payments.values()].find((candidate) => candidate.externalReference === b.id);
    if (!payment) throw new Error('no payment');
    tamper(payment);
    expect(await returnTo(back)).toBe(`/bookings/${b.id}?payment=failed`);
    const rows = await rowsOf(b.id);
    expect(rows.status).toBe('PAYMENT_PENDING');
    expect(rows.ledger).toEqual([]);
    expect(rows.payments).toEqual([expect.objectContaining({ outcome: 'mismatch', currency: payment.currency, amountMinor: Math.round(payment.transactionAmount * 100) })]);
    expect(rows.events).toEqual([expect.objectContaining({ type: 'payment_succeeded', outcome: 'mismatch' })]);
  });

  it('an admin refunds a Mercado Pago-paid trip in part: one refund with our idempotency key, settled at once; retries change nothing', async () => {
    const rider = await t.makeUser('rider');
    const b = await reachedTrip(rider);
    const paymentId = await payThrough(rider, b.id);
    expect((await rowsOf(b.id)).status).toBe('PAID');
    const part = await t.request({ method: 'POST', url: `/api/bookings/${b.id}/refunds`, as: admin, payload: { amount: 1.5, reason: 'Detour' }, headers: { 'idempotency-key': randomUUID() } });
    expect(part.statusCode, part.body).toBe(200);
    await runAllJobs();
    const made = () => [...standIn.refunds.values()].filter((refund) => refund.paymentId === paymentId);
    expect(made()).toMatchObject([{ amount: 1.5 }]);
    expect(made()[0]?.idempotencyKey).toBeTruthy();
    expect((await t.db.select().from(refunds).where(eq(refunds.bookingId, b.id)))[0]).toMatchObject({ status: 'succeeded', providerRefundId: String(made()[0]?.id), amountMinor: 150 });
    t.advance(24 * 3600_000);
    await runAllJobs();
    expect(made()).toHaveLength(1);
  });

  it.each(['hang', 'fail'] as const)('Mercado Pago down (%s): the checkout answers payment_provider_error and nothing is paid', async (mode) => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    standIn.mode = mode;
    const answer = await checkout(rider, b.id);
    expect([answer.statusCode, codeOf(answer)]).toEqual([502, 'payment_provider_error']);
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], events: [], attempts: [{ status: 'open', checkoutId: null }] });
  });

  it('a settings currency Mercado Pago does not take: not listed, no checkout, and the admins are told why', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    await t.setSettings({ appcat: 'delivery', code: 'EUR' });
    expect((await t.request({ method: 'GET', url: '/get_providers' })).json()).not.toContainEqual(expect.objectContaining({ name: 'mercadopago' }));
    const answer = await checkout(rider, b.id);
    expect([answer.statusCode, codeOf(answer)]).toEqual([404, 'not_found']);
    const listed = await t.request({ method: 'GET', url: '/api/payments/providers', as: admin });
    expect(listed.json()).toMatchObject({ currency: 'EUR', providers: expect.arrayContaining([expect.objectContaining({ name: 'mercadopago', takesCurrency: false, currencies: ['ARS', 'BRL', 'CLP', 'COP', 'MXN', 'PEN', 'UYU'] })]) });
  });
});
