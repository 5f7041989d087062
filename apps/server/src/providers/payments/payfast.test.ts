import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPayfast, type PayfastStandIn } from '../../../test/stand-ins/payfast';
import { loadConfig } from '../../config';
import { payfastCheckoutOrigins, payfastFormSignature, payfastProvider, phpUrlencode } from './payfast';
import { NotificationSignatureError, ProviderUnavailableError, type CheckoutRequest, type PaymentProviderPort } from './port';

/** Short on purpose: a hanging stand-in must fail fast on a loaded machine. */
const TIMEOUT_MS = 400;

let standIn: PayfastStandIn;
let payfast: PaymentProviderPort;

const adapter = (extra: Record<string, string> = {}) =>
  payfastProvider(loadConfig({ PAYFAST_MERCHANT_ID: standIn.merchantId, PAYFAST_MERCHANT_KEY: standIn.merchantKey, PAYFAST_PASSPHRASE: standIn.passphrase, PAYFAST_API_URL: standIn.url, PAYMENT_TIMEOUT_MS: String(TIMEOUT_MS), ...extra }));

let keys = 0;
const checkoutRequest = (overrides: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
  purpose: { kind: 'booking', bookingId: 'b-1001' },
  reference: 'b-1001',
  amountMinor: 123_450,
  currency: 'ZAR',
  description: "Rideway booking 1001 (O'Neil & sons ~ café)",
  customer: { uid: 'u-1', email: 'rider@example.com', firstName: 'Thabo', lastName: 'Mbeki', mobile: '+27 82 123 4567' },
  returnUrl: 'https://rideway.test/api/payments/payfast/return?attempt=a-1',
  cancelUrl: 'https://rideway.test/api/payments/payfast/return?attempt=a-1&cancelled=1',
  idempotencyKey: `attempt-${String(++keys)}`,
  ...overrides,
});

/** Posts the adapter's form to the stand-in as a browser would: the payment's PayFast id, or undefined when PayFast refused the form. */
async function posted(request: CheckoutRequest = checkoutRequest()): Promise<string | undefined> {
  const checkout = await payfast.createCheckout!(request);
  if (checkout.kind !== 'form') throw new Error('not a form');
  const before = new Set(standIn.payments.keys());
  const answer = await fetch(checkout.action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(checkout.fields).toString() });
  await answer.text();
  return [...standIn.payments.keys()].find((id) => !before.has(id));
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
  standIn = await startPayfast();
  standIn.deliver = false;
  payfast = adapter();
});
beforeEach(() => {
  standIn.mode = 'ok';
});
afterAll(async () => {
  await standIn.close();
});

