import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMercadoPago, type MercadoPagoStandIn } from '../../../test/stand-ins/mercadopago';
import { loadConfig } from '../../config';
import { mercadopagoCheckoutOrigins, mercadopagoProvider } from './mercadopago';
import { NotificationSignatureError, ProviderUnavailableError, RetryableRefundError, type CheckoutRequest, type PaymentProviderPort } from './port';
import { failureLog } from './adapter-test-kit';

/** Short on purpose: a hanging stand-in must fail fast on a loaded machine, never wait for the 15 s default. */
const TIMEOUT_MS = 400;

let standIn: MercadoPagoStandIn;
let mercadopago: PaymentProviderPort;
const { messages, failure, key } = failureLog();

const adapter = (extra: Record<string, string> = {}) =>
  mercadopagoProvider(loadConfig({ MERCADOPAGO_ACCESS_TOKEN: standIn.accessToken, MERCADOPAGO_WEBHOOK_SECRET: standIn.webhookSecret, MERCADOPAGO_API_URL: standIn.url, PAYMENT_TIMEOUT_MS: String(TIMEOUT_MS), ...extra }));

const checkoutRequest = (overrides: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
  purpose: { kind: 'booking', bookingId: 'b-1001' },
  reference: 'b-1001',
  amountMinor: 123_450,
  currency: 'ARS',
  description: 'Rideway booking 1001',
  customer: { uid: 'u-1', email: 'rider@example.com', firstName: 'Ana', lastName: 'Paz', mobile: '+5491100000000' },
  returnUrl: 'https://rideway.test/api/payments/mercadopago/return?attempt=a-1',
  cancelUrl: 'https://rideway.test/api/payments/mercadopago/return?attempt=a-1&cancelled=1',
  idempotencyKey: key(),
  ...overrides,
});

const preferenceOf = (checkoutId: string) => checkoutId.split('|')[0] ?? '';

beforeAll(async () => {
  standIn = await startMercadoPago();
  mercadopago = adapter();
});
beforeEach(() => {
  standIn.mode = 'ok';
});
afterAll(async () => {
  await standIn.close();
  for (const message of messages) {
    expect(message).not.toContain(standIn.accessToken);
    expect(message).not.toContain(standIn.webhookSecret);
  }
});

