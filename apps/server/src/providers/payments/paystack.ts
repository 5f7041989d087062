import { createHmac, timingSafeEqual } from 'node:crypto';
import { fromProviderUnits, PAYSTACK_CURRENCIES, toProviderUnits } from '@rideway/domain';
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
 * Paystack, through its REST API (no maintained official Node SDK: a small client over fetch,
 * rest-client.ts), as documented at https://paystack.com/docs/api/:
 * 1. `createCheckout`: POST /transaction/initialize (https://paystack.com/docs/api/transaction/#initialize)
 *    with the amount in the currency's subunit (`toProviderUnits`), a `reference` unique per
 *    checkout (the attempt's idempotency key: Paystack refuses a reference used before, so asking
 *    twice creates once), our own reference in `metadata`, `callback_url` (the return URL) and
 *    `metadata.cancel_action` (the cancel URL). The rider is sent to `authorization_url` on
 *    checkout.paystack.com.
 * 2. `parseNotification`: a webhook (https://paystack.com/docs/payments/webhooks/) is Paystack's
 *    only when its `x-paystack-signature` header is the HMAC-SHA512, in hex, of the raw body keyed
 *    with the secret key (compared in constant time). A `charge.success` is then verified with
 *    GET /transaction/verify/:reference (https://paystack.com/docs/api/transaction/#verify): the
 *    amount, currency and status are what that answer says, never the notification's.
 * 3. `lookup`: the same verify call (the return page, missed notifications).
 * 4. `refund`: POST /refund (https://paystack.com/docs/api/refund/#create). Paystack has no
 *    idempotency key: the refund carries ours in `merchant_note`, and before asking, the refunds of
 *    the transaction are listed (GET /refund?transaction=<id>, https://paystack.com/docs/api/refund/#list),
 *    so a refund asked again (an unknown outcome, a refund still processing) is never made twice.
 * The payment's `transactionId` is Paystack's transaction reference: refunds and refund
 * notifications (`refund.processed`, `refund.failed`) name it.
 */

export const PAYSTACK_API = 'https://api.paystack.co';
export const PAYSTACK_CHECKOUT_ORIGIN = 'https://checkout.paystack.com';

/** Paystack's hosted page, and the override's origin (a stand-in's page), for the security policy's form-action. */
export function paystackCheckoutOrigins(config: Pick<Config, 'PAYSTACK_API_URL'>): string[] {
  return checkoutOrigins(PAYSTACK_CHECKOUT_ORIGIN, config.PAYSTACK_API_URL);
}

type Json = Record<string, unknown>;
type PaymentOutcome = Extract<PaymentEvent, { type: 'payment_succeeded' | 'payment_failed' | 'payment_pending' }>;

/** The metadata key our reference travels in. */
const REFERENCE_KEY = 'rideway_reference';

/** Paystack sends `metadata` back as the object it was given, or (older integrations) as its JSON string. */
function ourReference(metadata: unknown): string | undefined {
  let value = metadata;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  return asString(asRecord(value)?.[REFERENCE_KEY]);
}

/** `{amount (subunit, integer), currency}` in our hundredths; undefined when it is not one. */
function moneyOf(data: Json): { amountMinor: number; currency: string } | undefined {
  const currency = asString(data.currency)?.toUpperCase();
  const units = data.amount;
  if (!currency || !/^[A-Z]{3}$/.test(currency) || typeof units !== 'number' || !Number.isSafeInteger(units) || units < 0) return undefined;
  try {
    return { amountMinor: fromProviderUnits(units, currency), currency };
  } catch {
    return undefined;
  }
}

const SUCCEEDED = new Set(['success']);
const FAILED = new Set(['failed', 'reversed']);
/** Not finished yet (abandoned: the page is open and nothing was paid yet). */
const OPEN = new Set(['abandoned', 'ongoing', 'pending', 'processing', 'queued', 'send_otp', 'send_birthday', 'send_pin', 'send_phone', 'send_address', 'open_url']);

/**
 * A verified transaction (the verify answer's `data`) as the port's news: success is
 * payment_succeeded, failed and reversed payment_failed; undefined while it is open. The event id
 * is the transaction's and the outcome's, so the lookup, the return and the webhook of one
 * outcome are one event.
 */
export function transactionOutcome(data: Json): PaymentOutcome | undefined {
  const status = asString(data.status);
  if (!status) throw new MalformedAnswer('paystack', 'a transaction without a status');
  if (OPEN.has(status)) return undefined;
  const type = SUCCEEDED.has(status) ? 'payment_succeeded' : FAILED.has(status) ? 'payment_failed' : undefined;
  if (!type) throw new MalformedAnswer('paystack', `a transaction of status ${status.slice(0, 40)}`);
  const transactionId = asString(data.reference);
  const reference = ourReference(data.metadata);
  const money = moneyOf(data);
  if (!transactionId || !reference || !money) throw new MalformedAnswer('paystack', 'a transaction without its reference, metadata or amount');
  return { type, eventId: `transaction:${transactionId}:${type}`, reference, transactionId, ...money };
}

/** Paystack's `{status: true, data}` envelope: its data, or MalformedAnswer. */
function dataOf(body: Json, what: string): Json {
  const data = asRecord(body.data);
  if (body.status !== true || !data) throw new MalformedAnswer('paystack', what);
  return data;
}

/** Paystack's ids are integers; a string one is taken as it is. */
const idOf = (value: unknown): string | undefined => (typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : asString(value));

const header = (headers: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** True when `signature` is the hex HMAC-SHA512 of the raw body keyed with the secret key, compared in constant time. */
export function paystackSignatureMatches(secretKey: string, rawBody: Buffer, signature: string | undefined): boolean {
  if (!signature || !/^[0-9a-f]{128}$/i.test(signature)) return false;
  const expected = createHmac('sha512', secretKey).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

export function paystackProvider(config: Config): PaymentProviderPort {
  const secretKey = config.PAYSTACK_SECRET_KEY;
  if (!secretKey) throw new Error('paystack: PAYSTACK_SECRET_KEY is required');
  const settings: RestSettings = { provider: 'paystack', apiBase: (config.PAYSTACK_API_URL ?? PAYSTACK_API).replace(/\/+$/, ''), secretKey, timeoutMs: config.PAYMENT_TIMEOUT_MS };

  /** Unknown outcomes as ProviderUnavailableError; refusals as they are. */
  const sorted = (error: unknown): Error => {
    if (error instanceof RestUnavailable) return new ProviderUnavailableError('paystack', error.message);
    if (error instanceof MalformedAnswer) return new ProviderUnavailableError('paystack', error.message);
    return error instanceof Error ? error : new Error('paystack: failed');
  };

  /** GET /transaction/verify/:reference: the transaction's data; undefined when Paystack has no transaction of this reference. */
  async function verify(reference: string): Promise<Json | undefined> {
    try {
      return dataOf(await restCall(settings, 'verifying the transaction', 'GET', `/transaction/verify/${encodeURIComponent(reference)}`), 'a verify answer without data');
    } catch (error) {
      if (error instanceof RestRefusal && (error.status === 400 || error.status === 404)) return undefined;
      throw error;
    }
  }

  async function createCheckout(request: CheckoutRequest): Promise<Checkout> {
    const currency = request.currency.toUpperCase();
    const amount = toProviderUnits(request.amountMinor, currency);
    // Paystack requires an email; a rider signed in by phone has none, so a placeholder at our own host stands in.
    const email = request.customer.email || `rider-${request.customer.uid}@${new URL(request.returnUrl).hostname}`;
    try {
      const body = await restCall(settings, 'initializing the transaction', 'POST', '/transaction/initialize', {
        body: {
          email,
          amount,
          currency,
          reference: request.idempotencyKey,
          callback_url: request.returnUrl,
          // Section 4's form fields, where Paystack takes them: the customer's name, mobile and id in metadata (shown on the dashboard).
          metadata: {
            [REFERENCE_KEY]: request.reference,
            purpose: request.purpose.kind,
            cust_id: request.customer.uid,
            cancel_action: request.cancelUrl,
            custom_fields: [
              { display_name: 'Order', variable_name: 'product_name', value: request.description.slice(0, 200) },
              { display_name: 'Name', variable_name: 'customer_name', value: `${request.customer.firstName} ${request.customer.lastName}`.trim().slice(0, 200) },
              ...(request.customer.mobile ? [{ display_name: 'Mobile', variable_name: 'mobile_no', value: request.customer.mobile.slice(0, 40) }] : []),
            ],
          },
        },
      });
      const data = dataOf(body, 'an initialize answer without data');
      const url = asString(data.authorization_url);
      const reference = asString(data.reference);
      if (!url || !/^https?:\/\//.test(url) || reference !== request.idempotencyKey) throw new MalformedAnswer('paystack', 'an initialize answer without its authorization_url or reference');
      return { kind: 'redirect', url, checkoutId: reference };
    } catch (error) {
      throw sorted(error);
    }
  }

  async function lookup(reference: string): Promise<PaymentEvent | undefined> {
    try {
      const data = await verify(reference);
      return data ? transactionOutcome(data) : undefined;
    } catch (error) {
      throw sorted(error);
    }
  }

  async function parseNotification(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Promise<PaymentEvent> {
    if (!paystackSignatureMatches(secretKey as string, rawBody, header(headers, 'x-paystack-signature'))) throw new NotificationSignatureError('paystack');
    const event = asRecord(JSON.parse(rawBody.toString('utf8')) as unknown);
    const providerType = asString(event?.event) ?? 'unknown';
    const data = asRecord(event?.data) ?? {};
    const reference = asString(data.reference) ?? asString(data.transaction_reference);
    const eventId = `${providerType}:${reference ?? idOf(data.id) ?? 'none'}:${asString(data.status) ?? ''}`;
    const ignored: PaymentEvent = { type: 'ignored', eventId, providerType };
    switch (providerType) {
      case 'charge.success': {
        if (!reference) return ignored;
        // What Paystack says of the transaction now, not what the notification carries.
        let verified: Json | undefined;
        try {
          verified = await verify(reference);
        } catch (error) {
          throw sorted(error);
        }
        if (!verified) return ignored;
        let outcome: PaymentOutcome | undefined;
        try {
          outcome = transactionOutcome(verified);
        } catch {
          // Not one of our checkouts (no metadata reference): recorded, not acted on.
          return ignored;
        }
        return outcome ?? ignored;
      }
      case 'refund.processed':
      case 'refund.failed': {
        const transactionId = asString(data.transaction_reference);
        const money = moneyOf(data);
        const providerRefundId = idOf(data.id) ?? asString(data.refund_reference);
        if (!transactionId || !money || !providerRefundId) return ignored;
        return { type: providerType === 'refund.processed' ? 'refund_succeeded' : 'refund_failed', eventId, transactionId, providerRefundId, ...money };
      }
      default:
        return ignored;
    }
  }

  async function refund(request: RefundRequest): Promise<RefundResult> {
    const currency = request.currency.toUpperCase();
    const note = `rideway ${request.idempotencyKey}`;
    try {
      const transaction = await verify(request.transactionId);
      const transactionId = idOf(transaction?.id);
      if (!transactionId) return { status: 'failed', reason: 'paystack: no such transaction' };
      const listed = await restCall(settings, 'listing the refunds', 'GET', '/refund', { query: { transaction: transactionId } });
      if (listed.status !== true || !Array.isArray(listed.data)) throw new MalformedAnswer('paystack', 'a refund list without data');
      const earlier = listed.data.map(asRecord).find((candidate) => candidate?.merchant_note === note);
      const answer = earlier ?? dataOf(
        await restCall(settings, 'creating the refund', 'POST', '/refund', { body: { transaction: request.transactionId, amount: toProviderUnits(request.amountMinor, currency), currency, merchant_note: note } }),
        'a refund answer without data',
      );
      const status = asString(answer.status);
      const id = idOf(answer.id);
      if (status === 'processed' && id) return { status: 'succeeded', providerRefundId: id };
      if (status === 'failed') return { status: 'failed', reason: 'paystack: the refund failed' };
      if (status === 'pending' || status === 'processing' || status === 'needs-attention') throw new RetryableRefundError(`paystack: refund ${id ?? ''} is ${status} at Paystack`);
      throw new MalformedAnswer('paystack', 'a refund without a status');
    } catch (error) {
      if (error instanceof RetryableRefundError) throw error;
      if (error instanceof RestRefusal && error.status !== 401) return { status: 'failed', reason: `HTTP ${String(error.status)}${error.providerMessage ? ` ${error.providerMessage.slice(0, 200)}` : ''}` };
      if (error instanceof RangeError) return { status: 'failed', reason: error.message };
      throw new RetryableRefundError(error instanceof Error ? error.message : 'paystack: refund: no answer');
    }
  }

  return {
    name: 'paystack',
    checkoutLink: '/api/payments/paystack/checkout',
    testMode: secretKey.startsWith('sk_test_'),
    currencies: PAYSTACK_CURRENCIES,
    createCheckout,
    lookup,
    parseNotification,
    refund,
    policy: { formAction: paystackCheckoutOrigins(config) },
  };
}
