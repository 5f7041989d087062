import braintree from 'braintree';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { disputeXml, notificationBody, notificationXml, signNotification, startBraintreeStandIn, transactionXml, type BraintreeStandIn } from '../../../test/stand-ins/braintree';
import { loadConfig, type Config } from '../../config';
import { braintreeCheckoutId, braintreeProvider, braintreeSecurityPolicy, isBraintreeConfigured } from './braintree';
import { NotificationSignatureError, ProviderUnavailableError, RetryableRefundError, type CheckoutRequest, type PaymentEvent, type PaymentProviderPort } from './port';

let standIn: BraintreeStandIn;
let config: Config;
let provider: PaymentProviderPort;
/** Every error message an adapter call produced: none may hold the private key. */
const messages: string[] = [];

function configFor(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    BRAINTREE_MERCHANT_ID: standIn.merchantId,
    BRAINTREE_PUBLIC_KEY: standIn.publicKey,
    BRAINTREE_PRIVATE_KEY: standIn.privateKey,
    BRAINTREE_API_URL: standIn.url,
    PAYMENT_TIMEOUT_MS: '400',
    ...overrides,
  });
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    messages.push(error.message);
    return error;
  }
  throw new Error('expected a rejection');
}

let sequence = 0;
function checkoutRequest(amountMinor = 1234, currency = 'GBP'): CheckoutRequest {
  sequence += 1;
  const bookingId = `b${sequence}`;
  return {
    purpose: { kind: 'booking', bookingId },
    reference: bookingId,
    amountMinor,
    currency,
    description: `Rideway booking ${bookingId}`,
    customer: { uid: 'u1', email: 'rider@example.com', firstName: 'Ada', lastName: 'Rider', mobile: '+447700900000' },
    returnUrl: 'http://app.test/return',
    cancelUrl: 'http://app.test/cancel',
    idempotencyKey: `checkout-${sequence}`,
  };
}

/** The core's call: the nonce from the browser, the amount, currency and reference from its own record. */
async function pay(nonce: string, request = checkoutRequest()) {
  const checkout = await provider.createCheckout!(request);
  const event = await provider.complete!(
    checkout.checkoutId,
    { payment_method_nonce: nonce, amount_minor: String(request.amountMinor), currency: request.currency, reference: request.reference },
    `${request.idempotencyKey}-complete`,
  );
  return { checkout, event, request };
}

function succeeded(event: PaymentEvent) {
  if (event.type !== 'payment_succeeded') throw new Error(`expected payment_succeeded, got ${event.type}`);
  return event;
}

beforeAll(async () => {
  standIn = await startBraintreeStandIn();
  config = configFor();
  provider = braintreeProvider(config);
});

afterEach(() => {
  standIn.mode = 'ok';
  standIn.currency = 'GBP';
  expect(standIn.problems).toEqual([]);
});

afterAll(async () => {
  await standIn.close();
  for (const message of messages) expect(message).not.toContain(standIn.privateKey);
});

describe('braintree adapter: configuration', () => {
  it('is a sandbox provider named braintree with its checkout link', () => {
    expect(isBraintreeConfigured(config)).toBe(true);
    expect(provider.name).toBe('braintree');
    expect(provider.checkoutLink).toBe('/api/payments/braintree/checkout');
    expect(provider.testMode).toBe(true);
    expect(braintreeProvider(configFor({ BRAINTREE_ENVIRONMENT: 'production' })).testMode).toBe(false);
  });

  it('needs the merchant id and both keys together, and never echoes the private key', () => {
    let problem = '';
    try {
      loadConfig({ BRAINTREE_PRIVATE_KEY: standIn.privateKey });
    } catch (error) {
      problem = (error as Error).message;
    }
    expect(problem).toContain('BRAINTREE_MERCHANT_ID');
    expect(problem).toContain('BRAINTREE_PUBLIC_KEY');
    expect(problem).not.toContain(standIn.privateKey);
    expect(() => loadConfig({ BRAINTREE_API_URL: 'http://127.0.0.1:1/merchants' })).toThrow(/BRAINTREE_API_URL/);
    expect(isBraintreeConfigured(loadConfig({}))).toBe(false);
  });

  it("names Drop-in's hosts for the security policy, sandbox or production", () => {
    expect(braintreeSecurityPolicy('sandbox').connectSrc).toContain('https://api.sandbox.braintreegateway.com');
    expect(braintreeSecurityPolicy('production').connectSrc).toContain('https://api.braintreegateway.com');
    expect(braintreeSecurityPolicy('production').scriptSrc).toEqual(['https://js.braintreegateway.com', 'https://assets.braintreegateway.com']);
    expect(provider.policy).toEqual({
      script: ['https://js.braintreegateway.com', 'https://assets.braintreegateway.com'],
      frame: ['https://assets.braintreegateway.com'],
      connect: ['https://api.sandbox.braintreegateway.com', 'https://client-analytics.sandbox.braintreegateway.com', 'https://payments.sandbox.braintree-api.com'],
      image: ['https://assets.braintreegateway.com'],
    });
  });
});

