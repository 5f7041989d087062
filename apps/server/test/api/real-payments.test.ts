import { toMinor } from '@rideway/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookings, paymentAttempts, paymentEvents, payments, refunds, walletEntries } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import type { PaymentEvent } from '../../src/providers/payments/port';
import { fakeProvider, type FakeProvider } from '../fake-payment-provider';
import { drop, pickup, sedan } from '../fixtures';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';
import { FORM } from '../card-trips';

const formBody = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();

/**
 * Issue 18, the shared core: a provider's checkout, notifications, return and lookup, through an
 * in-test adapter of the payment port (test/fake-payment-provider.ts).
 */
describe.each(ENGINES)('real payments through the payment port on %s (issue 18)', (engine) => {
  let t: TestApp;
  let fake: FakeProvider;
  let admin: UserRow;
  let driver: UserRow;
  const name = 'paystack';

  beforeAll(async () => {
    fake = fakeProvider(name);
    t = await createTestApp(engine, {}, { paymentProviders: [fake] });
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
    driver = await t.makeUser('driver', { carType: 'Sedan' });
  });
  beforeEach(async () => {
    fake.state.down = false;
    fake.state.onCreate = undefined;
    await t.setSettings({ appcat: 'delivery' });
    await t.goOnline(driver);
  });
  afterAll(() => t.close());

  /** A delivery waiting for its card payment (PAYMENT_PENDING). */
  async function cardDelivery(rider: UserRow) {
    const created = await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', payment_mode: 'card', deliveryPerson: 'Sam', deliveryPersonPhone: '555 0100' } });
    expect(created.statusCode, created.body).toBe(201);
    const booking = created.json<{ id: string; customer_paid: number; status: string }>();
    expect(booking.status).toBe('PAYMENT_PENDING');
    return { id: booking.id, paidMinor: toMinor(booking.customer_paid) };
  }

  /** The rider posts the section 4 form to the provider's checkout link: the provider's checkout id. */
  async function checkout(rider: UserRow, id: string, extra: Record<string, string> = {}) {
    const answer = await t.request({ method: 'POST', url: `/api/payments/${name}/checkout`, as: rider, payload: formBody({ order_id: id, amount: '0.01', currency: 'XXX', ...extra }), headers: FORM });
    expect(answer.statusCode, answer.body).toBe(303);
    const checkoutId = String(answer.headers.location).split('/c/')[1] ?? '';
    return { checkoutId, location: String(answer.headers.location) };
  }

  const notify = (event: PaymentEvent, tamper = false) => {
    const { payload, headers } = fake.sign(event);
    return t.request({ method: 'POST', url: `/api/payments/${name}/webhook`, payload: tamper ? payload.replace('"amountMinor":', '"amountMinor":1') : payload, headers });
  };
  const statusOf = async (id: string) => (await t.db.select({ status: bookings.status }).from(bookings).where(eq(bookings.id, id)))[0]?.status;
  const paymentsOf = (id: string) => t.db.select().from(payments).where(eq(payments.bookingId, id));
  const ledgerOf = (id: string) => t.db.select().from(walletEntries).where(eq(walletEntries.bookingId, id));
  const eventsOf = (reference: string) => t.db.select().from(paymentEvents).where(eq(paymentEvents.reference, reference));

  it('/get_providers lists the configured adapter with its checkout link', async () => {
    const listed = (await t.request({ method: 'GET', url: '/get_providers' })).json();
    expect(listed).toEqual([{ name, link: `/api/payments/${name}/checkout` }]);
  });

  it('checkout records the intent before the call and the checkout id after; the amount is the booking\'s, never the browser\'s', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const seen: (typeof paymentAttempts.$inferSelect)[] = [];
    fake.state.onCreate = async (request) => {
      seen.push(...(await t.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, request.idempotencyKey))));
    };
    const { checkoutId, location } = await checkout(rider, b.id);
    expect(location).toBe(`https://pay.fake.example/c/${checkoutId}`);
    expect(seen).toEqual([expect.objectContaining({ status: 'open', checkoutId: null, amountMinor: b.paidMinor, currency: 'USD', purpose: 'booking', reference: b.id, uid: rider.id })]);
    const request = fake.state.requests.at(-1);
    expect(request).toMatchObject({ reference: b.id, amountMinor: b.paidMinor, currency: 'USD', purpose: { kind: 'booking', bookingId: b.id } });
    expect(request?.returnUrl).toMatch(new RegExp(`/api/payments/${name}/return\\?attempt=`));
    const attempts = await t.db.select().from(paymentAttempts).where(eq(paymentAttempts.reference, b.id));
    expect(attempts).toEqual([expect.objectContaining({ status: 'open', checkoutId })]);
  });

  it('a provider down answers payment_provider_error; nothing is paid and the attempt stays open for the lookup', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    fake.state.down = true;
    const answer = await t.request({ method: 'POST', url: `/api/payments/${name}/checkout`, as: rider, payload: formBody({ order_id: b.id }), headers: FORM });
    expect([answer.statusCode, codeOf(answer)]).toEqual([502, 'payment_provider_error']);
    expect(await statusOf(b.id)).toBe('PAYMENT_PENDING');
    expect(await t.db.select({ status: paymentAttempts.status, checkoutId: paymentAttempts.checkoutId }).from(paymentAttempts).where(eq(paymentAttempts.reference, b.id))).toEqual([{ status: 'open', checkoutId: null }]);
  });

  it('the attacks: another rider\'s booking is not found, a driver or anonymous cannot check out', async () => {
    const rider = await t.makeUser('rider');
    const other = await t.makeUser('rider');
    const driver = await t.makeUser('driver');
    const b = await cardDelivery(rider);
    const post = (as: UserRow | null) => t.request({ method: 'POST', url: `/api/payments/${name}/checkout`, as, payload: formBody({ order_id: b.id }), headers: FORM });
    expect([(await post(other)).statusCode, codeOf(await post(other))]).toEqual([404, 'not_found']);
    expect((await post(driver)).statusCode).toBe(403);
    expect((await post(null)).statusCode).toBe(401);
    const unknown = await t.request({ method: 'POST', url: '/api/payments/mercadopago/checkout', as: rider, payload: formBody({ order_id: b.id }), headers: FORM });
    expect(unknown.statusCode).toBe(404);
    expect(fake.state.requests.filter((request) => request.reference === b.id)).toEqual([]);
  });

  it('a notification with a bad signature is 400 and nothing is recorded; a good one pays once, a replay changes nothing', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { checkoutId } = await checkout(rider, b.id);
    const event = fake.pay(checkoutId);
    const forged = await notify(event, true);
    expect([forged.statusCode, codeOf(forged)]).toEqual([400, 'validation_error']);
    expect(await eventsOf(b.id)).toEqual([]);
    expect(await statusOf(b.id)).toBe('PAYMENT_PENDING');
    const good = await notify(event);
    expect([good.statusCode, good.json()]).toEqual([200, { received: true }]);
    expect(await statusOf(b.id)).toBe('NEW');
    const again = await notify(event);
    expect(again.statusCode).toBe(200);
    expect(await paymentsOf(b.id)).toEqual([expect.objectContaining({ outcome: 'succeeded', amountMinor: b.paidMinor, provider: name })]);
    expect(await eventsOf(b.id)).toEqual([expect.objectContaining({ outcome: 'paid', source: 'notification' })]);
    expect(await t.db.select({ status: paymentAttempts.status }).from(paymentAttempts).where(eq(paymentAttempts.reference, b.id))).toEqual([{ status: 'succeeded' }]);
  });

  it('20 replays of one notification at once give one payment and one set of ledger entries', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { checkoutId } = await checkout(rider, b.id);
    const event = fake.pay(checkoutId);
    const answers = await Promise.all(Array.from({ length: 20 }, () => notify(event)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array.from({ length: 20 }, () => 200));
    expect(await paymentsOf(b.id)).toHaveLength(1);
    expect(await eventsOf(b.id)).toHaveLength(1);
    expect(await statusOf(b.id)).toBe('NEW');
    // A lookup of the same transaction afterwards is a duplicate: still one payment.
    await t.request({ method: 'GET', url: `/api/payments/${name}/return?attempt=${(await t.db.select().from(paymentAttempts).where(eq(paymentAttempts.reference, b.id)))[0]?.id ?? ''}` });
    expect(await paymentsOf(b.id)).toHaveLength(1);
    expect(await ledgerOf(b.id)).toEqual([]);
  });

  it('an amount or currency that is not the booking\'s is recorded, not paid, and given back in full; a booking of another currency is never paid in this one', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { checkoutId } = await checkout(rider, b.id);
    const short = fake.pay(checkoutId, { amountMinor: b.paidMinor - 1, currency: 'USD' });
    expect((await notify(short)).statusCode).toBe(200);
    const euros = { ...fake.pay(checkoutId, { amountMinor: b.paidMinor, currency: 'EUR' }) };
    expect((await notify(euros)).statusCode).toBe(200);
    expect(await statusOf(b.id)).toBe('PAYMENT_PENDING');
    expect((await paymentsOf(b.id)).map((p) => p.outcome)).toEqual(['mismatch', 'mismatch']);
    expect((await eventsOf(b.id)).map((e) => e.outcome)).toEqual(['mismatch', 'mismatch']);
    // Each payment is given back in full, through the provider that took it.
    const given = await t.db.select().from(refunds).where(eq(refunds.bookingId, b.id));
    expect(given.map((r) => [r.kind, r.amountMinor, r.currency, r.transactionId]).sort()).toEqual(
      [['unapplied', b.paidMinor - 1, 'USD', short.transactionId], ['unapplied', b.paidMinor, 'EUR', euros.transactionId]].sort(),
    );
    await t.runJobs();
    expect(fake.state.refunds.map((r) => [r.transactionId, r.amountMinor]).sort()).toEqual([[short.transactionId, b.paidMinor - 1], [euros.transactionId, b.paidMinor]].sort());
  });

  it('a failed payment leaves the booking payable; a new checkout pays it', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const first = await checkout(rider, b.id);
    const failed: PaymentEvent = { type: 'payment_failed', eventId: `evt_fail_${first.checkoutId}`, reference: b.id, transactionId: `pi_failed_${first.checkoutId}`, amountMinor: b.paidMinor, currency: 'USD' };
    expect((await notify(failed)).statusCode).toBe(200);
    expect(await statusOf(b.id)).toBe('PAYMENT_PENDING');
    const second = await checkout(rider, b.id);
    expect((await notify(fake.pay(second.checkoutId))).statusCode).toBe(200);
    expect(await statusOf(b.id)).toBe('NEW');
  });

  it('back from the provider, the server looks the payment up and sends the rider to the booking', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { checkoutId } = await checkout(rider, b.id);
    const attempt = (await t.db.select().from(paymentAttempts).where(eq(paymentAttempts.checkoutId, checkoutId)))[0];
    const early = await t.request({ method: 'GET', url: `/api/payments/${name}/return?attempt=${attempt?.id ?? ''}` });
    expect([early.statusCode, early.headers.location]).toEqual([303, `/bookings/${b.id}?payment=pending`]);
    fake.pay(checkoutId);
    const back = await t.request({ method: 'GET', url: `/api/payments/${name}/return?attempt=${attempt?.id ?? ''}&checkout=${checkoutId}` });
    expect([back.statusCode, back.headers.location]).toEqual([303, `/bookings/${b.id}?payment=paid`]);
    expect(await statusOf(b.id)).toBe('NEW');
    expect((await eventsOf(b.id)).map((e) => e.source)).toEqual(['lookup']);
  });

  it('a lost notification is settled by the lookup job; an attempt never paid expires after a day', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { checkoutId } = await checkout(rider, b.id);
    fake.pay(checkoutId);
    t.advance(5 * 60_000);
    await t.runJobs();
    expect(await statusOf(b.id)).toBe('NEW');
    const attemptOf = async (id: string) => (await t.db.select().from(paymentAttempts).where(eq(paymentAttempts.reference, id)))[0];
    const owner = await t.makeUser('rider');
    const later = await cardDelivery(owner);
    await checkout(owner, later.id);
    for (let hour = 0; hour < 30; hour += 1) {
      t.advance(3600_000);
      await t.runJobs();
    }
    expect((await attemptOf(later.id))?.status).toBe('expired');
    expect(await statusOf(later.id)).toBe('PAYMENT_PENDING');
  });

  it('a payment confirmed after the booking was cancelled is recorded and refunded in full through the provider', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { checkoutId } = await checkout(rider, b.id);
    const cancelled = await t.request({ method: 'POST', url: `/api/bookings/${b.id}/cancel`, as: rider, payload: { reason: 'Changed my plans' } });
    expect(cancelled.json()).toMatchObject({ status: 'CANCELLED' });
    const event = fake.pay(checkoutId);
    expect((await notify(event)).statusCode).toBe(200);
    expect(await statusOf(b.id)).toBe('CANCELLED');
    expect(await paymentsOf(b.id)).toEqual([expect.objectContaining({ outcome: 'unapplied', amountMinor: b.paidMinor })]);
    expect(await t.db.select().from(refunds).where(eq(refunds.bookingId, b.id))).toEqual([expect.objectContaining({ kind: 'unapplied', status: 'requested', amountMinor: b.paidMinor, transactionId: event.transactionId })]);
    await t.runJobs();
    expect(fake.state.refunds.filter((r) => r.transactionId === event.transactionId)).toEqual([expect.objectContaining({ amountMinor: b.paidMinor })]);
    expect((await t.db.select().from(refunds).where(and(eq(refunds.bookingId, b.id), eq(refunds.kind, 'unapplied'))))[0]?.status).toBe('succeeded');
    // Its replay refunds nothing more.
    await notify(event);
    expect(await t.db.select().from(refunds).where(eq(refunds.bookingId, b.id))).toHaveLength(1);
  });
});