describe('Mercado Pago adapter (issue 22)', () => {
  it('creates a preference for the amount in the currency, with our reference, return URLs and signed-webhook URL, through the SDK to the stand-in', async () => {
    const request = checkoutRequest();
    const checkout = await mercadopago.createCheckout!(request);
    expect(checkout.kind).toBe('redirect');
    if (checkout.kind !== 'redirect') return;
    // A TEST- token: the sandbox page.
    expect(checkout.url).toBe(`${standIn.url}/sandbox/checkout/v1/redirect?pref_id=${preferenceOf(checkout.checkoutId)}`);
    const preference = standIn.preferences.get(preferenceOf(checkout.checkoutId));
    expect(preference?.body).toMatchObject({
      items: [{ quantity: 1, unit_price: 1234.5, currency_id: 'ARS' }],
      external_reference: 'b-1001',
      back_urls: { success: request.returnUrl, pending: request.returnUrl, failure: request.cancelUrl },
      auto_return: 'approved',
      notification_url: 'https://rideway.test/api/payments/mercadopago/webhook?source_news=webhooks',
      metadata: { rideway_attempt: request.idempotencyKey },
    });
    const seen = standIn.requests.find((candidate) => candidate.path.startsWith('/checkout/preferences'));
    expect(seen?.headers['x-idempotency-key']).toBe(request.idempotencyKey);
    // Asking twice with the same key creates once.
    const again = await mercadopago.createCheckout!(request);
    expect(again.checkoutId).toBe(checkout.checkoutId);
  });

  it('a zero-decimal currency (CLP) goes in whole pesos; a fraction of one is refused, not rounded', async () => {
    const checkout = await mercadopago.createCheckout!(checkoutRequest({ currency: 'CLP', amountMinor: 1_250_000 }));
    expect(standIn.preferences.get(preferenceOf(checkout.checkoutId))?.body).toMatchObject({ items: [{ unit_price: 12500, currency_id: 'CLP' }] });
    await expect(mercadopago.createCheckout!(checkoutRequest({ currency: 'CLP', amountMinor: 1_250_050 }))).rejects.toBeInstanceOf(RangeError);
  });

  it('looks the checkout up: open until paid, then the approved payment in our minor units; a declined one fails', async () => {
    const checkout = await mercadopago.createCheckout!(checkoutRequest({ reference: 'b-lookup' }));
    expect(await mercadopago.lookup!(checkout.checkoutId)).toBeUndefined();
    const declined = standIn.pay(preferenceOf(checkout.checkoutId), 'rejected');
    expect(await mercadopago.lookup!(checkout.checkoutId)).toMatchObject({ type: 'payment_failed', transactionId: String(declined.id), reference: 'b-lookup' });
    const paid = standIn.pay(preferenceOf(checkout.checkoutId), 'approved');
    expect(await mercadopago.lookup!(checkout.checkoutId)).toEqual({ type: 'payment_succeeded', eventId: `payment:${String(paid.id)}:payment_succeeded`, reference: 'b-lookup', transactionId: String(paid.id), amountMinor: 123_450, currency: 'ARS' });
  });

  it('a notification is read only when its x-signature signs its data id and request id; the payment is then fetched', async () => {
    const checkout = await mercadopago.createCheckout!(checkoutRequest({ reference: 'b-notified' }));
    const paid = standIn.pay(preferenceOf(checkout.checkoutId));
    const { rawBody, headers } = standIn.signedWebhook(paid.id);
    expect(await mercadopago.parseNotification!(rawBody, headers)).toMatchObject({ type: 'payment_succeeded', reference: 'b-notified', transactionId: String(paid.id), amountMinor: 123_450 });
    // Another payment's id in the same signed delivery, another request id, a wrong secret, no header: refused.
    const other = Buffer.from(rawBody.toString('utf8').replace(String(paid.id), String(paid.id + 1)));
    const forged = standIn.signedWebhook(paid.id, 'payment.updated', 'f'.repeat(64));
    const unsigned = { ...headers, 'x-signature': '' };
    for (const [body, sent] of [[other, headers], [rawBody, { ...headers, 'x-request-id': 'another' }], [forged.rawBody, forged.headers], [rawBody, unsigned]] as const) {
      expect(await failure(mercadopago.parseNotification!(body, sent))).toBeInstanceOf(NotificationSignatureError);
    }
  });

  it('a signed notification of another topic, or of a payment Mercado Pago does not have, is ignored', async () => {
    const missing = standIn.signedWebhook(1);
    expect(await mercadopago.parseNotification!(missing.rawBody, missing.headers)).toMatchObject({ type: 'ignored' });
  });

  it('refunds in part with our idempotency key (asking twice refunds once), then the rest', async () => {
    const checkout = await mercadopago.createCheckout!(checkoutRequest({ reference: 'b-refund' }));
    const paid = standIn.pay(preferenceOf(checkout.checkoutId));
    const idempotencyKey = key();
    const first = await mercadopago.refund({ transactionId: String(paid.id), amountMinor: 20_000, currency: 'ARS', idempotencyKey });
    const again = await mercadopago.refund({ transactionId: String(paid.id), amountMinor: 20_000, currency: 'ARS', idempotencyKey });
    expect(first).toMatchObject({ status: 'succeeded' });
    expect(again).toEqual(first);
    expect([...standIn.refunds.values()].filter((refund) => refund.paymentId === paid.id).map((refund) => refund.amount)).toEqual([200]);
    expect(await mercadopago.refund({ transactionId: String(paid.id), amountMinor: 200_000, currency: 'ARS', idempotencyKey: key() })).toMatchObject({ status: 'failed' });
    expect(await mercadopago.refund({ transactionId: String(paid.id), amountMinor: 103_450, currency: 'ARS', idempotencyKey: key() })).toMatchObject({ status: 'succeeded' });
    expect(standIn.payments.get(paid.id)?.status).toBe('refunded');
    // Its notification is news about the refund, not a failed checkout; a charge-back opens a dispute.
    const refunded = standIn.signedWebhook(paid.id);
    expect(await mercadopago.parseNotification!(refunded.rawBody, refunded.headers)).toMatchObject({ type: 'ignored', providerType: 'payment.updated:refunded' });
    const disputed = standIn.pay(preferenceOf(checkout.checkoutId), 'charged_back');
    const chargedBack = standIn.signedWebhook(disputed.id);
    expect(await mercadopago.parseNotification!(chargedBack.rawBody, chargedBack.headers)).toEqual({ type: 'dispute_opened', eventId: `payment:${String(disputed.id)}:charged_back`, transactionId: String(disputed.id), amountMinor: 123_450, currency: 'ARS', reason: 'charged_back' });
  });

  it.each(['hang', 'fail', 'garbage', 'wrongShape'] as const)('Mercado Pago %s: the outcome is unknown (no retries inside the SDK)', async (mode) => {
    const checkout = await mercadopago.createCheckout!(checkoutRequest({ reference: `b-${mode}` }));
    const paid = standIn.pay(preferenceOf(checkout.checkoutId));
    standIn.mode = mode;
    const before = standIn.requests.length;
    const started = Date.now();
    expect(await failure(mercadopago.createCheckout!(checkoutRequest()))).toBeInstanceOf(ProviderUnavailableError);
    expect(await failure(mercadopago.lookup!(checkout.checkoutId))).toBeInstanceOf(ProviderUnavailableError);
    const { rawBody, headers } = standIn.signedWebhook(paid.id);
    expect(await failure(mercadopago.parseNotification!(rawBody, headers))).toBeInstanceOf(ProviderUnavailableError);
    expect(await failure(mercadopago.refund({ transactionId: String(paid.id), amountMinor: 100, currency: 'ARS', idempotencyKey: key() }))).toBeInstanceOf(RetryableRefundError);
    expect(standIn.requests.length - before).toBe(4);
    expect(Date.now() - started).toBeLessThan(20 * TIMEOUT_MS);
  });

  it('a refused access token is a refusal, not an outage', async () => {
    const refused = adapter({ MERCADOPAGO_ACCESS_TOKEN: 'TEST-0000-not-the-token-0000' });
    const error = await failure(refused.createCheckout!(checkoutRequest()));
    expect(error).not.toBeInstanceOf(ProviderUnavailableError);
    expect(error.message).toContain('401');
  });

  it("the security policy lets the form post go to Mercado Pago's checkout sites and the override's origin", () => {
    expect(mercadopago.policy?.formAction).toEqual(expect.arrayContaining(['https://www.mercadopago.com.ar', 'https://sandbox.mercadopago.com.br', standIn.url]));
    expect(mercadopagoCheckoutOrigins({ MERCADOPAGO_API_URL: undefined })).not.toContain(standIn.url);
    expect(mercadopago.currencies).toEqual(['ARS', 'BRL', 'CLP', 'COP', 'MXN', 'PEN', 'UYU']);
  });
});
