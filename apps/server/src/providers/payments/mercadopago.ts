import { fromProviderDecimal, MERCADOPAGO_CURRENCIES, toProviderDecimal } from '@rideway/domain';
import type * as MercadoPago from 'mercadopago';
import type { Config } from '../../config';
import {
  NotificationSignatureError,
  ProviderUnavailableError,
  RetryableRefundError,
  type Checkout,
  type CheckoutRequest,
  type PaymentEvent,
  type PaymentProviderPort,
  type RefundRequest,
  type RefundResult,
} from './port';
import { asRecord, asString, MalformedAnswer } from './rest-client';

/**
 * Mercado Pago's Checkout Pro, through its official Node SDK (`mercadopago` v3):
 * 1. `createCheckout`: a preference (`Preference.create`, POST /checkout/preferences,
 *    https://www.mercadopago.com.ar/developers/en/reference/preferences/_checkout_preferences/post)
 *    with one item for the booking's amount in the settings currency (`toProviderDecimal`),
 *    `external_reference` = our reference, `back_urls` and `auto_return: approved`
 *    (https://www.mercadopago.com.mx/developers/en/docs/checkout-pro/configure-back-urls), and
 *    `notification_url` = our webhook with `source_news=webhooks` (signed Webhooks only, no unsigned
 *    IPN). The rider is sent to its `init_point` (`sandbox_init_point` for a TEST- token).
 * 2. `parseNotification`: a Webhook is Mercado Pago's only when its `x-signature` header
 *    (`ts=...,v1=...`) is the HMAC-SHA256, keyed with the webhook's secret signature
 *    (MERCADOPAGO_WEBHOOK_SECRET), of the manifest `id:<data.id>;request-id:<x-request-id>;ts:<ts>;`
 *    (https://www.mercadopago.com.mx/developers/en/docs/checkout-pro-preferences/payment-notifications,
 *    "Validate notification origin"), checked by the SDK's own `WebhookSignatureValidator` (constant
 *    time). The documentation takes `data.id` from the notification URL's query; our webhook route
 *    hands the adapter the body, whose `data.id` is the same id, and that signed id is the only thing
 *    read from it. The payment is then fetched (GET /v1/payments/:id,
 *    https://www.mercadopago.com.ar/developers/en/reference/payments/_payments_id/get): its status,
 *    transaction_amount, currency_id and external_reference are what that answer says. No clock
 *    tolerance is imposed on `ts`: a replayed notification only makes us ask about the payment again.
 * 3. `lookup`: the payments of our reference (GET /v1/payments/search?external_reference=,
 *    https://www.mercadopago.com.ar/developers/en/reference/payments/_payments_search/get): an approved one
 *    pays; otherwise the newest one decides (rejected or cancelled: failed), none or an open one: still open.
 * 4. `refund`: POST /v1/payments/:id/refunds (`PaymentRefund.create`, in part with `amount`, in full
 *    without, https://www.mercadopago.com.ar/developers/en/reference/chargebacks/_payments_id_refunds/post)
 *    with our idempotency key as `X-Idempotency-Key`: asking twice refunds once.
 *
 * The SDK's host: the SDK has no option for it (its RestClient prefixes every path with the fixed
 * `https://api.mercadopago.com`) and calls the global `fetch`. It does hand its request options on to
 * that `fetch` as the request's init, so with MERCADOPAGO_API_URL set (a stand-in, a proxy) each call
 * carries an undici `dispatcher` (Node's fetch option) that sends the request to the override's
 * origin and path prefix and then on through Node's own global dispatcher. Nothing is patched
 * globally and without the override nothing changes. Unlike a fetch override (paypal-client.ts
 * rebasedFetch, whose comment explains why the caller's own AbortSignal must be passed on), the SDK's
 * request, with its own timeout signal, is left to `fetch` untouched.
 *
 * The SDK's clients merge per-call `requestOptions` (our idempotency key) into the shared config
 * object for good, so each call builds its own `MercadoPagoConfig`. The SDK's retries are off
 * (`maxRetries: 0`): an unknown outcome goes back to the caller, which records it and asks later.
 */

