import { createHash, timingSafeEqual } from 'node:crypto';
import { fromProviderDecimal, PAYULATAM_CURRENCIES, toProviderDecimal } from '@rideway/domain';
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
import { asRecord, asString, MalformedAnswer, restCall, RestRefusal, type RestSettings, RestUnavailable } from './rest-client';

/**
 * PayU Latam, through its WebCheckout form post and its JSON APIs (no maintained official Node
 * SDK: a small client over fetch, rest-client.ts), as documented at
 * https://developers.payulatam.com/latam/en/docs/integrations.html:
 * 1. `createCheckout`: a `form` checkout posted to WebCheckout (checkout.payulatam.com/ppp-web-gateway-payu/,
 *    https://developers.payulatam.com/latam/en/docs/integrations/webcheckout-integration.html) with
 *    merchantId, accountId, description, referenceCode (the attempt's id, unique per checkout),
 *    amount, tax and taxReturnBase (0: the fare is sent whole), currency, `signature` (the MD5 of
 *    "ApiKey~merchantId~referenceCode~amount~currency"), test, buyerEmail, buyerFullName,
 *    telephone, responseUrl (the return), confirmationUrl (our notification URL), and our
 *    reference in extra1.
 * 2. `parseNotification`: the confirmation page's POST
 *    (https://developers.payulatam.com/latam/en/docs/integrations/webcheckout-integration/confirmation-page.html)
 *    is PayU's only when its `sign` is the MD5 of "ApiKey~merchant_id~reference_sale~new_value~currency~state_pol",
 *    where new_value is `value` with one decimal when its second decimal is 0 (150.00 → 150.0),
 *    else with two (150.26). The order is then asked of PayU itself (Queries API,
 *    ORDER_DETAIL_BY_REFERENCE_CODE, https://developers.payulatam.com/latam/en/docs/integrations/api-integration/queries-api.html):
 *    the state, amount and currency are the query's, never the notification's. state_pol 4 is
 *    approved, 6 declined, 5 expired, 7 pending.
 * 3. `lookup`: the same query by referenceCode (the return page, missed notifications).
 * 4. `refund`: the Payments API's REFUND transaction (SUBMIT_TRANSACTION with the order id and
 *    parentTransactionId, https://developers.payulatam.com/latam/en/docs/integrations/api-integration/refunds.html),
 *    with `additionalValues.TX_VALUE` for a part. PayU takes no idempotency key: the order's
 *    transactions are read first (ORDER_DETAIL) and a REFUND already there is the one asked
 *    before, so asking again never refunds twice. PayU reviews refunds: a PENDING one is asked
 *    again later (RetryableRefundError) until it is APPROVED or DECLINED.
 * The payment's `transactionId` is "<orderId>/<transactionId>": a refund needs both.
 */

export const PAYULATAM_API = 'https://api.payulatam.com';
export const PAYULATAM_SANDBOX_API = 'https://sandbox.api.payulatam.com';
export const PAYULATAM_CHECKOUT = 'https://checkout.payulatam.com/ppp-web-gateway-payu/';
export const PAYULATAM_SANDBOX_CHECKOUT = 'https://sandbox.checkout.payulatam.com/ppp-web-gateway-payu/';

type Urls = Pick<Config, 'PAYULATAM_API_URL' | 'PAYULATAM_TEST'>;
const override = (config: Urls): string | undefined => config.PAYULATAM_API_URL?.replace(/\/+$/, '');

/** Where the WebCheckout form is posted. */
export const payulatamCheckoutUrl = (config: Urls): string => {
  const base = override(config);
  return base ? `${base}/ppp-web-gateway-payu/` : config.PAYULATAM_TEST ? PAYULATAM_SANDBOX_CHECKOUT : PAYULATAM_CHECKOUT;
};

/** The checkout form's host, for the security policy's form-action. */
export const payulatamCheckoutOrigins = (config: Urls): string[] => [new URL(payulatamCheckoutUrl(config)).origin];

type Json = Record<string, unknown>;
type PaymentOutcome = Extract<PaymentEvent, { type: 'payment_succeeded' | 'payment_failed' | 'payment_pending' }>;

const md5 = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex');

/** The WebCheckout form's signature. */
export const payuFormSignature = (apiKey: string, merchantId: string, referenceCode: string, amount: string, currency: string): string =>
  md5(`${apiKey}~${merchantId}~${referenceCode}~${amount}~${currency}`);

/**
 * The confirmation's new_value: `value` with two decimals, then one when the second is 0
 * (150.00 → 150.0, 150.20 → 150.2, 150.26 → 150.26). Undefined when `value` is not a plain decimal.
 */
