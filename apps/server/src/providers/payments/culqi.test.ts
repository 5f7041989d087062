import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startCulqi, type CulqiStandIn } from '../../../test/stand-ins/culqi';
import { loadConfig } from '../../config';
import { culqiProvider, type CulqiClientSettings } from './culqi';
import { NotificationSignatureError, ProviderUnavailableError, RetryableRefundError, type CheckoutRequest, type PaymentProviderPort } from './port';
import { failureLog } from './adapter-test-kit';

/** Short on purpose: a hanging stand-in must fail fast on a loaded machine. */
const TIMEOUT_MS = 400;

let standIn: CulqiStandIn;
let culqi: PaymentProviderPort;
const { messages, failure, key } = failureLog();

const adapter = (extra: Record<string, string> = {}) =>
  culqiProvider(loadConfig({ CULQI_PUBLIC_KEY: standIn.publicKey, CULQI_SECRET_KEY: standIn.secretKey, CULQI_API_URL: standIn.url, PAYMENT_TIMEOUT_MS: String(TIMEOUT_MS), ...extra }));

const checkoutRequest = (overrides: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
  purpose: { kind: 'booking', bookingId: 'b-2001' },
  reference: 'b-2001',
  amountMinor: 4_590,
  currency: 'PEN',
  description: 'Rideway booking 2001',
  customer: { uid: 'u-2', email: 'rider@example.com', firstName: 'Rosa', lastName: 'Quispe', mobile: '+51900000000' },
  returnUrl: 'https://rideway.test/api/payments/culqi/return?attempt=a-2',
  cancelUrl: 'https://rideway.test/api/payments/culqi/return?attempt=a-2&cancelled=1',
  idempotencyKey: key(),
  ...overrides,
});

/** The server's own record of the checkout, as the core adds it to the browser's token. */
const expected = (request: CheckoutRequest) => ({ amount_minor: String(request.amountMinor), currency: request.currency, reference: request.reference });

beforeAll(async () => {
  standIn = await startCulqi();
  culqi = adapter();
});
beforeEach(() => {
  standIn.mode = 'ok';
});
afterAll(async () => {
  await standIn.close();
  for (const message of messages) expect(message).not.toContain(standIn.secretKey);
});