describe('PayFast adapter (issue 22)', () => {
  it('encodes as PHP urlencode does (upper-case escapes, spaces as +)', () => {
    expect(phpUrlencode("a b~c!d'e(f)*g/h:é")).toBe('a+b%7Ec%21d%27e%28f%29%2Ag%2Fh%3A%C3%A9');
  });

  it('builds the signed checkout form, which PayFast accepts: rand with two decimals, our reference in custom_str1, a South African cell number', async () => {
    const request = checkoutRequest();
    const checkout = await payfast.createCheckout!(request);
    expect(checkout).toMatchObject({ kind: 'form', action: `${standIn.url}/eng/process`, checkoutId: request.idempotencyKey });
    if (checkout.kind !== 'form') return;
    expect(checkout.fields).toMatchObject({ merchant_id: standIn.merchantId, merchant_key: standIn.merchantKey, amount: '1234.50', m_payment_id: request.idempotencyKey, custom_str1: 'b-1001', cell_number: '0821234567', notify_url: 'https://rideway.test/api/payments/payfast/webhook', return_url: request.returnUrl, cancel_url: request.cancelUrl });
    expect(checkout.fields.signature).toMatch(/^[0-9a-f]{32}$/);
    expect(await posted(request)).toBeDefined();
    expect(standIn.refused).toEqual([]);
  });

  it('a form whose amount was changed in the browser is refused by PayFast (the signature)', async () => {
    const checkout = await payfast.createCheckout!(checkoutRequest());
    if (checkout.kind !== 'form') return;
    const answer = await fetch(checkout.action, { method: 'POST', body: new URLSearchParams({ ...checkout.fields, amount: '5.00' }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(answer.status).toBe(400);
    expect(standIn.refused.at(-1)).toMatch(/signature/);
    expect(payfastFormSignature({ merchant_id: '1', amount: '5.00' }, 'x')).not.toBe(payfastFormSignature({ merchant_id: '1', amount: '5.01' }, 'x'));
  });

  it('takes ZAR only', async () => {
    expect(await failure(payfast.createCheckout!(checkoutRequest({ currency: 'USD' })))).not.toBeInstanceOf(ProviderUnavailableError);
    expect(payfast.currencies).toEqual(['ZAR']);
  });

  it('an ITN whose signature verifies and which PayFast validates is the payment: COMPLETE succeeded, FAILED failed', async () => {
    const id = (await posted()) ?? '';
    const { rawBody, headers } = standIn.itn(id, 'COMPLETE');
    expect(await payfast.parseNotification!(rawBody, headers)).toEqual({ type: 'payment_succeeded', eventId: `itn:${id}:COMPLETE`, reference: 'b-1001', transactionId: id, amountMinor: 123_450, currency: 'ZAR' });
    expect(standIn.validations.at(-1)).toBe(rawBody.toString('utf8').replace(/&signature=[0-9a-f]+$/, ''));
    const declined = standIn.itn(id, 'FAILED');
    expect(await payfast.parseNotification!(declined.rawBody, declined.headers)).toMatchObject({ type: 'payment_failed', transactionId: id });
  });

  it('a forged or altered ITN (changed field, wrong passphrase, no signature, an unsigned field after it) is NotificationSignatureError, and PayFast is not asked', async () => {
    const id = (await posted()) ?? '';
    const { rawBody, headers } = standIn.itn(id, 'COMPLETE');
    const text = rawBody.toString('utf8');
    const before = standIn.validations.length;
    const { createHash } = await import('node:crypto');
    const unsignedPart = text.replace(/&signature=[0-9a-f]+$/, '');
    const forged = [
      text.replace('amount_gross=1234.50', 'amount_gross=1.00'),
      `${unsignedPart}&signature=${createHash('md5').update(`${unsignedPart}&passphrase=guessed`).digest('hex')}`,
      `${unsignedPart}&signature=${createHash('md5').update(unsignedPart).digest('hex')}`,
      unsignedPart,
      text.replace(/custom_str1=[^&]*/, 'custom_str1=').concat('&custom_str1=someone-else'),
    ];
    for (const body of forged) expect(await failure(payfast.parseNotification!(Buffer.from(body), headers))).toBeInstanceOf(NotificationSignatureError);
    // The one that reached the validate call (an unsigned duplicate field is refused first): none.
    expect(standIn.validations.length).toBe(before);
  });

  it('an ITN signed right that PayFast does not validate (INVALID) is NotificationSignatureError; one PayFast cannot validate now is ProviderUnavailableError, quickly', async () => {
    const id = (await posted()) ?? '';
    const { createHash } = await import('node:crypto');
    // Signed with the passphrase (a leaked one) but never sent by PayFast.
    const body = `m_payment_id=x&pf_payment_id=${id}&payment_status=COMPLETE&amount_gross=1234.50&custom_str1=b-1001&merchant_id=${standIn.merchantId}`;
    const made = `${body}&signature=${createHash('md5').update(`${body}&passphrase=${standIn.passphrase}`).digest('hex')}`;
    expect(await failure(payfast.parseNotification!(Buffer.from(made), {}))).toBeInstanceOf(NotificationSignatureError);
    const { rawBody, headers } = standIn.itn(id, 'COMPLETE');
    for (const mode of ['hang', 'fail'] as const) {
      standIn.mode = mode;
      const started = Date.now();
      expect(await failure(payfast.parseNotification!(rawBody, headers))).toBeInstanceOf(ProviderUnavailableError);
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 2000);
    }
  });

  it("refunds are the admin's, in PayFast's dashboard; names its sandbox and form target", async () => {
    expect(await payfast.refund({ transactionId: '1', amountMinor: 100, currency: 'ZAR', idempotencyKey: 'r-1' })).toMatchObject({ status: 'in_dashboard', note: expect.stringContaining("PayFast's dashboard") });
    expect(payfast.testMode).toBe(true);
    expect(payfast.policy?.formAction).toEqual([standIn.url]);
    expect(payfastCheckoutOrigins({ PAYFAST_API_URL: undefined, PAYFAST_SANDBOX: false })).toEqual(['https://www.payfast.co.za']);
    expect(payfastCheckoutOrigins({ PAYFAST_API_URL: undefined, PAYFAST_SANDBOX: true })).toEqual(['https://sandbox.payfast.co.za']);
    expect(adapter({ PAYFAST_API_URL: '' }).testMode).toBe(false);
  });
});
