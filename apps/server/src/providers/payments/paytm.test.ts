import PaytmChecksum from 'paytmchecksum';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPaytm, type PaytmStandIn } from '../../../test/stand-ins/paytm';
import { loadConfig } from '../../config';
import { paytmCheckoutOrigins, paytmOrderId, paytmProvider } from './paytm';
import { NotificationSignatureError, ProviderUnavailableError, RetryableRefundError, type CheckoutRequest, type PaymentProviderPort } from './port';
import { failureLog } from './adapter-test-kit';

/** Short on purpose: a hanging stand-in must fail fast on a loaded machine, never wait for the 15 s default. */
const TIMEOUT_MS = 400;

let standIn: PaytmStandIn;
let paytm: PaymentProviderPort;
const { messages, failure } = failureLog();

const adapter = (extra: Record<string, string> = {}) => paytmProvider(loadConfig({ PAYTM_MERCHANT_ID: standIn.mid, PAYTM_MERCHANT_KEY: standIn.merchantKey, PAYTM_WEBSITE: 'WEBSTAGING', PAYTM_API_URL: standIn.url, PAYMENT_TIMEOUT_MS: String(TIMEOUT_MS), ...extra }));

let keys = 0;
const key = () => `0b7c1e2a-4d5f-4a8b-9c0d-${String(++keys).padStart(4, '0')}${String(Date.now()).slice(-8)}`;

const checkoutRequest = (overrides: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
  purpose: { kind: 'booking', bookingId: 'b-1001' },
  reference: 'b-1001',
  amountMinor: 123_456,
  currency: 'INR',
  description: 'Rideway booking 1001',
  customer: { uid: 'u-1', email: 'rider@example.com', firstName: 'Asha', lastName: 'Rao', mobile: '+919876543210' },
  returnUrl: 'https://rideway.test/api/payments/paytm/return?attempt=a-1',
  cancelUrl: 'https://rideway.test/api/payments/paytm/return?attempt=a-1&cancelled=1',
  idempotencyKey: key(),
  ...overrides,
});

/** An order initiated through the adapter and settled on the payment page (or left open): its orderId. */
async function order(overrides: Partial<CheckoutRequest> = {}, outcome: 'paid' | 'declined' | false = 'paid') {
  const checkout = await paytm.createCheckout!(checkoutRequest(overrides));
  if (outcome) standIn.settle(checkout.checkoutId, outcome);
  return checkout.checkoutId;
}

const webhook = async (orderId: string, overrides: Record<string, string> = {}) => Buffer.from(new URLSearchParams(await standIn.responseFields(orderId, overrides)).toString());

beforeAll(async () => {
  standIn = await startPaytm();
  paytm = adapter();
});
beforeEach(() => {
  standIn.mode = 'ok';
});
afterAll(async () => {
  await standIn.close();
  for (const message of messages) expect(message).not.toContain(standIn.merchantKey);
});

