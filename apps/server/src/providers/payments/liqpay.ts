import { createHash, timingSafeEqual } from 'node:crypto';
import { fromProviderDecimal, LIQPAY_CURRENCIES, toProviderDecimal } from '@rideway/domain';
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
import { asRecord, asString, checkoutOrigins, MalformedAnswer, RestUnavailable } from './rest-client';

/**
 * LiqPay (API version 3), through its documented API: LiqPay maintains no Node SDK one may
 * install, so this small typed client speaks it directly
 * (https://www.liqpay.ua/documentation/en/data_signature). Every call, and every answer LiqPay
 * sends to the server_url, is a pair: `data`, the base64 of a JSON object, and `signature`,
 * base64(sha1(private_key + data + private_key)).
 * 1. `createCheckout`: the documented form post to https://www.liqpay.ua/api/3/checkout
 *    (https://www.liqpay.ua/documentation/en/api/aquiring/checkout/doc) with version 3, the
 *    public key, action `pay`, the amount as a decimal in the currency's major unit
 *    (`toProviderDecimal`), `order_id`, `result_url` (the return URL) and `server_url` (our
 *    notification URL). LiqPay refuses an order_id paid before, so the order_id is our reference
 *    and the attempt's idempotency key: unique per checkout, our reference read back from it.
 * 2. `parseNotification`: LiqPay's callback (https://www.liqpay.ua/documentation/en/api/callback)
 *    is LiqPay's only when its `signature` is the one computed from its `data` with the private
 *    key (compared in constant time). The payment is then asked for with the `status` action
 *    (https://www.liqpay.ua/documentation/en/api/information/status/doc): the status, amount and
 *    currency are what that answer says, never the callback's.
 * 3. `lookup`: the same `status` action (the return page, missed callbacks).
 * 4. `refund`: the `refund` action (https://www.liqpay.ua/documentation/en/api/aquiring/refund/doc),
 *    in part or in full, by order_id. LiqPay takes no idempotency key: before a refund the
 *    payment's status is asked, and a payment LiqPay already reports `reversed` (refunded in full)
 *    is not refunded again.
 * Paid is `success`, or `sandbox` with a sandbox key pair (`sandbox_...`: LiqPay's test mode,
 * no money moves). The payment's `transactionId` is the order_id, which refunds take.
 */

export const LIQPAY_API = 'https://www.liqpay.ua/api';
export const LIQPAY_CHECKOUT_ORIGIN = 'https://www.liqpay.ua';

/** LiqPay's checkout, and the override's origin (a stand-in's page), for the security policy's form-action. */
export function liqpayCheckoutOrigins(config: Pick<Config, 'LIQPAY_API_URL'>): string[] {
  return checkoutOrigins(LIQPAY_CHECKOUT_ORIGIN, config.LIQPAY_API_URL);
}

/** LiqPay answered `result: error` (a bad key, a refused refund): nothing was done. */
export class LiqpayRefusal extends Error {
  constructor(
    what: string,
    readonly code: string | undefined,
    readonly description: string | undefined,
  ) {
    super(`liqpay: ${what} refused: ${(code ?? 'error').slice(0, 80)}${description ? ` ${description.slice(0, 200)}` : ''}`);
    this.name = 'LiqpayRefusal';
  }
}

type Json = Record<string, unknown>;
type PaymentOutcome = Extract<PaymentEvent, { type: 'payment_succeeded' | 'payment_failed' | 'payment_pending' }>;

/** base64(sha1(private_key + data + private_key)): LiqPay's signature of a `data`. */
export function liqpaySignature(privateKey: string, data: string): string {
  return createHash('sha1').update(privateKey + data + privateKey, 'utf8').digest('base64');
}

