import type { z } from 'zod';
import { ProviderUnavailableError, type PaymentEvent } from './port';
import {
  chargeWire,
  disputeWire,
  eventWire,
  idOf,
  ourMoney,
  paymentIntentWire,
  referenceOf,
  refundWire,
  savedCardOf,
  sessionWire,
  type PaymentIntentWire,
  type RefundWire,
  type SessionWire,
} from './stripe-wire';

/**
 * Stripe's events as the port's PaymentEvent (https://docs.stripe.com/api/events/types):
 * - `checkout.session.completed`: the rider finished Checkout; `payment_status` `paid` pays,
 *   `unpaid` waits for a delayed method (https://docs.stripe.com/checkout/fulfillment);
 * - `checkout.session.async_payment_succeeded` / `_failed`: that delayed payment's outcome;
 * - `payment_intent.payment_failed`: an attempt failed (the checkout stays open and payable);
 * - `charge.refunded`: a refund on the charge, whoever made it (this app or the Dashboard);
 * - `refund.failed`: a refund Stripe had accepted did not reach the card;
 * - `charge.dispute.created`: the cardholder disputes the payment;
 * anything else is `ignored` (acknowledged and recorded). `eventId` is Stripe's event id.
 */

const PROVIDER = 'stripe';

/** The calls an event may need: the saved card of a payment, the refunds of a charge. */
export type StripeLookups = {
  /** The payment intent with its payment method expanded. */
  paymentIntent: (id: string) => Promise<PaymentIntentWire>;
  /** The charge's refunds, newest first. */
  refundsOf: (chargeId: string) => Promise<RefundWire[]>;
};

export const malformed = (what: string) => new ProviderUnavailableError(PROVIDER, `stripe: malformed ${what}`);

export function read<T extends z.ZodType>(schema: T, value: unknown, what: string): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw malformed(what);
  return parsed.data;
}

function money(units: number | null, currency: string | null, what: string): { amountMinor: number; currency: string } {
  if (units === null || currency === null) throw malformed(`${what}: no amount`);
  try {
    return ourMoney(units, currency);
  } catch {
    throw malformed(`${what}: ${units} ${currency} is not a whole number of hundredths`);
  }
}

/**
 * A Checkout Session's outcome. `type` is what the event (or the lookup) says happened; the saved
 * card is read from the payment intent when the checkout asked to keep it.
 */
export async function sessionEvent(eventId: string, session: SessionWire, type: 'payment_succeeded' | 'payment_failed' | 'payment_pending', lookups: StripeLookups): Promise<PaymentEvent> {
  const reference = referenceOf(session);
  if (!reference) return { type: 'ignored', eventId, providerType: 'checkout.session (not this app)' };
  const intent = session.payment_intent;
  const base = { eventId, reference, transactionId: idOf(intent) ?? session.id, ...money(session.amount_total, session.currency, 'checkout session') };
  if (type !== 'payment_succeeded' || session.metadata?.save_card !== '1') return { type, ...base };
  const expanded = typeof intent === 'object' && intent !== null && typeof intent.payment_method === 'object' && intent.payment_method !== null ? intent : undefined;
  const withCard = expanded ?? (intent ? await lookups.paymentIntent(base.transactionId) : undefined);
  const savedCard = withCard ? savedCardOf(withCard) : undefined;
  return { type, ...base, ...(savedCard ? { savedCard } : {}) };
}

function refundEvent(eventId: string, refund: RefundWire, transactionId: string): PaymentEvent {
  const failed = refund.status === 'failed' || refund.status === 'canceled';
  return { type: failed ? 'refund_failed' : 'refund_succeeded', eventId, transactionId, providerRefundId: refund.id, ...money(refund.amount, refund.currency, 'refund') };
}

/** The refund a `charge.refunded` event is about: the newest one of the amount that was just refunded. */
async function chargeRefunded(eventId: string, object: unknown, previous: Record<string, unknown> | null | undefined, lookups: StripeLookups): Promise<PaymentEvent> {
  const charge = read(chargeWire, object, 'charge');
  const transactionId = idOf(charge.payment_intent) ?? charge.id;
  // Since API version 2022-11-15 a charge carries no refunds list unless expanded: ask for it.
  const refunds = [...(charge.refunds?.data ?? (await lookups.refundsOf(charge.id)))].sort((a, b) => (b.created ?? 0) - (a.created ?? 0));
  const before = typeof previous?.amount_refunded === 'number' ? previous.amount_refunded : undefined;
  const justRefunded = before === undefined ? undefined : charge.amount_refunded - before;
  const refund = refunds.find((candidate) => candidate.amount === justRefunded) ?? refunds[0];
  if (!refund) throw malformed(`charge.refunded: charge ${charge.id} has no refund`);
  return refundEvent(eventId, refund, transactionId);
}

function paymentFailed(eventId: string, intent: PaymentIntentWire): PaymentEvent {
  const reference = referenceOf(intent);
  if (!reference) return { type: 'ignored', eventId, providerType: 'payment_intent.payment_failed (not this app)' };
  return { type: 'payment_failed', eventId, reference, transactionId: intent.id, ...money(intent.amount, intent.currency, 'payment intent') };
}

/** A verified event, parsed from its JSON, as the port's PaymentEvent. */
export async function stripeEvent(raw: unknown, lookups: StripeLookups): Promise<PaymentEvent> {
  const event = read(eventWire, raw, 'event');
  const object = event.data.object;
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = read(sessionWire, object, 'checkout session');
      if (session.payment_status === 'no_payment_required') return { type: 'ignored', eventId: event.id, providerType: `${event.type} (no payment required)` };
      return sessionEvent(event.id, session, session.payment_status === 'paid' ? 'payment_succeeded' : 'payment_pending', lookups);
    }
    case 'checkout.session.async_payment_succeeded':
      return sessionEvent(event.id, read(sessionWire, object, 'checkout session'), 'payment_succeeded', lookups);
    case 'checkout.session.async_payment_failed':
      return sessionEvent(event.id, read(sessionWire, object, 'checkout session'), 'payment_failed', lookups);
    case 'payment_intent.payment_failed':
      return paymentFailed(event.id, read(paymentIntentWire, object, 'payment intent'));
    case 'charge.refunded':
      return chargeRefunded(event.id, object, event.data.previous_attributes, lookups);
    case 'refund.failed': {
      const refund = read(refundWire, object, 'refund');
      return refundEvent(event.id, { ...refund, status: 'failed' }, idOf(refund.payment_intent) ?? idOf(refund.charge) ?? refund.id);
    }
    case 'charge.dispute.created': {
      const dispute = read(disputeWire, object, 'dispute');
      const transactionId = idOf(dispute.payment_intent) ?? idOf(dispute.charge) ?? dispute.id;
      return { type: 'dispute_opened', eventId: event.id, transactionId, reason: dispute.reason, ...money(dispute.amount, dispute.currency, 'dispute') };
    }
    default:
      return { type: 'ignored', eventId: event.id, providerType: event.type };
  }
}