describe('braintree adapter: checkout and sale', () => {
  it('answers a client token for Drop-in, with a stable checkout id of its own', async () => {
    const request = checkoutRequest();
    const checkout = await provider.createCheckout!(request);
    expect(checkout.kind).toBe('client');
    if (checkout.kind !== 'client') return;
    const token = JSON.parse(Buffer.from(checkout.clientToken, 'base64').toString('utf8')) as { authorizationFingerprint: string; merchantId: string };
    expect(token.merchantId).toBe(standIn.merchantId);
    expect(token.authorizationFingerprint).toMatch(/^[0-9a-f]{48}$/);
    expect(checkout.checkoutId).toBe(braintreeCheckoutId(request));
    expect(checkout.checkoutId.endsWith(`:${request.reference}`)).toBe(true);
    const seen = standIn.requests.at(-1)!;
    expect(seen.method).toBe('POST');
    expect(seen.path).toBe(`/merchants/${standIn.merchantId}/client_token`);
    expect(seen.body).toEqual({ client_token: { version: 2 } });
  });

  it('charges the server’s amount as a decimal, submitted for settlement, with the reference as orderId', async () => {
    const { event, request } = await pay('fake-valid-nonce', checkoutRequest(1234));
    const sale = standIn.requests.at(-1)!;
    expect(sale.path).toBe(`/merchants/${standIn.merchantId}/transactions`);
    expect(sale.body).toEqual({
      transaction: { amount: '12.34', payment_method_nonce: 'fake-valid-nonce', order_id: request.reference, options: { submit_for_settlement: true }, type: 'sale' },
    });
    const paid = succeeded(event);
    expect(paid).toMatchObject({ reference: request.reference, amountMinor: 1234, currency: 'GBP' });
    expect(standIn.transactions.get(paid.transactionId)?.status).toBe('submitted_for_settlement');
    expect(paid.eventId).toBe(`braintree_txn_${paid.transactionId}_succeeded`);
  });

  it('converts through the currency’s smallest unit (JPY has none)', async () => {
    standIn.currency = 'JPY';
    const { event } = await pay('fake-valid-visa-nonce', checkoutRequest(120_000, 'JPY'));
    expect((standIn.requests.at(-1)!.body as { transaction: { amount: string } }).transaction.amount).toBe('1200');
    expect(succeeded(event)).toMatchObject({ amountMinor: 120_000, currency: 'JPY' });
  });

  it('never takes the amount from the browser: without the server’s keys it refuses, and the server’s argument wins', async () => {
    const request = checkoutRequest(1500);
    const checkout = await provider.createCheckout!(request);
    const refused = await rejection(provider.complete!(checkout.checkoutId, { payment_method_nonce: 'fake-valid-nonce' }, 'k'));
    expect(refused.message).toMatch(/amount_minor/);
    const otherBooking = await rejection(provider.complete!(checkout.checkoutId, { payment_method_nonce: 'fake-valid-nonce', amount_minor: '1500', currency: 'GBP', reference: 'someone-else' }, 'k'));
    expect(otherBooking.message).toMatch(/reference/);
    const complete = provider.complete as unknown as (id: string, payload: Record<string, string>, key: string, expected: object) => Promise<PaymentEvent>;
    const event = await complete(checkout.checkoutId, { payment_method_nonce: 'fake-valid-nonce', amount_minor: '1' }, 'k', { amountMinor: 1500, currency: 'GBP', reference: request.reference });
    expect(succeeded(event).amountMinor).toBe(1500);
    expect(standIn.requests.filter((seen) => seen.path.endsWith('/transactions')).length).toBeGreaterThan(0);
  });

  it('reports a processor decline as payment_failed, with the transaction', async () => {
    const { event, request } = await pay('fake-processor-declined-visa-nonce');
    expect(event).toMatchObject({ type: 'payment_failed', reference: request.reference, amountMinor: 1234, currency: 'GBP' });
    if (event.type !== 'payment_failed') return;
    expect(standIn.transactions.get(event.transactionId)).toMatchObject({ status: 'processor_declined', processorResponseCode: '2000' });
    const sandboxAmount = await pay('fake-valid-nonce', checkoutRequest(200_100));
    expect(sandboxAmount.event.type).toBe('payment_failed');
  });

  it('reports a gateway rejection as payment_failed', async () => {
    const { event } = await pay('fake-gateway-rejected-fraud-nonce');
    expect(event.type).toBe('payment_failed');
    if (event.type !== 'payment_failed') return;
    expect(standIn.transactions.get(event.transactionId)?.gatewayRejectionReason).toBe('fraud');
  });

  it('refuses an unknown nonce (a validation error, not an unknown outcome)', async () => {
    const error = await rejection(pay('not-a-braintree-nonce'));
    expect(error).not.toBeInstanceOf(ProviderUnavailableError);
    expect(error.message).toMatch(/Unknown or expired payment_method_nonce/);
  });

  it('charges once when the sale’s answer is lost: the lookup finds it, and asking again finds the same sale', async () => {
    const request = checkoutRequest(2500);
    const checkout = await provider.createCheckout!(request);
    const payload = { payment_method_nonce: standIn.issueNonce(), amount_minor: '2500', currency: 'GBP', reference: request.reference };
    expect(await provider.lookup!(checkout.checkoutId)).toBeUndefined();
    standIn.mode = 'lose';
    expect(await rejection(provider.complete!(checkout.checkoutId, payload, 'k1'))).toBeInstanceOf(ProviderUnavailableError);
    standIn.mode = 'ok';
    const found = succeeded((await provider.lookup!(checkout.checkoutId))!);
    const again = succeeded(await provider.complete!(checkout.checkoutId, payload, 'k1'));
    expect(again).toEqual(found);
    expect(found).toMatchObject({ reference: request.reference, amountMinor: 2500 });
    expect([...standIn.transactions.values()].filter((transaction) => transaction.orderId === request.reference)).toHaveLength(1);
  });

  it('voids a sale made in another currency than asked (the merchant account’s) and reports it failed', async () => {
    standIn.currency = 'USD';
    const { event } = await pay('fake-valid-nonce', checkoutRequest(1000, 'GBP'));
    expect(event).toMatchObject({ type: 'payment_failed', currency: 'USD', amountMinor: 1000 });
    if (event.type !== 'payment_failed') return;
    expect(standIn.transactions.get(event.transactionId)?.status).toBe('voided');
  });

  it('looks a checkout up by orderId: declined sales leave it open, a settled one pays', async () => {
    const declined = await pay('fake-processor-declined-amex-nonce');
    expect(await provider.lookup!(declined.checkout.checkoutId)).toBeUndefined();
    const paid = await pay('fake-valid-nonce');
    const id = succeeded(paid.event).transactionId;
    standIn.settle(id);
    expect(await provider.lookup!(paid.checkout.checkoutId)).toEqual(paid.event);
  });
});

