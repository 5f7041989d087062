import type { Order, OrdersCapture } from '@paypal/paypal-server-sdk';
import { fromProviderDecimal } from '@rideway/domain';
import type { PaymentEvent } from './port';

/**
 * PayPal's news read as the port's PaymentEvent: an order (capture answer or lookup, the SDK's
 * camelCase model) and a webhook event (PayPal's JSON, snake_case). Amounts come from PayPal's
 * decimal strings through `fromProviderDecimal` (packages/domain), never inline.
 *
 * Event ids: a webhook event keeps PayPal's own `id` (WH-...). A capture read from an order (the
 * capture on return, a lookup) has no event id at PayPal, so its id is `capture:<capture id>:<type>`:
 * the same capture read twice gives the same event. The payments table is keyed by the capture id
 * (transactionId), so a capture seen by return, lookup and webhook is one payment.
 */

type Money = { amountMinor: number; currency: string };
type PaymentOutcome = Extract<PaymentEvent, { type: 'payment_succeeded' | 'payment_failed' | 'payment_pending' }>;

/** A 2xx answer without what PayPal documents in it (no capture in a COMPLETED order, an amount that is not a decimal): its outcome is unknown. */
export class MalformedPaypalAnswer extends Error {
  constructor(what: string) {
    super(`paypal: a malformed answer (${what})`);
    this.name = 'MalformedPaypalAnswer';
  }
}

/** PayPal's `{currency_code, value}` (or the SDK's `{currencyCode, value}`) in our hundredths; undefined when it is not one. */
export function readMoney(amount: unknown): Money | undefined {
  if (!amount || typeof amount !== 'object') return undefined;
  const record = amount as Record<string, unknown>;
  const currency = record.currencyCode ?? record.currency_code;
  const value = record.value;
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency) || typeof value !== 'string') return undefined;
  const amountMinor = fromProviderDecimal(value, currency);
  return amountMinor === undefined ? undefined : { amountMinor, currency };
}

const SUCCEEDED = new Set(['COMPLETED', 'PARTIALLY_REFUNDED', 'REFUNDED']);
const FAILED = new Set(['DECLINED', 'FAILED']);

/** The capture that tells what became of the order: a taken one first, then a pending one, else the latest. */
function decisiveCapture(captures: OrdersCapture[]): OrdersCapture | undefined {
  const status = (capture: OrdersCapture): string => capture.status ?? '';
  return captures.find((capture) => SUCCEEDED.has(status(capture))) ?? captures.find((capture) => status(capture) === 'PENDING') ?? captures[captures.length - 1];
}

/**
 * A COMPLETED order's outcome, from its capture: COMPLETED (and later PARTIALLY_REFUNDED or
 * REFUNDED: the money was taken) is payment_succeeded, PENDING payment_pending, DECLINED and
 * FAILED payment_failed. Throws MalformedPaypalAnswer when the order says too little.
 */
export function captureOutcome(order: Order): PaymentOutcome {
  const unit = order.purchaseUnits?.[0];
  const reference = unit?.customId ?? unit?.referenceId;
  if (!reference) throw new MalformedPaypalAnswer('no custom_id in the order');
  const capture = decisiveCapture(unit?.payments?.captures ?? []);
  if (!capture?.id || !capture.status) throw new MalformedPaypalAnswer('no capture in the order');
  const money = readMoney(capture.amount) ?? readMoney(unit?.amount);
  if (!money) throw new MalformedPaypalAnswer("the capture's amount");
  const type = SUCCEEDED.has(capture.status) ? 'payment_succeeded' : FAILED.has(capture.status) ? 'payment_failed' : 'payment_pending';
  return { type, eventId: `capture:${capture.id}:${type}`, reference, transactionId: capture.id, ...money };
}

/** An order PayPal will never take money for (VOIDED, or a capture declined at capture time): payment_failed, the order id standing for the transaction. */
export function orderFailed(order: Order, why: string): PaymentOutcome {
  const unit = order.purchaseUnits?.[0];
  const reference = unit?.customId ?? unit?.referenceId;
  const money = readMoney(unit?.amount);
  if (!order.id || !reference || !money) throw new MalformedPaypalAnswer('no id, custom_id or amount in the order');
  return { type: 'payment_failed', eventId: `order:${order.id}:${why}`, reference, transactionId: order.id, ...money };
}

type Json = Record<string, unknown>;
const asRecord = (value: unknown): Json | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
const asString = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The capture a refund belongs to: its `up` link, `.../v2/payments/captures/{capture_id}`. */
function refundedCaptureId(resource: Json): string | undefined {
  const links = Array.isArray(resource.links) ? resource.links : [];
  for (const link of links) {
    const record = asRecord(link);
    const href = asString(record?.href);
    if (record?.rel === 'up' && href) return /\/v2\/payments\/captures\/([^/?#]+)/.exec(href)?.[1];
  }
  return undefined;
}

/**
 * A verified webhook event (https://developer.paypal.com/api/rest/webhooks/event-names/):
 * - PAYMENT.CAPTURE.COMPLETED: payment_succeeded (reference from the capture's `custom_id`);
 * - PAYMENT.CAPTURE.PENDING: payment_pending;
 * - PAYMENT.CAPTURE.DENIED and PAYMENT.CAPTURE.DECLINED: payment_failed;
 * - PAYMENT.CAPTURE.REFUNDED (its resource is the refund; the capture is its `up` link): refund_succeeded;
 * - CUSTOMER.DISPUTE.CREATED (Disputes v1: `disputed_transactions[].seller_transaction_id` is the capture id): dispute_opened;
 * - anything else, CHECKOUT.ORDER.APPROVED included (the return or the lookup job captures), and
 *   an event of these types without the fields read here (not one of our checkouts): ignored.
 */
export function webhookOutcome(event: Json): PaymentEvent {
  const eventId = asString(event.id);
  const providerType = asString(event.event_type) ?? 'unknown';
  if (!eventId) throw new MalformedPaypalAnswer('a webhook event without an id');
  const ignored: PaymentEvent = { type: 'ignored', eventId, providerType };
  const resource = asRecord(event.resource);
  if (!resource) return ignored;
  const payment = (type: PaymentOutcome['type']): PaymentEvent => {
    const reference = asString(resource.custom_id);
    const transactionId = asString(resource.id);
    const money = readMoney(resource.amount);
    return reference && transactionId && money ? { type, eventId, reference, transactionId, ...money } : ignored;
  };
  switch (providerType) {
    case 'PAYMENT.CAPTURE.COMPLETED':
      return payment('payment_succeeded');
    case 'PAYMENT.CAPTURE.PENDING':
      return payment('payment_pending');
    case 'PAYMENT.CAPTURE.DENIED':
    case 'PAYMENT.CAPTURE.DECLINED':
      return payment('payment_failed');
    case 'PAYMENT.CAPTURE.REFUNDED': {
      const providerRefundId = asString(resource.id);
      const transactionId = refundedCaptureId(resource);
      const money = readMoney(resource.amount);
      return providerRefundId && transactionId && money ? { type: 'refund_succeeded', eventId, transactionId, providerRefundId, ...money } : ignored;
    }
    case 'CUSTOMER.DISPUTE.CREATED': {
      const disputed = Array.isArray(resource.disputed_transactions) ? asRecord(resource.disputed_transactions[0]) : undefined;
      const transactionId = asString(disputed?.seller_transaction_id);
      const money = readMoney(resource.dispute_amount);
      return transactionId && money ? { type: 'dispute_opened', eventId, transactionId, reason: asString(resource.reason) ?? 'UNKNOWN', ...money } : ignored;
    }
    default:
      return ignored;
  }
}
