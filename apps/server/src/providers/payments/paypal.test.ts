import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPaypal, type PaypalStandIn } from '../../../test/stand-ins/paypal';
import { loadConfig } from '../../config';
import { paypalCheckoutOrigins, PaypalOrderNotApprovedError, paypalProvider, PaypalRefusalError } from './paypal';
import { PaypalCredentialsError } from './paypal-client';
import { NotificationSignatureError, ProviderUnavailableError, RetryableRefundError, type CheckoutRequest, type PaymentProviderPort } from './port';
import { failureLog } from './adapter-test-kit';

const TIMEOUT_MS = 400;

let standIn: PaypalStandIn;
let paypal: PaymentProviderPort;
/** Every error message the adapter gave, checked for the secret at the end. */
const { messages, failure } = failureLog();

const env = (extra: Record<string, string> = {}) => ({
  PAYPAL_CLIENT_ID: standIn.clientId,
  PAYPAL_CLIENT_SECRET: standIn.clientSecret,
  PAYPAL_WEBHOOK_ID: standIn.webhookId,
  PAYPAL_API_URL: standIn.url,
  PAYMENT_TIMEOUT_MS: String(TIMEOUT_MS),
  ...extra,
});
const adapter = (extra: Record<string, string> = {}) => paypalProvider(loadConfig(env(extra)));

/** The error a promise rejects with (recorded for the secret check). */
let keys = 0;
const key = () => `idem-${String(++keys)}-${Date.now()}`;

const checkoutRequest = (overrides: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
  purpose: { kind: 'booking', bookingId: 'b-1001' },
  reference: 'b-1001',
  amountMinor: 1234,
  currency: 'USD',
  description: 'Rideway booking 1001',
  customer: { uid: 'u-1', email: 'rider@example.com', firstName: 'Ada', lastName: 'Lovelace', mobile: '+15550100' },
  returnUrl: 'https://rideway.test/api/payments/paypal/return?booking=b-1001',
  cancelUrl: 'https://rideway.test/pay/b-1001?cancelled=1',
  idempotencyKey: key(),
  ...overrides,
});

const requestsTo = (path: string | RegExp) => standIn.requests.filter((request) => (typeof path === 'string' ? request.path === path : path.test(request.path)));
const lastTo = (path: string | RegExp) => requestsTo(path).at(-1)!;

/** An order created through the adapter, approved by the payer (or not). */
async function order(overrides: Partial<CheckoutRequest> = {}, approve: Parameters<PaypalStandIn['approve']>[1] | false = 'COMPLETED') {
  const checkout = await paypal.createCheckout!(checkoutRequest(overrides));
  if (approve) standIn.approve(checkout.checkoutId, approve);
  return checkout.checkoutId;
}

/** A captured order: its capture id. */
async function captured(overrides: Partial<CheckoutRequest> = {}) {
  const orderId = await order(overrides);
  const event = await paypal.complete!(orderId, {}, key());
  if (event.type !== 'payment_succeeded') throw new Error(`not captured: ${event.type}`);
  return { orderId, captureId: event.transactionId };
}

beforeAll(async () => {
  standIn = await startPaypal();
  paypal = adapter();
});
afterAll(async () => {
  await standIn.close();
  expect(messages.length).toBeGreaterThan(10);
  const basic = Buffer.from(`${standIn.clientId}:${standIn.clientSecret}`).toString('base64');
  for (const message of messages) {
    expect(message).not.toContain(standIn.clientSecret);
    expect(message).not.toContain(basic);
  }
});
beforeEach(() => {
  standIn.mode = 'ok';
  delete standIn.modeOnly;
});