describe('braintree adapter: notifications', () => {
  const keys = () => ({ publicKey: standIn.publicKey, privateKey: standIn.privateKey });
  const parse = (xml: string, options?: { wrap?: boolean }) => provider.parseNotification!(notificationBody(signNotification(keys(), xml, options)), { 'content-type': 'application/x-www-form-urlencoded' });

  it('reads transaction_settled as payment_succeeded, and the same notification twice as one event', async () => {
    const { event, request } = await pay('fake-valid-nonce', checkoutRequest(4321));
    const transaction = standIn.transactions.get(succeeded(event).transactionId)!;
    standIn.settle(transaction.id);
    const body = notificationBody(signNotification(keys(), notificationXml('transaction_settled', transactionXml(transaction), '2026-11-22T11:00:00Z')));
    const first = await provider.parseNotification!(body, {});
    expect(first).toMatchObject({ type: 'payment_succeeded', reference: request.reference, transactionId: transaction.id, amountMinor: 4321, currency: 'GBP' });
    expect(await provider.parseNotification!(body, {})).toEqual(first);
    const later = await parse(notificationXml('transaction_settled', transactionXml(transaction), '2026-11-22T12:00:00Z'));
    expect(later.eventId).not.toBe(first.eventId);
  });

  it('reads transaction_settlement_declined as payment_failed', async () => {
    const { event } = await pay('fake-valid-nonce');
    const transaction = { ...standIn.transactions.get(succeeded(event).transactionId)!, status: 'settlement_declined' };
    expect(await parse(notificationXml('transaction_settlement_declined', transactionXml(transaction)))).toMatchObject({ type: 'payment_failed', transactionId: transaction.id, amountMinor: 1234 });
  });

  it('reads dispute_opened as a dispute on the transaction', async () => {
    const { event } = await pay('fake-valid-nonce', checkoutRequest(990));
    const transaction = standIn.transactions.get(succeeded(event).transactionId)!;
    expect(await parse(notificationXml('dispute_opened', disputeXml(transaction, 'product_not_received')))).toMatchObject({
      type: 'dispute_opened',
      transactionId: transaction.id,
      amountMinor: 990,
      currency: 'GBP',
      reason: 'product_not_received',
    });
  });

  it('acknowledges other kinds (and Braintree’s check) as ignored', async () => {
    expect(await parse(notificationXml('check', '<check type="boolean">true</check>'))).toMatchObject({ type: 'ignored', providerType: 'check' });
    expect(await parse(notificationXml('subscription_went_past_due', '<subscription><id>s1</id><transactions type="array"></transactions><add_ons type="array"></add_ons><discounts type="array"></discounts></subscription>'))).toMatchObject({ type: 'ignored', providerType: 'subscription_went_past_due' });
  });

  it('refuses a notification with a bad signature, a changed payload or no signature', async () => {
    const xml = notificationXml('check', '<check type="boolean">true</check>');
    const forged = signNotification({ publicKey: standIn.publicKey, privateKey: 'someone-elses-private-key' }, xml);
    expect(await rejection(provider.parseNotification!(notificationBody(forged), {}))).toBeInstanceOf(NotificationSignatureError);
    const genuine = signNotification(keys(), xml);
    const changed = { ...genuine, bt_payload: signNotification(keys(), notificationXml('transaction_settled', '<transaction/>')).bt_payload };
    expect(await rejection(provider.parseNotification!(notificationBody(changed), {}))).toBeInstanceOf(NotificationSignatureError);
    const otherKey = { ...genuine, bt_signature: genuine.bt_signature.replace(standIn.publicKey, 'another_public_key') };
    expect(await rejection(provider.parseNotification!(notificationBody(otherKey), {}))).toBeInstanceOf(NotificationSignatureError);
    expect(await rejection(provider.parseNotification!(Buffer.from('bt_payload=abc'), {}))).toBeInstanceOf(NotificationSignatureError);
    expect(await rejection(provider.parseNotification!(Buffer.from('{"kind":"transaction_settled"}'), {}))).toBeInstanceOf(NotificationSignatureError);
  });

  it('signs as the SDK’s own sampleNotification does', async () => {
    const sdk = new braintree.BraintreeGateway({ environment: braintree.Environment.Sandbox, merchantId: standIn.merchantId, publicKey: standIn.publicKey, privateKey: standIn.privateKey });
    const sample = await sdk.webhookTesting.sampleNotification('transaction_settled', 'sample_id');
    const xml = Buffer.from(sample.bt_payload, 'base64').toString('utf8');
    expect(signNotification(keys(), xml, { wrap: false })).toEqual(sample);
    // The SDK's sample transaction has no orderId: not one of this app's sales.
    expect(await provider.parseNotification!(notificationBody(sample), {})).toMatchObject({ type: 'ignored', providerType: 'transaction_settled' });
  });
});