export const MERCADOPAGO_API = 'https://api.mercadopago.com';

/**
 * Where Checkout Pro's `init_point` and `sandbox_init_point` send the rider: one site per country of
 * the currencies we take (Argentina, Brazil, Chile, Colombia, Mexico, Peru, Uruguay), production and sandbox.
 */
const CHECKOUT_SITES = ['com.ar', 'com.br', 'cl', 'com.co', 'com.mx', 'com.pe', 'com.uy'] as const;
export const MERCADOPAGO_CHECKOUT_ORIGINS: readonly string[] = CHECKOUT_SITES.flatMap((site) => [`https://www.mercadopago.${site}`, `https://sandbox.mercadopago.${site}`]);

/** Mercado Pago's checkout sites, and the override's origin (a stand-in's page), for the security policy's form-action. */
export function mercadopagoCheckoutOrigins(config: Pick<Config, 'MERCADOPAGO_API_URL'>): string[] {
  return [...MERCADOPAGO_CHECKOUT_ORIGINS, ...(config.MERCADOPAGO_API_URL ? [new URL(config.MERCADOPAGO_API_URL).origin] : [])];
}

/** The SDK, loaded with the adapter's first call, so a server without Mercado Pago never holds it (issue 21 point 4). */
type Sdk = typeof MercadoPago;
const loadSdk = (): Promise<Sdk> => import('mercadopago');

type Json = Record<string, unknown>;
type PaymentOutcome = Extract<PaymentEvent, { type: 'payment_succeeded' | 'payment_failed' | 'payment_pending' }>;
type Headers = Record<string, string | string[] | undefined>;
/** The SDK's request options (its `Options`, not exported by name). */
type Options = NonNullable<ConstructorParameters<Sdk['MercadoPagoConfig']>[0]['options']>;

/** The dispatch half of undici's Dispatcher, all Node's fetch calls on the `dispatcher` it is given. */
type DispatchOptions = { origin?: string | URL; path: string } & Record<string, unknown>;
type Dispatch = { dispatch: (options: DispatchOptions, handler: unknown) => boolean };

/** Node's own global dispatcher, under the key undici and Node's fetch share; set once fetch is loaded, before any dispatch. */
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

/** A dispatcher that sends each request to `apiBase` (its origin, and its path before the request's path). */
export function rebasingDispatcher(apiBase: string): Dispatch {
  const base = new URL(apiBase);
  const prefix = base.pathname.replace(/\/+$/, '');
  return {
    dispatch: (options, handler) => {
      const global = (globalThis as Record<symbol, Dispatch | undefined>)[GLOBAL_DISPATCHER];
      if (!global) throw new Error('mercadopago: no global dispatcher (fetch is not loaded)');
      return global.dispatch({ ...options, origin: base.origin, path: `${prefix}${options.path}` }, handler);
    },
  };
}

const SUCCEEDED = new Set(['approved']);
const FAILED = new Set(['rejected', 'cancelled', 'refunded', 'charged_back']);
/** Not settled yet: pending (a cash voucher not paid), authorized (not captured), in_process (under review), in_mediation. */
const OPEN = new Set(['pending', 'authorized', 'in_process', 'in_mediation']);

/** `transaction_amount` (a JSON number in the major unit) and `currency_id` in our hundredths; undefined when it is not one. */
export function mercadopagoMoney(amount: unknown, currencyValue: unknown): { amountMinor: number; currency: string } | undefined {
  const currency = asString(currencyValue)?.toUpperCase();
  if (!currency || !/^[A-Z]{3}$/.test(currency) || typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) return undefined;
  const amountMinor = fromProviderDecimal(String(amount), currency);
  return amountMinor === undefined ? undefined : { amountMinor, currency };
}