describe('the paypal adapter: configuration', () => {
  it('needs the client id, the secret and the webhook id together; sandbox by default', () => {
    expect(() => loadConfig({ PAYPAL_CLIENT_ID: 'abc' })).toThrow(/PAYPAL_CLIENT_SECRET: required.*PAYPAL_WEBHOOK_ID: required/);
    expect(() => loadConfig({ PAYPAL_CLIENT_ID: 'abc', PAYPAL_CLIENT_SECRET: 'def' })).toThrow(/PAYPAL_WEBHOOK_ID: required/);
    expect(() => loadConfig({ PAYPAL_WEBHOOK_ID: 'not an id!' })).toThrow(/PAYPAL_WEBHOOK_ID/);
    expect(() => loadConfig({ PAYPAL_ENVIRONMENT: 'production' })).toThrow(/PAYPAL_ENVIRONMENT/);
    const config = loadConfig({ PAYPAL_CLIENT_ID: 'abc', PAYPAL_CLIENT_SECRET: 'a-secret-never-shown', PAYPAL_WEBHOOK_ID: '8PT597110X687430LKGECATA' });
    expect(config.PAYPAL_ENVIRONMENT).toBe('sandbox');
    const port = paypalProvider(config);
    expect(port).toMatchObject({ name: 'paypal', checkoutLink: '/api/payments/paypal/checkout', testMode: true });
    expect(port.chargeSavedCard).toBeUndefined();
    expect(paypalProvider(loadConfig({ ...env(), PAYPAL_ENVIRONMENT: 'live' })).testMode).toBe(false);
  });

  it("names PayPal's hosted pages for the security policy", () => {
    expect(paypalCheckoutOrigins(loadConfig({ PAYPAL_ENVIRONMENT: 'live' }))).toEqual(['https://www.paypal.com']);
    expect(paypalCheckoutOrigins(loadConfig({}))).toEqual(['https://www.sandbox.paypal.com']);
    expect(paypalCheckoutOrigins(loadConfig({ PAYPAL_API_URL: standIn.url }))).toEqual(['https://www.sandbox.paypal.com', standIn.url]);
    expect(paypal.policy).toEqual({ formAction: ['https://www.sandbox.paypal.com', standIn.url] });
  });
});

describe('the paypal adapter: checkout', () => {
  it('creates an Orders v2 order through the SDK: a token first, the amount as a decimal string, our reference, the return URLs; the rider goes to its payer-action link', async () => {
    const request = checkoutRequest();
    const checkout = await paypal.createCheckout!(request);
    expect(checkout).toEqual({ kind: 'redirect', url: `${standIn.url}/checkoutnow?token=${checkout.checkoutId}`, checkoutId: expect.stringMatching(/^[A-Z0-9]{17}$/) });

    const token = requestsTo('/v1/oauth2/token')[0]!;
    expect(token.headers.authorization).toBe(`Basic ${Buffer.from(`${standIn.clientId}:${standIn.clientSecret}`).toString('base64')}`);
    expect(new URLSearchParams(token.body).get('grant_type')).toBe('client_credentials');

    const create = lastTo('/v2/checkout/orders');
    expect(create.method).toBe('POST');
    expect(create.headers.authorization).toMatch(/^Bearer A21AA/);
    expect(create.headers['paypal-request-id']).toBe(request.idempotencyKey);
    expect(JSON.parse(create.body)).toEqual({
      intent: 'CAPTURE',
      purchase_units: [{ reference_id: 'b-1001', custom_id: 'b-1001', description: 'Rideway booking 1001', amount: { currency_code: 'USD', value: '12.34' } }],
      payment_source: { paypal: { experience_context: { return_url: request.returnUrl, cancel_url: request.cancelUrl, user_action: 'PAY_NOW', shipping_preference: 'NO_SHIPPING' } } },
    });
    expect(standIn.orders.get(checkout.checkoutId)?.status).toBe('PAYER_ACTION_REQUIRED');
  });

  it('sends a currency without minor units as whole units (JPY), and three-decimal amounts are refused before any call', async () => {
    const checkout = await paypal.createCheckout!(checkoutRequest({ amountMinor: 150_000, currency: 'JPY' }));
    expect(JSON.parse(lastTo('/v2/checkout/orders').body).purchase_units[0].amount).toEqual({ currency_code: 'JPY', value: '1500' });
    expect(standIn.orders.get(checkout.checkoutId)?.unit.amount).toEqual({ currency_code: 'JPY', value: '1500' });
    const before = standIn.requests.length;
    await expect(paypal.createCheckout!(checkoutRequest({ amountMinor: 150_050, currency: 'JPY' }))).rejects.toThrow(RangeError);
    expect(standIn.requests.length).toBe(before);
  });

  it('asks once per idempotency key and keeps its token', async () => {
    const request = checkoutRequest();
    const first = await paypal.createCheckout!(request);
    const second = await paypal.createCheckout!(request);
    expect(second).toEqual(first);
    expect(standIn.tokensIssued).toBe(1);
  });

  it("refuses PayPal's refusals (422 CURRENCY_NOT_SUPPORTED) and gives up on what does not answer: timeout, 500, 429, malformed", async () => {
    const refused = await failure(paypal.createCheckout!(checkoutRequest({ currency: 'XOF', amountMinor: 100_000 })));
    expect(refused).toBeInstanceOf(PaypalRefusalError);
    expect(refused.message).toBe('paypal: creating the order refused: HTTP 422 CURRENCY_NOT_SUPPORTED');
    for (const mode of ['hang', 'fail', 'rateLimited', 'garbage', 'wrongShape'] as const) {
      standIn.mode = mode;
      const started = Date.now();
      const error = await failure(paypal.createCheckout!(checkoutRequest()));
      expect(error, mode).toBeInstanceOf(ProviderUnavailableError);
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 2000);
    }
    expect(messages.slice(-10).filter((message) => message.startsWith('paypal:'))).toEqual([
      'paypal: creating the order: no answer in time',
      'paypal: creating the order: HTTP 500 INTERNAL_SERVER_ERROR',
      'paypal: creating the order: HTTP 429 RATE_LIMIT_REACHED',
      'paypal: creating the order: a malformed answer',
      'paypal: creating the order: a malformed answer',
    ]);
  });
});

