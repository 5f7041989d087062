import { createHash, timingSafeEqual } from 'node:crypto';
import { FLUTTERWAVE_CURRENCIES, fromProviderDecimal, toProviderDecimal } from '@rideway/domain';
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
import { asRecord, asString, checkoutOrigins, MalformedAnswer, restCall, RestRefusal, type RestSettings, RestUnavailable } from './rest-client';

/**
 * Flutterwave (API v3), through its REST API. Its official Node library (`flutterwave-node-v3`,
 * 1.4.1) is not used: on construction it starts telemetry to a third party's ingestion service
 * (the merchant's identity, every request's path, errors and, live, each transaction's reference,
 * currency and amount), with no setting to turn it off, and it wraps nothing more than these calls
 * (docs/decisions.md, "Issue 22: Flutterwave without its SDK"). A small client over fetch
 * (rest-client.ts) speaks the documented API
 * (https://developer.flutterwave.com/docs):
 * 1. `createCheckout`: POST /v3/payments (Flutterwave Standard,
 *    https://developer.flutterwave.com/docs/collecting-payments/standard) with `tx_ref` unique per
 *    checkout (the attempt's idempotency key), the amount as a decimal in the currency's major unit
 *    (`toProviderDecimal`), `redirect_url` (the return URL), the customer, and our reference in
 *    `meta`. The rider is sent to `data.link` on checkout.flutterwave.com.
 * 2. `parseNotification`: a webhook (https://developer.flutterwave.com/docs/webhooks) is
 *    Flutterwave's only when its `verif-hash` header equals the secret hash set on the dashboard
 *    (FLUTTERWAVE_SECRET_HASH, compared in constant time). Its transaction is then verified with
 *    GET /v3/transactions/:id/verify
 *    (https://developer.flutterwave.com/docs/integration-guides/transaction-verification): the
 *    status, amount and currency are what that answer says, never the notification's.
 * 3. `lookup`: GET /v3/transactions/verify_by_reference?tx_ref= (the return page, missed notifications).
 * 4. `refund`: POST /v3/transactions/:id/refund (https://developer.flutterwave.com/docs/payment-operations/refunds).
 *    Flutterwave takes no idempotency key: the refund carries ours in `comments`, and the
 *    transaction's refunds are listed first (GET /v3/refunds?id=<transaction id>, v3 API reference "Get all refunds"; the filter by
 *    transaction id and the `comments` in its answer are to be checked against a sandbox account),
 *    so a refund asked again is never made twice.
 * The payment's `transactionId` is Flutterwave's transaction id (`data.id`), which refunds take.
 */

export const FLUTTERWAVE_API = 'https://api.flutterwave.com';
export const FLUTTERWAVE_CHECKOUT_ORIGIN = 'https://checkout.flutterwave.com';

/** Flutterwave's hosted page, and the override's origin (a stand-in's page), for the security policy's form-action. */
export function flutterwaveCheckoutOrigins(config: Pick<Config, 'FLUTTERWAVE_API_URL'>): string[] {
  return checkoutOrigins(FLUTTERWAVE_CHECKOUT_ORIGIN, config.FLUTTERWAVE_API_URL);
}

type Json = Record<string, unknown>;
type PaymentOutcome = Extract<PaymentEvent, { type: 'payment_succeeded' | 'payment_failed' | 'payment_pending' }>;

const REFERENCE_KEY = 'rideway_reference';

/** Flutterwave's amount (a JSON number in the major unit) in our hundredths; undefined when it is not a plain amount of the currency. */
export function flutterwaveMoney(amount: unknown, currencyValue: unknown): { amountMinor: number; currency: string } | undefined {
  const currency = asString(currencyValue)?.toUpperCase();
  if (!currency || !/^[A-Z]{3}$/.test(currency) || typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) return undefined;
  // A JSON number such as 1234.5 reads back as the decimal it was written as; an exponent is not an amount.
  const amountMinor = fromProviderDecimal(String(amount), currency);
  return amountMinor === undefined ? undefined : { amountMinor, currency };
}

/** Our reference from `meta` (an object, or in some answers a list of `{metaname, metavalue}`). */
function ourReference(meta: unknown): string | undefined {
  if (Array.isArray(meta)) {
    const entry = meta.map(asRecord).find((candidate) => candidate?.metaname === REFERENCE_KEY);
    return asString(entry?.metavalue);
  }
  return asString(asRecord(meta)?.[REFERENCE_KEY]);
}

