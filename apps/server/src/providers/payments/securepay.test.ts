import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSecurePay, type SecurePayStandIn } from '../../../test/stand-ins/securepay';
import { loadConfig } from '../../config';
import { ProviderUnavailableError, RetryableRefundError, type CheckoutRequest, type PaymentProviderPort } from './port';
import { securePayEndpoints, securepayProvider, type SecurePayClientSettings } from './securepay';
import { failureLog } from './adapter-test-kit';

/** Short on purpose: a hanging stand-in must fail fast on a loaded machine. */
const TIMEOUT_MS = 400;

let standIn: SecurePayStandIn;
let securepay: PaymentProviderPort;
const { messages, failure, key } = failureLog();

const env = (extra: Record<string, string> = {}) => ({
  SECUREPAY_CLIENT_ID: standIn.clientId,
  SECUREPAY_CLIENT_SECRET: standIn.clientSecret,
  SECUREPAY_MERCHANT_CODE: standIn.merchantCode,
  SECUREPAY_SANDBOX: '1',
  SECUREPAY_API_URL: standIn.url,
  SECUREPAY_AUTH_URL: standIn.authUrl,
  PAYMENT_TIMEOUT_MS: String(TIMEOUT_MS),
  ...extra,
});

const checkoutRequest = (overrides: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
  purpose: { kind: 'booking', bookingId: 'b-3001' },
  reference: 'b-3001',
  amountMinor: 4_590,
  currency: 'AUD',
  description: 'Rideway booking 3001',
  customer: { uid: 'u-3', email: 'rider@example.com.au', firstName: 'Ava', lastName: 'Nguyen', mobile: '+61400000000' },
  returnUrl: 'https://rideway.test/api/payments/securepay/return?attempt=a-3',
  cancelUrl: 'https://rideway.test/api/payments/securepay/return?attempt=a-3&cancelled=1',
  idempotencyKey: key(),
  ...overrides,
});

/** The server's own record of the checkout, as the core adds it to the browser's token. */
const expected = (request: CheckoutRequest) => ({ amount_minor: String(request.amountMinor), currency: request.currency, reference: request.reference });

beforeAll(async () => {
  standIn = await startSecurePay();
  securepay = securepayProvider(loadConfig(env()));
});
beforeEach(() => {
  standIn.mode = 'ok';
  standIn.loseAnswer = false;
  standIn.answerWith = undefined;
});
afterAll(async () => {
  await standIn.close();
  for (const message of messages) {
    expect(message).not.toContain(standIn.clientSecret);
    for (const token of standIn.accessTokens) expect(message).not.toContain(token);
  }
});

describe('SecurePay configuration', () => {
  it('needs the client id, secret and merchant code together; hosts are the sandbox or live ones unless overridden', () => {
    expect(() => loadConfig({ SECUREPAY_CLIENT_ID: '0oa1234567890' })).toThrow(/SECUREPAY_CLIENT_SECRET: SECUREPAY_CLIENT_ID, SECUREPAY_CLIENT_SECRET and SECUREPAY_MERCHANT_CODE are set together/);
    expect(() => loadConfig({ SECUREPAY_API_URL: 'http://127.0.0.1:4100' })).toThrow(/SECUREPAY_MERCHANT_CODE/);
    expect(() => loadConfig({ SECUREPAY_MERCHANT_CODE: '5AR 0055' })).toThrow(/merchant code/);
    expect(securePayEndpoints(loadConfig({}))).toEqual({ api: 'https://payments.auspost.net.au', auth: 'https://welcome.api2.auspost.com.au/oauth/token' });
    expect(securePayEndpoints(loadConfig({ SECUREPAY_SANDBOX: '1' }))).toEqual({ api: 'https://payments-stest.npe.auspost.zone', auth: 'https://welcome.api2.sandbox.auspost.com.au/oauth/token' });
    expect(securepay.testMode).toBe(true);
    expect(securepayProvider(loadConfig(env({ SECUREPAY_API_URL: '', SECUREPAY_AUTH_URL: '', SECUREPAY_SANDBOX: '0' }))).policy).toEqual({
      script: ['https://payments.auspost.net.au'],
      frame: ['https://payments.auspost.net.au'],
      connect: ['https://payments.auspost.net.au'],
    });
  });
});