describe('the paypal adapter: capture on return', () => {
  it('captures the approved order: the capture id, its amount and our reference from custom_id; asking again gives the same payment', async () => {
    const orderId = await order({ amountMinor: 4550, reference: 'b-2002' });
    const idempotencyKey = key();
    const event = await paypal.complete!(orderId, { token: 'ignored', PayerID: 'ignored' }, idempotencyKey);
    const captureId = standIn.orders.get(orderId)!.captureIds[0]!;
    expect(event).toEqual({ type: 'payment_succeeded', eventId: `capture:${captureId}:payment_succeeded`, reference: 'b-2002', transactionId: captureId, amountMinor: 4550, currency: 'USD' });
    const capture = lastTo(`/v2/checkout/orders/${orderId}/capture`);
    expect(capture.headers['paypal-request-id']).toBe(idempotencyKey);
    expect(capture.headers.prefer).toBe('return=representation');
    // The same key: PayPal answers the first capture again. Another key: ORDER_ALREADY_CAPTURED, read back from the order.
    expect(await paypal.complete!(orderId, {}, idempotencyKey)).toEqual(event);
    expect(await paypal.complete!(orderId, {}, key())).toEqual(event);
    expect(standIn.orders.get(orderId)!.captureIds).toHaveLength(1);
  });

  it('reads JPY captures back into hundredths', async () => {
    const orderId = await order({ amountMinor: 150_000, currency: 'JPY' });
    expect(await paypal.complete!(orderId, {}, key())).toMatchObject({ type: 'payment_succeeded', amountMinor: 150_000, currency: 'JPY' });
  });

  it('a declined funding source (422 INSTRUMENT_DECLINED) is a failed payment; the order stays open to pay again', async () => {
    const orderId = await order({ reference: 'b-3003' }, 'INSTRUMENT_DECLINED');
    const idempotencyKey = key();
    expect(await paypal.complete!(orderId, {}, idempotencyKey)).toEqual({
      type: 'payment_failed',
      eventId: `order:${orderId}:INSTRUMENT_DECLINED:${idempotencyKey}`,
      reference: 'b-3003',
      transactionId: orderId,
      amountMinor: 1234,
      currency: 'USD',
    });
    expect(await paypal.lookup!(orderId)).toBeUndefined();
    standIn.approve(orderId);
    expect(await paypal.complete!(orderId, {}, key())).toMatchObject({ type: 'payment_succeeded', reference: 'b-3003' });
  });

  it('a capture declined or held by PayPal: payment_failed or payment_pending with the capture id', async () => {
    const declined = await order({}, 'DECLINED');
    expect(await paypal.complete!(declined, {}, key())).toMatchObject({ type: 'payment_failed', transactionId: standIn.orders.get(declined)!.captureIds[0] });
    const pending = await order({}, 'PENDING');
    expect(await paypal.complete!(pending, {}, key())).toMatchObject({ type: 'payment_pending', transactionId: standIn.orders.get(pending)!.captureIds[0] });
  });

  it('an order the rider did not approve is refused as not approved, and nothing is taken', async () => {
    const orderId = await order({}, false);
    const error = await failure(paypal.complete!(orderId, {}, key()));
    expect(error).toBeInstanceOf(PaypalOrderNotApprovedError);
    expect(standIn.orders.get(orderId)!.captureIds).toEqual([]);
    expect(await failure(paypal.complete!('NOSUCHORDER12345', {}, key()))).toBeInstanceOf(PaypalRefusalError);
  });

  it('a capture that times out, fails or answers nonsense has an unknown outcome', async () => {
    for (const mode of ['hang', 'fail', 'garbage', 'wrongShape'] as const) {
      const orderId = await order();
      standIn.mode = mode;
      expect(await failure(paypal.complete!(orderId, {}, key())), mode).toBeInstanceOf(ProviderUnavailableError);
      standIn.mode = 'ok';
    }
  });
});

