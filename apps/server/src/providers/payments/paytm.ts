import { createHash } from 'node:crypto';
import { fromProviderDecimal, PAYTM_CURRENCIES, toProviderDecimal } from '@rideway/domain';
import PaytmChecksum from 'paytmchecksum';
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
import { asRecord, asString, MalformedAnswer, RestUnavailable } from './rest-client';

/**
 * Paytm Payment Gateway (India, INR), through its documented JS Checkout-less flow, every request
 * signed with Paytm's official checksum library (`paytmchecksum`, https://developer.paytm.com/docs/checksum/#node):
 * 1. `createCheckout`: the Initiate Transaction API, POST /theia/api/v1/initiateTransaction?mid=&orderId=
 *    (https://developer.paytm.com/docs/api/initiate-transaction-api/) with `{body, head: {signature}}`,
 *    the signature the library's of the JSON body; then the documented form post of `mid`,
 *    `orderId` and the `txnToken` it answered to /theia/api/v1/showPaymentPage (Paytm's page).
 *    Paytm's orderId is at most 50 characters and unique per payment: it is our reference and the
 *    tail of the attempt's idempotency key (`<reference>.<12 characters>`), our reference read
 *    back from it. The `callbackUrl` is the return URL: Paytm posts the rider's browser back to it.
 * 2. `parseNotification`: Paytm's payment webhook (the form fields of its callback, set on the
 *    dashboard: https://developer.paytm.com/docs/payment-status/) is Paytm's only when its
 *    CHECKSUMHASH verifies with the library and the merchant key. The order is then asked for with
 *    the Transaction Status API, POST /v3/order/status
 *    (https://developer.paytm.com/docs/api/v3/transaction-status-api/): the status and amount
 *    are what that answer says, never the notification's.
 * 3. `lookup`: the same Transaction Status API (the return, which Paytm posts; missed webhooks).
 * 4. `refund`: the Refund API, POST /refund/apply (https://developer.paytm.com/docs/api/initiate-refund-api/),
 *    with our idempotency key as its unique `refId`; before asking, the Refund Status API
 *    (POST /v2/refund/status, https://developer.paytm.com/docs/api/v2/refund-status-api/) is asked
 *    for that refId, so a refund asked again is found, never made twice. Paytm refunds start
 *    PENDING: the refund stays requested until a later ask finds it TXN_SUCCESS.
 * The payment's `transactionId` is the orderId; a refund reads the Paytm TXNID from the status.
 */

export const PAYTM_API = 'https://securegw.paytm.in';
export const PAYTM_STAGING_API = 'https://securegw-stage.paytm.in';

/** Paytm's payment page host (production, and staging when configured), for the security policy's form-action. */
export function paytmCheckoutOrigins(config: Pick<Config, 'PAYTM_API_URL'>): string[] {
  const configured = new URL(config.PAYTM_API_URL ?? PAYTM_API).origin;
  return configured === PAYTM_API ? [PAYTM_API] : [PAYTM_API, configured];
}

/** Paytm answered with a failure of the request itself (a bad signature, a refused order): nothing was done. */
export class PaytmRefusal extends Error {
  constructor(what: string, code: string | undefined, message: string | undefined) {
    super(`paytm: ${what} refused: ${(code ?? 'F').slice(0, 20)}${message ? ` ${message.slice(0, 200)}` : ''}`);
    this.name = 'PaytmRefusal';
  }
}

type Json = Record<string, unknown>;
type PaymentOutcome = Extract<PaymentEvent, { type: 'payment_succeeded' | 'payment_failed' | 'payment_pending' }>;

const ORDER_SEPARATOR = '.';
/** Paytm's orderId and refId: letters, digits, `@ - _ .`, at most 50. */
const PAYTM_ID = /^[A-Za-z0-9@_.-]{1,50}$/;
/** Transaction Status answers for an order Paytm does not know (yet): "Invalid Order Id". */
const NO_SUCH_ORDER = new Set(['334']);
/** Refund Status answers for a refId Paytm has no refund of: "Record not found". */
const NO_SUCH_REFUND = new Set(['631']);

/** Our reference, read back from an orderId this adapter made. */
function referenceOf(orderId: string): string | undefined {
  const at = orderId.lastIndexOf(ORDER_SEPARATOR);
  return at > 0 ? orderId.slice(0, at) : undefined;
}

/** The orderId of a checkout: our reference and the idempotency key's last 12 letters or digits. */
export function paytmOrderId(reference: string, idempotencyKey: string): string {
  const tail = idempotencyKey.replace(/[^A-Za-z0-9]/g, '').slice(-12);
  const orderId = `${reference}${ORDER_SEPARATOR}${tail}`;
  if (!tail || !PAYTM_ID.test(orderId)) throw new Error('paytm: the reference does not fit an orderId (letters, digits, @ - _ ., 37 at most)');
  return orderId;
}

/** A refId for our idempotency key: itself when Paytm takes it, else a digest of it (the same key, the same refId). */
const refIdOf = (idempotencyKey: string): string => (PAYTM_ID.test(idempotencyKey) ? idempotencyKey : `r${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 40)}`);

