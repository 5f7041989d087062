import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPaystack, type PaystackStandIn } from '../../../test/stand-ins/paystack';
import { loadConfig } from '../../config';
import { paystackCheckoutOrigins, paystackProvider } from './paystack';
import { NotificationSignatureError, ProviderUnavailableError, RetryableRefundError, type CheckoutRequest, type PaymentProviderPort } from './port';
import { failureLog } from './adapter-test-kit';

/** Short on purpose: a hanging stand-in must fail fast on a loaded machine, never wait for the 15 s default. */
const TIMEOUT_MS = 400;

let standIn: PaystackStandIn;
let paystack: PaymentProviderPort;
const { messages, failure, key } = failureLog();

const adapter = (extra: Record<string, string> = {}) => paystackProvider(loadConfig({ PAYSTACK_SECRET_KEY: standIn.secretKey, PAYSTACK_API_URL: standIn.url, PAYMENT_TIMEOUT_MS: String(TIMEOUT_MS), ...extra }));

const checkoutRequest = (overrides: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
  purpose: { kind: 'booking', bookingId: 'b-1001' },
  reference: 'b-1001',
  amountMinor: 123_456,
  currency: 'NGN',
  description: 'Rideway booking 1001',
  customer: { uid: 'u-1', email: 'rider@example.com', firstName: 'Ada', lastName: 'Obi', mobile: '+2348000000000' },
  returnUrl: 'https://rideway.test/api/payments/paystack/return?attempt=a-1',
  cancelUrl: 'https://rideway.test/api/payments/paystack/return?attempt=a-1&cancelled=1',
  idempotencyKey: key(),
  ...overrides,
});

/** A transaction initialized through the adapter and settled on the hosted page (or left open). */
async function transaction(overrides: Partial<CheckoutRequest> = {}, settle: 'success' | 'failed' | false = 'success') {
  const checkout = await paystack.createCheckout!(checkoutRequest(overrides));
  if (settle) standIn.settle(checkout.checkoutId, settle);
  return checkout.checkoutId;
}

beforeAll(async () => {
  standIn = await startPaystack();
  paystack = adapter();
});
beforeEach(() => {
  standIn.mode = 'ok';
});
afterAll(async () => {
  await standIn.close();
  // No error the adapter gave carries the secret key.
  for (const message of messages) expect(message).not.toContain(standIn.secretKey);
});