describe('the paypal adapter: lookup', () => {
  it('an open order (waiting for the payer, or approved and not captured) is undefined; a completed one is its capture; a voided one failed', async () => {
    const waiting = await order({}, false);
    expect(await paypal.lookup!(waiting)).toBeUndefined();
    expect(lastTo(`/v2/checkout/orders/${waiting}`).method).toBe('GET');
    const approved = await order();
    expect(await paypal.lookup!(approved)).toBeUndefined();
    const completed = await paypal.complete!(approved, {}, key());
    expect(await paypal.lookup!(approved)).toEqual(completed);
    const voided = await order({ reference: 'b-4004' }, false);
    standIn.voidOrder(voided);
    expect(await paypal.lookup!(voided)).toEqual({ type: 'payment_failed', eventId: `order:${voided}:VOIDED`, reference: 'b-4004', transactionId: voided, amountMinor: 1234, currency: 'USD' });
  });

  it('a refunded capture still reads as the payment it was', async () => {
    const { orderId } = await captured();
    await paypal.refund({ transactionId: standIn.orders.get(orderId)!.captureIds[0]!, amountMinor: 1234, currency: 'USD', idempotencyKey: key() });
    expect(await paypal.lookup!(orderId)).toMatchObject({ type: 'payment_succeeded', amountMinor: 1234 });
  });

  it('an unknown order is refused (404); an unreachable PayPal is unavailable', async () => {
    expect((await failure(paypal.lookup!('NOSUCHORDER12345'))).message).toBe('paypal: reading the order refused: HTTP 404 INVALID_RESOURCE_ID');
    const orderId = await order();
    for (const mode of ['hang', 'fail', 'rateLimited', 'garbage', 'wrongShape'] as const) {
      standIn.mode = mode;
      expect(await failure(paypal.lookup!(orderId)), mode).toBeInstanceOf(ProviderUnavailableError);
    }
  });
});