/**
 * A verified transaction (the verify answer's `data`): successful is payment_succeeded, failed
 * payment_failed; undefined while pending. The event id is the transaction's and the outcome's.
 */
export function flutterwaveOutcome(data: Json): PaymentOutcome | undefined {
  const status = asString(data.status);
  if (!status) throw new MalformedAnswer('flutterwave', 'a transaction without a status');
  if (status === 'pending') return undefined;
  const type = status === 'successful' ? 'payment_succeeded' : status === 'failed' ? 'payment_failed' : undefined;
  if (!type) throw new MalformedAnswer('flutterwave', `a transaction of status ${status.slice(0, 40)}`);
  const id = data.id;
  const transactionId = typeof id === 'number' && Number.isSafeInteger(id) ? String(id) : asString(id);
  const reference = ourReference(data.meta);
  const money = flutterwaveMoney(data.amount, data.currency);
  if (!transactionId || !reference || !money) throw new MalformedAnswer('flutterwave', 'a transaction without its id, meta reference or amount');
  return { type, eventId: `transaction:${transactionId}:${type}`, reference, transactionId, ...money };
}

/** Flutterwave's `{status: "success", data}` envelope: its data. */
function dataOf(body: Json, what: string): Json {
  const data = asRecord(body.data);
  if (body.status !== 'success' || !data) throw new MalformedAnswer('flutterwave', what);
  return data;
}

const header = (headers: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** True when the `verif-hash` header is the secret hash; both are hashed first so the comparison is constant-time whatever their lengths. */
export function verifHashMatches(secretHash: string, sent: string | undefined): boolean {
  if (!sent) return false;
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(secretHash), digest(sent));
}