describe('braintree adapter: refunds', () => {
  async function settledSale(amountMinor = 2000) {
    const { event } = await pay('fake-valid-nonce', checkoutRequest(amountMinor));
    const id = succeeded(event).transactionId;
    standIn.settle(id);
    return id;
  }

  it('refunds in full once, however often it is asked with the same key', async () => {
    const id = await settledSale();
    const first = await provider.refund({ transactionId: id, amountMinor: 2000, currency: 'GBP', idempotencyKey: 'refund-full-1' });
    expect(first.status).toBe('succeeded');
    const seen = standIn.requests.find((request) => request.path.endsWith(`/transactions/${id}/refund`))!;
    expect(seen.body).toEqual({ transaction: { amount: '20.00', order_id: 'refund-refund-full-1' } });
    expect(await provider.refund({ transactionId: id, amountMinor: 2000, currency: 'GBP', idempotencyKey: 'refund-full-1' })).toEqual(first);
    expect(standIn.transactions.get(id)?.refundIds).toHaveLength(1);
  });

  it('refunds in part, and refuses more than is left', async () => {
    const id = await settledSale(2000);
    const part = await provider.refund({ transactionId: id, amountMinor: 500, currency: 'GBP', idempotencyKey: 'part-1' });
    expect(part.status).toBe('succeeded');
    if (part.status !== 'succeeded') return;
    expect(standIn.transactions.get(part.providerRefundId)).toMatchObject({ type: 'credit', amount: '5.00', refundedTransactionId: id });
    const tooMuch = await provider.refund({ transactionId: id, amountMinor: 1600, currency: 'GBP', idempotencyKey: 'part-2' });
    expect(tooMuch).toMatchObject({ status: 'failed' });
    if (tooMuch.status === 'failed') expect(tooMuch.reason).toMatch(/too large/);
  });

  it('voids a sale that has not settled for a full refund, and a partial one waits for settlement', async () => {
    const { event } = await pay('fake-valid-nonce', checkoutRequest(1800));
    const id = succeeded(event).transactionId;
    expect(await rejection(provider.refund({ transactionId: id, amountMinor: 800, currency: 'GBP', idempotencyKey: 'early-part' }))).toBeInstanceOf(RetryableRefundError);
    const full = await provider.refund({ transactionId: id, amountMinor: 1800, currency: 'GBP', idempotencyKey: 'early-full' });
    expect(full).toEqual({ status: 'succeeded', providerRefundId: `void:${id}` });
    expect(standIn.transactions.get(id)?.status).toBe('voided');
    expect(await provider.refund({ transactionId: id, amountMinor: 1800, currency: 'GBP', idempotencyKey: 'early-full' })).toEqual(full);
  });

  it('fails for good on an unknown transaction', async () => {
    expect(await provider.refund({ transactionId: 'nosuchid', amountMinor: 100, currency: 'GBP', idempotencyKey: 'unknown' })).toMatchObject({ status: 'failed' });
  });
});