describe('the paypal adapter: webhooks, verified by PayPal', () => {
  it('PAYMENT.CAPTURE.COMPLETED, verified through verify-webhook-signature: payment_succeeded with the event id', async () => {
    const { captureId } = await captured({ reference: 'b-5005', amountMinor: 999 });
    const event = standIn.event('PAYMENT.CAPTURE.COMPLETED', 'capture', standIn.captureJson(captureId));
    const { rawBody, headers } = standIn.signedWebhook(event);
    expect(await paypal.parseNotification!(rawBody, headers)).toEqual({ type: 'payment_succeeded', eventId: event.id, reference: 'b-5005', transactionId: captureId, amountMinor: 999, currency: 'USD' });
    const verify = lastTo('/v1/notifications/verify-webhook-signature');
    expect(verify.headers.authorization).toMatch(/^Bearer A21AA/);
    expect(JSON.parse(verify.body)).toEqual({
      auth_algo: headers['paypal-auth-algo'],
      cert_url: headers['paypal-cert-url'],
      transmission_id: headers['paypal-transmission-id'],
      transmission_sig: headers['paypal-transmission-sig'],
      transmission_time: headers['paypal-transmission-time'],
      webhook_id: standIn.webhookId,
      webhook_event: event,
    });
  });

  it('sends the event as received, byte for byte, not re-serialised', async () => {
    const { captureId } = await captured();
    const { rawBody, headers } = standIn.signedWebhook(standIn.event('PAYMENT.CAPTURE.COMPLETED', 'capture', standIn.captureJson(captureId)));
    // Spaces and an escaped character PayPal might send: the same JSON, other bytes.
    const spaced = Buffer.from(rawBody.toString('utf8').replace('"event_version":"1.0"', '"event_version" : "1\\u002e0"'));
    expect(await paypal.parseNotification!(spaced, headers)).toMatchObject({ type: 'payment_succeeded' });
    expect(lastTo('/v1/notifications/verify-webhook-signature').body).toContain(`"webhook_event":${spaced.toString('utf8')}}`);
  });

  it('maps denials, refunds, disputes; an approved order and other events are acknowledged and ignored', async () => {
    const { captureId } = await captured({ reference: 'b-6006', amountMinor: 2000 });
    const deliver = async (type: string, resourceType: string, resource: Record<string, unknown>) => {
      const event = standIn.event(type, resourceType, resource);
      const { rawBody, headers } = standIn.signedWebhook(event);
      return { id: event.id, outcome: await paypal.parseNotification!(rawBody, headers) };
    };
    const denied = await deliver('PAYMENT.CAPTURE.DENIED', 'capture', { ...standIn.captureJson(captureId), status: 'DECLINED' });
    expect(denied.outcome).toEqual({ type: 'payment_failed', eventId: denied.id, reference: 'b-6006', transactionId: captureId, amountMinor: 2000, currency: 'USD' });
    expect((await deliver('PAYMENT.CAPTURE.DECLINED', 'capture', standIn.captureJson(captureId))).outcome.type).toBe('payment_failed');
    expect((await deliver('PAYMENT.CAPTURE.PENDING', 'capture', standIn.captureJson(captureId))).outcome.type).toBe('payment_pending');

    const refund = await paypal.refund({ transactionId: captureId, amountMinor: 500, currency: 'USD', idempotencyKey: key() });
    if (refund.status !== 'succeeded') throw new Error('refund failed');
    const refunded = await deliver('PAYMENT.CAPTURE.REFUNDED', 'refund', standIn.refundJson(refund.providerRefundId));
    expect(refunded.outcome).toEqual({ type: 'refund_succeeded', eventId: refunded.id, transactionId: captureId, providerRefundId: refund.providerRefundId, amountMinor: 500, currency: 'USD' });

    const dispute = await deliver('CUSTOMER.DISPUTE.CREATED', 'dispute', {
      dispute_id: 'PP-D-27803',
      create_time: new Date().toISOString(),
      disputed_transactions: [{ seller_transaction_id: captureId, seller: { merchant_id: 'MERCHANTSTAND1' } }],
      reason: 'MERCHANDISE_OR_SERVICE_NOT_RECEIVED',
      status: 'OPEN',
      dispute_amount: { currency_code: 'USD', value: '20.00' },
    });
    expect(dispute.outcome).toEqual({ type: 'dispute_opened', eventId: dispute.id, transactionId: captureId, amountMinor: 2000, currency: 'USD', reason: 'MERCHANDISE_OR_SERVICE_NOT_RECEIVED' });

    const approvedOrder = await order();
    const approved = await deliver('CHECKOUT.ORDER.APPROVED', 'checkout-order', { id: approvedOrder, status: 'APPROVED' });
    expect(approved.outcome).toEqual({ type: 'ignored', eventId: approved.id, providerType: 'CHECKOUT.ORDER.APPROVED' });
    expect((await deliver('BILLING.PLAN.CREATED', 'plan', { id: 'P-1' })).outcome).toMatchObject({ type: 'ignored', providerType: 'BILLING.PLAN.CREATED' });
    // A capture that is not one of our checkouts (no custom_id): recorded, not acted on.
    const { custom_id: _dropped, ...foreign } = standIn.captureJson(captureId);
    expect((await deliver('PAYMENT.CAPTURE.COMPLETED', 'capture', foreign)).outcome.type).toBe('ignored');
  });

  it('a body changed in transit, a transmission PayPal did not send, a missing header or a body that is not JSON: not verified', async () => {
    const { captureId } = await captured();
    const event = standIn.event('PAYMENT.CAPTURE.COMPLETED', 'capture', standIn.captureJson(captureId));
    const { rawBody, headers } = standIn.signedWebhook(event);
    const tampered = Buffer.from(rawBody.toString('utf8').replace('"value":"12.34"', '"value":"0.01"'));
    expect(tampered.equals(rawBody)).toBe(false);
    expect(await failure(paypal.parseNotification!(tampered, headers))).toBeInstanceOf(NotificationSignatureError);
    expect(await failure(paypal.parseNotification!(rawBody, { ...headers, 'paypal-transmission-sig': 'Zm9yZ2Vk' }))).toBeInstanceOf(NotificationSignatureError);
    expect(await failure(paypal.parseNotification!(rawBody, { ...headers, 'paypal-transmission-id': '6a1f3d10-0000-11ee-be56-0242ac120002' }))).toBeInstanceOf(NotificationSignatureError);
    const calls = requestsTo('/v1/notifications/verify-webhook-signature').length;
    const { 'paypal-transmission-sig': _sig, ...unsigned } = headers;
    expect(await failure(paypal.parseNotification!(rawBody, unsigned))).toBeInstanceOf(NotificationSignatureError);
    expect(await failure(paypal.parseNotification!(Buffer.from('not json'), headers))).toBeInstanceOf(NotificationSignatureError);
    expect(await failure(paypal.parseNotification!(Buffer.from('[1,2]'), headers))).toBeInstanceOf(NotificationSignatureError);
    expect(requestsTo('/v1/notifications/verify-webhook-signature').length).toBe(calls);
    // Verified against another webhook id (another app's webhook): FAILURE.
    const other = adapter({ PAYPAL_WEBHOOK_ID: 'OTHERWEBHOOK1' });
    expect(await failure(other.parseNotification!(rawBody, headers))).toBeInstanceOf(NotificationSignatureError);
    // The genuine delivery still verifies.
    expect(await paypal.parseNotification!(rawBody, headers)).toMatchObject({ type: 'payment_succeeded' });
  });

  it('a verify call that fails, hangs, is rate limited or answers nonsense: not accepted (unavailable), so PayPal delivers again', async () => {
    const { captureId } = await captured();
    const { rawBody, headers } = standIn.signedWebhook(standIn.event('PAYMENT.CAPTURE.COMPLETED', 'capture', standIn.captureJson(captureId)));
    standIn.modeOnly = '/v1/notifications';
    for (const mode of ['fail', 'hang', 'rateLimited', 'garbage', 'wrongShape'] as const) {
      standIn.mode = mode;
      const error = await failure(paypal.parseNotification!(rawBody, headers));
      expect(error, mode).toBeInstanceOf(ProviderUnavailableError);
      expect(error).not.toBeInstanceOf(NotificationSignatureError);
    }
    standIn.mode = 'ok';
    expect(await paypal.parseNotification!(rawBody, headers)).toMatchObject({ type: 'payment_succeeded' });
  });
});

