import { randomUUID } from 'node:crypto';
import { toMinor, toProviderDecimal } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookings, paymentAttempts, paymentEvents, payments, refunds, walletEntries } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { sedan } from '../fixtures';
import { cardDelivery as cardDeliveryOf, reachedCardTrip, FORM } from '../card-trips';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';
import { startPaypal, type CaptureOutcome, type PaypalStandIn } from '../stand-ins/paypal';

const CHECKOUT = '/api/payments/paypal/checkout';
const WEBHOOK = '/api/payments/paypal/webhook';
const PUBLIC_URL = 'https://rides.example';

/**
 * Issue 18, point 3 and "Must show": PayPal Orders v2 through the real adapter and the app's
 * routes, against the PayPal stand-in (the SDK's calls rebased there by its own HTTP client
 * option). The rider is sent to the stand-in's approval page, approves there, and the return
 * captures the order server-side; webhooks are verified by the stand-in's
 * verify-webhook-signature. Every case runs on each engine.
 */
describe.each(ENGINES)('PayPal through the API on %s (issue 18)', (engine) => {
  let standIn: PaypalStandIn;
  let t: TestApp;
  let admin: UserRow;
  let driver: UserRow;

  beforeAll(async () => {
    standIn = await startPaypal();
    t = await createTestApp(engine, {
      PAYPAL_CLIENT_ID: standIn.clientId,
      PAYPAL_CLIENT_SECRET: standIn.clientSecret,
      PAYPAL_WEBHOOK_ID: standIn.webhookId,
      PAYPAL_API_URL: standIn.url,
      PAYMENT_TIMEOUT_MS: '800',
      PUBLIC_URL,
    });
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
    driver = await t.makeUser('driver', { carType: 'Sedan' });
  });
  beforeEach(async () => {
    standIn.mode = 'ok';
    delete standIn.modeOnly;
    await t.setSettings({ appcat: 'delivery' });
    await t.goOnline(driver);
  });
  afterAll(async () => {
    await t.close();
    await standIn.close();
  });

  /** A prepaid card delivery waiting for its payment (PAYMENT_PENDING). */
  const cardDelivery = (rider: UserRow) => cardDeliveryOf(t, rider);

  /** A taxi card trip at REACHED (the rider pays it by card there). */
  const reachedTrip = (rider: UserRow) => reachedCardTrip(t, driver, rider);

  /** The rider posts the section 4 form: the answer, and the order id of the stand-in's approve link. */
  async function checkout(rider: UserRow, id: string) {
    const answer = await t.request({ method: 'POST', url: CHECKOUT, as: rider, payload: new URLSearchParams({ order_id: id, amount: '0.01', currency: 'EUR' }).toString(), headers: FORM });
    const location = answer.headers.location ?? '';
    return { answer, location, orderId: new URL(location || 'http://x').searchParams.get('token') ?? '' };
  }

  /** A checkout that reached PayPal: the order id. */
  async function started(rider: UserRow, id: string) {
    const { answer, location, orderId } = await checkout(rider, id);
    expect(answer.statusCode, answer.body).toBe(303);
    expect(location).toBe(`${standIn.url}/checkoutnow?token=${orderId}`);
    return orderId;
  }

  /** The rider clicks Pay (or Cancel) on the stand-in's approval page: where PayPal sends the browser back. */
  async function atPaypal(orderId: string, button: 'approve' | 'cancel' = 'approve') {
    const page = await fetch(`${standIn.url}/checkoutnow?token=${orderId}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Pay with PayPal');
    const clicked = await fetch(`${standIn.url}/checkoutnow/${button}`, { method: 'POST', body: new URLSearchParams({ token: orderId }), redirect: 'manual' });
    expect(clicked.status).toBe(303);
    const back = new URL(clicked.headers.get('location') ?? '');
    expect(back.origin + back.pathname).toBe(`${PUBLIC_URL}/api/payments/paypal/return`);
    return back;
  }

  /** The browser follows PayPal's redirect back to the app: where the app sends it next. */
  async function returnTo(back: URL) {
    const answer = await t.request({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(answer.statusCode, answer.body).toBe(303);
    return String(answer.headers.location);
  }

  /** Pay a booking through the whole flow: checkout, approve at PayPal, return. */
  async function payThrough(rider: UserRow, id: string) {
    const orderId = await started(rider, id);
    const landing = await returnTo(await atPaypal(orderId));
    expect(landing).toBe(`/bookings/${id}?payment=paid`);
    const captureId = standIn.orders.get(orderId)?.captureIds[0] ?? '';
    return { orderId, captureId };
  }

  /** Runs every job due now (the runner takes 20 at a time; lookups and other bookings' jobs come first). */
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

  it("is listed; a rider's checkout creates an order for the booking's own amount and 303s to the stand-in's approve link", async () => {
    expect((await t.request({ method: 'GET', url: '/get_providers' })).json()).toContainEqual({ name: 'paypal', link: CHECKOUT });
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const orderId = await started(rider, b.id);
    const order = standIn.orders.get(orderId);
    // The server's amount and currency, not the 0.01 EUR the form posted.
    expect(order).toMatchObject({ status: 'PAYER_ACTION_REQUIRED', intent: 'CAPTURE', unit: { custom_id: b.id, reference_id: b.id, amount: { currency_code: 'USD', value: toProviderDecimal(b.paidMinor, 'USD') } } });
    expect(order?.returnUrl).toMatch(new RegExp(`^${PUBLIC_URL}/api/payments/paypal/return\\?attempt=[\\w-]+$`));
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], attempts: [{ status: 'open', checkoutId: orderId }] });
  });

  it('the rider approves at PayPal; the return captures the order and pays the booking once (NEW); a second return captures nothing more', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const orderId = await started(rider, b.id);
    const back = await atPaypal(orderId);
    expect(back.searchParams.get('token')).toBe(orderId);
    expect(back.searchParams.get('PayerID')).toBe('PAYERSTANDIN1');
    expect(await returnTo(back)).toBe(`/bookings/${b.id}?payment=paid`);
    const order = standIn.orders.get(orderId);
    expect(order?.status).toBe('COMPLETED');
    expect(order?.captureIds).toHaveLength(1);
    const captureId = order?.captureIds[0] ?? '';
    const paid = await rowsOf(b.id);
    expect(paid.status).toBe('NEW');
    expect(paid.payments).toEqual([expect.objectContaining({ provider: 'paypal', transactionId: captureId, amountMinor: b.paidMinor, currency: 'USD', outcome: 'succeeded' })]);
    expect(paid.events).toEqual([expect.objectContaining({ provider: 'paypal', type: 'payment_succeeded', source: 'complete', transactionId: captureId, outcome: 'paid' })]);
    expect(paid.attempts).toEqual([{ status: 'succeeded', checkoutId: orderId }]);
    // The browser reloads the return page: the attempt is closed, PayPal is not asked to capture again.
    const captures = standIn.requests.filter((request) => request.path.endsWith('/capture')).length;
    expect(await returnTo(back)).toBe(`/bookings/${b.id}?payment=paid`);
    expect(standIn.requests.filter((request) => request.path.endsWith('/capture')).length).toBe(captures);
    expect(await rowsOf(b.id)).toEqual(paid);
  });

  it('a return without approval (or with Cancel) pays nothing, and the booking stays payable', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const orderId = await started(rider, b.id);
    const attempt = (await t.db.select().from(paymentAttempts).where(eq(paymentAttempts.reference, b.id)))[0];
    // The browser comes back by hand, without approving: the capture is refused (ORDER_NOT_APPROVED).
    expect(await returnTo(new URL(`${PUBLIC_URL}/api/payments/paypal/return?attempt=${attempt?.id ?? ''}&token=${orderId}&PayerID=FORGED`))).toBe(`/bookings/${b.id}?payment=pending`);
    expect(await returnTo(await atPaypal(orderId, 'cancel'))).toBe(`/bookings/${b.id}?payment=cancelled`);
    expect(standIn.orders.get(orderId)?.captureIds).toEqual([]);
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [] });
  });

  it.each<CaptureOutcome>(['INSTRUMENT_DECLINED', 'DECLINED'])('a declined payment (%s) leaves the booking payable; the rider then pays it', async (outcome) => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const orderId = await started(rider, b.id);
    const back = await atPaypal(orderId);
    standIn.approve(orderId, outcome);
    expect(await returnTo(back)).toBe(`/bookings/${b.id}?payment=failed`);
    const declined = await rowsOf(b.id);
    expect(declined).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], attempts: [{ status: 'failed' }] });
    expect(declined.events).toEqual([expect.objectContaining({ type: 'payment_failed', outcome: 'failed' })]);
    // Still payable: a new checkout pays it.
    await payThrough(rider, b.id);
    const after = await rowsOf(b.id);
    expect(after.status).toBe('NEW');
    expect(after.payments).toEqual([expect.objectContaining({ outcome: 'succeeded', amountMinor: b.paidMinor })]);
  });

  it('a signed PAYMENT.CAPTURE.COMPLETED after the return, replayed and 10 at once, changes nothing more', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { captureId } = await payThrough(rider, b.id);
    const paid = await rowsOf(b.id);
    const { rawBody, headers } = standIn.signedWebhook(standIn.event('PAYMENT.CAPTURE.COMPLETED', 'capture', standIn.captureJson(captureId)));
    const first = await postWebhook(rawBody, headers);
    expect([first.statusCode, first.json()]).toEqual([200, { received: true }]);
    const replays = await Promise.all(Array.from({ length: 10 }, () => postWebhook(rawBody, headers)));
    expect(replays.map((reply) => reply.statusCode)).toEqual(Array.from({ length: 10 }, () => 200));
    expect((await postWebhook(rawBody, headers)).statusCode).toBe(200);
    const after = await rowsOf(b.id);
    expect(after.status).toBe('NEW');
    expect(after.payments).toEqual(paid.payments);
    expect(after.ledger).toEqual(paid.ledger);
    expect(after.events.map((event) => [event.source, event.outcome])).toEqual([['complete', 'paid'], ['notification', 'duplicate']]);
  });

  it('a lost return: the webhook pays, 10 replays at once change nothing, and the late return finds the capture made', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const orderId = await started(rider, b.id);
    const back = await atPaypal(orderId);
    // PayPal captured (another tab, or the return was lost); the app hears of it by webhook only.
    const captured = await fetch(`${standIn.url}/v1/oauth2/token`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`${standIn.clientId}:${standIn.clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' })
      .then((answer) => answer.json() as Promise<{ access_token: string }>)
      .then(({ access_token }) => fetch(`${standIn.url}/v2/checkout/orders/${orderId}/capture`, { method: 'POST', headers: { authorization: `Bearer ${access_token}`, 'paypal-request-id': randomUUID(), 'content-type': 'application/json' } }));
    expect(captured.status).toBe(201);
    const captureId = standIn.orders.get(orderId)?.captureIds[0] ?? '';
    const { rawBody, headers } = standIn.signedWebhook(standIn.event('PAYMENT.CAPTURE.COMPLETED', 'capture', standIn.captureJson(captureId)));
    expect((await postWebhook(rawBody, headers)).statusCode).toBe(200);
    const paid = await rowsOf(b.id);
    expect(paid.status).toBe('NEW');
    expect(paid.payments).toEqual([expect.objectContaining({ transactionId: captureId, amountMinor: b.paidMinor, outcome: 'succeeded' })]);
    const replays = await Promise.all(Array.from({ length: 10 }, () => postWebhook(rawBody, headers)));
    expect(replays.map((reply) => reply.statusCode)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(await returnTo(back)).toBe(`/bookings/${b.id}?payment=paid`);
    const after = await rowsOf(b.id);
    expect(after.payments).toEqual(paid.payments);
    expect(after.ledger).toEqual(paid.ledger);
    // The webhook closed the attempt: the return does not ask PayPal again.
    expect(after.events).toEqual(paid.events);
  });

  it('a webhook with a bad signature (changed body, unknown transmission, missing header) is 400 and records nothing', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const orderId = await started(rider, b.id);
    standIn.approve(orderId);
    // Captured at PayPal, not yet heard of by the app.
    const event = standIn.event('PAYMENT.CAPTURE.COMPLETED', 'capture', { id: 'CAPTUREFORGED0001', status: 'COMPLETED', amount: { currency_code: 'USD', value: toProviderDecimal(b.paidMinor, 'USD') }, custom_id: b.id });
    const { rawBody, headers } = standIn.signedWebhook(event);
    const changed = Buffer.from(rawBody.toString('utf8').replace('"CAPTUREFORGED0001"', '"CAPTUREFORGED0002"'));
    const unknown = { ...headers, 'paypal-transmission-id': randomUUID() };
    const { 'paypal-transmission-sig': _signature, ...unsigned } = headers;
    for (const [body, sent] of [[changed, headers], [rawBody, unknown], [rawBody, unsigned]] as const) {
      const reply = await postWebhook(body, sent);
      expect([reply.statusCode, codeOf(reply)]).toEqual([400, 'validation_error']);
    }
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], events: [] });
    expect(await t.db.select().from(paymentEvents).where(eq(paymentEvents.transactionId, 'CAPTUREFORGED0001'))).toEqual([]);
  });

  it.each([
    ['amount', (value: string) => ({ currency_code: 'USD', value: (Number(value) - 1).toFixed(2) })],
    ['currency', (value: string) => ({ currency_code: 'EUR', value })],
  ] as const)('a capture of another %s than the booking owes is recorded, not paid', async (_what, tamper) => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const orderId = await started(rider, b.id);
    const back = await atPaypal(orderId);
    const order = standIn.orders.get(orderId);
    if (!order) throw new Error('no order');
    order.unit.amount = tamper(order.unit.amount.value);
    expect(await returnTo(back)).toBe(`/bookings/${b.id}?payment=failed`);
    const rows = await rowsOf(b.id);
    expect(rows.status).toBe('PAYMENT_PENDING');
    expect(rows.ledger).toEqual([]);
    expect(rows.payments).toEqual([expect.objectContaining({ outcome: 'mismatch', amountMinor: toMinor(Number(order.unit.amount.value)), currency: order.unit.amount.currency_code })]);
    expect(rows.events).toEqual([expect.objectContaining({ type: 'payment_succeeded', outcome: 'mismatch' })]);
  });

  it("an admin refunds a PayPal-paid trip in part, then in full: PayPal's capture is refunded by those amounts", async () => {
    const rider = await t.makeUser('rider');
    const b = await reachedTrip(rider);
    const { captureId } = await payThrough(rider, b.id);
    expect((await rowsOf(b.id)).status).toBe('PAID');
    const refund = (amount: number) => t.request({ method: 'POST', url: `/api/bookings/${b.id}/refunds`, as: admin, payload: { amount, reason: 'Detour' }, headers: { 'idempotency-key': randomUUID() } });
    const part = await refund(1.5);
    expect(part.statusCode, part.body).toBe(200);
    expect(part.json()).toMatchObject({ refunds: [expect.objectContaining({ kind: 'admin', provider: 'paypal', amount: 1.5, status: 'requested' })], refundable: (b.paidMinor - 150) / 100 });
    await runAllJobs();
    const refundCalls = () => standIn.requests.filter((request) => request.path === `/v2/payments/captures/${captureId}/refund`);
    expect(refundCalls().map((request) => JSON.parse(request.body) as unknown)).toEqual([{ amount: { currency_code: 'USD', value: '1.50' } }]);
    expect(standIn.captures.get(captureId)).toMatchObject({ status: 'PARTIALLY_REFUNDED', refundedUnits: 150 });

    const tooMuch = await refund((b.paidMinor - 150) / 100 + 0.01);
    expect([tooMuch.statusCode, codeOf(tooMuch)]).toEqual([409, 'refund_exceeds_paid']);
    const rest = await refund((b.paidMinor - 150) / 100);
    expect(rest.json()).toMatchObject({ refundable: 0 });
    await runAllJobs();
    expect(refundCalls().map((request) => (JSON.parse(request.body) as { amount: { value: string } }).amount.value)).toEqual(['1.50', toProviderDecimal(b.paidMinor - 150, 'USD')]);
    expect(standIn.captures.get(captureId)).toMatchObject({ status: 'REFUNDED', refundedUnits: b.paidMinor });
    const rows = await t.db.select().from(refunds).where(eq(refunds.bookingId, b.id));
    expect(rows.map((row) => [row.status, row.amountMinor, row.transactionId])).toEqual([['succeeded', 150, captureId], ['succeeded', b.paidMinor - 150, captureId]]);
    // PayPal's PAYMENT.CAPTURE.REFUNDED for one of them settles nothing more.
    const refundId = standIn.captures.get(captureId)?.refundIds[0] ?? '';
    const { rawBody, headers } = standIn.signedWebhook(standIn.event('PAYMENT.CAPTURE.REFUNDED', 'refund', standIn.refundJson(refundId)));
    expect((await postWebhook(rawBody, headers)).statusCode).toBe(200);
    expect(await t.db.select().from(refunds).where(eq(refunds.bookingId, b.id))).toEqual(rows);
    expect(standIn.refunds.size).toBeGreaterThanOrEqual(2);
  });

  it.each(['hang', 'fail'] as const)('PayPal down (%s): the checkout answers payment_provider_error and no payment is stored', async (mode) => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    standIn.mode = mode;
    const { answer } = await checkout(rider, b.id);
    expect([answer.statusCode, codeOf(answer)]).toEqual([502, 'payment_provider_error']);
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], events: [], attempts: [{ status: 'open', checkoutId: null }] });
    // Down at the return too: nothing is paid, the attempt stays open for the lookup job.
    standIn.mode = 'ok';
    const orderId = await started(rider, b.id);
    const back = await atPaypal(orderId);
    standIn.mode = mode;
    expect(await returnTo(back)).toBe(`/bookings/${b.id}?payment=pending`);
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], events: [] });
    expect(standIn.orders.get(orderId)?.captureIds).toEqual([]);
  });
});
