import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStripe, stripeSignatureHeader, type StripeStandIn } from '../../../test/stand-ins/stripe';
import { loadConfig } from '../../config';
import { NotificationSignatureError, ProviderUnavailableError, RetryableRefundError, type CheckoutRequest, type PaymentEvent, type PaymentProviderPort } from './port';
import { maskSecrets } from './stripe-errors';
import { STRIPE_CHECKOUT_PATH, STRIPE_MAX_NETWORK_RETRIES, stripeClientOptions, stripeProvider, successUrl } from './stripe';

const TIMEOUT_MS = 300;

let standIn: StripeStandIn;
let stripe: PaymentProviderPort;
const env = (extra: Record<string, string> = {}) => ({
  STRIPE_SECRET_KEY: standIn.key,
  STRIPE_WEBHOOK_SECRET: standIn.webhookSecret,
  STRIPE_API_URL: standIn.url,
  PAYMENT_TIMEOUT_MS: String(TIMEOUT_MS),
  ...extra,
});
const adapter = (extra: Record<string, string> = {}) => stripeProvider(loadConfig(env(extra)));

beforeAll(async () => {
  standIn = await startStripe();
  stripe = adapter();
});
afterAll(async () => {
  await standIn.close();
});
beforeEach(() => {
  standIn.mode = 'ok';
  standIn.requests.length = 0;
});

let serial = 0;
const checkoutRequest = (overrides: Partial<CheckoutRequest> = {}): CheckoutRequest => {
  serial += 1;
  const bookingId = `bk_${serial}`;
  return {
    purpose: { kind: 'booking', bookingId },
    reference: bookingId,
    amountMinor: 1234,
    currency: 'USD',
    description: 'Rideway trip RW-1',
    customer: { uid: 'u1', email: 'rider@example.com', firstName: 'Ada', lastName: 'Rider', mobile: '+15550100' },
    returnUrl: 'https://rideway.example/trips/1?tab=pay',
    cancelUrl: 'https://rideway.example/trips/1',
    idempotencyKey: `checkout-${serial}`,
    ...overrides,
  };
};

const lastRequest = () => standIn.requests[standIn.requests.length - 1]!;
const createCheckout = (request: CheckoutRequest) => stripe.createCheckout!(request);
const notify = (event: Record<string, unknown>, signing?: { timestamp?: number; secret?: string }) => {
  const { body, signature } = standIn.signed(event, signing);
  return stripe.parseNotification!(Buffer.from(body), { 'stripe-signature': signature, 'content-type': 'application/json' });
};
/** A checkout the rider paid on the stand-in's page: its session as Stripe holds it. */
async function paidSession(request = checkoutRequest(), card?: 'visa' | 'authenticationRequired') {
  const checkout = await createCheckout(request);
  return { request, checkout, session: standIn.completeSession(checkout.checkoutId, card) };
}
/** Every error a call throws, for the secret checks. */
const failureOf = async (call: () => Promise<unknown>): Promise<Error> => {
  try {
    await call();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
};

describe('the stripe adapter: configuration', () => {
  it('reaches STRIPE_API_URL through the SDK options protocol, host and port, with a timeout and one retry', () => {
    expect(stripeClientOptions({ STRIPE_API_URL: 'http://127.0.0.1:12111', PAYMENT_TIMEOUT_MS: 2000 })).toMatchObject({ protocol: 'http', host: '127.0.0.1', port: '12111', timeout: 2000, maxNetworkRetries: STRIPE_MAX_NETWORK_RETRIES });
    expect(stripeClientOptions({ STRIPE_API_URL: 'https://stripe-proxy.internal', PAYMENT_TIMEOUT_MS: 2000 })).toMatchObject({ protocol: 'https', host: 'stripe-proxy.internal', port: 443 });
    expect(stripeClientOptions({ STRIPE_API_URL: undefined, PAYMENT_TIMEOUT_MS: 15000 })).not.toHaveProperty('host');
  });

  it('is named stripe, starts at its own checkout path, and is in test mode with a test key only', () => {
    expect(stripe).toMatchObject({ name: 'stripe', checkoutLink: STRIPE_CHECKOUT_PATH, testMode: true });
    expect(adapter({ STRIPE_SECRET_KEY: 'sk_live_0123456789abcdef' }).testMode).toBe(false);
    // A redirect to Checkout: the form target only (the stand-in's origin when STRIPE_API_URL is set), no script.
    expect(stripe.policy).toEqual({ formAction: ['https://checkout.stripe.com', standIn.url] });
    expect(stripeProvider(loadConfig({ STRIPE_SECRET_KEY: 'sk_live_0123456789abcdef', STRIPE_WEBHOOK_SECRET: 'whsec_0123456789abcdef' })).policy).toEqual({ formAction: ['https://checkout.stripe.com'] });
  });

  it('needs the key and the webhook secret together, and never echoes a bad key', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_0123456789abcdef' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET: 'whsec_0123456789abcdef' })).toThrow(/STRIPE_SECRET_KEY/);
    const bad = 'pk_test_0123456789abcdef';
    const error = (() => {
      try {
        loadConfig({ STRIPE_SECRET_KEY: bad, STRIPE_WEBHOOK_SECRET: 'whsec_0123456789abcdef' });
      } catch (thrown) {
        return thrown as Error;
      }
      throw new Error('expected a bad configuration');
    })();
    expect(error.message).toMatch(/STRIPE_SECRET_KEY/);
    expect(error.message).not.toContain(bad);
    expect(() => loadConfig({ STRIPE_API_URL: 'http://127.0.0.1:12111/v1' })).toThrow(/STRIPE_API_URL/);
  });

  it('adds checkout={CHECKOUT_SESSION_ID} to the return URL as Stripe reads it', () => {
    expect(successUrl('https://a.example/pay')).toBe('https://a.example/pay?checkout={CHECKOUT_SESSION_ID}');
    expect(successUrl('https://a.example/pay?x=1&checkout=old#done')).toBe('https://a.example/pay?x=1&checkout={CHECKOUT_SESSION_ID}#done');
  });

  it('masks anything shaped like a key', () => {
    expect(maskSecrets('key sk_live_abc123 and whsec_xyz and rk_test_9')).toBe('key sk_live_[redacted] and whsec_[redacted] and rk_test_[redacted]');
  });
});