const idOf = (value: unknown): string | undefined => (typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : asString(value));

/**
 * A payment (GET /v1/payments/:id) as the port's news: approved is payment_succeeded; rejected,
 * cancelled, refunded and charged back payment_failed; undefined while it is open. The event id
 * is the payment's and the outcome's, so its lookup and its notification are one event.
 */
export function mercadopagoOutcome(payment: Json): PaymentOutcome | undefined {
  const status = asString(payment.status);
  if (!status) throw new MalformedAnswer('mercadopago', 'a payment without a status');
  if (OPEN.has(status)) return undefined;
  const type = SUCCEEDED.has(status) ? 'payment_succeeded' : FAILED.has(status) ? 'payment_failed' : undefined;
  if (!type) throw new MalformedAnswer('mercadopago', `a payment of status ${status.slice(0, 40)}`);
  const transactionId = idOf(payment.id);
  const reference = asString(payment.external_reference);
  const money = mercadopagoMoney(payment.transaction_amount, payment.currency_id);
  if (!transactionId || !reference || !money) throw new MalformedAnswer('mercadopago', 'a payment without its id, external_reference or amount');
  return { type, eventId: `payment:${transactionId}:${type}`, reference, transactionId, ...money };
}

const header = (headers: Headers, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The signed notification's `data.id`, as its manifest takes it (lower case: Mercado Pago's rule for alphanumeric ids). */
const signedId = (value: unknown): string | undefined => idOf(value)?.toLowerCase();

/** True when `x-signature` signs this notification's data id and request id with the secret (the SDK's validator). */
function signatureMatches(sdk: Sdk, secret: string, dataId: string | undefined, headers: Headers): boolean {
  if (!dataId) return false;
  const { InvalidWebhookSignatureError, WebhookSignatureValidator } = sdk;
  try {
    WebhookSignatureValidator.validate({ xSignature: header(headers, 'x-signature'), xRequestId: header(headers, 'x-request-id'), dataId, secret });
    return true;
  } catch (error) {
    if (error instanceof InvalidWebhookSignatureError) return false;
    throw error;
  }
}

/** The checkout id: the preference's, and our reference (the search key of `lookup`). */
const checkoutIdOf = (preferenceId: string, reference: string): string => `${preferenceId}|${reference}`;
const referenceOf = (checkoutId: string): string | undefined => {
  const at = checkoutId.indexOf('|');
  return at > 0 ? checkoutId.slice(at + 1) || undefined : undefined;
};