/** True when `signature` is LiqPay's signature of `data` with this private key, compared in constant time. */
export function liqpaySignatureMatches(privateKey: string, data: string, signature: string | undefined): boolean {
  if (!signature || !/^[A-Za-z0-9+/]{27}=$/.test(signature)) return false;
  return timingSafeEqual(Buffer.from(liqpaySignature(privateKey, data), 'base64'), Buffer.from(signature, 'base64'));
}

/** The `data` and `signature` of these parameters. */
export function liqpayEncode(privateKey: string, params: Json): { data: string; signature: string } {
  const data = Buffer.from(JSON.stringify(params), 'utf8').toString('base64');
  return { data, signature: liqpaySignature(privateKey, data) };
}

/** The JSON object of a `data`; undefined when it is not one. */
function decodeData(data: string): Json | undefined {
  try {
    return asRecord(JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as unknown);
  } catch {
    return undefined;
  }
}

/** The separator of our reference and the attempt's key in an order_id (the key, a UUID, has none). */
const ORDER_SEPARATOR = '.';

/** Our reference, read back from an order_id this adapter made. */
function referenceOf(orderId: string): string | undefined {
  const at = orderId.lastIndexOf(ORDER_SEPARATOR);
  return at > 0 ? orderId.slice(0, at) : undefined;
}

/** LiqPay's amount (a JSON number, or a decimal string, in the major unit) in our hundredths. */
export function liqpayMoney(amount: unknown, currencyValue: unknown): { amountMinor: number; currency: string } | undefined {
  const currency = asString(currencyValue)?.toUpperCase();
  if (!currency || !/^[A-Z]{3}$/.test(currency)) return undefined;
  const text = typeof amount === 'number' && Number.isFinite(amount) && amount >= 0 ? String(amount) : asString(amount);
  const amountMinor = text === undefined ? undefined : fromProviderDecimal(text, currency);
  return amountMinor === undefined ? undefined : { amountMinor, currency };
}

/** Statuses of a payment still under way (a confirmation, a wait): not finished yet. */
const OPEN = /^(processing|prepared|invoice_wait|cash_wait|hold_wait|wait_[a-z_]+|[a-z0-9]+_verify)$/;

/**
 * A payment as the `status` action reports it: `success` (or `sandbox` in test mode) is
 * payment_succeeded; `failure`, `error`, `reversed`, and `sandbox` with a live key are payment_failed;
 * undefined while it is under way. The event id is the order's and the outcome's, so the
 * lookup, the return and the callback of one outcome are one event.
 */
export function liqpayOutcome(answer: Json, testMode: boolean): PaymentOutcome | undefined {
  const status = asString(answer.status);
  if (!status) throw new MalformedAnswer('liqpay', 'a payment without a status');
  if (OPEN.test(status)) return undefined;
  const paid = status === 'success' || (testMode && status === 'sandbox');
  // Reversed: paid and given back before we heard of it; no money is held for the booking.
  const failed = status === 'failure' || status === 'error' || status === 'reversed' || (!testMode && status === 'sandbox');
  if (!paid && !failed) throw new MalformedAnswer('liqpay', `a payment of status ${status.slice(0, 40)}`);
  const type = paid ? 'payment_succeeded' : 'payment_failed';
  const orderId = asString(answer.order_id);
  const reference = orderId ? referenceOf(orderId) : undefined;
  const money = liqpayMoney(answer.amount, answer.currency);
  if (!orderId || !reference || !money) throw new MalformedAnswer('liqpay', 'a payment without its order_id or amount');
  return { type, eventId: `order:${orderId}:${type}`, reference, transactionId: orderId, ...money };
}

