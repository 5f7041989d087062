import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startLiqpay, type LiqpayStandIn } from '../../../test/stand-ins/liqpay';
import { loadConfig } from '../../config';
import { liqpayCheckoutOrigins, liqpayEncode, liqpayProvider } from './liqpay';
import { NotificationSignatureError, ProviderUnavailableError, RetryableRefundError, type Checkout, type CheckoutRequest, type PaymentProviderPort } from './port';
import { failureLog } from './adapter-test-kit';

/** Short on purpose: a hanging stand-in must fail fast on a loaded machine, never wait for the 15 s default. */
const TIMEOUT_MS = 400;

let standIn: LiqpayStandIn;
let live: LiqpayStandIn;
let liqpay: PaymentProviderPort;
const { messages, failure, key } = failureLog();

const adapter = (on: LiqpayStandIn) => liqpayProvider(loadConfig({ LIQPAY_PUBLIC_KEY: on.publicKey, LIQPAY_PRIVATE_KEY: on.privateKey, LIQPAY_API_URL: on.apiUrl, PAYMENT_TIMEOUT_MS: String(TIMEOUT_MS) }));

const checkoutRequest = (overrides: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
  purpose: { kind: 'booking', bookingId: 'b-1001' },
  reference: 'b-1001',
  amountMinor: 123_456,
  currency: 'UAH',
  description: 'Rideway booking 1001',
  customer: { uid: 'u-1', email: 'rider@example.com', firstName: 'Olena', lastName: 'Koval', mobile: '+380501234567' },
  returnUrl: 'https://rideway.test/api/payments/liqpay/return?attempt=a-1',
  cancelUrl: 'https://rideway.test/api/payments/liqpay/return?attempt=a-1&cancelled=1',
  idempotencyKey: key(),
  ...overrides,
});

/** The browser's form post to the stand-in's checkout, as the auto-posting page sends it. */
async function postForm(checkout: Checkout): Promise<Response> {
  if (checkout.kind !== 'form') throw new Error('not a form checkout');
  return fetch(checkout.action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(checkout.fields).toString() });
}

/** A checkout posted to the stand-in and settled there (or left open): its order_id. */
async function payment(on: LiqpayStandIn, provider: PaymentProviderPort, overrides: Partial<CheckoutRequest> = {}, outcome: 'paid' | 'declined' | false = 'paid') {
  const checkout = await provider.createCheckout!(checkoutRequest(overrides));
  expect((await postForm(checkout)).status).toBe(200);
  if (outcome) on.settle(checkout.checkoutId, outcome);
  return checkout.checkoutId;
}

beforeAll(async () => {
  standIn = await startLiqpay();
  live = await startLiqpay({ sandbox: false });
  liqpay = adapter(standIn);
});
beforeEach(() => {
  standIn.mode = 'ok';
});
afterAll(async () => {
  await standIn.close();
  await live.close();
  // No error the adapter gave carries the private key.
  for (const message of messages) expect(message).not.toContain(standIn.privateKey);
});