describe('SecurePay adapter', () => {
  it("a client checkout: the card component's settings (client id and merchant code, never the secret; cents) and its script on the API host", async () => {
    const before = standIn.requests.length;
    const checkout = await securepay.createCheckout!(checkoutRequest());
    expect(checkout.kind).toBe('client');
    if (checkout.kind !== 'client') return;
    expect(JSON.parse(checkout.clientToken) as SecurePayClientSettings).toEqual({ clientId: standIn.clientId, merchantCode: standIn.merchantCode, amount: 4590, currency: 'AUD' });
    expect(checkout.clientToken).not.toContain(standIn.clientSecret);
    expect(checkout.script).toBe(`${standIn.url}/v3/ui/client/securepay-ui.min.js`);
    expect(securepay.policy).toEqual({ script: [standIn.url], frame: [standIn.url], connect: [standIn.url] });
    expect(standIn.requests.length).toBe(before);
    await expect(securepay.createCheckout!(checkoutRequest({ currency: 'NZD' }))).rejects.toThrow(/AUD only/);
  });

  it("complete pays the token for the server's amount, once per checkout whatever is posted again; one OAuth token serves every call", async () => {
    const request = checkoutRequest({ reference: 'b-paid' });
    const checkout = await securepay.createCheckout!(request);
    const completeKey = key();
    const event = await securepay.complete!(checkout.checkoutId, { payment_method_nonce: standIn.tokenize(), ...expected(request) }, completeKey);
    expect(event).toMatchObject({ type: 'payment_succeeded', reference: 'b-paid', amountMinor: 4_590, currency: 'AUD' });
    const orderId = event.type === 'payment_succeeded' ? event.transactionId : '';
    expect(standIn.payments.get(orderId)).toMatchObject({ amount: 4590, status: 'paid', ip: '127.0.0.1' });
    // Posted again with a fresh token: SecurePay answers the first payment by its Idempotency-Key.
    expect(await securepay.complete!(checkout.checkoutId, { payment_method_nonce: standIn.tokenize(), ...expected(request) }, completeKey)).toEqual(event);
    expect([...standIn.payments.values()].filter((payment) => payment.orderId === orderId)).toHaveLength(1);
    const sent = standIn.requests.filter((seen) => seen.path === '/v2/payments');
    expect(new Set(sent.map((seen) => seen.headers['idempotency-key'])).size).toBe(1);
    expect(standIn.requests.filter((seen) => seen.path === '/oauth/token').length).toBe(1);
  });

  it('a declined card is payment_failed; an amount or reference other than the checkout one, or no token, is refused before SecurePay is asked', async () => {
    const request = checkoutRequest({ reference: 'b-declined' });
    const checkout = await securepay.createCheckout!(request);
    expect(await securepay.complete!(checkout.checkoutId, { payment_method_nonce: standIn.tokenize('4000000000000002'), ...expected(request) }, key())).toMatchObject({ type: 'payment_failed', reference: 'b-declined' });
    const before = standIn.requests.length;
    const token = standIn.tokenize();
    await failure(securepay.complete!(checkout.checkoutId, { payment_method_nonce: token, ...expected(request), amount_minor: '100' }, key()));
    await failure(securepay.complete!(checkout.checkoutId, { payment_method_nonce: token, ...expected(request), reference: 'b-other' }, key()));
    await failure(securepay.complete!(checkout.checkoutId, { ...expected(request) }, key()));
    expect(standIn.requests.length).toBe(before);
  });

  it('a token SecurePay never issued is a refusal, not an unknown outcome', async () => {
    const request = checkoutRequest({ reference: 'b-forged' });
    const checkout = await securepay.createCheckout!(request);
    const refused = await failure(securepay.complete!(checkout.checkoutId, { payment_method_nonce: 'forged-token-0001', ...expected(request) }, key()));
    expect(refused).not.toBeInstanceOf(ProviderUnavailableError);
    expect(refused.message).toMatch(/HTTP 422 INVALID_TOKEN/);
  });

  it('a revoked token is renewed once and the call asked again', async () => {
    const request = checkoutRequest({ reference: 'b-renewed' });
    const checkout = await securepay.createCheckout!(request);
    const tokens = standIn.requests.filter((seen) => seen.path === '/oauth/token').length;
    standIn.revokeTokens();
    expect(await securepay.complete!(checkout.checkoutId, { payment_method_nonce: standIn.tokenize(), ...expected(request) }, key())).toMatchObject({ type: 'payment_succeeded' });
    expect(standIn.requests.filter((seen) => seen.path === '/oauth/token').length).toBe(tokens + 1);
  });

  it('refunds in part by the order id; asked again with the same key refunds once; more than is left fails', async () => {
    const request = checkoutRequest({ reference: 'b-refund' });
    const checkout = await securepay.createCheckout!(request);
    const event = await securepay.complete!(checkout.checkoutId, { payment_method_nonce: standIn.tokenize(), ...expected(request) }, key());
    const transactionId = event.type === 'payment_succeeded' ? event.transactionId : '';
    const idempotencyKey = key();
    const first = await securepay.refund({ transactionId, amountMinor: 1_000, currency: 'AUD', idempotencyKey });
    expect(first).toMatchObject({ status: 'succeeded' });
    expect(await securepay.refund({ transactionId, amountMinor: 1_000, currency: 'AUD', idempotencyKey })).toEqual(first);
    expect(standIn.refunds.filter((made) => made.orderId === transactionId).map((made) => made.amount)).toEqual([1000]);
    expect(await securepay.refund({ transactionId, amountMinor: 9_000, currency: 'AUD', idempotencyKey: key() })).toMatchObject({ status: 'failed', reason: expect.stringMatching(/HTTP 422/) });
  });

  it.each(['hang', 'fail', 'garbage', 'wrongShape', 'unknown'] as const)('SecurePay %s: the outcome is unknown', async (mode) => {
    const paidRequest = checkoutRequest({ reference: `b-${mode}-paid` });
    const paid = await securepay.complete!((await securepay.createCheckout!(paidRequest)).checkoutId, { payment_method_nonce: standIn.tokenize(), ...expected(paidRequest) }, key());
    const request = checkoutRequest({ reference: `b-${mode}` });
    const checkout = await securepay.createCheckout!(request);
    const token = standIn.tokenize();
    standIn.mode = mode;
    expect(await failure(securepay.complete!(checkout.checkoutId, { payment_method_nonce: token, ...expected(request) }, key()))).toBeInstanceOf(ProviderUnavailableError);
    const transactionId = paid.type === 'payment_succeeded' ? paid.transactionId : '';
    expect(await failure(securepay.refund({ transactionId, amountMinor: 500, currency: 'AUD', idempotencyKey: key() }))).toBeInstanceOf(RetryableRefundError);
  });
});