describe('the stripe adapter: checkout', () => {
  it('creates a Checkout Session in the smallest unit (USD cents), tied to the booking, with the idempotency key', async () => {
    const request = checkoutRequest({ amountMinor: 1234, currency: 'USD' });
    const checkout = await createCheckout(request);
    expect(checkout).toEqual({ kind: 'redirect', url: `${standIn.url}/c/pay/${checkout.checkoutId}`, checkoutId: expect.stringMatching(/^cs_test_/) });
    const seen = lastRequest();
    expect(seen).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions' });
    expect(seen.headers.authorization).toBe(`Bearer ${standIn.key}`);
    expect(seen.headers['idempotency-key']).toBe(request.idempotencyKey);
    expect(seen.headers['stripe-version']).toBe(Stripe.API_VERSION);
    expect(seen.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(seen.form)).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '1234',
      'line_items[0][price_data][product_data][name]': 'Rideway trip RW-1',
      client_reference_id: request.reference,
      'metadata[booking_id]': request.reference,
      'payment_intent_data[metadata][booking_id]': request.reference,
      customer_email: 'rider@example.com',
      success_url: 'https://rideway.example/trips/1?tab=pay&checkout={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://rideway.example/trips/1',
    });
    expect(seen.form.has('payment_intent_data[setup_future_usage]')).toBe(false);
  });

  it('counts yen whole (no minor unit) and refuses a fraction of a yen before asking Stripe', async () => {
    await createCheckout(checkoutRequest({ amountMinor: 150_000, currency: 'JPY' }));
    expect(lastRequest().form.get('line_items[0][price_data][unit_amount]')).toBe('1500');
    expect(lastRequest().form.get('line_items[0][price_data][currency]')).toBe('jpy');
    const before = standIn.requests.length;
    await expect(createCheckout(checkoutRequest({ amountMinor: 150_050, currency: 'JPY' }))).rejects.toThrow(RangeError);
    expect(standIn.requests).toHaveLength(before);
  });

  it('asks to keep the card (off_session, a Customer) when the rider saves it; a top-up carries topup_id', async () => {
    await createCheckout(checkoutRequest({ saveCard: true, purpose: { kind: 'topup', topupId: 'tu_1' }, reference: 'tu_1' }));
    expect(Object.fromEntries(lastRequest().form)).toMatchObject({
      'payment_intent_data[setup_future_usage]': 'off_session',
      customer_creation: 'always',
      'metadata[topup_id]': 'tu_1',
      'metadata[save_card]': '1',
      client_reference_id: 'tu_1',
    });
    expect(lastRequest().form.has('metadata[booking_id]')).toBe(false);
  });

  it('creates once when asked twice with the same idempotency key', async () => {
    const request = checkoutRequest();
    const first = await createCheckout(request);
    const second = await createCheckout(request);
    expect(second.checkoutId).toBe(first.checkoutId);
  });

  it('a refused key is a refusal (not unavailable) whose message holds no key', async () => {
    const wrongKey = 'sk_test_WRONGwrongWRONGwrong1234';
    const error = await failureOf(() => adapter({ STRIPE_SECRET_KEY: wrongKey }).createCheckout!(checkoutRequest()));
    expect(error).not.toBeInstanceOf(ProviderUnavailableError);
    expect(error.message).toMatch(/stripe: the API key was refused \(401\)/);
    expect(inspect(error)).not.toContain(wrongKey);
    expect(inspect(error)).not.toContain('WRONGwrong');
  });
});