describe('LiqPay adapter (issue 22)', () => {
  it('makes the documented checkout form: data (base64 JSON) and its sha1 signature, posted to /3/checkout', async () => {
    const request = checkoutRequest();
    const checkout = await liqpay.createCheckout!(request);
    const orderId = `b-1001.${request.idempotencyKey}`;
    expect(checkout).toEqual({ kind: 'form', action: `${standIn.apiUrl}/3/checkout`, fields: { data: expect.any(String), signature: standIn.sign(checkout.kind === 'form' ? (checkout.fields.data ?? '') : '') }, checkoutId: orderId });
    const data = JSON.parse(Buffer.from(checkout.kind === 'form' ? (checkout.fields.data ?? '') : '', 'base64').toString('utf8')) as Record<string, unknown>;
    expect(data).toMatchObject({
      version: 3,
      public_key: standIn.publicKey,
      action: 'pay',
      amount: 1234.56,
      currency: 'UAH',
      order_id: orderId,
      result_url: request.returnUrl,
      server_url: 'https://rideway.test/api/payments/liqpay/webhook',
      sender_first_name: 'Olena',
      sender_last_name: 'Koval',
      customer: 'u-1',
      sandbox: 1,
    });
    expect(JSON.stringify(data)).not.toContain(standIn.privateKey);
    // The stand-in takes it (its signature verifies) and shows the amount.
    expect(await (await postForm(checkout)).text()).toContain('1234.56 UAH');
    // No call to LiqPay was needed to start it.
    expect(standIn.requests.filter((seen) => seen.path === '/api/request')).toEqual([]);
  });

  it('a currency LiqPay does not take is refused before anything is sent', async () => {
    expect(await failure(liqpay.createCheckout!(checkoutRequest({ currency: 'GBP' })))).not.toBeInstanceOf(ProviderUnavailableError);
    expect(liqpay.currencies).toEqual(['UAH', 'USD', 'EUR']);
  });

  it('looks up a paid order (sandbox with sandbox keys), a declined one, an open one and an unknown one', async () => {
    const paid = await payment(standIn, liqpay);
    expect(await liqpay.lookup!(paid)).toEqual({ type: 'payment_succeeded', eventId: `order:${paid}:payment_succeeded`, reference: 'b-1001', transactionId: paid, amountMinor: 123_456, currency: 'UAH' });
    const seen = standIn.requests.filter((request) => request.path === '/api/request').at(-1);
    expect(seen?.params).toMatchObject({ action: 'status', version: 3, public_key: standIn.publicKey, order_id: paid });
    const declined = await payment(standIn, liqpay, {}, 'declined');
    expect(await liqpay.lookup!(declined)).toMatchObject({ type: 'payment_failed', transactionId: declined });
    expect(await liqpay.lookup!(await payment(standIn, liqpay, {}, false))).toBeUndefined();
    expect(await liqpay.lookup!('b-9.nothing')).toBeUndefined();
  });

  it("live keys: `success` is paid, a `sandbox` payment is not (no money moved)", async () => {
    const provider = adapter(live);
    expect(provider.testMode).toBe(false);
    const paid = await payment(live, provider);
    expect(live.payments.get(paid)?.status).toBe('success');
    expect(await provider.lookup!(paid)).toMatchObject({ type: 'payment_succeeded' });
    const fake = await payment(live, provider, {}, false);
    const stored = live.payments.get(fake);
    if (stored) stored.status = 'sandbox';
    expect(await provider.lookup!(fake)).toMatchObject({ type: 'payment_failed' });
  });

  it.each(['hang', 'fail', 'garbage', 'wrongShape'] as const)('LiqPay %s: the lookup answers ProviderUnavailableError, quickly', async (mode) => {
    const paid = await payment(standIn, liqpay);
    standIn.mode = mode;
    const started = Date.now();
    expect(await failure(liqpay.lookup!(paid))).toBeInstanceOf(ProviderUnavailableError);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 2000);
  });

  it("verifies a callback's signature, then asks LiqPay itself (status) for the money", async () => {
    const paid = await payment(standIn, liqpay);
    const asked = standIn.requests.length;
    expect(await liqpay.parseNotification!(Buffer.from(standIn.callbackBody(paid)), {})).toMatchObject({ type: 'payment_succeeded', eventId: `order:${paid}:payment_succeeded`, reference: 'b-1001', transactionId: paid, amountMinor: 123_456 });
    expect(standIn.requests.slice(asked).map((seen) => seen.params?.action)).toEqual(['status']);
  });

  it("a signed callback's own figures are not believed: the status answer's are", async () => {
    const paid = await payment(standIn, liqpay);
    expect(await liqpay.parseNotification!(Buffer.from(standIn.callbackBody(paid, { amount: 1, currency: 'USD' })), {})).toMatchObject({ amountMinor: 123_456, currency: 'UAH' });
  });

  it('a callback whose data or signature was altered, signed with another key, or unsigned is NotificationSignatureError, and LiqPay is not asked', async () => {
    const paid = await payment(standIn, liqpay);
    const form = new URLSearchParams(standIn.callbackBody(paid));
    const data = form.get('data') ?? '';
    const signature = form.get('signature') ?? '';
    const altered = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as object, amount: 1 })).toString('base64');
    const other = liqpayEncode('sandbox_0123456789abcdef0123', JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as Record<string, unknown>);
    const flipped = `${signature.slice(0, 5)}${signature[5] === 'A' ? 'B' : 'A'}${signature.slice(6)}`;
    const before = standIn.requests.length;
    for (const body of [
      new URLSearchParams({ data: altered, signature }),
      new URLSearchParams({ data, signature: flipped }),
      new URLSearchParams(other),
      new URLSearchParams({ data }),
      new URLSearchParams({ data, signature: 'short' }),
      new URLSearchParams({ signature }),
    ]) {
      expect(await failure(liqpay.parseNotification!(Buffer.from(body.toString()), {}))).toBeInstanceOf(NotificationSignatureError);
    }
    expect(standIn.requests.length).toBe(before);
  });

  it('a callback LiqPay cannot confirm now is ProviderUnavailableError (it is sent again); a refund callback or a foreign order is ignored', async () => {
    const paid = await payment(standIn, liqpay);
    standIn.mode = 'fail';
    expect(await failure(liqpay.parseNotification!(Buffer.from(standIn.callbackBody(paid)), {}))).toBeInstanceOf(ProviderUnavailableError);
    standIn.mode = 'ok';
    expect(await liqpay.parseNotification!(Buffer.from(standIn.callbackBody(paid, { status: 'reversed' })), {})).toMatchObject({ type: 'ignored', providerType: 'pay.reversed' });
    expect(await liqpay.parseNotification!(Buffer.from(standIn.callbackBody(paid, { order_id: 'someone-elses' })), {})).toMatchObject({ type: 'ignored' });
  });

  it('refunds in part then the rest by order_id; a full refund asked again after LiqPay reversed it is not made twice', async () => {
    const paid = await payment(standIn, liqpay);
    expect(await liqpay.refund({ transactionId: paid, amountMinor: 20_000, currency: 'UAH', idempotencyKey: key() })).toMatchObject({ status: 'succeeded' });
    expect(standIn.requests.filter((seen) => seen.params?.action === 'refund').at(-1)?.params).toMatchObject({ order_id: paid, amount: 200 });
    expect(standIn.payments.get(paid)).toMatchObject({ refunded: 200, status: 'sandbox' });
    const rest = { transactionId: paid, amountMinor: 103_456, currency: 'UAH', idempotencyKey: key() };
    expect(await liqpay.refund(rest)).toMatchObject({ status: 'succeeded' });
    expect(standIn.payments.get(paid)?.status).toBe('reversed');
    const refunds = standIn.requests.filter((seen) => seen.params?.action === 'refund').length;
    // The whole payment asked again once LiqPay reports it reversed: no second refund.
    expect(await liqpay.refund({ ...rest, amountMinor: 123_456 })).toMatchObject({ status: 'succeeded' });
    expect(standIn.requests.filter((seen) => seen.params?.action === 'refund')).toHaveLength(refunds);
    // More than is left, another currency, an unknown order: refused for good.
    const other = await payment(standIn, liqpay);
    expect(await liqpay.refund({ transactionId: other, amountMinor: 200_000, currency: 'UAH', idempotencyKey: key() })).toMatchObject({ status: 'failed' });
    expect(await liqpay.refund({ transactionId: other, amountMinor: 100, currency: 'USD', idempotencyKey: key() })).toMatchObject({ status: 'failed' });
    expect(await liqpay.refund({ transactionId: 'b-9.none', amountMinor: 100, currency: 'UAH', idempotencyKey: key() })).toMatchObject({ status: 'failed' });
  });

  it.each(['hang', 'fail', 'garbage', 'wrongShape'] as const)('a refund while LiqPay is %s is RetryableRefundError, and nothing is refunded', async (mode) => {
    const paid = await payment(standIn, liqpay);
    standIn.mode = mode;
    expect(await failure(liqpay.refund({ transactionId: paid, amountMinor: 100, currency: 'UAH', idempotencyKey: key() }))).toBeInstanceOf(RetryableRefundError);
    standIn.mode = 'ok';
    expect(standIn.payments.get(paid)?.refunded).toBe(0);
  });

  it('names its test mode and its checkout origins', () => {
    expect(liqpay.testMode).toBe(true);
    expect(liqpayCheckoutOrigins({ LIQPAY_API_URL: undefined })).toEqual(['https://www.liqpay.ua']);
    expect(liqpay.policy?.formAction).toEqual(['https://www.liqpay.ua', standIn.url]);
  });

  it('refuses a configuration with one key, or a sandbox key beside a live one', () => {
    expect(() => loadConfig({ LIQPAY_PUBLIC_KEY: 'i12345678' })).toThrow(/LIQPAY_PRIVATE_KEY/);
    expect(() => loadConfig({ LIQPAY_PUBLIC_KEY: 'sandbox_i12345678', LIQPAY_PRIVATE_KEY: '0123456789abcdef0123' })).toThrow(/sandbox/);
    expect(() => loadConfig({ LIQPAY_API_URL: 'http://127.0.0.1:1/api' })).toThrow(/LIQPAY_PUBLIC_KEY/);
  });
});
