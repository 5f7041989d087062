import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFlutterwave, type FlutterwaveStandIn } from '../../../test/stand-ins/flutterwave';
import { loadConfig } from '../../config';
import { flutterwaveCheckoutOrigins, flutterwaveMoney, flutterwaveProvider, verifHashMatches } from './flutterwave';
import { NotificationSignatureError, ProviderUnavailableError, RetryableRefundError, type CheckoutRequest, type PaymentProviderPort } from './port';
import { failureLog } from './adapter-test-kit';

/** Short on purpose: a hanging stand-in must fail fast on a loaded machine. */
const TIMEOUT_MS = 400;

let standIn: FlutterwaveStandIn;
let flutterwave: PaymentProviderPort;
const { messages, failure, key } = failureLog();

const adapter = (extra: Record<string, string> = {}) =>
  flutterwaveProvider(loadConfig({ FLUTTERWAVE_SECRET_KEY: standIn.secretKey, FLUTTERWAVE_SECRET_HASH: standIn.secretHash, FLUTTERWAVE_API_URL: standIn.url, PAYMENT_TIMEOUT_MS: String(TIMEOUT_MS), ...extra }));

const checkoutRequest = (overrides: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
  purpose: { kind: 'booking', bookingId: 'b-2001' },
  reference: 'b-2001',
  amountMinor: 250_050,
  currency: 'KES',
  description: 'Rideway booking 2001',
  customer: { uid: 'u-1', email: 'rider@example.com', firstName: 'Wanjiru', lastName: 'Kamau', mobile: '+254700000000' },
  returnUrl: 'https://rideway.test/api/payments/flutterwave/return?attempt=a-1',
  cancelUrl: 'https://rideway.test/api/payments/flutterwave/return?attempt=a-1&cancelled=1',
  idempotencyKey: key(),
  ...overrides,
});

async function paid(overrides: Partial<CheckoutRequest> = {}, status: 'successful' | 'failed' | false = 'successful') {
  const checkout = await flutterwave.createCheckout!(checkoutRequest(overrides));
  const transaction = status ? standIn.pay(checkout.checkoutId, status) : undefined;
  return { txRef: checkout.checkoutId, id: transaction?.id ?? 0 };
}

beforeAll(async () => {
  standIn = await startFlutterwave();
  flutterwave = adapter();
});
beforeEach(() => {
  standIn.mode = 'ok';
  standIn.refundStatus = 'completed';
});
afterAll(async () => {
  await standIn.close();
  for (const message of messages) {
    expect(message).not.toContain(standIn.secretKey);
    expect(message).not.toContain(standIn.secretHash);
  }
});