describe('Culqi adapter (issue 22)', () => {
  it("a client checkout: Culqi Checkout's settings (public key, never the secret; céntimos) and the configured script", async () => {
    const checkout = await culqi.createCheckout!(checkoutRequest());
    expect(checkout.kind).toBe('client');
    if (checkout.kind !== 'client') return;
    const settings = JSON.parse(checkout.clientToken) as CulqiClientSettings;
    expect(settings).toMatchObject({ publicKey: standIn.publicKey, amount: 4590, currency: 'PEN' });
    expect(checkout.clientToken).not.toContain(standIn.secretKey);
    expect(checkout.script).toBe('https://checkout.culqi.com/js/v4');
    expect(culqi.policy).toMatchObject({ script: ['https://checkout.culqi.com'], connect: expect.arrayContaining(['https://secure.culqi.com']) });
  });

  it("complete charges the token for the server's amount with our reference; the same token cannot charge twice; lookup finds the charge", async () => {
    const request = checkoutRequest({ reference: 'b-paid' });
    const checkout = await culqi.createCheckout!(request);
    const token = await standIn.tokenize('ana@example.pe');
    const event = await culqi.complete!(checkout.checkoutId, { payment_method_nonce: token, ...expected(request) }, key());
    expect(event).toMatchObject({ type: 'payment_succeeded', reference: 'b-paid', amountMinor: 4_590, currency: 'PEN' });
    const charge = [...standIn.charges.values()].find((candidate) => candidate.token === token);
    expect(charge).toMatchObject({ amount: 4590, currency: 'PEN', email: 'ana@example.pe', metadata: { rideway_reference: 'b-paid' } });
    expect(await failure(culqi.complete!(checkout.checkoutId, { payment_method_nonce: token, ...expected(request) }, key()))).not.toBeInstanceOf(ProviderUnavailableError);
    expect(standIn.charges.size).toBe(1);
    expect(await culqi.lookup!(checkout.checkoutId)).toEqual(event);
    expect(await culqi.lookup!((await culqi.createCheckout!(checkoutRequest({ reference: 'b-paid' }))).checkoutId)).toBeUndefined();
  });

  it('a declined card is payment_failed; an amount or reference other than the checkout one is refused before Culqi is asked', async () => {
    const request = checkoutRequest({ reference: 'b-declined' });
    const checkout = await culqi.createCheckout!(request);
    const declined = await culqi.complete!(checkout.checkoutId, { payment_method_nonce: await standIn.tokenize('x@example.pe', '4000020000000000'), ...expected(request) }, key());
    expect(declined).toMatchObject({ type: 'payment_failed', reference: 'b-declined' });
    const before = standIn.requests.length;
    const token = await standIn.tokenize();
    await failure(culqi.complete!(checkout.checkoutId, { payment_method_nonce: token, ...expected(request), amount_minor: '100' }, key()));
    await failure(culqi.complete!(checkout.checkoutId, { payment_method_nonce: token, ...expected(request), reference: 'b-other' }, key()));
    expect(standIn.requests.slice(before).filter((seen) => seen.path !== '/v2/tokens')).toEqual([]);
  });

  it('an event is confirmed by fetching its charge; a charge Culqi does not have is refused; an altered amount is not believed', async () => {
    const request = checkoutRequest({ reference: 'b-event' });
    const checkout = await culqi.createCheckout!(request);
    const token = await standIn.tokenize();
    const event = await culqi.complete!(checkout.checkoutId, { payment_method_nonce: token, ...expected(request) }, key());
    const charge = standIn.chargeJson(event.type === 'payment_succeeded' ? event.transactionId : '');
    const sent = standIn.event('charge.creation.succeeded', { ...charge, amount: 1 });
    expect(await culqi.parseNotification!(sent.rawBody, sent.headers)).toEqual(event);
    const forged = standIn.event('charge.creation.succeeded', { ...charge, id: 'chr_test_doesnotexist' });
    expect(await failure(culqi.parseNotification!(forged.rawBody, forged.headers))).toBeInstanceOf(NotificationSignatureError);
    const other = standIn.event('refund.creation.succeeded', { id: 'ref_test_x' });
    expect(await culqi.parseNotification!(other.rawBody, other.headers)).toMatchObject({ type: 'ignored' });
  });

  it('refunds in part, and asked again with the same key finds the first refund', async () => {
    const request = checkoutRequest({ reference: 'b-refund' });
    const checkout = await culqi.createCheckout!(request);
    const event = await culqi.complete!(checkout.checkoutId, { payment_method_nonce: await standIn.tokenize(), ...expected(request) }, key());
    const transactionId = event.type === 'payment_succeeded' ? event.transactionId : '';
    const idempotencyKey = key();
    const first = await culqi.refund({ transactionId, amountMinor: 1_000, currency: 'PEN', idempotencyKey });
    expect(first).toMatchObject({ status: 'succeeded' });
    expect(await culqi.refund({ transactionId, amountMinor: 1_000, currency: 'PEN', idempotencyKey })).toEqual(first);
    expect([...standIn.refunds.values()].filter((refund) => refund.chargeId === transactionId).map((refund) => refund.amount)).toEqual([1000]);
    expect(await culqi.refund({ transactionId, amountMinor: 9_000, currency: 'PEN', idempotencyKey: key() })).toMatchObject({ status: 'failed' });
  });

  it.each(['hang', 'fail', 'garbage', 'wrongShape'] as const)('Culqi %s: the outcome is unknown', async (mode) => {
    const request = checkoutRequest({ reference: `b-${mode}` });
    const checkout = await culqi.createCheckout!(request);
    const token = await standIn.tokenize();
    standIn.mode = mode;
    expect(await failure(culqi.complete!(checkout.checkoutId, { payment_method_nonce: token, ...expected(request) }, key()))).toBeInstanceOf(ProviderUnavailableError);
    expect(await failure(culqi.lookup!(checkout.checkoutId))).toBeInstanceOf(ProviderUnavailableError);
    const sent = standIn.event('charge.creation.succeeded', { id: 'chr_test_abcdef' });
    expect(await failure(culqi.parseNotification!(sent.rawBody, sent.headers))).toBeInstanceOf(ProviderUnavailableError);
    expect(await failure(culqi.refund({ transactionId: 'chr_test_abcdef', amountMinor: 500, currency: 'PEN', idempotencyKey: key() }))).toBeInstanceOf(RetryableRefundError);
  });
});