export function payuNewValue(value: string): string | undefined {
  const match = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!match?.[1]) return undefined;
  const decimals = (match[2] ?? '').padEnd(2, '0');
  return decimals.endsWith('0') ? `${match[1]}.${decimals.slice(0, 1)}` : `${match[1]}.${decimals}`;
}

/** The confirmation's expected `sign`; undefined for a value that is not one. */
export function payuConfirmationSign(apiKey: string, fields: { merchantId: string; referenceSale: string; value: string; currency: string; statePol: string }): string | undefined {
  const newValue = payuNewValue(fields.value);
  return newValue === undefined ? undefined : md5(`${apiKey}~${fields.merchantId}~${fields.referenceSale}~${newValue}~${fields.currency}~${fields.statePol}`);
}

const sameHex = (expected: string, sent: string | undefined): boolean =>
  sent !== undefined && /^[0-9a-f]{32}$/i.test(sent) && timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(sent.toLowerCase(), 'hex'));

/** A JSON number or numeric string of the currency as our hundredths. */
function moneyOf(value: unknown, currencyValue: unknown): { amountMinor: number; currency: string } | undefined {
  const currency = asString(currencyValue)?.toUpperCase();
  if (!currency || !/^[A-Z]{3}$/.test(currency)) return undefined;
  const text = typeof value === 'number' && Number.isFinite(value) && value >= 0 ? String(value) : asString(value);
  const amountMinor = text === undefined ? undefined : fromProviderDecimal(text, currency);
  return amountMinor === undefined ? undefined : { amountMinor, currency };
}

/** An order's or transaction's TX_VALUE (`additionalValues.TX_VALUE`: {value, currency}). */
const txValueOf = (holder: Json | undefined) => {
  const tx = asRecord(asRecord(holder?.additionalValues)?.TX_VALUE);
  return tx ? moneyOf(tx.value, tx.currency) : undefined;
};

const STATES: Record<string, PaymentOutcome['type'] | undefined> = { APPROVED: 'payment_succeeded', DECLINED: 'payment_failed', EXPIRED: 'payment_failed', ERROR: 'payment_failed', PENDING: undefined };

const transactionsOf = (order: Json): Json[] => (Array.isArray(order.transactions) ? order.transactions.map(asRecord).filter((candidate): candidate is Json => candidate !== undefined) : []);
const stateOf = (transaction: Json): string | undefined => asString(asRecord(transaction.transactionResponse)?.state);
const idOf = (value: unknown): string | undefined => (typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : asString(value));

/** One payment transaction of an order (its AUTHORIZATION_AND_CAPTURE) as the port's news; undefined while pending. */
export function payuOutcome(order: Json, transaction: Json, reference: string): PaymentOutcome | undefined {
  const state = stateOf(transaction);
  if (!state || !(state in STATES)) throw new MalformedAnswer('payulatam', `a transaction of state ${String(state).slice(0, 40)}`);
  const type = STATES[state];
  if (!type) return undefined;
  const orderId = idOf(order.id);
  const id = idOf(transaction.id);
  const money = txValueOf(transaction) ?? txValueOf(order);
  if (!orderId || !id || !money) throw new MalformedAnswer('payulatam', 'an order without its id, transaction id or TX_VALUE');
  const transactionId = `${orderId}/${id}`;
  return { type, eventId: `transaction:${transactionId}:${type}`, reference, transactionId, ...money };
}

/**
 * The referenceCode of a checkout: our reference, a dot, the attempt's id (unique per checkout).
 * PayU echoes it everywhere (reference_sale, the order's referenceCode), so our reference is read
 * from it, signed, rather than from a field PayU may leave out of its answers.
 */
export const payuReferenceCode = (reference: string, attemptId: string): string => `${reference}.${attemptId}`;
const referenceOf = (referenceCode: string): string | undefined => {
  const cut = referenceCode.lastIndexOf('.');
  return cut > 0 ? referenceCode.slice(0, cut) : undefined;
};

const PAYMENT_TYPES = new Set(['AUTHORIZATION_AND_CAPTURE', 'CAPTURE', 'AUTHORIZATION']);

/** Our notification URL beside the return URL (…/<provider>/return?attempt= → …/<provider>/webhook), whatever path PUBLIC_URL has. */
const notificationUrl = (returnUrl: string): string => {
  const url = new URL(returnUrl);
  url.pathname = url.pathname.replace(/\/return$/, '/webhook');
  url.search = '';
  return url.toString();
};