describe('braintree adapter: an unreachable or confused gateway', () => {
  it('a timeout is an unknown outcome: unavailable, and a refund is asked again later', async () => {
    const id = (await pay('fake-valid-nonce')).event;
    standIn.mode = 'hang';
    expect(await rejection(provider.createCheckout!(checkoutRequest()))).toBeInstanceOf(ProviderUnavailableError);
    expect(await rejection(provider.lookup!(braintreeCheckoutId(checkoutRequest())))).toBeInstanceOf(ProviderUnavailableError);
    expect(await rejection(provider.refund({ transactionId: succeeded(id).transactionId, amountMinor: 1234, currency: 'GBP', idempotencyKey: 'hang' }))).toBeInstanceOf(RetryableRefundError);
  });

  it('a 5xx is an unknown outcome', async () => {
    const request = checkoutRequest();
    const checkout = await provider.createCheckout!(request);
    standIn.mode = 'fail';
    const payload = { payment_method_nonce: 'fake-valid-nonce', amount_minor: '1234', currency: 'GBP', reference: request.reference };
    expect(await rejection(provider.complete!(checkout.checkoutId, payload, 'k'))).toBeInstanceOf(ProviderUnavailableError);
    expect(await rejection(provider.refund({ transactionId: 'abc', amountMinor: 100, currency: 'GBP', idempotencyKey: 'fail' }))).toBeInstanceOf(RetryableRefundError);
  });

  it('a malformed answer is an unknown outcome', async () => {
    const request = checkoutRequest();
    const checkout = await provider.createCheckout!(request);
    const payload = { payment_method_nonce: 'fake-valid-nonce', amount_minor: '1234', currency: 'GBP', reference: request.reference };
    for (const mode of ['garbage', 'wrongShape'] as const) {
      standIn.mode = mode;
      expect(await rejection(provider.createCheckout!(checkoutRequest()))).toBeInstanceOf(ProviderUnavailableError);
      expect(await rejection(provider.complete!(checkout.checkoutId, payload, 'k'))).toBeInstanceOf(ProviderUnavailableError);
    }
  });

  it('wrong credentials are a refusal, and no message holds the private key', async () => {
    const wrong = braintreeProvider(configFor({ BRAINTREE_PRIVATE_KEY: 'wrongprivatekey0123' }));
    const error = await rejection(wrong.createCheckout!(checkoutRequest()));
    expect(error).not.toBeInstanceOf(ProviderUnavailableError);
    expect(error.message).toMatch(/authenticationError/);
    expect(error.message).not.toContain('wrongprivatekey0123');
    expect(messages.length).toBeGreaterThan(10);
    for (const message of messages) expect(message).not.toContain(standIn.privateKey);
  });
});