describe('Paystack adapter (issue 22)', () => {
  it('initializes a transaction for the amount in kobo, our reference in metadata, and redirects to authorization_url', async () => {
    const request = checkoutRequest();
    const checkout = await paystack.createCheckout!(request);
    expect(checkout).toEqual({ kind: 'redirect', url: expect.stringMatching(new RegExp(`^${standIn.url}/checkout/[0-9a-f]+$`)), checkoutId: request.idempotencyKey });
    const sent = JSON.parse(standIn.requests.at(-1)?.body ?? '{}') as Record<string, unknown>;
    expect(sent).toMatchObject({ email: 'rider@example.com', amount: 123_456, currency: 'NGN', reference: request.idempotencyKey, callback_url: request.returnUrl, metadata: { rideway_reference: 'b-1001', cust_id: 'u-1', cancel_action: request.cancelUrl, custom_fields: expect.arrayContaining([{ display_name: 'Mobile', variable_name: 'mobile_no', value: '+2348000000000' }]) } });
    expect(standIn.requests.at(-1)?.headers.authorization).toBe(`Bearer ${standIn.secretKey}`);
    // The same key again: Paystack refuses the duplicate reference; nothing is created twice.
    expect(await failure(paystack.createCheckout!({ ...request }))).not.toBeInstanceOf(ProviderUnavailableError);
    expect([...standIn.transactions.values()].filter((candidate) => candidate.reference === request.idempotencyKey)).toHaveLength(1);
  });

  it('a rider without an email gets a placeholder at our host (Paystack requires one)', async () => {
    await paystack.createCheckout!(checkoutRequest({ customer: { uid: 'u-2', email: '', firstName: 'A', lastName: 'B', mobile: '' } }));
    expect(JSON.parse(standIn.requests.at(-1)?.body ?? '{}')).toMatchObject({ email: 'rider-u-2@rideway.test' });
  });

  it('a currency Paystack does not take is refused (not an outage), and a zero-decimal fraction never reaches it', async () => {
    expect(await failure(paystack.createCheckout!(checkoutRequest({ currency: 'EUR' })))).not.toBeInstanceOf(ProviderUnavailableError);
    expect(paystack.currencies).toEqual(['NGN', 'GHS', 'ZAR', 'KES', 'USD']);
  });

  it('looks up a paid transaction (success), a declined one (failed), and an open one (nothing yet)', async () => {
    const paid = await transaction();
    expect(await paystack.lookup!(paid)).toEqual({ type: 'payment_succeeded', eventId: `transaction:${paid}:payment_succeeded`, reference: 'b-1001', transactionId: paid, amountMinor: 123_456, currency: 'NGN' });
    const declined = await transaction({}, 'failed');
    expect(await paystack.lookup!(declined)).toMatchObject({ type: 'payment_failed', transactionId: declined });
    expect(await paystack.lookup!(await transaction({}, false))).toBeUndefined();
    expect(await paystack.lookup!('no-such-reference')).toBeUndefined();
  });

  it.each(['hang', 'fail', 'garbage', 'wrongShape'] as const)('Paystack %s: checkout and lookup answer ProviderUnavailableError, quickly', async (mode) => {
    const open = await transaction();
    standIn.mode = mode;
    const started = Date.now();
    expect(await failure(paystack.createCheckout!(checkoutRequest()))).toBeInstanceOf(ProviderUnavailableError);
    expect(await failure(paystack.lookup!(open))).toBeInstanceOf(ProviderUnavailableError);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 2 + 2000);
  });

  it("verifies a webhook's HMAC-SHA512 signature, then asks Paystack itself (verify) for the money", async () => {
    const reference = await transaction();
    const { rawBody, headers } = standIn.signedWebhook('charge.success', standIn.transactionJson(reference));
    const verifies = standIn.requests.filter((request) => request.path === `/transaction/verify/${reference}`).length;
    expect(await paystack.parseNotification!(rawBody, headers)).toMatchObject({ type: 'payment_succeeded', eventId: `transaction:${reference}:payment_succeeded`, reference: 'b-1001', transactionId: reference, amountMinor: 123_456 });
    expect(standIn.requests.filter((request) => request.path === `/transaction/verify/${reference}`)).toHaveLength(verifies + 1);
  });

  it('a notification whose body or signature was altered, or without one, is NotificationSignatureError, and Paystack is not asked', async () => {
    const reference = await transaction();
    const { rawBody, headers } = standIn.signedWebhook('charge.success', { ...standIn.transactionJson(reference), amount: 1 });
    const before = standIn.requests.length;
    const changed = Buffer.from(rawBody.toString('utf8').replace('"amount":1', '"amount":2'));
    const flipped = { ...headers, 'x-paystack-signature': `${headers['x-paystack-signature']?.slice(0, -1) ?? ''}${headers['x-paystack-signature']?.endsWith('0') ? '1' : '0'}` };
    const otherKey = { ...headers, 'x-paystack-signature': (await import('node:crypto')).createHmac('sha512', 'sk_test_another').update(rawBody).digest('hex') };
    const { 'x-paystack-signature': _dropped, ...unsigned } = headers;
    for (const [body, sent] of [[changed, headers], [rawBody, flipped], [rawBody, otherKey], [rawBody, unsigned], [rawBody, { ...headers, 'x-paystack-signature': 'short' }]] as const) {
      expect(await failure(paystack.parseNotification!(body, sent))).toBeInstanceOf(NotificationSignatureError);
    }
    expect(standIn.requests.length).toBe(before);
  });

  it("a signed notification's own figures are not believed: the verify answer's are", async () => {
    const reference = await transaction();
    const { rawBody, headers } = standIn.signedWebhook('charge.success', { ...standIn.transactionJson(reference), amount: 1, currency: 'USD' });
    expect(await paystack.parseNotification!(rawBody, headers)).toMatchObject({ amountMinor: 123_456, currency: 'NGN' });
  });

  it('a charge.success Paystack cannot verify now is ProviderUnavailableError (Paystack sends it again); other events are ignored', async () => {
    const reference = await transaction();
    const { rawBody, headers } = standIn.signedWebhook('charge.success', standIn.transactionJson(reference));
    standIn.mode = 'fail';
    expect(await failure(paystack.parseNotification!(rawBody, headers))).toBeInstanceOf(ProviderUnavailableError);
    standIn.mode = 'ok';
    const other = standIn.signedWebhook('transfer.success', { reference: 'TRF_1', amount: 100, currency: 'NGN', status: 'success' });
    expect(await paystack.parseNotification!(other.rawBody, other.headers)).toMatchObject({ type: 'ignored', providerType: 'transfer.success' });
    // A charge of someone else's integration code (no metadata reference of ours): recorded, not acted on.
    const foreign = await paystack.createCheckout!(checkoutRequest());
    standIn.settle(foreign.checkoutId, 'success');
    const stored = standIn.transactions.get(foreign.checkoutId);
    if (stored) stored.metadata = { something: 'else' };
    const theirs = standIn.signedWebhook('charge.success', standIn.transactionJson(foreign.checkoutId));
    expect(await paystack.parseNotification!(theirs.rawBody, theirs.headers)).toMatchObject({ type: 'ignored' });
  });

  it('refunds in part then the rest; a refund asked again (same key) is found, not made twice; processed is succeeded', async () => {
    const reference = await transaction();
    const first = { transactionId: reference, amountMinor: 20_000, currency: 'NGN', idempotencyKey: key() };
    expect(await failure(paystack.refund(first))).toBeInstanceOf(RetryableRefundError);
    const made = [...standIn.refunds.values()].filter((refund) => refund.reference === reference);
    expect(made).toMatchObject([{ amount: 20_000, status: 'pending', merchantNote: `rideway ${first.idempotencyKey}` }]);
    // Asked again while pending: still retryable, and no second refund.
    expect(await failure(paystack.refund(first))).toBeInstanceOf(RetryableRefundError);
    standIn.processRefund(made[0]?.id ?? 0);
    expect(await paystack.refund(first)).toEqual({ status: 'succeeded', providerRefundId: String(made[0]?.id) });
    expect([...standIn.refunds.values()].filter((refund) => refund.reference === reference)).toHaveLength(1);
    // More than is left: a refusal for good.
    expect(await paystack.refund({ transactionId: reference, amountMinor: 200_000, currency: 'NGN', idempotencyKey: key() })).toMatchObject({ status: 'failed' });
  });

  it.each(['hang', 'fail', 'garbage', 'wrongShape'] as const)('a refund while Paystack is %s is RetryableRefundError', async (mode) => {
    const reference = await transaction();
    standIn.mode = mode;
    expect(await failure(paystack.refund({ transactionId: reference, amountMinor: 100, currency: 'NGN', idempotencyKey: key() }))).toBeInstanceOf(RetryableRefundError);
    standIn.mode = 'ok';
    expect([...standIn.refunds.values()].filter((refund) => refund.reference === reference)).toEqual([]);
  });

  it('reads refund notifications; names its test mode and hosted page', async () => {
    const reference = await transaction();
    await failure(paystack.refund({ transactionId: reference, amountMinor: 500, currency: 'NGN', idempotencyKey: key() }));
    const refund = [...standIn.refunds.values()].find((candidate) => candidate.reference === reference);
    standIn.processRefund(refund?.id ?? 0);
    const { rawBody, headers } = standIn.signedWebhook('refund.processed', standIn.refundEventJson(refund?.id ?? 0));
    expect(await paystack.parseNotification!(rawBody, headers)).toMatchObject({ type: 'refund_succeeded', transactionId: reference, providerRefundId: String(refund?.id), amountMinor: 500, currency: 'NGN' });
    expect(paystack.testMode).toBe(true);
    expect(adapter({ PAYSTACK_SECRET_KEY: 'sk_live_0123456789abcdef' }).testMode).toBe(false);
    expect(paystackCheckoutOrigins({ PAYSTACK_API_URL: undefined })).toEqual(['https://checkout.paystack.com']);
    expect(paystack.policy?.formAction).toEqual(['https://checkout.paystack.com', standIn.url]);
  });
});
