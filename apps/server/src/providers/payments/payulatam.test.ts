import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPayulatam, type PayuStandIn } from '../../../test/stand-ins/payulatam';
import { loadConfig } from '../../config';
import { NotificationSignatureError, ProviderUnavailableError, RetryableRefundError, type CheckoutRequest, type PaymentProviderPort } from './port';
import { payuConfirmationSign, payuNewValue, payulatamCheckoutOrigins, payulatamProvider } from './payulatam';

/** Short on purpose: a hanging stand-in must fail fast on a loaded machine. */
const TIMEOUT_MS = 400;

let standIn: PayuStandIn;
let payu: PaymentProviderPort;

const adapter = (extra: Record<string, string> = {}) =>
  payulatamProvider(loadConfig({ PAYULATAM_API_KEY: standIn.apiKey, PAYULATAM_API_LOGIN: standIn.apiLogin, PAYULATAM_MERCHANT_ID: standIn.merchantId, PAYULATAM_ACCOUNT_ID: standIn.accountId, PAYULATAM_TEST: '1', PAYULATAM_API_URL: standIn.url, PAYMENT_TIMEOUT_MS: String(TIMEOUT_MS), ...extra }));

let keys = 0;
const checkoutRequest = (overrides: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
  purpose: { kind: 'booking', bookingId: 'b-1001' },
  reference: 'b-1001',
  amountMinor: 1_234_500,
  currency: 'COP',
  description: 'Rideway booking 1001',
  customer: { uid: 'u-1', email: 'rider@example.com', firstName: 'Ana', lastName: 'Gómez', mobile: '+573001234567' },
  returnUrl: 'https://rideway.test/api/payments/payulatam/return?attempt=a-1',
  cancelUrl: 'https://rideway.test/api/payments/payulatam/return?attempt=a-1&cancelled=1',
  idempotencyKey: `attempt-${String(++keys)}`,
  ...overrides,
});

/** Posts the adapter's form to the stand-in and clicks: the order's id and reference code. */
async function paid(action: 'pay' | 'decline' | false = 'pay', request: CheckoutRequest = checkoutRequest()) {
  const checkout = await payu.createCheckout!(request);
  if (checkout.kind !== 'form') throw new Error('not a form');
  const page = await (await fetch(checkout.action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(checkout.fields).toString() })).text();
  const orderId = Number(/ppp-web-gateway-payu\/(\d+)\/pay/.exec(page)?.[1]);
  if (!orderId) throw new Error(`refused: ${String(standIn.refused.at(-1))}`);
  if (action) await fetch(`${standIn.url}/ppp-web-gateway-payu/${String(orderId)}/${action}`, { method: 'POST', redirect: 'manual' });
  const order = standIn.orders.get(orderId);
  return { orderId, referenceCode: checkout.checkoutId, transactionId: order?.transactions.at(-1)?.id ?? '' };
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
  }
  throw new Error('expected a failure');
}

beforeAll(async () => {
  standIn = await startPayulatam();
  standIn.deliver = false;
  payu = adapter();
});
beforeEach(() => {
  standIn.mode = 'ok';
});
afterAll(async () => {
  await standIn.close();
});