describe('Paytm adapter (issue 22)', () => {
  it("initiates a signed transaction for the amount in rupees, then gives the documented form post of mid, orderId and txnToken", async () => {
    const request = checkoutRequest();
    const checkout = await paytm.createCheckout!(request);
    const orderId = paytmOrderId('b-1001', request.idempotencyKey);
    expect(orderId).toMatch(/^b-1001\.[A-Za-z0-9]{12}$/);
    const stored = standIn.orders.get(orderId);
    expect(checkout).toEqual({ kind: 'form', action: `${standIn.url}/theia/api/v1/showPaymentPage?mid=${standIn.mid}&orderId=${encodeURIComponent(orderId)}`, fields: { mid: standIn.mid, orderId, txnToken: stored?.txnToken }, checkoutId: orderId });
    const seen = standIn.requests.find((candidate) => candidate.path === '/theia/api/v1/initiateTransaction' && candidate.params?.orderId === orderId);
    expect(seen?.query.get('mid')).toBe(standIn.mid);
    expect(seen?.params).toMatchObject({ requestType: 'Payment', mid: standIn.mid, websiteName: 'WEBSTAGING', callbackUrl: request.returnUrl, txnAmount: { value: '1234.56', currency: 'INR' }, userInfo: { custId: 'u-1', mobile: '9876543210', email: 'rider@example.com', firstName: 'Asha', lastName: 'Rao' } });
    expect(seen?.body).not.toContain(standIn.merchantKey);
    // The same key again: the same order, not a second one.
    await paytm.createCheckout!({ ...request });
    expect([...standIn.orders.keys()].filter((candidate) => candidate === orderId)).toHaveLength(1);
  });

  it('the page takes the posted form; a wrong token is refused', async () => {
    const checkout = await paytm.createCheckout!(checkoutRequest());
    if (checkout.kind !== 'form') throw new Error('not a form');
    const post = (fields: Record<string, string>) => fetch(checkout.action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
    expect(await (await post(checkout.fields)).text()).toContain('₹1234.56');
    expect((await post({ ...checkout.fields, txnToken: 'guessed' })).status).toBe(400);
  });

  it('a currency other than INR, or a key that does not sign (a wrong merchant key), is refused, not an outage', async () => {
    expect(await failure(paytm.createCheckout!(checkoutRequest({ currency: 'USD' })))).not.toBeInstanceOf(ProviderUnavailableError);
    expect(await failure(adapter({ PAYTM_MERCHANT_KEY: 'AAAAAAAAAAAAAAAA' }).createCheckout!(checkoutRequest()))).not.toBeInstanceOf(ProviderUnavailableError);
    expect(paytm.currencies).toEqual(['INR']);
  });

  it('looks up a paid order (TXN_SUCCESS), a declined one, an open one (PENDING) and an unknown one', async () => {
    const paid = await order();
    expect(await paytm.lookup!(paid)).toEqual({ type: 'payment_succeeded', eventId: `order:${paid}:payment_succeeded`, reference: 'b-1001', transactionId: paid, amountMinor: 123_456, currency: 'INR' });
    expect(await paytm.lookup!(await order({}, 'declined'))).toMatchObject({ type: 'payment_failed' });
    expect(await paytm.lookup!(await order({}, false))).toBeUndefined();
    expect(await paytm.lookup!('b-9.nothing')).toBeUndefined();
  });

  it.each(['hang', 'fail', 'garbage', 'wrongShape'] as const)('Paytm %s: checkout and lookup answer ProviderUnavailableError, quickly', async (mode) => {
    const open = await order();
    standIn.mode = mode;
    const started = Date.now();
    expect(await failure(paytm.createCheckout!(checkoutRequest()))).toBeInstanceOf(ProviderUnavailableError);
    expect(await failure(paytm.lookup!(open))).toBeInstanceOf(ProviderUnavailableError);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 2 + 2000);
  });

  it("verifies a webhook's CHECKSUMHASH with the library, then asks the Transaction Status API; its own figures are not believed", async () => {
    const paid = await order();
    const asked = standIn.requests.length;
    expect(await paytm.parseNotification!(await webhook(paid, { TXNAMOUNT: '1.00' }), {})).toMatchObject({ type: 'payment_succeeded', eventId: `order:${paid}:payment_succeeded`, reference: 'b-1001', transactionId: paid, amountMinor: 123_456, currency: 'INR' });
    expect(standIn.requests.slice(asked).map((seen) => seen.path)).toEqual(['/v3/order/status']);
  });

  it('a webhook whose fields or CHECKSUMHASH were altered, signed with another key, or unsigned is NotificationSignatureError, and Paytm is not asked', async () => {
    const paid = await order();
    const fields = await standIn.responseFields(paid);
    const otherKey = await PaytmChecksum.generateSignature(Object.fromEntries(Object.entries(fields).filter(([name]) => name !== 'CHECKSUMHASH')), 'BBBBBBBBBBBBBBBB');
    const { CHECKSUMHASH: _dropped, ...unsigned } = fields;
    const before = standIn.requests.length;
    for (const sent of [{ ...fields, TXNAMOUNT: '1.00' }, { ...fields, CHECKSUMHASH: otherKey }, unsigned, { ...fields, CHECKSUMHASH: 'not base64 at all' }, { ...fields, STATUS: 'TXN_SUCCESS', ORDERID: 'b-2.someoneelse' }]) {
      expect(await failure(paytm.parseNotification!(Buffer.from(new URLSearchParams(sent).toString()), {}))).toBeInstanceOf(NotificationSignatureError);
    }
    expect(standIn.requests.length).toBe(before);
  });

  it('a webhook Paytm cannot confirm now is ProviderUnavailableError; another merchant\'s is ignored', async () => {
    const paid = await order();
    standIn.mode = 'fail';
    expect(await failure(paytm.parseNotification!(await webhook(paid), {}))).toBeInstanceOf(ProviderUnavailableError);
    standIn.mode = 'ok';
    expect(await paytm.parseNotification!(await webhook(paid, { MID: 'SOMEONE00000000000' }), {})).toMatchObject({ type: 'ignored' });
  });

  it('refunds with our key as refId: PENDING stays retryable, the same key is found (never twice), TXN_SUCCESS settles it', async () => {
    const paid = await order();
    const first = { transactionId: paid, amountMinor: 20_000, currency: 'INR', idempotencyKey: key() };
    expect(await failure(paytm.refund(first))).toBeInstanceOf(RetryableRefundError);
    const made = [...standIn.refunds.values()].filter((refund) => refund.orderId === paid);
    expect(made).toMatchObject([{ refId: first.idempotencyKey, amount: '200.00', txnId: standIn.orders.get(paid)?.txnId, status: 'PENDING' }]);
    expect(await failure(paytm.refund(first))).toBeInstanceOf(RetryableRefundError);
    standIn.processRefund(first.idempotencyKey);
    expect(await paytm.refund(first)).toEqual({ status: 'succeeded', providerRefundId: made[0]?.refundId });
    expect([...standIn.refunds.values()].filter((refund) => refund.orderId === paid)).toHaveLength(1);
    expect(await paytm.refund({ transactionId: paid, amountMinor: 200_000, currency: 'INR', idempotencyKey: key() })).toMatchObject({ status: 'failed' });
    expect(await paytm.refund({ transactionId: await order({}, 'declined'), amountMinor: 100, currency: 'INR', idempotencyKey: key() })).toMatchObject({ status: 'failed' });
  });

  it.each(['hang', 'fail', 'garbage', 'wrongShape'] as const)('a refund while Paytm is %s is RetryableRefundError', async (mode) => {
    const paid = await order();
    standIn.mode = mode;
    expect(await failure(paytm.refund({ transactionId: paid, amountMinor: 100, currency: 'INR', idempotencyKey: key() }))).toBeInstanceOf(RetryableRefundError);
    standIn.mode = 'ok';
    expect([...standIn.refunds.values()].filter((refund) => refund.orderId === paid)).toEqual([]);
  });

  it('names its test mode and payment page hosts; refuses half a configuration', () => {
    expect(paytm.testMode).toBe(true);
    expect(paytmCheckoutOrigins({ PAYTM_API_URL: undefined })).toEqual(['https://securegw.paytm.in']);
    expect(paytm.policy?.formAction).toEqual(['https://securegw.paytm.in', standIn.url]);
    expect(() => loadConfig({ PAYTM_MERCHANT_ID: 'RIDEWY00000001' })).toThrow(/PAYTM_MERCHANT_KEY/);
    expect(() => loadConfig({ PAYTM_MERCHANT_ID: 'RIDEWY00000001', PAYTM_MERCHANT_KEY: 'short' })).toThrow(/PAYTM_MERCHANT_KEY/);
    expect(() => loadConfig({ PAYTM_MERCHANT_ID: 'RIDEWY00000001', PAYTM_MERCHANT_KEY: 'AAAAAAAAAAAAAAAA', PAYTM_WEBSITE: 'WEBSTAGING' })).toThrow(/securegw-stage/);
    expect(paytmProvider(loadConfig({ PAYTM_MERCHANT_ID: 'RIDEWY00000001', PAYTM_MERCHANT_KEY: 'AAAAAAAAAAAAAAAA' })).testMode).toBe(false);
  });
});