describe('the paypal adapter: refunds', () => {
  it('refunds in full: the amount in the body, the idempotency key as PayPal-Request-Id; asking again refunds once', async () => {
    const { captureId } = await captured({ amountMinor: 1234 });
    const idempotencyKey = key();
    const result = await paypal.refund({ transactionId: captureId, amountMinor: 1234, currency: 'USD', idempotencyKey });
    expect(result).toEqual({ status: 'succeeded', providerRefundId: expect.stringMatching(/^[A-Z0-9]{17}$/) });
    const call = lastTo(`/v2/payments/captures/${captureId}/refund`);
    expect(call.headers['paypal-request-id']).toBe(idempotencyKey);
    expect(JSON.parse(call.body)).toEqual({ amount: { currency_code: 'USD', value: '12.34' } });
    expect(await paypal.refund({ transactionId: captureId, amountMinor: 1234, currency: 'USD', idempotencyKey })).toEqual(result);
    expect(standIn.captures.get(captureId)).toMatchObject({ status: 'REFUNDED', refundIds: [result.status === 'succeeded' ? result.providerRefundId : ''] });
    // Nothing left: PayPal refuses for good.
    expect(await paypal.refund({ transactionId: captureId, amountMinor: 100, currency: 'USD', idempotencyKey: key() })).toEqual({ status: 'failed', reason: 'HTTP 422 CAPTURE_FULLY_REFUNDED' });
  });

  it('refunds in part, twice, and refuses more than is left; JPY in whole yen', async () => {
    const { captureId } = await captured({ amountMinor: 1234 });
    expect(await paypal.refund({ transactionId: captureId, amountMinor: 500, currency: 'USD', idempotencyKey: key() })).toMatchObject({ status: 'succeeded' });
    expect(standIn.captures.get(captureId)?.status).toBe('PARTIALLY_REFUNDED');
    expect(await paypal.refund({ transactionId: captureId, amountMinor: 1000, currency: 'USD', idempotencyKey: key() })).toEqual({ status: 'failed', reason: 'HTTP 422 REFUND_AMOUNT_EXCEEDED' });
    expect(await paypal.refund({ transactionId: captureId, amountMinor: 734, currency: 'USD', idempotencyKey: key() })).toMatchObject({ status: 'succeeded' });
    expect(standIn.captures.get(captureId)).toMatchObject({ status: 'REFUNDED', refundedUnits: 1234 });

    const yen = await captured({ amountMinor: 150_000, currency: 'JPY' });
    expect(await paypal.refund({ transactionId: yen.captureId, amountMinor: 50_000, currency: 'JPY', idempotencyKey: key() })).toMatchObject({ status: 'succeeded' });
    expect(JSON.parse(lastTo(`/v2/payments/captures/${yen.captureId}/refund`).body)).toEqual({ amount: { currency_code: 'JPY', value: '500' } });
    expect(await paypal.refund({ transactionId: 'NOSUCHCAPTURE1234', amountMinor: 100, currency: 'USD', idempotencyKey: key() })).toEqual({ status: 'failed', reason: 'HTTP 404 INVALID_RESOURCE_ID' });
  });

  it('a refund whose answer is unknown (timeout, 500, 429, malformed) is retried later with the same key, and refunds once', async () => {
    const { captureId } = await captured({ amountMinor: 1234 });
    for (const mode of ['hang', 'fail', 'rateLimited', 'garbage', 'wrongShape'] as const) {
      standIn.mode = mode;
      expect(await failure(paypal.refund({ transactionId: captureId, amountMinor: 200, currency: 'USD', idempotencyKey: 'refund-retried' })), mode).toBeInstanceOf(RetryableRefundError);
    }
    standIn.mode = 'ok';
    // `garbage` and `wrongShape` answered 200 without refunding; the one that went through is answered again.
    const first = await paypal.refund({ transactionId: captureId, amountMinor: 200, currency: 'USD', idempotencyKey: 'refund-retried' });
    expect(await paypal.refund({ transactionId: captureId, amountMinor: 200, currency: 'USD', idempotencyKey: 'refund-retried' })).toEqual(first);
    expect(standIn.captures.get(captureId)?.refundedUnits).toBe(200);
  });
});

