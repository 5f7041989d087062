import { createHash } from 'node:crypto';
import { fromProviderDecimal } from '@rideway/domain';
import type { PaymentEvent } from './port';

/**
 * Braintree's transactions and webhook notifications as this port's events. What the SDK hands
 * back is read field by field (it is the gateway's XML turned into objects), never trusted whole.
 *
 * Event ids. A sale's result and a lookup carry `braintree_txn_<transaction id>_<outcome>`, so the
 * sale's answer and a later lookup of the same transaction are one event. Braintree's webhook
 * notifications have a kind, a timestamp and a subject but no id of their own; Braintree redelivers
 * a notification with the same signed payload, so the notification's id is a SHA-256 of that
 * payload (whitespace removed: the SDK's sample payloads end with a newline, real ones may not).
 */

/** The fields of a Braintree transaction this adapter reads. */
export type BraintreeTransaction = {
  id: string;
  status: string;
  type: string;
  amount: string;
  currency: string;
  orderId: string;
  processorResponseText: string;
  gatewayRejectionReason: string;
  refundedTransactionId: string;
};

const text = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

/** A transaction from the SDK, or undefined when the answer does not have one's shape. */
export function readTransaction(value: unknown): BraintreeTransaction | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const transaction = {
    id: text(record.id),
    status: text(record.status),
    type: text(record.type),
    amount: text(record.amount),
    currency: text(record.currencyIsoCode).toUpperCase(),
    orderId: text(record.orderId),
    processorResponseText: text(record.processorResponseText),
    gatewayRejectionReason: text(record.gatewayRejectionReason),
    refundedTransactionId: text(record.refundedTransactionId),
  };
  if (!transaction.id || !transaction.status || !/^[A-Z]{3}$/.test(transaction.currency)) return undefined;
  if (decimalToMinor(transaction.amount, transaction.currency) === undefined) return undefined;
  return transaction;
}

/**
 * Braintree's decimal amount in our minor units: `fromProviderDecimal` once trailing zeros are
 * dropped ("250.0" and "100.00" for a zero-decimal currency are exact); undefined when unreadable.
 */
export function decimalToMinor(value: string, currency: string): number | undefined {
  const trimmed = value.trim().includes('.') ? value.trim().replace(/0+$/, '').replace(/\.$/, '') : value.trim();
  return fromProviderDecimal(trimmed, currency);
}

/** Braintree's transaction statuses (Transaction.Status in the SDK) sorted by what they mean for the money. */
const SUCCEEDED = new Set(['submitted_for_settlement', 'settling', 'settlement_pending', 'settlement_confirmed', 'settled']);
const PENDING = new Set(['authorizing', 'authorized']);

export type Outcome = 'succeeded' | 'pending' | 'failed';

/** processor_declined, gateway_rejected, failed, settlement_declined, voided, authorization_expired: failed. */
export function outcomeOf(status: string): Outcome {
  if (SUCCEEDED.has(status)) return 'succeeded';
  if (PENDING.has(status)) return 'pending';
  return 'failed';
}

/** The transaction's amount in our minor units (readTransaction checked it reads); throws otherwise. */
export function minorOf(transaction: Pick<BraintreeTransaction, 'id' | 'amount' | 'currency'>): number {
  const amount = decimalToMinor(transaction.amount, transaction.currency);
  if (amount === undefined) throw new Error(`braintree: transaction ${transaction.id} has an unreadable amount`);
  return amount;
}

/** A sale's result or a lookup's answer as a payment event. */
export function transactionEvent(transaction: BraintreeTransaction, outcome: Outcome = outcomeOf(transaction.status)): Extract<PaymentEvent, { reference: string }> {
  return {
    type: outcome === 'succeeded' ? 'payment_succeeded' : outcome === 'pending' ? 'payment_pending' : 'payment_failed',
    eventId: `braintree_txn_${transaction.id}_${outcome}`,
    reference: transaction.orderId,
    transactionId: transaction.id,
    amountMinor: minorOf(transaction),
    currency: transaction.currency,
  };
}

/** The notification's id: a hash of its signed payload. */
export function notificationId(payload: string): string {
  return `braintree_${createHash('sha256').update(payload.replace(/\s/g, '')).digest('hex').slice(0, 48)}`;
}

/** The fields of the SDK's WebhookNotification this adapter reads. */
type Notification = { kind?: unknown; transaction?: unknown; dispute?: unknown };

/**
 * A verified notification as an event: transaction_settled pays, transaction_settlement_declined
 * fails, dispute_opened is a dispute; every other kind (Braintree's `check` test included) is
 * acknowledged and ignored. A transaction without our orderId (not created by this app) is ignored too.
 */
export function notificationEvent(notification: Notification, eventId: string): PaymentEvent {
  const kind = text(notification.kind);
  if (kind === 'transaction_settled' || kind === 'transaction_settlement_declined') {
    const transaction = readTransaction(notification.transaction);
    if (!transaction) throw new Error(`braintree: a ${kind} notification without a readable transaction`);
    if (!transaction.orderId) return { type: 'ignored', eventId, providerType: kind };
    return {
      ...transactionEvent(transaction, kind === 'transaction_settled' ? 'succeeded' : 'failed'),
      eventId,
    };
  }
  if (kind === 'dispute_opened') {
    const dispute = (notification.dispute ?? {}) as Record<string, unknown>;
    const disputed = (dispute.transaction ?? {}) as Record<string, unknown>;
    const currency = text(dispute.currencyIsoCode).toUpperCase();
    const transactionId = text(disputed.id);
    const amount = decimalToMinor(text(dispute.amountDisputed) || text(dispute.amount), currency);
    if (!transactionId || amount === undefined) throw new Error('braintree: a dispute_opened notification without a readable transaction or amount');
    return { type: 'dispute_opened', eventId, transactionId, amountMinor: amount, currency, reason: text(dispute.reason) || text(dispute.kind) || 'dispute' };
  }
  return { type: 'ignored', eventId, providerType: kind || 'unknown' };
}