export function payulatamProvider(config: Config): PaymentProviderPort {
  const { PAYULATAM_API_KEY: apiKey, PAYULATAM_API_LOGIN: apiLogin, PAYULATAM_MERCHANT_ID: merchantId, PAYULATAM_ACCOUNT_ID: accountId } = config;
  if (!apiKey || !apiLogin || !merchantId || !accountId) throw new Error('payulatam: PAYULATAM_API_KEY, PAYULATAM_API_LOGIN, PAYULATAM_MERCHANT_ID and PAYULATAM_ACCOUNT_ID are required');
  const test = config.PAYULATAM_TEST;
  // PayU authenticates in the body (merchant.apiLogin, merchant.apiKey): no Bearer secret.
  const settings: RestSettings = { provider: 'payulatam', apiBase: override(config) ?? (test ? PAYULATAM_SANDBOX_API : PAYULATAM_API), secretKey: '', timeoutMs: config.PAYMENT_TIMEOUT_MS };
  const merchant = { apiLogin, apiKey };

  const sorted = (error: unknown): Error => {
    if (error instanceof RestUnavailable || error instanceof MalformedAnswer) return new ProviderUnavailableError('payulatam', error.message);
    return error instanceof Error ? error : new Error('payulatam: failed');
  };

  /** PayU's `{code: "SUCCESS", ...}` envelope, or its refusal. */
  async function call(what: string, api: 'reports' | 'payments', body: Json): Promise<Json> {
    const answer = await restCall(settings, what, 'POST', `/${api}-api/4.0/service.cgi`, { body: { language: 'es', test, merchant, ...body } });
    if (answer.code === 'SUCCESS') return answer;
    if (answer.code === 'ERROR') throw new RestRefusal('payulatam', what, 400, asString(answer.error), answer);
    throw new MalformedAnswer('payulatam', `${what}: no code`);
  }

  /** The orders of a referenceCode (ORDER_DETAIL_BY_REFERENCE_CODE); none when PayU has none. */
  async function ordersOf(referenceCode: string): Promise<Json[]> {
    const answer = await call('querying the order', 'reports', { command: 'ORDER_DETAIL_BY_REFERENCE_CODE', details: { referenceCode } });
    const payload = asRecord(answer.result)?.payload;
    if (payload === null || payload === undefined) return [];
    if (!Array.isArray(payload)) throw new MalformedAnswer('payulatam', 'an order query without its payload');
    return payload.map(asRecord).filter((candidate): candidate is Json => candidate !== undefined);
  }

  function createCheckout(request: CheckoutRequest): Promise<Checkout> {
    const currency = request.currency.toUpperCase();
    if (!PAYULATAM_CURRENCIES.includes(currency)) return Promise.reject(new Error(`payulatam: does not take ${currency}`));
    const amount = toProviderDecimal(request.amountMinor, currency);
    const referenceCode = payuReferenceCode(request.reference, request.idempotencyKey);
    const name = `${request.customer.firstName} ${request.customer.lastName}`.trim();
    const fields: Record<string, string> = {
      merchantId: merchantId as string,
      accountId: accountId as string,
      description: request.description.slice(0, 255),
      referenceCode,
      amount,
      tax: '0',
      taxReturnBase: '0',
      currency,
      signature: payuFormSignature(apiKey as string, merchantId as string, referenceCode, amount, currency),
      test: test ? '1' : '0',
      // Section 4's form fields, where PayU takes them: the buyer's email, name and phone; our ids in extra1 and extra2.
      buyerEmail: request.customer.email || `rider-${request.customer.uid}@${new URL(request.returnUrl).hostname}`,
      ...(name ? { buyerFullName: name.slice(0, 150) } : {}),
      ...(request.customer.mobile ? { telephone: request.customer.mobile.slice(0, 20) } : {}),
      responseUrl: request.returnUrl,
      confirmationUrl: notificationUrl(request.returnUrl),
      extra1: request.reference,
      extra2: request.purpose.kind,
    };
    return Promise.resolve({ kind: 'form', action: payulatamCheckoutUrl(config), fields, checkoutId: referenceCode });
  }

  /** What PayU says now of a referenceCode: an approved payment first, else the latest final one; undefined while none is. */
  async function outcomeOf(referenceCode: string, transactionId?: string): Promise<PaymentOutcome | undefined> {
    const reference = referenceOf(referenceCode);
    if (!reference) return undefined;
    const outcomes: PaymentOutcome[] = [];
    for (const order of await ordersOf(referenceCode)) {
      for (const transaction of transactionsOf(order)) {
        if (!PAYMENT_TYPES.has(asString(transaction.type) ?? '')) continue;
        if (transactionId !== undefined && idOf(transaction.id) !== transactionId) continue;
        if (asString(order.referenceCode) !== referenceCode) continue;
        const outcome = payuOutcome(order, transaction, reference);
        if (outcome) outcomes.push(outcome);
      }
    }
    return outcomes.find((outcome) => outcome.type === 'payment_succeeded') ?? outcomes.at(-1);
  }

  async function lookup(referenceCode: string): Promise<PaymentEvent | undefined> {
    try {
      return await outcomeOf(referenceCode);
    } catch (error) {
      throw sorted(error);
    }
  }

  async function parseNotification(rawBody: Buffer): Promise<PaymentEvent> {
    const form = new URLSearchParams(rawBody.toString('utf8'));
    const field = (name: string): string => form.get(name)?.trim() ?? '';
    const fields = { merchantId: field('merchant_id'), referenceSale: field('reference_sale'), value: field('value'), currency: field('currency'), statePol: field('state_pol') };
    const expected = payuConfirmationSign(apiKey as string, fields);
    if (!expected || !sameHex(expected, field('sign') || undefined)) throw new NotificationSignatureError('payulatam');
    if (fields.merchantId !== merchantId) throw new NotificationSignatureError('payulatam');
    const transactionId = field('transaction_id');
    const eventId = `confirmation:${transactionId || fields.referenceSale}:${fields.statePol}`;
    if (!transactionId || !referenceOf(fields.referenceSale)) return { type: 'ignored', eventId, providerType: `confirmation state_pol ${fields.statePol.slice(0, 8)}` };
    let current: PaymentOutcome | undefined;
    try {
      // What PayU says of the transaction now, not what the confirmation carries.
      current = await outcomeOf(fields.referenceSale, transactionId);
    } catch (error) {
      throw sorted(error);
    }
    return current ?? { type: 'ignored', eventId, providerType: `confirmation state_pol ${fields.statePol.slice(0, 8)}` };
  }

  async function refund(request: RefundRequest): Promise<RefundResult> {
    const [orderText, parentId] = request.transactionId.split('/');
    const orderId = Number(orderText);
    if (!Number.isSafeInteger(orderId) || !parentId) return { status: 'failed', reason: 'payulatam: not a PayU order/transaction id' };
    const currency = request.currency.toUpperCase();
    const settle = (transaction: Json): RefundResult => {
      const state = stateOf(transaction);
      const id = idOf(transaction.id) ?? idOf(transaction.transactionId);
      if (state === 'APPROVED' && id) return { status: 'succeeded', providerRefundId: id };
      if (state === 'DECLINED' || state === 'ERROR' || state === 'EXPIRED') return { status: 'failed', reason: `payulatam: the refund was ${state.toLowerCase()}` };
      if (state === 'PENDING' || state === 'SUBMITTED') throw new RetryableRefundError(`payulatam: refund ${id ?? ''} is pending review at PayU`);
      throw new MalformedAnswer('payulatam', 'a refund without a state');
    };
    try {
      const detail = await call('reading the order', 'reports', { command: 'ORDER_DETAIL', details: { orderId } });
      const payload = asRecord(detail.result)?.payload;
      if (payload === null || payload === undefined) return { status: 'failed', reason: 'payulatam: no such order' };
      // An answer of another shape says nothing of the order: asked again later, never failed for good.
      const order = asRecord(payload);
      if (!order) throw new MalformedAnswer('payulatam', 'an order detail without its order');
      const parent = transactionsOf(order).find((transaction) => idOf(transaction.id) === parentId);
      if (!parent) return { status: 'failed', reason: 'payulatam: no such transaction in the order' };
      const earlier = transactionsOf(order).find((transaction) => asString(transaction.type) === 'REFUND');
      if (earlier) return settle(earlier);
      const whole = txValueOf(parent) ?? txValueOf(order);
      const partial = whole !== undefined && whole.amountMinor !== request.amountMinor;
      const answer = await call('creating the refund', 'payments', {
        command: 'SUBMIT_TRANSACTION',
        transaction: {
          order: { id: orderId },
          type: 'REFUND',
          reason: `rideway ${request.idempotencyKey}`,
          parentTransactionId: parentId,
          ...(partial ? { additionalValues: { TX_VALUE: { value: Number(toProviderDecimal(request.amountMinor, currency)), currency } } } : {}),
        },
      });
      const response = asRecord(answer.transactionResponse);
      if (!response) throw new MalformedAnswer('payulatam', 'a refund answer without its transactionResponse');
      return settle({ ...response, id: response.transactionId, transactionResponse: response });
    } catch (error) {
      if (error instanceof RetryableRefundError) throw error;
      if (error instanceof RestRefusal && error.status !== 401) return { status: 'failed', reason: `payulatam: ${error.providerMessage?.slice(0, 200) ?? `HTTP ${String(error.status)}`}` };
      if (error instanceof RangeError) return { status: 'failed', reason: error.message };
      throw new RetryableRefundError(error instanceof Error ? error.message : 'payulatam: refund: no answer');
    }
  }

  return {
    name: 'payulatam',
    checkoutLink: '/api/payments/payulatam/checkout',
    testMode: test,
    currencies: PAYULATAM_CURRENCIES,
    createCheckout,
    lookup,
    parseNotification,
    refund,
    policy: { formAction: payulatamCheckoutOrigins(config) },
  };
}