describe('the registry with the real adapters configured (issue 18)', () => {
  it('lists test, stripe, paypal and braintree in that order, each with its routes; a forged notification is 400', async () => {
    const t = await createTestApp('pglite', {
      PAYMENT_TEST_PROVIDER: '1',
      STRIPE_SECRET_KEY: 'sk_test_0123456789abcdef',
      STRIPE_WEBHOOK_SECRET: 'whsec_0123456789abcdef',
      STRIPE_API_URL: 'http://127.0.0.1:9',
      PAYPAL_CLIENT_ID: 'client-id',
      PAYPAL_CLIENT_SECRET: 'client-secret',
      PAYPAL_WEBHOOK_ID: 'WH1234',
      PAYPAL_API_URL: 'http://127.0.0.1:9',
      BRAINTREE_MERCHANT_ID: 'merchant1',
      BRAINTREE_PUBLIC_KEY: 'public1',
      BRAINTREE_PRIVATE_KEY: 'private-key-1',
      BRAINTREE_API_URL: 'http://127.0.0.1:9',
    });
    try {
      const listed = (await t.request({ method: 'GET', url: '/get_providers' })).json<{ name: string; link: string }[]>();
      expect(listed).toEqual(['test', 'stripe', 'paypal', 'braintree'].map((name) => ({ name, link: `/api/payments/${name}/checkout` })));
      for (const name of ['stripe', 'paypal', 'braintree']) {
        expect(t.app.hasRoute({ method: 'POST', url: `/api/payments/${name}/checkout` }), name).toBe(true);
        expect(t.app.hasRoute({ method: 'POST', url: `/api/payments/${name}/webhook` }), name).toBe(true);
      }
      expect(t.app.hasRoute({ method: 'POST', url: '/api/payments/braintree/complete' })).toBe(true);
      const forged = await t.request({ method: 'POST', url: '/api/payments/stripe/webhook', payload: '{"id":"evt_1","type":"checkout.session.completed"}', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' } });
      expect([forged.statusCode, codeOf(forged)]).toEqual([400, 'validation_error']);
      const events = await t.db.select().from(paymentEvents);
      expect(events).toEqual([]);
      const policy = String((await t.request({ method: 'GET', url: '/api/health' })).headers['content-security-policy']);
      expect(policy).toContain('https://checkout.stripe.com');
      expect(policy).toContain('https://www.sandbox.paypal.com');
      expect(policy).toContain('script-src \'self\' https://js.braintreegateway.com');
      const providers = (await t.request({ method: 'GET', url: '/api/payments/providers', as: await t.makeUser('admin') })).json<{ providers: { name: string; webhookUrl: string | null }[] }>();
      expect(providers.providers.map((p) => [p.name, p.webhookUrl?.endsWith(`/api/payments/${p.name}/webhook`) ?? null])).toEqual([['test', null], ['stripe', true], ['paypal', true], ['braintree', true]]);
    } finally {
      await t.close();
    }
  });
});
