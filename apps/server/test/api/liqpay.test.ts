import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { liqpayEncode } from '../../src/providers/payments/liqpay';
import { bookings, paymentAttempts, paymentEvents, payments, refunds, walletEntries } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { sedan } from '../fixtures';
import { cardDelivery as cardDeliveryOf, reachedCardTrip, FORM } from '../card-trips';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';
import { startLiqpay, type LiqpayStandIn } from '../stand-ins/liqpay';

const CHECKOUT = '/api/payments/liqpay/checkout';
const WEBHOOK = '/api/payments/liqpay/webhook';
const PUBLIC_URL = 'https://rides.example';

/**
 * Issue 22: LiqPay through the real adapter and the app's routes, against the LiqPay stand-in.
 * The checkout is the documented form post (data and signature) to the stand-in's page; its
 * callback is checked by its signature and then confirmed with the status action; the return
 * asks the status action itself. Every case runs on each engine.
 */
describe.each(ENGINES)('LiqPay through the API on %s (issue 22)', (engine) => {
  let standIn: LiqpayStandIn;
  let t: TestApp;
  let admin: UserRow;
  let driver: UserRow;
  /** The callbacks the stand-in sent (handed to the app in process), with the app's answer. */
  const callbacks: { body: string; status: number }[] = [];

  beforeAll(async () => {
    standIn = await startLiqpay();
    t = await createTestApp(engine, { LIQPAY_PUBLIC_KEY: standIn.publicKey, LIQPAY_PRIVATE_KEY: standIn.privateKey, LIQPAY_API_URL: standIn.apiUrl, PAYMENT_TIMEOUT_MS: '800', PUBLIC_URL });
    standIn.deliver = async (serverUrl, body) => {
      const url = new URL(serverUrl);
      expect(url.origin).toBe(PUBLIC_URL);
      const answer = await t.request({ method: 'POST', url: url.pathname, payload: body, headers: FORM });
      callbacks.push({ body, status: answer.statusCode });
    };
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

  /** A checkout: our page posting data and signature on to LiqPay; the order_id and the stand-in's page. */
  async function started(rider: UserRow, id: string) {
    const answer = await checkout(rider, id);
    expect(answer.statusCode, answer.body).toBe(200);
    const form = /<form id="checkout" data-autopost="1" method="post" action="([^"]+)">(.*?)<\/form>/.exec(answer.body);
    expect(form?.[1]).toBe(`${standIn.apiUrl}/3/checkout`);
    const fields = Object.fromEntries([...(form?.[2] ?? '').matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1] ?? '', m[2] ?? '']));
    expect(Object.keys(fields).sort()).toEqual(['data', 'signature']);
    const page = await fetch(`${standIn.apiUrl}/3/checkout`, { method: 'POST', headers: FORM, body: new URLSearchParams(fields).toString() });
    const html = await page.text();
    expect(html).toContain('LiqPay (stand-in)');
    const token = /action="\/api\/3\/checkout\/([0-9a-f]+)\/pay"/.exec(html)?.[1];
    const order = [...standIn.payments.values()].find((candidate) => candidate.token === token);
    if (!order) throw new Error('no order at the stand-in');
    return { orderId: order.orderId, token: order.token };
  }

  /** The rider clicks on the stand-in's page: the callback is sent, then the browser goes back to result_url. */
  async function atLiqpay(token: string, button: 'pay' | 'decline' | 'cancel' = 'pay') {
    const clicked = await fetch(`${standIn.apiUrl}/3/checkout/${token}/${button}`, { method: 'POST', redirect: 'manual' });
    expect(clicked.status).toBe(303);
    const back = new URL(clicked.headers.get('location') ?? '');
    expect(back.origin + back.pathname).toBe(`${PUBLIC_URL}/api/payments/liqpay/return`);
    return back;
  }

  async function returnTo(back: URL) {
    const answer = await t.request({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(answer.statusCode, answer.body).toBe(303);
    return String(answer.headers.location);
  }

  async function payThrough(rider: UserRow, id: string) {
    const { orderId, token } = await started(rider, id);
    expect(await returnTo(await atLiqpay(token))).toBe(`/bookings/${id}?payment=paid`);
    return orderId;
  }

  async function runAllJobs() {
    for (let round = 0; round < 50; round += 1) if ((await t.runJobs()).done === 0) return;
    throw new Error('jobs keep coming');
  }

  const postCallback = (body: string) => t.request({ method: 'POST', url: WEBHOOK, payload: body, headers: FORM });
  const rowsOf = async (id: string) => ({
    status: (await t.db.select().from(bookings).where(eq(bookings.id, id)))[0]?.status,
    payments: await t.db.select().from(payments).where(eq(payments.bookingId, id)),
    ledger: await t.db.select().from(walletEntries).where(eq(walletEntries.bookingId, id)),
    events: await t.db.select().from(paymentEvents).where(eq(paymentEvents.reference, id)),
    attempts: await t.db.select({ id: paymentAttempts.id, status: paymentAttempts.status, checkoutId: paymentAttempts.checkoutId }).from(paymentAttempts).where(eq(paymentAttempts.reference, id)),
  });

  it("is listed; a rider's checkout signs the booking's own amount for LiqPay's form and posts it on", async () => {
    expect((await t.request({ method: 'GET', url: '/get_providers' })).json()).toContainEqual({ name: 'liqpay', link: CHECKOUT });
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { orderId } = await started(rider, b.id);
    const order = standIn.payments.get(orderId);
    // The server's amount and currency (USD), not the 0.01 EUR the form posted.
    expect(order).toMatchObject({ amount: b.paidMinor / 100, currency: 'USD', status: 'created', sandbox: true, serverUrl: `${PUBLIC_URL}/api/payments/liqpay/webhook` });
    const rows = await rowsOf(b.id);
    expect(rows).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], attempts: [{ status: 'open', checkoutId: orderId }] });
    expect(orderId).toBe(`${b.id}.${rows.attempts[0]?.id ?? ''}`);
    expect(order?.resultUrl).toBe(`${PUBLIC_URL}/api/payments/liqpay/return?attempt=${rows.attempts[0]?.id ?? ''}`);
  });

  it('the rider pays: the signed callback pays the booking once (NEW); the return finds it paid and asks nothing more', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { orderId, token } = await started(rider, b.id);
    const back = await atLiqpay(token);
    expect(callbacks.at(-1)?.status).toBe(200);
    const paid = await rowsOf(b.id);
    expect(paid.status).toBe('NEW');
    expect(paid.payments).toEqual([expect.objectContaining({ provider: 'liqpay', transactionId: orderId, amountMinor: b.paidMinor, currency: 'USD', outcome: 'succeeded' })]);
    expect(paid.events).toEqual([expect.objectContaining({ provider: 'liqpay', type: 'payment_succeeded', source: 'notification', outcome: 'paid' })]);
    const asked = standIn.requests.length;
    expect(await returnTo(back)).toBe(`/bookings/${b.id}?payment=paid`);
    expect(standIn.requests.length).toBe(asked);
    expect(await rowsOf(b.id)).toEqual(paid);
  });

  it('a lost callback: the return asks the status action and pays; a declined payment leaves the booking payable', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const first = await started(rider, b.id);
    const lost = standIn.deliver;
    standIn.deliver = () => Promise.resolve();
    try {
      expect(await returnTo(await atLiqpay(first.token, 'decline'))).toBe(`/bookings/${b.id}?payment=failed`);
      expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], events: [expect.objectContaining({ type: 'payment_failed', source: 'lookup' })] });
      const cancelled = await started(rider, b.id);
      expect(await returnTo(await atLiqpay(cancelled.token, 'cancel'))).toBe(`/bookings/${b.id}?payment=pending`);
      const second = await started(rider, b.id);
      expect(await returnTo(await atLiqpay(second.token))).toBe(`/bookings/${b.id}?payment=paid`);
    } finally {
      standIn.deliver = lost;
    }
    const after = await rowsOf(b.id);
    expect(after.status).toBe('NEW');
    expect(after.payments).toEqual([expect.objectContaining({ outcome: 'succeeded', amountMinor: b.paidMinor })]);
    expect(after.events.filter((event) => event.type === 'payment_succeeded')).toEqual([expect.objectContaining({ source: 'lookup', outcome: 'paid' })]);
  });

  it('10 replays of the signed callback at once change nothing', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { orderId } = await payThrough(rider, b.id).then((id) => ({ orderId: id }));
    const paid = await rowsOf(b.id);
    const body = standIn.callbackBody(orderId);
    const replays = await Promise.all(Array.from({ length: 10 }, () => postCallback(body)));
    expect(replays.map((reply) => reply.statusCode)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(await rowsOf(b.id)).toEqual(paid);
    expect(paid.payments).toHaveLength(1);
  });

  it('a forged or altered callback (changed data, another key, no signature) is 400 and changes nothing', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { orderId } = await started(rider, b.id);
    standIn.settle(orderId, 'paid');
    const form = new URLSearchParams(standIn.callbackBody(orderId));
    const data = form.get('data') ?? '';
    const json = JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as Record<string, unknown>;
    const altered = Buffer.from(JSON.stringify({ ...json, order_id: `${randomUUID()}.${randomUUID()}` })).toString('base64');
    for (const body of [
      new URLSearchParams({ data: altered, signature: form.get('signature') ?? '' }),
      new URLSearchParams(liqpayEncode('sandbox_guessedprivatekey000', json)),
      new URLSearchParams({ data }),
    ]) {
      const reply = await postCallback(body.toString());
      expect([reply.statusCode, codeOf(reply)]).toEqual([400, 'validation_error']);
    }
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], events: [] });
    expect(await t.db.select().from(paymentEvents).where(eq(paymentEvents.transactionId, orderId))).toEqual([]);
  });

  it.each([
    ['amount', (order: { amount: number; currency: string }) => { order.amount -= 1; }],
    ['currency', (order: { amount: number; currency: string }) => { order.currency = 'UAH'; }],
  ] as const)('a payment of another %s than the booking owes is recorded, not paid', async (_what, tamper) => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { orderId } = await started(rider, b.id);
    const order = standIn.payments.get(orderId);
    if (!order) throw new Error('no order');
    tamper(order);
    standIn.settle(orderId, 'paid');
    expect((await postCallback(standIn.callbackBody(orderId))).statusCode).toBe(200);
    const rows = await rowsOf(b.id);
    expect(rows.status).toBe('PAYMENT_PENDING');
    expect(rows.ledger).toEqual([]);
    expect(rows.payments).toEqual([expect.objectContaining({ outcome: 'mismatch', amountMinor: Math.round(order.amount * 100), currency: order.currency })]);
    expect(rows.events).toEqual([expect.objectContaining({ type: 'payment_succeeded', outcome: 'mismatch' })]);
  });

  it('an admin refunds a LiqPay-paid trip in part through the refund action; once, whatever the retries', async () => {
    const rider = await t.makeUser('rider');
    const b = await reachedTrip(rider);
    const orderId = await payThrough(rider, b.id);
    expect((await rowsOf(b.id)).status).toBe('PAID');
    const part = await t.request({ method: 'POST', url: `/api/bookings/${b.id}/refunds`, as: admin, payload: { amount: 1.5, reason: 'Detour' }, headers: { 'idempotency-key': randomUUID() } });
    expect(part.statusCode, part.body).toBe(200);
    await runAllJobs();
    const refundsAsked = () => standIn.requests.filter((seen) => seen.params?.action === 'refund' && seen.params.order_id === orderId);
    expect(refundsAsked().map((seen) => seen.params?.amount)).toEqual([1.5]);
    expect(standIn.payments.get(orderId)?.refunded).toBe(1.5);
    expect((await t.db.select().from(refunds).where(eq(refunds.bookingId, b.id)))[0]).toMatchObject({ status: 'succeeded', amountMinor: 150 });
    t.advance(24 * 3600_000);
    await runAllJobs();
    expect(refundsAsked()).toHaveLength(1);
  });

  it.each(['hang', 'fail'] as const)('LiqPay down (%s): a callback is answered with an error (LiqPay sends it again) and nothing is paid', async (mode) => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { orderId } = await started(rider, b.id);
    standIn.settle(orderId, 'paid');
    standIn.mode = mode;
    const reply = await postCallback(standIn.callbackBody(orderId));
    expect([reply.statusCode, codeOf(reply)]).toEqual([502, 'payment_provider_error']);
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], events: [] });
  });

  it('a settings currency LiqPay does not take: not listed, no checkout, and the admins are told why', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    await t.setSettings({ appcat: 'delivery', code: 'GBP' });
    expect((await t.request({ method: 'GET', url: '/get_providers' })).json()).not.toContainEqual(expect.objectContaining({ name: 'liqpay' }));
    const answer = await checkout(rider, b.id);
    expect([answer.statusCode, codeOf(answer)]).toEqual([404, 'not_found']);
    const listed = await t.request({ method: 'GET', url: '/api/payments/providers', as: admin });
    expect(listed.json()).toMatchObject({ currency: 'GBP', providers: expect.arrayContaining([expect.objectContaining({ name: 'liqpay', takesCurrency: false, currencies: ['UAH', 'USD', 'EUR'] })]) });
  });
});
