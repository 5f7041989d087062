import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookings, outbox, refunds, walletEntries } from '../../src/db/schema';
import { RATE_LIMITS } from '../../src/http/rate-limits';
import type { UserRow } from '../../src/modules/users/accounts';
import type { PaymentEvent } from '../../src/providers/payments/port';
import { reachedCardTrip, FORM } from '../card-trips';
import { fakeProvider, type FakeProvider } from '../fake-payment-provider';
import { sedan } from '../fixtures';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';
import { startPayfast, type PayfastStandIn } from '../stand-ins/payfast';

const PUBLIC_URL = 'https://rides.example';
const confirmUrl = (id: number | string) => `/api/refunds/${String(id)}/dashboard-confirmation`;

type RefundView = { id: number; provider: string; transactionId: string | null; amount: number; status: string; providerRefundId: string | null; confirmedAt: number | null };
type PaymentsView = { refunds: RefundView[]; refundable: number };

/**
 * Issue 22: a refund PayFast's API cannot make waits, shown to the admin, until the admin refunds
 * in PayFast's dashboard and confirms it here with PayFast's reference; it is then settled as a
 * refund the provider's API confirmed is (succeeded, the rider told, no wallet entry), once. The
 * fake provider (a provider whose API refunds) is beside PayFast for the refunds this route must
 * refuse. Every case runs on each engine, in rand.
 */