export function liqpayProvider(config: Config): PaymentProviderPort {
  const { LIQPAY_PUBLIC_KEY: publicKey, LIQPAY_PRIVATE_KEY: privateKey } = config;
  if (!publicKey || !privateKey) throw new Error('liqpay: LIQPAY_PUBLIC_KEY and LIQPAY_PRIVATE_KEY are required');
  const apiBase = (config.LIQPAY_API_URL ?? LIQPAY_API).replace(/\/+$/, '');
  const testMode = publicKey.startsWith('sandbox_');

  const sorted = (error: unknown): Error => {
    if (error instanceof RestUnavailable || error instanceof MalformedAnswer) return new ProviderUnavailableError('liqpay', error.message);
    return error instanceof Error ? error : new Error('liqpay: failed');
  };

  /** One server-server call (POST /request with data and signature): LiqPay's JSON answer. Its errors come as `result: error`. */
  async function call(what: string, params: Json): Promise<Json> {
    const { data, signature } = liqpayEncode(privateKey as string, { version: 3, public_key: publicKey, ...params });
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${apiBase}/request`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ data, signature }).toString(),
        signal: AbortSignal.timeout(config.PAYMENT_TIMEOUT_MS),
        redirect: 'error',
      });
      text = await response.text();
    } catch (error) {
      const timeout = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new RestUnavailable('liqpay', what, timeout ? 'no answer in time' : 'no answer (network)');
    }
    if (response.status === 408 || response.status === 429 || response.status >= 500) throw new RestUnavailable('liqpay', what, `HTTP ${String(response.status)}`);
    let body: Json | undefined;
    try {
      body = asRecord(JSON.parse(text) as unknown);
    } catch {
      body = undefined;
    }
    if (!response.ok) throw new LiqpayRefusal(what, `HTTP ${String(response.status)}`, asString(body?.err_description));
    if (!body) throw new RestUnavailable('liqpay', what, 'a malformed answer');
    return body;
  }

  /** The `status` action's answer; undefined when LiqPay has no payment of this order. */
  async function status(orderId: string): Promise<Json | undefined> {
    const answer = await call('asking the payment status', { action: 'status', order_id: orderId });
    if (answer.result === 'error' && answer.err_code === 'payment_not_found') return undefined;
    if (answer.result === 'error' && answer.action !== 'pay') throw new LiqpayRefusal('asking the payment status', asString(answer.err_code), asString(answer.err_description));
    if ((answer.result !== 'ok' && answer.result !== 'error') || !asString(answer.status)) throw new MalformedAnswer('liqpay', 'a status answer without its result or status');
    return answer;
  }

  function createCheckout(request: CheckoutRequest): Promise<Checkout> {
    const currency = request.currency.toUpperCase();
    if (!LIQPAY_CURRENCIES.includes(currency)) return Promise.reject(new Error(`liqpay: LiqPay does not take ${currency}`));
    if (request.idempotencyKey.includes(ORDER_SEPARATOR)) return Promise.reject(new Error('liqpay: the idempotency key cannot hold a dot'));
    const orderId = `${request.reference}${ORDER_SEPARATOR}${request.idempotencyKey}`;
    const notification = new URL(`/api/payments/liqpay/webhook`, request.returnUrl).toString();
    try {
      const { data, signature } = liqpayEncode(privateKey as string, {
        version: 3,
        public_key: publicKey,
        action: 'pay',
        amount: Number(toProviderDecimal(request.amountMinor, currency)),
        currency,
        description: request.description.slice(0, 200),
        order_id: orderId,
        result_url: request.returnUrl,
        server_url: notification,
        // Section 4's fields where LiqPay takes them: the payer's name, our customer id, the product.
        ...(request.customer.firstName ? { sender_first_name: request.customer.firstName.slice(0, 100) } : {}),
        ...(request.customer.lastName ? { sender_last_name: request.customer.lastName.slice(0, 100) } : {}),
        customer: request.customer.uid,
        product_name: request.description.slice(0, 100),
        ...(testMode ? { sandbox: 1 } : {}),
      });
      return Promise.resolve({ kind: 'form', action: `${apiBase}/3/checkout`, fields: { data, signature }, checkoutId: orderId });
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error('liqpay: no checkout'));
    }
  }

  async function lookup(orderId: string): Promise<PaymentEvent | undefined> {
    try {
      const answer = await status(orderId);
      return answer ? liqpayOutcome(answer, testMode) : undefined;
    } catch (error) {
      throw sorted(error);
    }
  }

  async function parseNotification(rawBody: Buffer): Promise<PaymentEvent> {
    const form = new URLSearchParams(rawBody.toString('utf8'));
    const data = form.get('data') ?? '';
    if (!data || !liqpaySignatureMatches(privateKey as string, data, form.get('signature') ?? undefined)) throw new NotificationSignatureError('liqpay');
    const sent = decodeData(data);
    if (!sent) throw new Error('liqpay: a callback whose data is not JSON');
    const providerType = `${asString(sent.action) ?? 'unknown'}.${asString(sent.status) ?? 'unknown'}`;
    const orderId = asString(sent.order_id);
    const ignored: PaymentEvent = { type: 'ignored', eventId: `callback:${orderId ?? 'none'}:${providerType}`, providerType };
    // A refund's callback (status reversed) is settled by the refund action's own answer.
    if (sent.action !== 'pay' || !orderId || !referenceOf(orderId) || sent.status === 'reversed') return ignored;
    let current: Json | undefined;
    try {
      // What LiqPay says of the payment now, not what the callback carries.
      current = await status(orderId);
    } catch (error) {
      throw sorted(error);
    }
    if (!current) return ignored;
    try {
      return liqpayOutcome(current, testMode) ?? ignored;
    } catch (error) {
      if (error instanceof MalformedAnswer) throw sorted(error);
      throw error;
    }
  }

  async function refund(request: RefundRequest): Promise<RefundResult> {
    const currency = request.currency.toUpperCase();
    try {
      const payment = await status(request.transactionId);
      if (!payment) return { status: 'failed', reason: 'liqpay: no such payment' };
      if (asString(payment.currency)?.toUpperCase() !== currency) return { status: 'failed', reason: 'liqpay: the refund is not in the payment currency' };
      const paid = liqpayMoney(payment.amount, payment.currency);
      // Refunded in full already (an earlier ask whose answer was lost): not refunded twice.
      if (payment.status === 'reversed' && paid?.amountMinor === request.amountMinor) return { status: 'succeeded', providerRefundId: `${request.transactionId}:reversed` };
      const answer = await call('refunding', { action: 'refund', order_id: request.transactionId, amount: Number(toProviderDecimal(request.amountMinor, currency)) });
      if (answer.result === 'error') return { status: 'failed', reason: `liqpay: ${asString(answer.err_code) ?? 'refused'}${asString(answer.err_description) ? ` ${String(answer.err_description).slice(0, 200)}` : ''}` };
      const state = asString(answer.status);
      if (answer.result === 'ok' && (state === 'reversed' || state === 'success')) return { status: 'succeeded', providerRefundId: `${request.transactionId}:${typeof answer.payment_id === 'number' ? String(answer.payment_id) : request.idempotencyKey}` };
      if (state && OPEN.test(state)) throw new RetryableRefundError(`liqpay: the refund of ${request.transactionId} is ${state} at LiqPay`);
      throw new MalformedAnswer('liqpay', 'a refund without its result');
    } catch (error) {
      if (error instanceof RetryableRefundError) throw error;
      if (error instanceof LiqpayRefusal) return { status: 'failed', reason: error.message };
      if (error instanceof RangeError) return { status: 'failed', reason: error.message };
      throw new RetryableRefundError(error instanceof Error ? error.message : 'liqpay: refund: no answer');
    }
  }

  return {
    name: 'liqpay',
    checkoutLink: '/api/payments/liqpay/checkout',
    testMode,
    currencies: LIQPAY_CURRENCIES,
    createCheckout,
    lookup,
    parseNotification,
    refund,
    policy: { formAction: liqpayCheckoutOrigins(config) },
  };
}