describe('Flutterwave adapter (issue 22)', () => {
  it('creates a hosted payment for the amount as a decimal, our reference in meta, and redirects to its link', async () => {
    const request = checkoutRequest();
    const checkout = await flutterwave.createCheckout!(request);
    expect(checkout).toEqual({ kind: 'redirect', url: expect.stringMatching(new RegExp(`^${standIn.url}/v3/hosted/pay/[0-9a-f]+$`)), checkoutId: request.idempotencyKey });
    expect(JSON.parse(standIn.requests.at(-1)?.body ?? '{}')).toMatchObject({ tx_ref: request.idempotencyKey, amount: 2500.5, currency: 'KES', redirect_url: request.returnUrl, customer: { email: 'rider@example.com', name: 'Wanjiru Kamau' }, meta: { rideway_reference: 'b-2001' } });
    expect(standIn.requests.at(-1)?.headers.authorization).toBe(`Bearer ${standIn.secretKey}`);
  });

  it('a zero-decimal currency (UGX) goes as whole shillings; a fraction of one never reaches Flutterwave', async () => {
    await flutterwave.createCheckout!(checkoutRequest({ currency: 'UGX', amountMinor: 5_000_000 }));
    expect(JSON.parse(standIn.requests.at(-1)?.body ?? '{}')).toMatchObject({ amount: 50_000, currency: 'UGX' });
    const before = standIn.requests.length;
    await failure(flutterwave.createCheckout!(checkoutRequest({ currency: 'UGX', amountMinor: 5_000_050 })));
    expect(standIn.requests.length).toBe(before);
    expect(flutterwaveMoney(50_000, 'UGX')).toEqual({ amountMinor: 5_000_000, currency: 'UGX' });
    expect(flutterwaveMoney(12.345, 'KES')).toBeUndefined();
    expect(flutterwaveMoney(1e21, 'KES')).toBeUndefined();
  });

  it('looks up by tx_ref: successful, failed, and nothing yet', async () => {
    const ok = await paid();
    expect(await flutterwave.lookup!(ok.txRef)).toEqual({ type: 'payment_succeeded', eventId: `transaction:${String(ok.id)}:payment_succeeded`, reference: 'b-2001', transactionId: String(ok.id), amountMinor: 250_050, currency: 'KES' });
    const declined = await paid({}, 'failed');
    expect(await flutterwave.lookup!(declined.txRef)).toMatchObject({ type: 'payment_failed', transactionId: String(declined.id) });
    expect(await flutterwave.lookup!((await paid({}, false)).txRef)).toBeUndefined();
  });

  it.each(['hang', 'fail', 'garbage', 'wrongShape'] as const)('Flutterwave %s: checkout and lookup answer ProviderUnavailableError, quickly', async (mode) => {
    const open = await paid();
    standIn.mode = mode;
    const started = Date.now();
    expect(await failure(flutterwave.createCheckout!(checkoutRequest()))).toBeInstanceOf(ProviderUnavailableError);
    expect(await failure(flutterwave.lookup!(open.txRef))).toBeInstanceOf(ProviderUnavailableError);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 2 + 2000);
  });

  it("checks verif-hash, then verifies the transaction with Flutterwave: the notification's own figures are not believed", async () => {
    const ok = await paid();
    const { rawBody, headers } = standIn.signedWebhook('charge.completed', { ...standIn.transactionJson(ok.id), amount: 1, currency: 'NGN' });
    expect(await flutterwave.parseNotification!(rawBody, headers)).toMatchObject({ type: 'payment_succeeded', transactionId: String(ok.id), amountMinor: 250_050, currency: 'KES' });
    expect(standIn.requests.at(-1)?.path).toBe(`/v3/transactions/${String(ok.id)}/verify`);
  });

  it('a wrong or missing verif-hash is NotificationSignatureError and Flutterwave is not asked', async () => {
    const ok = await paid();
    const { rawBody, headers } = standIn.signedWebhook('charge.completed', standIn.transactionJson(ok.id));
    const before = standIn.requests.length;
    const { 'verif-hash': _dropped, ...unsigned } = headers;
    for (const sent of [{ ...headers, 'verif-hash': `${standIn.secretHash}x` }, { ...headers, 'verif-hash': standIn.secretHash.slice(1) }, { ...headers, 'verif-hash': standIn.secretKey }, unsigned]) {
      expect(await failure(flutterwave.parseNotification!(rawBody, sent))).toBeInstanceOf(NotificationSignatureError);
    }
    expect(standIn.requests.length).toBe(before);
    expect(verifHashMatches('a', 'a')).toBe(true);
    expect(verifHashMatches('a', undefined)).toBe(false);
  });

  it('a notification Flutterwave cannot verify now is ProviderUnavailableError; other events and foreign transactions are ignored', async () => {
    const ok = await paid();
    const { rawBody, headers } = standIn.signedWebhook('charge.completed', standIn.transactionJson(ok.id));
    standIn.mode = 'fail';
    expect(await failure(flutterwave.parseNotification!(rawBody, headers))).toBeInstanceOf(ProviderUnavailableError);
    standIn.mode = 'ok';
    const transfer = standIn.signedWebhook('transfer.completed', { id: 99, status: 'SUCCESSFUL' });
    expect(await flutterwave.parseNotification!(transfer.rawBody, transfer.headers)).toMatchObject({ type: 'ignored', providerType: 'transfer.completed' });
    const foreign = await paid();
    const transaction = standIn.transactions.get(foreign.id);
    if (transaction) transaction.meta = null;
    const theirs = standIn.signedWebhook('charge.completed', standIn.transactionJson(foreign.id));
    expect(await flutterwave.parseNotification!(theirs.rawBody, theirs.headers)).toMatchObject({ type: 'ignored' });
  });

  it('refunds in part (completed); the same key asked again finds that refund; more than is left is refused', async () => {
    const ok = await paid();
    const first = { transactionId: String(ok.id), amountMinor: 50_000, currency: 'KES', idempotencyKey: key() };
    const answer = await flutterwave.refund(first);
    expect(answer).toMatchObject({ status: 'succeeded' });
    expect(await flutterwave.refund(first)).toEqual(answer);
    expect([...standIn.refunds.values()].filter((refund) => refund.txId === ok.id)).toMatchObject([{ amount: 500, comments: `rideway ${first.idempotencyKey}` }]);
    expect(await flutterwave.refund({ transactionId: String(ok.id), amountMinor: 500_000, currency: 'KES', idempotencyKey: key() })).toMatchObject({ status: 'failed' });
  });

  it('a pending refund is RetryableRefundError, and asking again does not refund twice', async () => {
    const ok = await paid();
    standIn.refundStatus = 'pending';
    const request = { transactionId: String(ok.id), amountMinor: 10_000, currency: 'KES', idempotencyKey: key() };
    expect(await failure(flutterwave.refund(request))).toBeInstanceOf(RetryableRefundError);
    expect(await failure(flutterwave.refund(request))).toBeInstanceOf(RetryableRefundError);
    const made = [...standIn.refunds.values()].filter((refund) => refund.txId === ok.id);
    expect(made).toHaveLength(1);
    if (made[0]) made[0].status = 'completed';
    expect(await flutterwave.refund(request)).toEqual({ status: 'succeeded', providerRefundId: String(made[0]?.id) });
  });

  it.each(['hang', 'fail', 'garbage', 'wrongShape'] as const)('a refund while Flutterwave is %s is RetryableRefundError', async (mode) => {
    const ok = await paid();
    standIn.mode = mode;
    expect(await failure(flutterwave.refund({ transactionId: String(ok.id), amountMinor: 100, currency: 'KES', idempotencyKey: key() }))).toBeInstanceOf(RetryableRefundError);
    standIn.mode = 'ok';
    expect([...standIn.refunds.values()].filter((refund) => refund.txId === ok.id)).toEqual([]);
  });

  it('names its test mode, currencies and hosted page', () => {
    expect(flutterwave.testMode).toBe(true);
    expect(adapter({ FLUTTERWAVE_SECRET_KEY: 'FLWSECK-0123456789abcdef-X' }).testMode).toBe(false);
    expect(flutterwave.currencies).toContain('NGN');
    expect(flutterwaveCheckoutOrigins({ FLUTTERWAVE_API_URL: undefined })).toEqual(['https://checkout.flutterwave.com']);
    expect(flutterwave.policy?.formAction).toEqual(['https://checkout.flutterwave.com', standIn.url]);
  });
});