describe.each(ENGINES)("refunds made in a provider's dashboard on %s (issue 22)", (engine) => {
  let standIn: PayfastStandIn;
  let fake: FakeProvider;
  let t: TestApp;
  let admin: UserRow;
  let driver: UserRow;

  beforeAll(async () => {
    standIn = await startPayfast();
    standIn.deliver = false;
    fake = fakeProvider('paystack');
    t = await createTestApp(
      engine,
      { PAYFAST_MERCHANT_ID: standIn.merchantId, PAYFAST_MERCHANT_KEY: standIn.merchantKey, PAYFAST_PASSPHRASE: standIn.passphrase, PAYFAST_API_URL: standIn.url, PAYMENT_TIMEOUT_MS: '800', PUBLIC_URL },
      { paymentProviders: [fake] },
    );
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
    driver = await t.makeUser('driver', { carType: 'Sedan' });
  });
  beforeEach(async () => {
    await t.goOnline(driver);
  });
  afterAll(async () => {
    await t.close();
    await standIn.close();
  });

  /** A trip at REACHED paid through PayFast (its checkout form, then its ITN): PayFast's id of the payment. */
  async function paidByPayfast(rider: UserRow) {
    const b = await reachedCardTrip(t, driver, rider, { code: 'ZAR' });
    const page = await t.request({ method: 'POST', url: '/api/payments/payfast/checkout', as: rider, payload: new URLSearchParams({ order_id: b.id }).toString(), headers: FORM });
    const form = /<form id="checkout"[^>]*>(.*?)<\/form>/.exec(page.body)?.[1] ?? '';
    const fields = Object.fromEntries([...form.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1] ?? '', (m[2] ?? '').replace(/&#(\d+);/g, (_all, code: string) => String.fromCharCode(Number(code)))]));
    const before = new Set(standIn.payments.keys());
    await (await fetch(`${standIn.url}/eng/process`, { method: 'POST', headers: FORM, body: new URLSearchParams(fields).toString() })).text();
    const pfPaymentId = [...standIn.payments.keys()].find((id) => !before.has(id)) ?? '';
    const itn = await t.request({ method: 'POST', url: '/api/payments/payfast/webhook', payload: standIn.itn(pfPaymentId, 'COMPLETE').rawBody, headers: FORM });
    expect(itn.statusCode, itn.body).toBe(200);
    return { ...b, pfPaymentId };
  }

  const notifyFake = (event: PaymentEvent) => {
    const { payload, headers } = fake.sign(event);
    return t.request({ method: 'POST', url: '/api/payments/paystack/webhook', payload, headers });
  };

  /** A trip at REACHED paid through the fake provider, whose API makes refunds. */
  async function paidByFake(rider: UserRow) {
    const b = await reachedCardTrip(t, driver, rider, { code: 'ZAR' });
    const transactionId = `pi_${randomUUID()}`;
    const paid = await notifyFake({ type: 'payment_succeeded', eventId: `evt_${randomUUID()}`, reference: b.id, transactionId, amountMinor: b.paidMinor, currency: 'ZAR' });
    expect(paid.statusCode, paid.body).toBe(200);
    return { ...b, transactionId };
  }

  /** An admin's refund; the refund job then asks the provider, unless `send` is false. */
  const refundByAdmin = async (id: string, amount: number, send = true) => {
    const answer = await t.request({ method: 'POST', url: `/api/bookings/${id}/refunds`, as: admin, payload: { amount, reason: 'Detour' }, headers: { 'idempotency-key': randomUUID() } });
    expect(answer.statusCode, answer.body).toBe(200);
    if (send) await t.runJobs();
    return answer.json<PaymentsView>();
  };
  const paymentsOf = async (id: string, as: UserRow = admin) => (await t.request({ method: 'GET', url: `/api/bookings/${id}/payments`, as })).json<PaymentsView>();
  const confirm = (id: number | string, payload: Record<string, unknown>, as: UserRow | null = admin) => t.request({ method: 'POST', url: confirmUrl(id), as, payload });
  const refundRows = (bookingId: string) => t.db.select().from(refunds).where(eq(refunds.bookingId, bookingId));
  const walletOf = (bookingId: string) => t.db.select().from(walletEntries).where(eq(walletEntries.bookingId, bookingId));
  const confirmedPushes = async (rider: UserRow) =>
    (await t.db.select().from(outbox).where(and(eq(outbox.recipient, rider.id), eq(outbox.channel, 'push')))).map((row) => String(row.payload.msg)).filter((msg) => msg.includes('is confirmed'));

  /** A PayFast-paid trip with an admin's refund of 1.50 rand awaiting the dashboard. */
  async function awaiting(rider: UserRow) {
    const b = await paidByPayfast(rider);
    await refundByAdmin(b.id, 1.5);
    const refund = (await paymentsOf(b.id)).refunds[0];
    if (!refund) throw new Error('no refund');
    return { ...b, refund };
  }

  it("the refund waits for the dashboard, counted as refunded and shown with PayFast's payment; the admin's confirmation settles it like an API's, once", async () => {
    const rider = await t.makeUser('rider');
    const b = await paidByPayfast(rider);
    const ledgerBefore = await walletOf(b.id);
    const answer = await refundByAdmin(b.id, 1.5);
    expect(answer.refundable).toBe((b.paidMinor - 150) / 100);
    const waiting = await paymentsOf(b.id);
    expect(waiting.refunds).toEqual([expect.objectContaining({ provider: 'payfast', transactionId: b.pfPaymentId, amount: 1.5, status: 'awaiting_dashboard', providerRefundId: null, confirmedAt: null })]);
    // The rider sees the same record (it is the rider's money); only an admin may confirm it.
    expect((await paymentsOf(b.id, rider)).refunds).toEqual(waiting.refunds);
    // The refund job does not ask PayFast again: it answered once.
    t.advance(24 * 3_600_000);
    await t.runJobs();
    expect((await refundRows(b.id))[0]).toMatchObject({ status: 'awaiting_dashboard', attempts: 1, lastError: expect.stringContaining("PayFast's dashboard") });
    const refundId = waiting.refunds[0]?.id ?? 0;

    const confirmed = await confirm(refundId, { providerRefundId: '  PF-R-77123  ' });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json<PaymentsView>()).toEqual({ ...waiting, refunds: [{ ...waiting.refunds[0], status: 'succeeded', providerRefundId: 'PF-R-77123', confirmedAt: t.clock.now }] });
    expect((await refundRows(b.id))[0]).toMatchObject({ status: 'succeeded', providerRefundId: 'PF-R-77123', confirmedAt: t.clock.now, confirmedBy: admin.id, lastError: null, amountMinor: 150 });
    // Card money leaves no wallet entry, as with a refund the provider's API confirms; the rider is told once.
    expect(await walletOf(b.id)).toEqual(ledgerBefore);
    const reference = (await t.db.select({ reference: bookings.reference }).from(bookings).where(eq(bookings.id, b.id)))[0]?.reference ?? '';
    expect(await confirmedPushes(rider)).toEqual([`Your refund of 1.50 ZAR for booking ${reference} is confirmed.`]);

    const again = await confirm(refundId, { providerRefundId: 'PF-R-OTHER' });
    expect([again.statusCode, codeOf(again)]).toEqual([409, 'refund_not_awaiting_dashboard']);
    expect((await refundRows(b.id))[0]).toMatchObject({ providerRefundId: 'PF-R-77123', confirmedBy: admin.id });
    expect(await confirmedPushes(rider)).toHaveLength(1);
  });

  it('settles exactly once under 10 confirmations at once (two admins double-clicking)', async () => {
    const rider = await t.makeUser('rider');
    const other = await t.makeUser('admin');
    const { id, refund } = await awaiting(rider);
    const answers = await Promise.all(Array.from({ length: 10 }, (_unused, n) => confirm(refund.id, { providerRefundId: `PF-R-${String(n)}` }, n % 2 === 0 ? admin : other)));
    const won = answers.filter((answer) => answer.statusCode === 200);
    expect(won).toHaveLength(1);
    expect(answers.filter((answer) => answer.statusCode === 409).map(codeOf)).toEqual(Array.from({ length: 9 }, () => 'refund_not_awaiting_dashboard'));
    const winner = won[0]?.json<PaymentsView>().refunds[0]?.providerRefundId;
    expect(await refundRows(id)).toEqual([expect.objectContaining({ status: 'succeeded', providerRefundId: winner, amountMinor: 150 })]);
    expect(await confirmedPushes(rider)).toHaveLength(1);
  });

  it('the attacks: the rider, a driver and a fleet admin 403, anonymous 401, unknown 404; the amount and state cannot be sent', async () => {
    const rider = await t.makeUser('rider');
    const fleetadmin = await t.makeUser('fleetadmin');
    const { id, refund, paidMinor } = await awaiting(rider);
    for (const as of [rider, driver, fleetadmin]) {
      const refused = await confirm(refund.id, { providerRefundId: 'PF-R-1' }, as);
      expect([refused.statusCode, codeOf(refused)]).toEqual([403, 'forbidden']);
    }
    const anonymous = await confirm(refund.id, { providerRefundId: 'PF-R-1' }, null);
    expect([anonymous.statusCode, codeOf(anonymous)]).toEqual([401, 'not_logged_in']);
    for (const unknown of [refund.id + 100_000, 'abc', randomUUID()]) {
      const missing = await confirm(unknown, { providerRefundId: 'PF-R-1' });
      expect([missing.statusCode, codeOf(missing)]).toEqual([404, 'not_found']);
    }
    for (const payload of [{}, { providerRefundId: '   ' }, { providerRefundId: 'x'.repeat(201) }, { providerRefundId: 42 }]) {
      const bad = await confirm(refund.id, payload);
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await refundRows(id))[0]).toMatchObject({ status: 'awaiting_dashboard', providerRefundId: null, confirmedBy: null });
    // Only the reference is read: an amount, a state or another refund's id in the body change nothing.
    const tampered = await confirm(refund.id, { providerRefundId: 'PF-R-9', amount: 999, amountMinor: 99_900, status: 'failed', id: refund.id + 1, currency: 'USD' });
    expect(tampered.statusCode, tampered.body).toBe(200);
    expect(await refundRows(id)).toEqual([expect.objectContaining({ status: 'succeeded', amountMinor: 150, currency: 'ZAR', providerRefundId: 'PF-R-9' })]);
    expect((await paymentsOf(id)).refundable).toBe((paidMinor - 150) / 100);
  });

  it("a refund a provider's API makes (requested or confirmed) and a refused one are 409 and unchanged", async () => {
    const rider = await t.makeUser('rider');
    const b = await paidByFake(rider);
    await refundByAdmin(b.id, 1, false);
    const [requested] = await refundRows(b.id);
    expect(requested).toMatchObject({ provider: 'paystack', status: 'requested' });
    const asRequested = await confirm(requested?.id ?? 0, { providerRefundId: 'made-up' });
    expect([asRequested.statusCode, codeOf(asRequested)]).toEqual([409, 'refund_not_awaiting_dashboard']);
    // The provider's API confirms it (the refund job); the same step an admin's confirmation takes, but from requested.
    await t.runJobs();
    const apiConfirmed = (await refundRows(b.id))[0];
    expect(apiConfirmed).toMatchObject({ status: 'succeeded', providerRefundId: `re_refund-${String(requested?.id)}`, confirmedAt: t.clock.now, confirmedBy: null, lastError: null });
    const asSettled = await confirm(requested?.id ?? 0, { providerRefundId: 'made-up' });
    expect([asSettled.statusCode, codeOf(asSettled)]).toEqual([409, 'refund_not_awaiting_dashboard']);
    expect(await refundRows(b.id)).toEqual([apiConfirmed]);
    expect(await confirmedPushes(rider)).toHaveLength(1);

    // A PayFast refund an older build recorded as failed stays failed: confirming it is refused too.
    const c = await awaiting(await t.makeUser('rider'));
    await t.db.update(refunds).set({ status: 'failed' }).where(eq(refunds.id, c.refund.id));
    const asFailed = await confirm(c.refund.id, { providerRefundId: 'made-up' });
    expect([asFailed.statusCode, codeOf(asFailed)]).toEqual([409, 'refund_not_awaiting_dashboard']);
    expect((await refundRows(c.id))[0]).toMatchObject({ status: 'failed', providerRefundId: null });
  });

  it("is counted by the payment limit, with the admin's other money actions", () => {
    expect(RATE_LIMITS.payment.routes).toContain('POST /api/refunds/:id/dashboard-confirmation');
  });
});

describe.each(ENGINES)("the confirmation's rate limit on %s (issue 22)", (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT_OVERRIDES: 'payment.user=2/1h' });
  });
  afterAll(() => t.close());

  it("an admin's third confirmation in the window is 429 before anything is read", async () => {
    const admin = await t.makeUser('admin');
    const answers = [];
    for (let n = 0; n < 3; n += 1) answers.push(await t.request({ method: 'POST', url: confirmUrl(1_000 + n), as: admin, payload: { providerRefundId: 'PF-R-1' } }));
    expect(answers.map((answer) => [answer.statusCode, codeOf(answer)])).toEqual([[404, 'not_found'], [404, 'not_found'], [429, 'too_many_requests']]);
  });
});