describe('the stripe adapter: notifications', () => {
  it('checkout.session.completed, paid: pays the booking with the payment intent, in our minor units', async () => {
    const { request, session } = await paidSession();
    const event = standIn.event('checkout.session.completed', session);
    await expect(notify(event)).resolves.toEqual({ type: 'payment_succeeded', eventId: event.id, reference: request.reference, transactionId: session.payment_intent, amountMinor: 1234, currency: 'USD' });
  });

  it('converts yen back to hundredths', async () => {
    const { session } = await paidSession(checkoutRequest({ amountMinor: 150_000, currency: 'JPY' }));
    await expect(notify(standIn.event('checkout.session.completed', session))).resolves.toMatchObject({ type: 'payment_succeeded', amountMinor: 150_000, currency: 'JPY' });
  });

  it('reads the saved card (brand, last4, expiry, customer) from the payment intent when the rider kept it', async () => {
    const { session } = await paidSession(checkoutRequest({ saveCard: true }));
    standIn.requests.length = 0;
    const parsed = await notify(standIn.event('checkout.session.completed', session));
    const intent = standIn.paymentIntent(session.payment_intent as string)!;
    expect(parsed).toMatchObject({
      type: 'payment_succeeded',
      savedCard: { customerId: intent.customer, paymentMethodId: intent.payment_method, brand: 'visa', last4: '4242', expMonth: 12, expYear: expect.any(Number) },
    });
    expect(standIn.requests).toHaveLength(1);
    expect(lastRequest()).toMatchObject({ method: 'GET', path: `/v1/payment_intents/${String(session.payment_intent)}` });
    expect(lastRequest().query.get('expand[0]')).toBe('payment_method');
  });

  it('checkout.session.completed, unpaid (a delayed method): pending; async_payment_failed: failed', async () => {
    const { checkout, request } = await paidSession();
    const unpaid = { ...standIn.session(checkout.checkoutId)!, payment_status: 'unpaid' };
    await expect(notify(standIn.event('checkout.session.completed', unpaid))).resolves.toMatchObject({ type: 'payment_pending', reference: request.reference });
    await expect(notify(standIn.event('checkout.session.async_payment_failed', unpaid))).resolves.toMatchObject({ type: 'payment_failed', reference: request.reference, amountMinor: 1234 });
    await expect(notify(standIn.event('checkout.session.async_payment_succeeded', standIn.session(checkout.checkoutId)!))).resolves.toMatchObject({ type: 'payment_succeeded' });
  });

  it('payment_intent.payment_failed: failed, named by the metadata the checkout gave the payment intent', async () => {
    const card = { ...standIn.savedCard('declined'), brand: 'visa', last4: '0002', expMonth: 12, expYear: 2030 };
    const request = checkoutRequest();
    await stripe.chargeSavedCard!(card, request);
    const intent = standIn.latestPaymentIntent()!;
    expect(intent.status).toBe('requires_payment_method');
    const event = standIn.event('payment_intent.payment_failed', intent);
    await expect(notify(event)).resolves.toEqual({ type: 'payment_failed', eventId: event.id, reference: request.reference, transactionId: intent.id, amountMinor: 1234, currency: 'USD' });
  });

  it('charge.refunded: the refund just made, by its own amount and id', async () => {
    const { session } = await paidSession();
    const first = await stripe.refund({ transactionId: session.payment_intent as string, amountMinor: 200, currency: 'USD', idempotencyKey: `r-${serial}-a` });
    const second = await stripe.refund({ transactionId: session.payment_intent as string, amountMinor: 300, currency: 'USD', idempotencyKey: `r-${serial}-b` });
    const charge = standIn.charge(standIn.paymentIntent(session.payment_intent as string)!.latest_charge as string)!;
    const event = standIn.event('charge.refunded', { ...charge }, { amount_refunded: 200 });
    await expect(notify(event)).resolves.toEqual({
      type: 'refund_succeeded',
      eventId: event.id,
      transactionId: session.payment_intent,
      providerRefundId: second.status === 'succeeded' ? second.providerRefundId : '',
      amountMinor: 300,
      currency: 'USD',
    });
    expect(lastRequest()).toMatchObject({ method: 'GET', path: '/v1/refunds' });
    expect(lastRequest().query.get('charge')).toBe(charge.id);
    const earlier = standIn.event('charge.refunded', { ...charge, amount_refunded: 200 }, { amount_refunded: 0 });
    await expect(notify(earlier)).resolves.toMatchObject({ providerRefundId: first.status === 'succeeded' ? first.providerRefundId : '', amountMinor: 200 });
  });

  it('charge.dispute.created: a dispute on the payment intent; any other type is ignored', async () => {
    const dispute = { id: 'dp_1', object: 'dispute', amount: 1234, currency: 'usd', reason: 'fraudulent', status: 'needs_response', charge: 'ch_1', payment_intent: 'pi_1' };
    const event = standIn.event('charge.dispute.created', dispute);
    await expect(notify(event)).resolves.toEqual({ type: 'dispute_opened', eventId: event.id, transactionId: 'pi_1', amountMinor: 1234, currency: 'USD', reason: 'fraudulent' });
    const other = standIn.event('customer.created', { id: 'cus_1', object: 'customer' });
    await expect(notify(other)).resolves.toEqual({ type: 'ignored', eventId: other.id, providerType: 'customer.created' });
  });

  it('refuses a bad signature, a changed body, a missing header and a stale timestamp (over 300 s)', async () => {
    const { session } = await paidSession();
    const event = standIn.event('checkout.session.completed', session);
    await expect(notify(event, { secret: 'whsec_someoneElsesSecret' })).rejects.toBeInstanceOf(NotificationSignatureError);
    await expect(notify(event, { timestamp: Math.floor(Date.now() / 1000) - 600 })).rejects.toBeInstanceOf(NotificationSignatureError);
    const { body, signature } = standIn.signed(event);
    await expect(stripe.parseNotification!(Buffer.from(body.replace('"paid"', '"unpaid"')), { 'stripe-signature': signature })).rejects.toBeInstanceOf(NotificationSignatureError);
    await expect(stripe.parseNotification!(Buffer.from(body), {})).rejects.toBeInstanceOf(NotificationSignatureError);
    await expect(notify(event)).resolves.toMatchObject({ type: 'payment_succeeded' });
  });

  it("the stand-in signs exactly as Stripe's SDK does", () => {
    const payload = JSON.stringify({ id: 'evt_1', object: 'event' });
    expect(stripeSignatureHeader(payload, 'whsec_abc', 1_700_000_000)).toBe(Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_abc', timestamp: 1_700_000_000 }));
  });

  it('a verified event of a malformed shape is unavailable (Stripe sends it again), never a guess', async () => {
    await expect(notify(standIn.event('checkout.session.completed', { id: 'cs_test_x', object: 'checkout.session' }))).rejects.toBeInstanceOf(ProviderUnavailableError);
  });
});

describe('the stripe adapter: lookup', () => {
  it('open: nothing yet; paid: succeeded, with the session and its payment intent expanded; expired: failed', async () => {
    const request = checkoutRequest({ saveCard: true });
    const checkout = await createCheckout(request);
    await expect(stripe.lookup!(checkout.checkoutId)).resolves.toBeUndefined();
    expect(lastRequest()).toMatchObject({ method: 'GET', path: `/v1/checkout/sessions/${checkout.checkoutId}` });
    expect([lastRequest().query.get('expand[0]'), lastRequest().query.get('expand[1]')]).toEqual(['payment_intent', 'payment_intent.payment_method']);

    const session = standIn.completeSession(checkout.checkoutId);
    standIn.requests.length = 0;
    await expect(stripe.lookup!(checkout.checkoutId)).resolves.toMatchObject({
      type: 'payment_succeeded',
      eventId: `${checkout.checkoutId}:payment_succeeded`,
      reference: request.reference,
      transactionId: session.payment_intent,
      amountMinor: 1234,
      savedCard: { brand: 'visa', last4: '4242' },
    });
    expect(standIn.requests).toHaveLength(1);

    const other = await createCheckout(checkoutRequest());
    standIn.expireSession(other.checkoutId);
    await expect(stripe.lookup!(other.checkoutId)).resolves.toMatchObject({ type: 'payment_failed', eventId: `${other.checkoutId}:expired` });
  });

  it('an unknown session is refused (404), not unavailable', async () => {
    const error = await failureOf(() => stripe.lookup!('cs_test_nope'));
    expect(error).not.toBeInstanceOf(ProviderUnavailableError);
    expect(error.message).toMatch(/404 resource_missing/);
  });
});

describe('the stripe adapter: card on file', () => {
  it('charges a saved card off-session: customer, payment method, off_session, confirm, the idempotency key', async () => {
    const card = { ...standIn.savedCard('visa'), brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 };
    const request = checkoutRequest({ amountMinor: 2500 });
    const charge = await stripe.chargeSavedCard!(card, request);
    const seen = lastRequest();
    expect(seen).toMatchObject({ method: 'POST', path: '/v1/payment_intents' });
    expect(seen.headers['idempotency-key']).toBe(request.idempotencyKey);
    expect(Object.fromEntries(seen.form)).toMatchObject({
      amount: '2500',
      currency: 'usd',
      customer: card.customerId,
      payment_method: card.paymentMethodId,
      off_session: 'true',
      confirm: 'true',
      'metadata[booking_id]': request.reference,
    });
    expect(charge).toEqual({
      status: 'succeeded',
      event: { type: 'payment_succeeded', eventId: expect.stringMatching(/^pi_\w+:succeeded$/), reference: request.reference, transactionId: expect.stringMatching(/^pi_/), amountMinor: 2500, currency: 'USD' },
    });
    // The same charge asked again (a retry after a crash) is the same payment intent.
    const again = await stripe.chargeSavedCard!(card, request);
    expect(again).toEqual(charge);
    // Its outcome can be looked up by the payment intent's id.
    // (port.ts types `event` as never today: read it as the PaymentEvent it is.)
    const { transactionId } = (charge as { event: { transactionId: string } }).event;
    await expect(stripe.lookup!(transactionId)).resolves.toMatchObject({ type: 'payment_succeeded', transactionId });
  });

  it('a bank that asks for authentication: requires_action (the rider gets Pay now); a declined card: failed', async () => {
    const saved = (kind: 'authenticationRequired' | 'declined') => ({ ...standIn.savedCard(kind), brand: 'visa', last4: '0000', expMonth: 1, expYear: 2030 });
    await expect(stripe.chargeSavedCard!(saved('authenticationRequired'), checkoutRequest())).resolves.toEqual({ status: 'requires_action' });
    await expect(stripe.chargeSavedCard!(saved('declined'), checkoutRequest())).resolves.toEqual({ status: 'failed', reason: 'card_declined: generic_decline' });
  });

  it('a card saved through Checkout with 3184 pays on the page, then asks for authentication off-session', async () => {
    const { session } = await paidSession(checkoutRequest({ saveCard: true }), 'authenticationRequired');
    const parsed = await notify(standIn.event('checkout.session.completed', session));
    if (parsed.type !== 'payment_succeeded' || !parsed.savedCard) throw new Error('expected a saved card');
    expect(parsed.savedCard.last4).toBe('3184');
    await expect(stripe.chargeSavedCard!(parsed.savedCard, checkoutRequest())).resolves.toEqual({ status: 'requires_action' });
  });

  it('removes a saved card by detaching it; a card already gone is removed too', async () => {
    const card = { ...standIn.savedCard('visa'), brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 };
    await stripe.removeSavedCard!(card);
    expect(lastRequest()).toMatchObject({ method: 'POST', path: `/v1/payment_methods/${card.paymentMethodId}/detach` });
    await expect(stripe.removeSavedCard!(card)).resolves.toBeUndefined();
    // A detached card can no longer be charged: failed, nothing taken.
    await expect(stripe.chargeSavedCard!(card, checkoutRequest())).resolves.toMatchObject({ status: 'failed' });
  });
});

describe('the stripe adapter: refunds', () => {
  it('refunds in part, then the rest, each once per idempotency key; then there is nothing left to refund', async () => {
    const { session } = await paidSession(checkoutRequest({ amountMinor: 1000 }));
    const transactionId = session.payment_intent as string;
    const part = await stripe.refund({ transactionId, amountMinor: 400, currency: 'USD', idempotencyKey: `refund-${serial}-1` });
    expect(part).toEqual({ status: 'succeeded', providerRefundId: expect.stringMatching(/^re_/) });
    expect(lastRequest().headers['idempotency-key']).toBe(`refund-${serial}-1`);
    expect(Object.fromEntries(lastRequest().form)).toEqual({ payment_intent: transactionId, amount: '400' });
    await expect(stripe.refund({ transactionId, amountMinor: 400, currency: 'USD', idempotencyKey: `refund-${serial}-1` })).resolves.toEqual(part);
    await expect(stripe.refund({ transactionId, amountMinor: 700, currency: 'USD', idempotencyKey: `refund-${serial}-2` })).resolves.toEqual({ status: 'failed', reason: 'amount_too_large' });
    await expect(stripe.refund({ transactionId, amountMinor: 600, currency: 'USD', idempotencyKey: `refund-${serial}-3` })).resolves.toMatchObject({ status: 'succeeded' });
    await expect(stripe.refund({ transactionId, amountMinor: 100, currency: 'USD', idempotencyKey: `refund-${serial}-4` })).resolves.toEqual({ status: 'failed', reason: 'charge_already_refunded' });
  });

  it('refunds in full, in yen', async () => {
    const { session } = await paidSession(checkoutRequest({ amountMinor: 150_000, currency: 'JPY' }));
    await expect(stripe.refund({ transactionId: session.payment_intent as string, amountMinor: 150_000, currency: 'JPY', idempotencyKey: `refund-${serial}-jpy` })).resolves.toMatchObject({ status: 'succeeded' });
    expect(lastRequest().form.get('amount')).toBe('1500');
  });
});

describe('the stripe adapter when Stripe does not answer as documented', () => {
  it('a timeout: checkout and lookup unavailable, a refund retryable', async () => {
    standIn.mode = 'hang';
    const started = Date.now();
    await expect(createCheckout(checkoutRequest())).rejects.toBeInstanceOf(ProviderUnavailableError);
    expect(Date.now() - started).toBeLessThan(5000);
    await expect(stripe.lookup!('cs_test_any')).rejects.toThrow(/timeout/);
    await expect(stripe.refund({ transactionId: 'pi_1', amountMinor: 100, currency: 'USD', idempotencyKey: 'hang-1' })).rejects.toBeInstanceOf(RetryableRefundError);
    await expect(stripe.chargeSavedCard!({ customerId: 'cus_1', paymentMethodId: 'pm_1', brand: 'visa', last4: '4242', expMonth: 1, expYear: 2030 }, checkoutRequest())).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it('a 5xx (Stripe JSON or a proxy page) and a 429: unavailable (a 5xx after one retry with the same idempotency key); a refund retryable', async () => {
    // The SDK retries a 5xx, a 409 and a lost connection; a 429 only when Stripe says Stripe-Should-Retry.
    for (const [mode, asked] of [['fail', 1 + STRIPE_MAX_NETWORK_RETRIES], ['unavailable', 1 + STRIPE_MAX_NETWORK_RETRIES], ['rateLimited', 1]] as const) {
      standIn.mode = mode;
      standIn.requests.length = 0;
      const request = checkoutRequest();
      await expect(createCheckout(request)).rejects.toBeInstanceOf(ProviderUnavailableError);
      expect(standIn.requests).toHaveLength(asked);
      expect(standIn.requests.map((seen) => seen.headers['idempotency-key'])).toEqual(standIn.requests.map(() => request.idempotencyKey));
      await expect(stripe.refund({ transactionId: 'pi_1', amountMinor: 100, currency: 'USD', idempotencyKey: `${mode}-1` })).rejects.toBeInstanceOf(RetryableRefundError);
    }
  });

  it('a malformed answer (cut short, or another object): unavailable; a refund retryable', async () => {
    for (const mode of ['garbage', 'wrongShape'] as const) {
      standIn.mode = mode;
      await expect(createCheckout(checkoutRequest())).rejects.toBeInstanceOf(ProviderUnavailableError);
      await expect(stripe.lookup!('cs_test_any')).rejects.toBeInstanceOf(ProviderUnavailableError);
      await expect(stripe.refund({ transactionId: 'pi_1', amountMinor: 100, currency: 'USD', idempotencyKey: `${mode}-1` })).rejects.toBeInstanceOf(RetryableRefundError);
    }
  });

  it('no error or refusal carries the secret key, even when a proxy echoes it', async () => {
    const outcomes: unknown[] = [];
    const settle = async (call: () => Promise<unknown>) => outcomes.push(await call().catch((error: unknown) => error));
    for (const mode of ['leaky', 'fail', 'garbage', 'rateLimited'] as const) {
      standIn.mode = mode;
      await settle(() => createCheckout(checkoutRequest()));
      await settle(() => stripe.lookup!('cs_test_any'));
      await settle(() => stripe.refund({ transactionId: 'pi_1', amountMinor: 100, currency: 'USD', idempotencyKey: `${mode}-secret` }));
      await settle(() => stripe.chargeSavedCard!({ customerId: 'cus_1', paymentMethodId: 'pm_1', brand: 'visa', last4: '4242', expMonth: 1, expYear: 2030 }, checkoutRequest()));
    }
    const texts = outcomes.map((outcome) => `${inspect(outcome, { depth: 10 })} ${JSON.stringify(outcome)}`);
    expect(texts.some((text) => text.includes('sk_test_[redacted]'))).toBe(true);
    for (const text of texts) {
      expect(text).not.toContain(standIn.key);
      expect(text).not.toContain(standIn.key.slice('sk_test_'.length));
      expect(text).not.toContain(standIn.webhookSecret);
    }
  });
});

describe("the stripe stand-in's hosted page (for browser tests)", () => {
  it('a declined card stays on the page; a good card pays, posts the signed event to the webhook, and returns to success_url', async () => {
    const received: Promise<PaymentEvent>[] = [];
    const webhook = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push(stripe.parseNotification!(Buffer.concat(chunks), request.headers));
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
    standIn.webhookUrl = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/api/payments/stripe/webhook`;
    try {
      const request = checkoutRequest();
      const checkout = await createCheckout(request);
      if (checkout.kind !== 'redirect') throw new Error('expected a redirect');
      const page = await fetch(checkout.url);
      expect(await page.text()).toContain('Pay');
      const declined = await fetch(checkout.url, { method: 'POST', body: new URLSearchParams({ card: '4000 0000 0000 0002' }), redirect: 'manual' });
      expect(declined.status).toBe(402);
      expect(standIn.session(checkout.checkoutId)).toMatchObject({ status: 'open' });
      const paid = await fetch(checkout.url, { method: 'POST', body: new URLSearchParams({ card: '4242 4242 4242 4242' }), redirect: 'manual' });
      expect(paid.status).toBe(303);
      expect(paid.headers.get('location')).toBe(`https://rideway.example/trips/1?tab=pay&checkout=${checkout.checkoutId}`);
      const events = await Promise.all(received);
      expect(events.map((event) => event.type)).toEqual(['payment_failed', 'payment_succeeded']);
      expect(events[1]).toMatchObject({ reference: request.reference, amountMinor: 1234, currency: 'USD' });
    } finally {
      delete standIn.webhookUrl;
      webhook.closeAllConnections();
      await new Promise<void>((resolve) => webhook.close(() => { resolve(); }));
    }
  });
});