export function mercadopagoProvider(config: Config): PaymentProviderPort {
  const { MERCADOPAGO_ACCESS_TOKEN: accessToken, MERCADOPAGO_WEBHOOK_SECRET: webhookSecret } = config;
  if (!accessToken || !webhookSecret) throw new Error('mercadopago: MERCADOPAGO_ACCESS_TOKEN and MERCADOPAGO_WEBHOOK_SECRET are required');
  const testMode = accessToken.startsWith('TEST-');
  const dispatcher = config.MERCADOPAGO_API_URL ? rebasingDispatcher(config.MERCADOPAGO_API_URL) : undefined;

  /** A fresh SDK config per call (see above), with our timeout, no retries and, with the override, its dispatcher. */
  const sdkConfig = (sdk: Sdk, idempotencyKey?: string): MercadoPago.MercadoPagoConfig => {
    const options: Options & { dispatcher?: Dispatch } = { timeout: config.PAYMENT_TIMEOUT_MS, maxRetries: 0, ...(idempotencyKey ? { idempotencyKey } : {}), ...(dispatcher ? { dispatcher } : {}) };
    return new sdk.MercadoPagoConfig({ accessToken, options });
  };

  /** Unknown outcomes (no answer, 408, 429, 5xx, a malformed 2xx) as ProviderUnavailableError; refusals as they are. */
  const unknown = ({ MPConnectionError, MPServerError, MPRateLimitError, MercadoPagoError }: Sdk, error: unknown): boolean =>
    error instanceof MPConnectionError || error instanceof MPServerError || error instanceof MPRateLimitError || error instanceof MalformedAnswer || (error instanceof MercadoPagoError && error.status === 408) || !(error instanceof MercadoPagoError);
  const sorted = (sdk: Sdk, error: unknown): Error => {
    if (error instanceof sdk.MercadoPagoError && !unknown(sdk, error)) return new Error(`mercadopago: refused: HTTP ${String(error.status)} ${error.message.slice(0, 200)}`);
    if (error instanceof RangeError) return error;
    return new ProviderUnavailableError('mercadopago', error instanceof Error ? `mercadopago: ${error.message.slice(0, 200)}` : 'mercadopago: no answer');
  };

  /** GET /v1/payments/:id; undefined when Mercado Pago has no such payment (404). */
  async function payment(sdk: Sdk, id: string): Promise<Json | undefined> {
    try {
      return asRecord(await new sdk.Payment(sdkConfig(sdk)).get({ id }));
    } catch (error) {
      if (error instanceof sdk.MercadoPagoError && error.status === 404) return undefined;
      throw error;
    }
  }

  async function createCheckout(request: CheckoutRequest): Promise<Checkout> {
    const sdk = await loadSdk();
    const currency = request.currency.toUpperCase();
    const unitPrice = Number(toProviderDecimal(request.amountMinor, currency));
    const notificationUrl = new URL('webhook', request.returnUrl);
    notificationUrl.search = 'source_news=webhooks';
    try {
      const preference = asRecord(
        await new sdk.Preference(sdkConfig(sdk, request.idempotencyKey)).create({
          body: {
            items: [{ id: request.reference, title: request.description.slice(0, 256), quantity: 1, unit_price: unitPrice, currency_id: currency }],
            // Section 4's fields where Mercado Pago takes them: the payer's name and email, our ids in metadata.
            payer: {
              ...(request.customer.firstName ? { name: request.customer.firstName.slice(0, 100) } : {}),
              ...(request.customer.lastName ? { surname: request.customer.lastName.slice(0, 100) } : {}),
              ...(request.customer.email ? { email: request.customer.email } : {}),
            },
            external_reference: request.reference,
            metadata: { rideway_attempt: request.idempotencyKey, purpose: request.purpose.kind, cust_id: request.customer.uid },
            back_urls: { success: request.returnUrl, pending: request.returnUrl, failure: request.cancelUrl },
            auto_return: 'approved',
            notification_url: notificationUrl.toString(),
            statement_descriptor: request.description.slice(0, 22),
          },
        }),
      );
      const id = asString(preference?.id);
      const url = asString(testMode ? preference?.sandbox_init_point : preference?.init_point) ?? asString(preference?.init_point);
      if (!id || !url || !/^https?:\/\//.test(url)) throw new MalformedAnswer('mercadopago', 'a preference without its id or init_point');
      return { kind: 'redirect', url, checkoutId: checkoutIdOf(id, request.reference) };
    } catch (error) {
      throw sorted(sdk, error);
    }
  }

  async function lookup(checkoutId: string): Promise<PaymentEvent | undefined> {
    const reference = referenceOf(checkoutId);
    if (!reference) return undefined;
    const sdk = await loadSdk();
    try {
      const found = await new sdk.Payment(sdkConfig(sdk)).search({ options: { external_reference: reference, sort: 'date_created', criteria: 'desc' } });
      const results = asRecord(found)?.results;
      if (!Array.isArray(results)) throw new MalformedAnswer('mercadopago', 'a search without results');
      const ours = results.map(asRecord).filter((candidate): candidate is Json => candidate?.external_reference === reference);
      const approved = ours.find((candidate) => candidate.status === 'approved');
      const newest = approved ?? ours[0];
      return newest ? mercadopagoOutcome(newest) : undefined;
    } catch (error) {
      throw sorted(sdk, error);
    }
  }

  async function parseNotification(rawBody: Buffer, headers: Headers): Promise<PaymentEvent> {
    const sdk = await loadSdk();
    let body: Json | undefined;
    try {
      body = asRecord(JSON.parse(rawBody.toString('utf8')) as unknown);
    } catch {
      body = undefined;
    }
    const dataId = signedId(asRecord(body?.data)?.id);
    if (!signatureMatches(sdk, webhookSecret as string, dataId, headers)) throw new NotificationSignatureError('mercadopago');
    const providerType = asString(body?.action) ?? asString(body?.type) ?? 'unknown';
    const ignored: PaymentEvent = { type: 'ignored', eventId: `${providerType}:${dataId ?? 'none'}:${asString(header(headers, 'x-request-id')) ?? ''}`, providerType };
    if (body?.type !== 'payment' || !dataId || !/^\d{1,20}$/.test(dataId)) return ignored;
    let current: Json | undefined;
    try {
      // What Mercado Pago says of the payment now, not what the notification carries.
      current = await payment(sdk, dataId);
    } catch (error) {
      throw sorted(sdk, error);
    }
    if (!current) return ignored;
    if (idOf(current.id) !== dataId || !asString(current.status)) throw sorted(sdk, new MalformedAnswer('mercadopago', 'a payment without its id or status'));
    // A payment given back after it was taken is news about a refund (settled by `refund`'s own answer) or a dispute, not a failed checkout.
    if (current.status === 'refunded') return { ...ignored, providerType: `${providerType}:refunded` };
    if (current.status === 'charged_back') {
      const money = mercadopagoMoney(current.transaction_amount, current.currency_id);
      if (money) return { type: 'dispute_opened', eventId: `payment:${dataId}:charged_back`, transactionId: dataId, ...money, reason: 'charged_back' };
    }
    try {
      return mercadopagoOutcome(current) ?? ignored;
    } catch {
      // Not one of our checkouts (no external_reference): recorded, not acted on.
      return ignored;
    }
  }

  async function refund(request: RefundRequest): Promise<RefundResult> {
    const currency = request.currency.toUpperCase();
    if (!/^\d{1,20}$/.test(request.transactionId)) return { status: 'failed', reason: 'mercadopago: not a payment id' };
    const sdk = await loadSdk();
    try {
      const answer = asRecord(
        await new sdk.PaymentRefund(sdkConfig(sdk, request.idempotencyKey)).create({ payment_id: request.transactionId, body: { amount: Number(toProviderDecimal(request.amountMinor, currency)) } }),
      );
      const status = asString(answer?.status);
      const id = idOf(answer?.id);
      if (status === 'approved' && id) return { status: 'succeeded', providerRefundId: id };
      if (status === 'rejected' || status === 'cancelled') return { status: 'failed', reason: `mercadopago: the refund was ${status}` };
      if (status === 'in_process' || status === 'pending' || status === 'authorized') throw new RetryableRefundError(`mercadopago: refund ${id ?? ''} is ${status} at Mercado Pago`);
      throw new MalformedAnswer('mercadopago', 'a refund without a status');
    } catch (error) {
      if (error instanceof RetryableRefundError) throw error;
      if (error instanceof RangeError) return { status: 'failed', reason: error.message };
      if (error instanceof sdk.MercadoPagoError && !unknown(sdk, error) && error.status !== 401) return { status: 'failed', reason: `HTTP ${String(error.status)} ${error.message.slice(0, 200)}` };
      throw new RetryableRefundError(error instanceof Error ? `mercadopago: ${error.message.slice(0, 200)}` : 'mercadopago: refund: no answer');
    }
  }

  return {
    name: 'mercadopago',
    checkoutLink: '/api/payments/mercadopago/checkout',
    testMode,
    currencies: MERCADOPAGO_CURRENCIES,
    createCheckout,
    lookup,
    parseNotification,
    refund,
    policy: { formAction: mercadopagoCheckoutOrigins(config) },
  };
}