describe('PayU Latam adapter (issue 22)', () => {
  it("the confirmation's new_value: one decimal when the second is 0, else two", () => {
    expect(['150.00', '150.20', '150.26', '150', '150.5', '0.10'].map(payuNewValue)).toEqual(['150.0', '150.2', '150.26', '150.0', '150.5', '0.1']);
    expect(payuNewValue('1e3')).toBeUndefined();
    expect(payuConfirmationSign('4Vj8eK4rloUd272L48hsrarnUA', { merchantId: '508029', referenceSale: 'TestPayU', value: '3.00', currency: 'USD', statePol: '6' })).toMatch(/^[0-9a-f]{32}$/);
  });

  it('builds the signed WebCheckout form, which PayU accepts: the amount as a decimal, our reference in referenceCode', async () => {
    const request = checkoutRequest();
    const checkout = await payu.createCheckout!(request);
    expect(checkout).toMatchObject({ kind: 'form', action: `${standIn.url}/ppp-web-gateway-payu/`, checkoutId: `b-1001.${request.idempotencyKey}` });
    if (checkout.kind !== 'form') return;
    expect(checkout.fields).toMatchObject({ merchantId: standIn.merchantId, accountId: standIn.accountId, amount: '12345.00', currency: 'COP', tax: '0', taxReturnBase: '0', test: '1', buyerEmail: 'rider@example.com', responseUrl: request.returnUrl, confirmationUrl: 'https://rideway.test/api/payments/payulatam/webhook', extra1: 'b-1001' });
    expect((await paid(false, request)).orderId).toBeGreaterThan(0);
    // The amount changed in the browser: PayU refuses the signature.
    const page = await fetch(checkout.action, { method: 'POST', body: new URLSearchParams({ ...checkout.fields, amount: '1.00' }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(page.status).toBe(400);
    expect(await failure(payu.createCheckout!(checkoutRequest({ currency: 'EUR' })))).not.toBeInstanceOf(ProviderUnavailableError);
  });

  it('looks up an approved order (succeeded), a declined one (failed), and an open or unknown one (nothing yet)', async () => {
    const approved = await paid();
    expect(await payu.lookup!(approved.referenceCode)).toEqual({ type: 'payment_succeeded', eventId: `transaction:${String(approved.orderId)}/${approved.transactionId}:payment_succeeded`, reference: 'b-1001', transactionId: `${String(approved.orderId)}/${approved.transactionId}`, amountMinor: 1_234_500, currency: 'COP' });
    expect(await payu.lookup!((await paid('decline')).referenceCode)).toMatchObject({ type: 'payment_failed' });
    expect(await payu.lookup!((await paid(false)).referenceCode)).toBeUndefined();
    expect(await payu.lookup!('b-1.unknown')).toBeUndefined();
  });

  it.each(['hang', 'fail'] as const)('PayU %s: the lookup answers ProviderUnavailableError, quickly', async (mode) => {
    const { referenceCode } = await paid();
    standIn.mode = mode;
    const started = Date.now();
    expect(await failure(payu.lookup!(referenceCode))).toBeInstanceOf(ProviderUnavailableError);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 2000);
  });

  it("a confirmation whose sign verifies is checked with the Queries API: the query's figures, not the confirmation's", async () => {
    const { orderId, transactionId } = await paid();
    const { rawBody, headers } = standIn.confirmation(orderId, transactionId, { value: '1.00' });
    expect(await payu.parseNotification!(rawBody, headers)).toMatchObject({ type: 'payment_succeeded', reference: 'b-1001', amountMinor: 1_234_500, currency: 'COP' });
    standIn.mode = 'fail';
    expect(await failure(payu.parseNotification!(rawBody, headers))).toBeInstanceOf(ProviderUnavailableError);
  });

  it('a forged or altered confirmation (changed state, value or reference, wrong key, no sign) is NotificationSignatureError', async () => {
    const { orderId, transactionId } = await paid('decline');
    const text = standIn.confirmation(orderId, transactionId).rawBody.toString('utf8');
    const { createHash } = await import('node:crypto');
    const form = new URLSearchParams(text);
    const guessed = new URLSearchParams(text);
    guessed.set('sign', createHash('md5').update(`guessed~${standIn.merchantId}~${form.get('reference_sale') ?? ''}~12345.0~COP~4`).digest('hex'));
    guessed.set('state_pol', '4');
    const unsigned = new URLSearchParams(text);
    unsigned.delete('sign');
    for (const body of [text.replace('state_pol=6', 'state_pol=4'), text.replace(/value=[0-9.]+/, 'value=1.00'), text.replace(/reference_sale=[^&]+/, 'reference_sale=other.attempt'), guessed.toString(), unsigned.toString()]) {
      expect(await failure(payu.parseNotification!(Buffer.from(body), {}))).toBeInstanceOf(NotificationSignatureError);
    }
  });

  it('refunds through a REFUND transaction; asked again, the pending one is found (never twice); approved is succeeded; a part carries TX_VALUE', async () => {
    const { orderId, transactionId } = await paid();
    const request = { transactionId: `${String(orderId)}/${transactionId}`, amountMinor: 200_000, currency: 'COP', idempotencyKey: 'refund-1' };
    expect(await failure(payu.refund(request))).toBeInstanceOf(RetryableRefundError);
    expect(await failure(payu.refund(request))).toBeInstanceOf(RetryableRefundError);
    const refunds = standIn.orders.get(orderId)?.transactions.filter((transaction) => transaction.type === 'REFUND') ?? [];
    expect(refunds).toMatchObject([{ state: 'PENDING', value: 2000, parentTransactionId: transactionId }]);
    standIn.review(orderId, 'APPROVED');
    expect(await payu.refund(request)).toEqual({ status: 'succeeded', providerRefundId: refunds[0]?.id });
    expect(await payu.refund({ ...request, transactionId: 'nonsense' })).toMatchObject({ status: 'failed' });
    // PayU not answering: asked again later, nothing made.
    const other = await paid();
    standIn.mode = 'hang';
    expect(await failure(payu.refund({ ...request, transactionId: `${String(other.orderId)}/${other.transactionId}` }))).toBeInstanceOf(RetryableRefundError);
    standIn.mode = 'ok';
    expect(standIn.orders.get(other.orderId)?.transactions.filter((transaction) => transaction.type === 'REFUND')).toEqual([]);
  });

  it('names its test mode and form target', () => {
    expect(payu.testMode).toBe(true);
    expect(payu.policy?.formAction).toEqual([standIn.url]);
    expect(payulatamCheckoutOrigins({ PAYULATAM_API_URL: undefined, PAYULATAM_TEST: false })).toEqual(['https://checkout.payulatam.com']);
    expect(payulatamCheckoutOrigins({ PAYULATAM_API_URL: undefined, PAYULATAM_TEST: true })).toEqual(['https://sandbox.checkout.payulatam.com']);
    expect(payu.currencies).toEqual(['ARS', 'BRL', 'CLP', 'COP', 'MXN', 'PEN', 'USD']);
  });
});