describe('the paypal adapter: tokens and credentials', () => {
  it('wrong credentials are refused as such, without the secret in any message', async () => {
    const wrong = adapter({ PAYPAL_CLIENT_SECRET: `${standIn.clientSecret}x` });
    const error = await failure(wrong.createCheckout!(checkoutRequest()));
    expect(error).toBeInstanceOf(PaypalCredentialsError);
    expect(error.message).toMatch(/invalid_client/);
    expect(await failure(wrong.refund({ transactionId: 'X', amountMinor: 1, currency: 'USD', idempotencyKey: key() }))).toBeInstanceOf(RetryableRefundError);
    const { rawBody, headers } = standIn.signedWebhook(standIn.event('BILLING.PLAN.CREATED', 'plan', { id: 'P-2' }));
    expect(await failure(wrong.parseNotification!(rawBody, headers))).toBeInstanceOf(ProviderUnavailableError);
  });

  it('a token endpoint that does not answer is an outage, and the next call asks again', async () => {
    const fresh = adapter();
    standIn.modeOnly = '/v1/oauth2';
    standIn.mode = 'hang';
    expect(await failure(fresh.createCheckout!(checkoutRequest()))).toBeInstanceOf(ProviderUnavailableError);
    standIn.mode = 'fail';
    expect(await failure(fresh.lookup!('ANYORDER12345678'))).toBeInstanceOf(ProviderUnavailableError);
    standIn.mode = 'ok';
    expect(await fresh.createCheckout!(checkoutRequest())).toMatchObject({ kind: 'redirect' });
  });

  it('a token PayPal no longer accepts (401) is dropped and the call made once more with a new one', async () => {
    const issued = standIn.tokensIssued;
    standIn.revokeTokens();
    const request = checkoutRequest();
    expect(await paypal.createCheckout!(request)).toMatchObject({ kind: 'redirect' });
    expect(standIn.tokensIssued).toBe(issued + 1);
    const creates = requestsTo('/v2/checkout/orders').slice(-2);
    expect(creates.map((call) => call.headers['paypal-request-id'])).toEqual([request.idempotencyKey, request.idempotencyKey]);
    expect(creates[0]!.headers.authorization).not.toBe(creates[1]!.headers.authorization);
    standIn.revokeTokens();
    const { captureId } = await captured();
    const { rawBody, headers } = standIn.signedWebhook(standIn.event('PAYMENT.CAPTURE.COMPLETED', 'capture', standIn.captureJson(captureId)));
    standIn.revokeTokens();
    expect(await paypal.parseNotification!(rawBody, headers)).toMatchObject({ type: 'payment_succeeded' });
  });

  it('a token refused twice in a row is an outage', async () => {
    const orderId = await order();
    const issued = standIn.tokensIssued;
    standIn.refuseTokens = true;
    try {
      expect(await failure(paypal.lookup!(orderId))).toBeInstanceOf(ProviderUnavailableError);
      expect(standIn.tokensIssued).toBe(issued + 1);
    } finally {
      standIn.refuseTokens = false;
    }
  });

  it('renews a token before it expires', async () => {
    standIn.tokenLifetimeS = 30;
    const shortLived = adapter();
    await shortLived.createCheckout!(checkoutRequest());
    const issued = standIn.tokensIssued;
    await shortLived.createCheckout!(checkoutRequest());
    expect(standIn.tokensIssued).toBe(issued + 1);
    standIn.tokenLifetimeS = 32_400;
  });
});