export function flutterwaveProvider(config: Config): PaymentProviderPort {
  const { FLUTTERWAVE_SECRET_KEY: secretKey, FLUTTERWAVE_SECRET_HASH: secretHash } = config;
  if (!secretKey || !secretHash) throw new Error('flutterwave: FLUTTERWAVE_SECRET_KEY and FLUTTERWAVE_SECRET_HASH are required');
  const settings: RestSettings = { provider: 'flutterwave', apiBase: (config.FLUTTERWAVE_API_URL ?? FLUTTERWAVE_API).replace(/\/+$/, ''), secretKey, timeoutMs: config.PAYMENT_TIMEOUT_MS };

  const sorted = (error: unknown): Error => {
    if (error instanceof RestUnavailable || error instanceof MalformedAnswer) return new ProviderUnavailableError('flutterwave', error.message);
    return error instanceof Error ? error : new Error('flutterwave: failed');
  };

  /** A verify call's data; undefined when Flutterwave has no such transaction (400/404). */
  async function verified(what: string, path: string, query?: Record<string, string>): Promise<Json | undefined> {
    try {
      return dataOf(await restCall(settings, what, 'GET', path, query ? { query } : {}), 'a verify answer without data');
    } catch (error) {
      if (error instanceof RestRefusal && (error.status === 400 || error.status === 404)) return undefined;
      throw error;
    }
  }

  async function createCheckout(request: CheckoutRequest): Promise<Checkout> {
    const currency = request.currency.toUpperCase();
    const amount = Number(toProviderDecimal(request.amountMinor, currency));
    const name = `${request.customer.firstName} ${request.customer.lastName}`.trim();
    try {
      const body = await restCall(settings, 'creating the payment', 'POST', '/v3/payments', {
        body: {
          tx_ref: request.idempotencyKey,
          amount,
          currency,
          redirect_url: request.returnUrl,
          customer: { email: request.customer.email || `rider-${request.customer.uid}@${new URL(request.returnUrl).hostname}`, ...(name ? { name } : {}), ...(request.customer.mobile ? { phonenumber: request.customer.mobile } : {}) },
          customizations: { title: request.description.slice(0, 100), description: request.description.slice(0, 200) },
          // Section 4's fields where Flutterwave takes them: name, mobile and email in `customer`, our ids in `meta`.
          meta: { [REFERENCE_KEY]: request.reference, purpose: request.purpose.kind, cust_id: request.customer.uid },
        },
      });
      const link = asString(dataOf(body, 'a payment answer without data').link);
      if (!link || !/^https?:\/\//.test(link)) throw new MalformedAnswer('flutterwave', 'a payment answer without its link');
      return { kind: 'redirect', url: link, checkoutId: request.idempotencyKey };
    } catch (error) {
      throw sorted(error);
    }
  }

  async function lookup(txRef: string): Promise<PaymentEvent | undefined> {
    try {
      const data = await verified('verifying the transaction', '/v3/transactions/verify_by_reference', { tx_ref: txRef });
      return data ? flutterwaveOutcome(data) : undefined;
    } catch (error) {
      throw sorted(error);
    }
  }

  async function parseNotification(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Promise<PaymentEvent> {
    if (!verifHashMatches(secretHash as string, header(headers, 'verif-hash'))) throw new NotificationSignatureError('flutterwave');
    const event = asRecord(JSON.parse(rawBody.toString('utf8')) as unknown);
    const providerType = asString(event?.event) ?? asString(event?.['event.type']) ?? 'unknown';
    const data = asRecord(event?.data) ?? {};
    const id = typeof data.id === 'number' && Number.isSafeInteger(data.id) ? String(data.id) : undefined;
    const ignored: PaymentEvent = { type: 'ignored', eventId: `${providerType}:${id ?? asString(data.tx_ref) ?? 'none'}:${asString(data.status) ?? ''}`, providerType };
    if (providerType !== 'charge.completed' || !id) return ignored;
    let current: Json | undefined;
    try {
      // What Flutterwave says of the transaction now, not what the notification carries.
      current = await verified('verifying the transaction', `/v3/transactions/${id}/verify`);
    } catch (error) {
      throw sorted(error);
    }
    if (!current) return ignored;
    try {
      return flutterwaveOutcome(current) ?? ignored;
    } catch {
      // Not one of our checkouts (no meta reference): recorded, not acted on.
      return ignored;
    }
  }

  async function refund(request: RefundRequest): Promise<RefundResult> {
    const currency = request.currency.toUpperCase();
    const note = `rideway ${request.idempotencyKey}`;
    if (!/^\d+$/.test(request.transactionId)) return { status: 'failed', reason: 'flutterwave: not a transaction id' };
    try {
      const listed = await restCall(settings, 'listing the refunds', 'GET', '/v3/refunds', { query: { id: request.transactionId } });
      if (listed.status !== 'success' || !Array.isArray(listed.data)) throw new MalformedAnswer('flutterwave', 'a refund list without data');
      const earlier = listed.data.map(asRecord).find((candidate) => candidate?.comments === note || candidate?.comment === note);
      const answer = earlier ?? dataOf(
        await restCall(settings, 'creating the refund', 'POST', `/v3/transactions/${request.transactionId}/refund`, { body: { amount: Number(toProviderDecimal(request.amountMinor, currency)), comments: note } }),
        'a refund answer without data',
      );
      const status = asString(answer.status);
      const id = typeof answer.id === 'number' ? String(answer.id) : asString(answer.id);
      if (status === 'completed' && id) return { status: 'succeeded', providerRefundId: id };
      if (status === 'failed') return { status: 'failed', reason: 'flutterwave: the refund failed' };
      if (status?.startsWith('pending')) throw new RetryableRefundError(`flutterwave: refund ${id ?? ''} is ${status} at Flutterwave`);
      throw new MalformedAnswer('flutterwave', 'a refund without a status');
    } catch (error) {
      if (error instanceof RetryableRefundError) throw error;
      if (error instanceof RestRefusal && error.status !== 401) return { status: 'failed', reason: `HTTP ${String(error.status)}${error.providerMessage ? ` ${error.providerMessage.slice(0, 200)}` : ''}` };
      if (error instanceof RangeError) return { status: 'failed', reason: error.message };
      throw new RetryableRefundError(error instanceof Error ? error.message : 'flutterwave: refund: no answer');
    }
  }

  return {
    name: 'flutterwave',
    checkoutLink: '/api/payments/flutterwave/checkout',
    testMode: secretKey.startsWith('FLWSECK_TEST'),
    currencies: FLUTTERWAVE_CURRENCIES,
    createCheckout,
    lookup,
    parseNotification,
    refund,
    policy: { formAction: flutterwaveCheckoutOrigins(config) },
  };
}
