import { randomUUID } from 'node:crypto';
import { toProviderDecimal } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookings, paymentAttempts, paymentEvents, payments, refunds, walletEntries } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { sedan } from '../fixtures';
import { cardDelivery as cardDeliveryOf, reachedCardTrip, FORM } from '../card-trips';
import { checkoutPageFacts, expectNothingReflected, expectStylesheetServed, MARKUP_APP_NAME, pageAmount } from '../checkout-pages';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';
import { notificationBody, notificationXml, signNotification, startBraintreeStandIn, transactionXml, type BraintreeStandIn, type StandInTransaction } from '../stand-ins/braintree';

const CHECKOUT = '/api/payments/braintree/checkout';
const COMPLETE = '/api/payments/braintree/complete';
const WEBHOOK = '/api/payments/braintree/webhook';

/**
 * Issue 18, point 4 and "Must show": Braintree through the real adapter (the official SDK, its
 * Environment pointed at the stand-in) and the app's routes. The checkout is our page with the
 * client token (Drop-in itself only runs on Braintree's domains), the browser's nonce is posted to
 * `complete`, which charges the checkout's own amount; webhooks are parsed and verified by the SDK.
 * Every case runs on each engine.
 */
describe.each(ENGINES)('Braintree through the API on %s (issue 18)', (engine) => {
  let standIn: BraintreeStandIn;
  let t: TestApp;
  let admin: UserRow;
  let driver: UserRow;

  beforeAll(async () => {
    standIn = await startBraintreeStandIn({ currency: 'USD' });
    t = await createTestApp(engine, {
      BRAINTREE_MERCHANT_ID: standIn.merchantId,
      BRAINTREE_PUBLIC_KEY: standIn.publicKey,
      BRAINTREE_PRIVATE_KEY: standIn.privateKey,
      BRAINTREE_API_URL: standIn.url,
      PAYMENT_TIMEOUT_MS: '800',
      PUBLIC_URL: 'https://rides.example',
    });
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
    driver = await t.makeUser('driver', { carType: 'Sedan' });
  });
  beforeEach(async () => {
    standIn.mode = 'ok';
    standIn.currency = 'USD';
    await t.setSettings({ appcat: 'delivery' });
    await t.goOnline(driver);
  });
  afterAll(async () => {
    // Every request the SDK sent had the gateway's shape.
    expect(standIn.problems).toEqual([]);
    await t.close();
    await standIn.close();
  });

  /** A prepaid card delivery waiting for its payment (PAYMENT_PENDING). */
  const cardDelivery = (rider: UserRow) => cardDeliveryOf(t, rider);

  /** A taxi card trip at REACHED (the rider pays it by card there). */
  const reachedTrip = (rider: UserRow) => reachedCardTrip(t, driver, rider);

  const checkout = (rider: UserRow, id: string) => t.request({ method: 'POST', url: CHECKOUT, as: rider, payload: new URLSearchParams({ order_id: id, amount: '0.01', currency: 'EUR' }).toString(), headers: FORM });

  /** The rider's checkout page: its client token and the attempt its form posts the nonce for. */
  async function started(rider: UserRow, id: string) {
    const page = await checkout(rider, id);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const clientToken = /data-client-token="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const attempt = /name="attempt" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    expect(page.body).toContain(`action="${COMPLETE}"`);
    return { clientToken, attempt };
  }

  /** Drop-in's nonce posted by the rider's page: where the app sends the browser. */
  async function complete(rider: UserRow, attempt: string, nonce: string, extra: Record<string, string> = {}) {
    const answer = await t.request({ method: 'POST', url: COMPLETE, as: rider, payload: new URLSearchParams({ attempt, payment_method_nonce: nonce, ...extra }).toString(), headers: FORM });
    expect(answer.statusCode, answer.body).toBe(303);
    return String(answer.headers.location);
  }

  const salesOf = (id: string) => [...standIn.transactions.values()].filter((transaction) => transaction.type === 'sale' && transaction.orderId === id);

  /** Pays a booking through the whole flow: the page, a card nonce, complete. */
  async function payThrough(rider: UserRow, id: string) {
    const { attempt } = await started(rider, id);
    expect(await complete(rider, attempt, standIn.issueNonce())).toBe(`/bookings/${id}?payment=paid`);
    const sale = salesOf(id).find((transaction) => transaction.status === 'submitted_for_settlement');
    if (!sale) throw new Error('no sale');
    return sale;
  }

  /** A webhook as Braintree posts it: the form of bt_signature and bt_payload. */
  const notify = (kind: string, transaction: StandInTransaction, keys: { publicKey: string; privateKey: string } = standIn) => notificationBody(signNotification(keys, notificationXml(kind, transactionXml(transaction))));
  /** Runs every job due now (the runner takes 20 at a time; lookups and other bookings' jobs come first). */
  async function runAllJobs() {
    for (let round = 0; round < 50; round += 1) if ((await t.runJobs()).done === 0) return;
    throw new Error('jobs keep coming');
  }

  const postWebhook = (body: Buffer | string) => t.request({ method: 'POST', url: WEBHOOK, payload: body, headers: FORM });

  const rowsOf = async (id: string) => ({
    status: (await t.db.select().from(bookings).where(eq(bookings.id, id)))[0]?.status,
    payments: await t.db.select().from(payments).where(eq(payments.bookingId, id)),
    ledger: await t.db.select().from(walletEntries).where(eq(walletEntries.bookingId, id)),
    events: await t.db.select().from(paymentEvents).where(eq(paymentEvents.reference, id)),
    attempts: await t.db.select({ status: paymentAttempts.status }).from(paymentAttempts).where(eq(paymentAttempts.reference, id)),
  });

  it("is listed; a rider's checkout is the page with the gateway's client token, and nothing is charged yet", async () => {
    expect((await t.request({ method: 'GET', url: '/get_providers' })).json()).toContainEqual({ name: 'braintree', link: CHECKOUT });
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { clientToken, attempt } = await started(rider, b.id);
    const decoded = JSON.parse(Buffer.from(clientToken, 'base64').toString('utf8')) as { version: number; merchantId: string; clientApiUrl: string };
    expect(decoded).toMatchObject({ version: 2, merchantId: standIn.merchantId, clientApiUrl: `${standIn.url}/merchants/${standIn.merchantId}/client_api` });
    expect(standIn.requests.at(-1)).toMatchObject({ method: 'POST', path: `/merchants/${standIn.merchantId}/client_token` });
    expect(attempt).toMatch(/^[\w-]+$/);
    expect(salesOf(b.id)).toEqual([]);
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], attempts: [{ status: 'open' }] });
  });

  it("the page around Drop-in says who charges, for which booking and how much, with Pay, the failure texts and a way back; the app's name is text", async () => {
    const rider = await t.makeUser('rider');
    await t.setSettings({ appcat: 'delivery', appName: MARKUP_APP_NAME });
    const b = await cardDelivery(rider);
    const reference = (await t.db.select({ reference: bookings.reference }).from(bookings).where(eq(bookings.id, b.id)))[0]?.reference ?? '';
    const answer = await checkout(rider, b.id);
    expect(answer.statusCode, answer.body).toBe(200);
    expectNothingReflected(answer.body);
    expect(answer.body).not.toContain('EUR');
    expect(answer.body).toContain('<script src="https://js.braintreegateway.com/web/dropin/1.43.0/js/dropin.min.js" defer></script>');
    const facts = checkoutPageFacts(answer.body);
    expect(facts).toMatchObject({
      lang: 'en',
      dir: 'ltr',
      brand: MARKUP_APP_NAME,
      summary: [['Booking', reference], ['Amount', pageAmount(b.paidMinor, '$', 'USD')]],
      button: `Pay ${pageAmount(b.paidMinor, '$', 'USD')}`,
      back: { href: `/bookings/${b.id}`, text: 'Cancel and go back' },
      alert: { scriptFailed: expect.stringMatching(/\S/), cardFailed: expect.stringMatching(/\S/) },
    });
    await expectStylesheetServed(t, facts.stylesheet);
  });

  it("the nonce is charged for the booking's own amount, submitted for settlement: paid once (NEW); posting it again charges nothing more", async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { attempt } = await started(rider, b.id);
    const nonce = standIn.issueNonce();
    // amount and currency posted by the browser are not the server's: they are ignored.
    expect(await complete(rider, attempt, nonce, { amount: '0.01', amount_minor: '1', currency: 'EUR' })).toBe(`/bookings/${b.id}?payment=paid`);
    const [sale, ...more] = salesOf(b.id);
    expect(more).toEqual([]);
    expect(sale).toMatchObject({ status: 'submitted_for_settlement', amount: toProviderDecimal(b.paidMinor, 'USD'), currency: 'USD' });
    const paid = await rowsOf(b.id);
    expect(paid.status).toBe('NEW');
    expect(paid.payments).toEqual([expect.objectContaining({ provider: 'braintree', transactionId: sale?.id, amountMinor: b.paidMinor, currency: 'USD', outcome: 'succeeded' })]);
    expect(paid.events).toEqual([expect.objectContaining({ type: 'payment_succeeded', source: 'complete', outcome: 'paid' })]);
    expect(paid.attempts).toEqual([{ status: 'succeeded' }]);
    // The form posted again (a double click): the attempt is closed, the gateway is not asked.
    const before = standIn.requests.length;
    expect(await complete(rider, attempt, nonce)).toBe(`/bookings/${b.id}?payment=paid`);
    expect(await complete(rider, attempt, standIn.issueNonce())).toBe(`/bookings/${b.id}?payment=paid`);
    expect(standIn.requests.length).toBe(before);
    expect(await rowsOf(b.id)).toEqual(paid);
    // Another rider cannot complete this attempt.
    const other = await t.request({ method: 'POST', url: COMPLETE, as: await t.makeUser('rider'), payload: new URLSearchParams({ attempt, payment_method_nonce: standIn.issueNonce() }).toString(), headers: FORM });
    expect([other.statusCode, codeOf(other)]).toEqual([404, 'not_found']);
  });

  it.each(['fake-processor-declined-visa-nonce', 'fake-gateway-rejected-fraud-nonce', 'fake-processor-failure-jcb-nonce'])('a declined card (%s) leaves the booking payable; the rider then pays it', async (behavesAs) => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { attempt } = await started(rider, b.id);
    expect(await complete(rider, attempt, standIn.issueNonce(behavesAs))).toBe(`/bookings/${b.id}?payment=failed`);
    const declined = await rowsOf(b.id);
    expect(declined).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], attempts: [{ status: 'failed' }] });
    expect(declined.events).toEqual([expect.objectContaining({ type: 'payment_failed', outcome: 'failed' })]);
    await payThrough(rider, b.id);
    const after = await rowsOf(b.id);
    expect(after.status).toBe('NEW');
    expect(after.payments).toEqual([expect.objectContaining({ outcome: 'succeeded', amountMinor: b.paidMinor })]);
  });

  it("a sale in another currency (the merchant account's) is voided at once and not paid; the booking stays payable", async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { attempt } = await started(rider, b.id);
    standIn.currency = 'EUR';
    expect(await complete(rider, attempt, standIn.issueNonce())).toBe(`/bookings/${b.id}?payment=failed`);
    expect(salesOf(b.id)).toEqual([expect.objectContaining({ currency: 'EUR', status: 'voided' })]);
    expect(standIn.requests.filter((request) => request.method === 'PUT' && request.path.endsWith('/void'))).toHaveLength(1);
    const rows = await rowsOf(b.id);
    expect(rows).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [] });
    expect(rows.events).toEqual([expect.objectContaining({ type: 'payment_failed', currency: 'EUR', outcome: 'failed' })]);
    standIn.currency = 'USD';
    await payThrough(rider, b.id);
    expect((await rowsOf(b.id)).status).toBe('NEW');
  });

  it('a signed notification of a settled sale for another amount is recorded as a mismatch, not paid', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    await started(rider, b.id);
    const sale: StandInTransaction = { id: 'mismatch1', type: 'sale', status: 'settled', amount: toProviderDecimal(b.paidMinor - 100, 'USD'), currency: 'USD', orderId: b.id, processorResponseCode: '1000', processorResponseText: 'Approved', refundIds: [], createdAt: '2026-11-22T10:00:00Z' };
    expect((await postWebhook(notify('transaction_settled', sale))).statusCode).toBe(200);
    const rows = await rowsOf(b.id);
    expect(rows.status).toBe('PAYMENT_PENDING');
    expect(rows.ledger).toEqual([]);
    expect(rows.payments).toEqual([expect.objectContaining({ transactionId: 'mismatch1', amountMinor: b.paidMinor - 100, outcome: 'mismatch' })]);
    expect(rows.events).toEqual([expect.objectContaining({ source: 'notification', outcome: 'mismatch' })]);
  });

  it('a signed transaction_settled after the sale, replayed and 10 at once, changes nothing more', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const sale = await payThrough(rider, b.id);
    const paid = await rowsOf(b.id);
    standIn.settle(sale.id);
    const body = notify('transaction_settled', sale);
    const first = await postWebhook(body);
    expect([first.statusCode, first.json()]).toEqual([200, { received: true }]);
    const replays = await Promise.all(Array.from({ length: 10 }, () => postWebhook(body)));
    expect(replays.map((reply) => reply.statusCode)).toEqual(Array.from({ length: 10 }, () => 200));
    expect((await postWebhook(body)).statusCode).toBe(200);
    const after = await rowsOf(b.id);
    expect(after.status).toBe('NEW');
    expect(after.payments).toEqual(paid.payments);
    expect(after.ledger).toEqual(paid.ledger);
    expect(after.events.map((event) => [event.source, event.outcome])).toEqual([['complete', 'paid'], ['notification', 'duplicate']]);
  });

  it("a sale whose answer was lost leaves the booking pending; Braintree's notification then pays it, once", async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { attempt } = await started(rider, b.id);
    standIn.mode = 'lose';
    expect(await complete(rider, attempt, standIn.issueNonce())).toBe(`/bookings/${b.id}?payment=pending`);
    standIn.mode = 'ok';
    const [sale] = salesOf(b.id);
    if (!sale) throw new Error('no sale');
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], events: [], attempts: [{ status: 'open' }] });
    standIn.settle(sale.id);
    const body = notify('transaction_settled', sale);
    const replies = await Promise.all(Array.from({ length: 10 }, () => postWebhook(body)));
    expect(replies.map((reply) => reply.statusCode)).toEqual(Array.from({ length: 10 }, () => 200));
    const rows = await rowsOf(b.id);
    expect(rows.status).toBe('NEW');
    expect(rows.payments).toEqual([expect.objectContaining({ transactionId: sale.id, amountMinor: b.paidMinor, outcome: 'succeeded' })]);
    expect(rows.events).toEqual([expect.objectContaining({ source: 'notification', outcome: 'paid' })]);
    expect(rows.attempts).toEqual([{ status: 'succeeded' }]);
  });

  it('a webhook with a bad signature (another key, a changed payload, none) is 400 and records nothing', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    await started(rider, b.id);
    const sale: StandInTransaction = { id: 'forged01', type: 'sale', status: 'settled', amount: toProviderDecimal(b.paidMinor, 'USD'), currency: 'USD', orderId: b.id, processorResponseCode: '1000', processorResponseText: 'Approved', refundIds: [], createdAt: '2026-11-22T10:00:00Z' };
    const forged = notify('transaction_settled', sale, { publicKey: standIn.publicKey, privateKey: 'notTheMerchantsPrivateKey' });
    const signed = signNotification(standIn, notificationXml('transaction_settled', transactionXml(sale)));
    const otherPayload = Buffer.from(notificationXml('transaction_settled', transactionXml({ ...sale, id: 'forged02' }))).toString('base64');
    for (const body of [forged, notificationBody({ bt_signature: signed.bt_signature, bt_payload: otherPayload }), new URLSearchParams({ bt_payload: signed.bt_payload }).toString(), '']) {
      const reply = await postWebhook(body);
      expect([reply.statusCode, codeOf(reply)]).toEqual([400, 'validation_error']);
    }
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], events: [] });
  });

  it('an admin refunds a Braintree-paid trip in part (once it settled) and then in full: the gateway gets those amounts', async () => {
    const rider = await t.makeUser('rider');
    const b = await reachedTrip(rider);
    const sale = await payThrough(rider, b.id);
    expect((await rowsOf(b.id)).status).toBe('PAID');
    const refund = (amount: number) => t.request({ method: 'POST', url: `/api/bookings/${b.id}/refunds`, as: admin, payload: { amount, reason: 'Detour' }, headers: { 'idempotency-key': randomUUID() } });
    const credits = () => [...standIn.transactions.values()].filter((transaction) => transaction.type === 'credit' && transaction.refundedTransactionId === sale.id).map((credit) => credit.amount);
    const refundRows = () => t.db.select().from(refunds).where(eq(refunds.bookingId, b.id));

    const part = await refund(1.5);
    expect(part.statusCode, part.body).toBe(200);
    expect(part.json()).toMatchObject({ refunds: [expect.objectContaining({ provider: 'braintree', amount: 1.5, status: 'requested' })], refundable: (b.paidMinor - 150) / 100 });
    // Not settled yet: Braintree refuses a refund (91506) and a part cannot be voided; it waits.
    await runAllJobs();
    expect(credits()).toEqual([]);
    expect(sale.status).toBe('submitted_for_settlement');
    expect((await refundRows()).map((row) => row.status)).toEqual(['requested']);
    standIn.settle(sale.id);
    t.advance(60_000);
    await runAllJobs();
    expect(credits()).toEqual(['1.50']);

    const tooMuch = await refund((b.paidMinor - 150) / 100 + 0.01);
    expect([tooMuch.statusCode, codeOf(tooMuch)]).toEqual([409, 'refund_exceeds_paid']);
    expect((await refund((b.paidMinor - 150) / 100)).json()).toMatchObject({ refundable: 0 });
    await runAllJobs();
    expect(credits()).toEqual(['1.50', toProviderDecimal(b.paidMinor - 150, 'USD')]);
    expect((await refundRows()).map((row) => [row.status, row.amountMinor, row.transactionId])).toEqual([['succeeded', 150, sale.id], ['succeeded', b.paidMinor - 150, sale.id]]);
    // The job again refunds nothing more.
    t.advance(3600_000);
    await runAllJobs();
    expect(credits()).toHaveLength(2);
  });

  it('a full refund before settlement voids the sale', async () => {
    const rider = await t.makeUser('rider');
    const b = await reachedTrip(rider);
    const sale = await payThrough(rider, b.id);
    const answer = await t.request({ method: 'POST', url: `/api/bookings/${b.id}/refunds`, as: admin, payload: { amount: b.paidMinor / 100, reason: 'Wrong car' } });
    expect(answer.statusCode, answer.body).toBe(200);
    await runAllJobs();
    expect(sale.status).toBe('voided');
    expect((await t.db.select().from(refunds).where(eq(refunds.bookingId, b.id))).map((row) => [row.status, row.amountMinor, row.providerRefundId])).toEqual([['succeeded', b.paidMinor, `void:${sale.id}`]]);
  });

  it.each(['hang', 'fail'] as const)('Braintree down (%s): the checkout answers payment_provider_error, the nonce is not paid, no payment is stored', async (mode) => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    standIn.mode = mode;
    const answer = await checkout(rider, b.id);
    expect([answer.statusCode, codeOf(answer)]).toEqual([502, 'payment_provider_error']);
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], events: [], attempts: [{ status: 'open' }] });
    standIn.mode = 'ok';
    const { attempt } = await started(rider, b.id);
    standIn.mode = mode;
    expect(await complete(rider, attempt, standIn.issueNonce())).toBe(`/bookings/${b.id}?payment=pending`);
    expect(salesOf(b.id)).toEqual([]);
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], events: [] });
  });
});