const resultOf = (body: Json): { status?: string; code?: string; message?: string } => {
  const info = asRecord(body.resultInfo) ?? {};
  return { status: asString(info.resultStatus), code: asString(info.resultCode), message: asString(info.resultMsg) };
};

/**
 * A Transaction Status answer's body: TXN_SUCCESS is payment_succeeded, TXN_FAILURE
 * payment_failed, PENDING undefined. Paytm takes INR only; the amount is its decimal string.
 */
export function paytmOutcome(body: Json): PaymentOutcome | undefined {
  const { status } = resultOf(body);
  if (status === 'PENDING') return undefined;
  const type = status === 'TXN_SUCCESS' ? 'payment_succeeded' : status === 'TXN_FAILURE' ? 'payment_failed' : undefined;
  if (!type) throw new MalformedAnswer('paytm', `a transaction of status ${(status ?? 'none').slice(0, 40)}`);
  const orderId = asString(body.orderId);
  const reference = orderId ? referenceOf(orderId) : undefined;
  const amount = asString(body.txnAmount);
  const amountMinor = amount === undefined ? undefined : fromProviderDecimal(amount, 'INR');
  if (!orderId || !reference || amountMinor === undefined) throw new MalformedAnswer('paytm', 'a transaction without its orderId or amount');
  return { type, eventId: `order:${orderId}:${type}`, reference, transactionId: orderId, amountMinor, currency: 'INR' };
}

export function paytmProvider(config: Config): PaymentProviderPort {
  const { PAYTM_MERCHANT_ID: merchantId, PAYTM_MERCHANT_KEY: merchantKey } = config;
  const website = config.PAYTM_WEBSITE ?? 'DEFAULT';
  if (!merchantId || !merchantKey) throw new Error('paytm: PAYTM_MERCHANT_ID and PAYTM_MERCHANT_KEY are required');
  const mid: string = merchantId;
  const key: string = merchantKey;
  const apiBase = (config.PAYTM_API_URL ?? PAYTM_API).replace(/\/+$/, '');
  const testMode = website === 'WEBSTAGING' || new URL(apiBase).origin === PAYTM_STAGING_API;

  const sorted = (error: unknown): Error => {
    if (error instanceof RestUnavailable || error instanceof MalformedAnswer) return new ProviderUnavailableError('paytm', error.message);
    return error instanceof Error ? error : new Error('paytm: failed');
  };

  /** One signed call: `{body, head: {signature}}` as JSON; the answer's `body`. */
  async function call(what: string, path: string, body: Json, query: Record<string, string> = {}): Promise<Json> {
    const json = JSON.stringify(body);
    const signature = await PaytmChecksum.generateSignature(json, key);
    const url = new URL(`${apiBase}${path}`);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        // The body's bytes are the signed ones: written as they were signed.
        body: `{"body":${json},"head":${JSON.stringify({ signature, channelId: 'WEB', requestTimestamp: String(Date.now()) })}}`,
        signal: AbortSignal.timeout(config.PAYMENT_TIMEOUT_MS),
        redirect: 'error',
      });
      text = await response.text();
    } catch (error) {
      const timeout = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new RestUnavailable('paytm', what, timeout ? 'no answer in time' : 'no answer (network)');
    }
    if (response.status === 408 || response.status === 429 || response.status >= 500) throw new RestUnavailable('paytm', what, `HTTP ${String(response.status)}`);
    let answer: Json | undefined;
    try {
      answer = asRecord(JSON.parse(text) as unknown);
    } catch {
      answer = undefined;
    }
    if (!response.ok) throw new PaytmRefusal(what, `HTTP ${String(response.status)}`, undefined);
    const answered = asRecord(answer?.body);
    if (!answered || !asRecord(answered.resultInfo)) throw new MalformedAnswer('paytm', `${what}: no body`);
    return answered;
  }

  /** The Transaction Status API's body; undefined when Paytm has no such order. */
  async function status(orderId: string): Promise<Json | undefined> {
    const body = await call('asking the transaction status', '/v3/order/status', { mid, orderId });
    const { code } = resultOf(body);
    return code && NO_SUCH_ORDER.has(code) ? undefined : body;
  }

  async function createCheckout(request: CheckoutRequest): Promise<Checkout> {
    const currency = request.currency.toUpperCase();
    if (!PAYTM_CURRENCIES.includes(currency)) throw new Error(`paytm: Paytm does not take ${currency}`);
    const orderId = paytmOrderId(request.reference, request.idempotencyKey);
    const value = toProviderDecimal(request.amountMinor, currency);
    try {
      const body = await call('initiating the transaction', '/theia/api/v1/initiateTransaction', {
        requestType: 'Payment',
        mid,
        websiteName: website,
        orderId,
        callbackUrl: request.returnUrl,
        txnAmount: { value, currency },
        // Section 4's fields where Paytm takes them: the customer's id, mobile, email and name.
        userInfo: {
          custId: request.customer.uid,
          ...(/^\d{10}$/.test(request.customer.mobile.replace(/^\+?91/, '')) ? { mobile: request.customer.mobile.replace(/^\+?91/, '') } : {}),
          ...(request.customer.email ? { email: request.customer.email } : {}),
          ...(request.customer.firstName ? { firstName: request.customer.firstName.slice(0, 50) } : {}),
          ...(request.customer.lastName ? { lastName: request.customer.lastName.slice(0, 50) } : {}),
        },
      }, { mid, orderId });
      const { status: result, code, message } = resultOf(body);
      const txnToken = asString(body.txnToken);
      if (result !== 'S') throw new PaytmRefusal('initiating the transaction', code, message);
      if (!txnToken) throw new MalformedAnswer('paytm', 'an initiate answer without its txnToken');
      const page = new URL(`${apiBase}/theia/api/v1/showPaymentPage`);
      page.searchParams.set('mid', mid);
      page.searchParams.set('orderId', orderId);
      return { kind: 'form', action: page.toString(), fields: { mid: mid, orderId, txnToken }, checkoutId: orderId };
    } catch (error) {
      throw sorted(error);
    }
  }

  async function lookup(orderId: string): Promise<PaymentEvent | undefined> {
    try {
      const body = await status(orderId);
      return body ? paytmOutcome(body) : undefined;
    } catch (error) {
      throw sorted(error);
    }
  }

  async function parseNotification(rawBody: Buffer): Promise<PaymentEvent> {
    const fields: Record<string, string> = {};
    for (const [name, value] of new URLSearchParams(rawBody.toString('utf8'))) fields[name] = value;
    const checksum = fields.CHECKSUMHASH;
    delete fields.CHECKSUMHASH;
    let verified: boolean;
    try {
      verified = Boolean(checksum) && PaytmChecksum.verifySignature(fields, key, checksum ?? '');
    } catch {
      verified = false;
    }
    if (!verified) throw new NotificationSignatureError('paytm');
    const orderId = fields.ORDERID;
    const providerType = fields.STATUS ?? 'unknown';
    const ignored: PaymentEvent = { type: 'ignored', eventId: `webhook:${orderId ?? 'none'}:${fields.TXNID ?? ''}:${providerType}`, providerType };
    if (!orderId || fields.MID !== mid || !referenceOf(orderId)) return ignored;
    try {
      // What Paytm says of the order now, not what the notification carries.
      const body = await status(orderId);
      return (body ? paytmOutcome(body) : undefined) ?? ignored;
    } catch (error) {
      throw sorted(error);
    }
  }

  async function refund(request: RefundRequest): Promise<RefundResult> {
    const currency = request.currency.toUpperCase();
    if (currency !== 'INR') return { status: 'failed', reason: 'paytm: refunds are in INR only' };
    const refId = refIdOf(request.idempotencyKey);
    const settled = (body: Json): RefundResult => {
      const { status: result, code, message } = resultOf(body);
      if (result === 'TXN_SUCCESS') return { status: 'succeeded', providerRefundId: asString(body.refundId) ?? refId };
      if (result === 'PENDING') throw new RetryableRefundError(`paytm: refund ${refId} is pending at Paytm`);
      if (result === 'TXN_FAILURE') return { status: 'failed', reason: `paytm: ${(code ?? '').slice(0, 20)} ${(message ?? 'the refund failed').slice(0, 200)}`.trim() };
      throw new MalformedAnswer('paytm', 'a refund without its status');
    };
    try {
      const earlier = await call('asking the refund status', '/v2/refund/status', { mid, orderId: request.transactionId, refId });
      const known = resultOf(earlier).code;
      if (!(known && NO_SUCH_REFUND.has(known))) return settled(earlier);
      const payment = await status(request.transactionId);
      if (!payment || resultOf(payment).status !== 'TXN_SUCCESS') return { status: 'failed', reason: 'paytm: no successful transaction of this order' };
      const txnId = asString(payment.txnId);
      if (!txnId) throw new MalformedAnswer('paytm', 'a transaction without its txnId');
      const answer = await call('refunding', '/refund/apply', { mid, txnType: 'REFUND', orderId: request.transactionId, txnId, refId, refundAmount: toProviderDecimal(request.amountMinor, currency) });
      return settled(answer);
    } catch (error) {
      if (error instanceof RetryableRefundError) throw error;
      if (error instanceof PaytmRefusal) return { status: 'failed', reason: error.message };
      if (error instanceof RangeError) return { status: 'failed', reason: error.message };
      throw new RetryableRefundError(error instanceof Error ? error.message : 'paytm: refund: no answer');
    }
  }

  return {
    name: 'paytm',
    checkoutLink: '/api/payments/paytm/checkout',
    testMode,
    currencies: PAYTM_CURRENCIES,
    createCheckout,
    lookup,
    parseNotification,
    refund,
    policy: { formAction: paytmCheckoutOrigins(config) },
  };
}
