import { fromProviderUnits } from '@rideway/domain';
import { z } from 'zod';
import type { SavedCard } from './port';

/**
 * The parts of Stripe's objects the Stripe adapter reads, checked at run time: the SDK's types
 * say what Stripe documents, not what a given answer holds, so an answer without them is
 * malformed here (the adapter's `ProviderUnavailableError`), never a guess.
 * Objects: https://docs.stripe.com/api/checkout/sessions/object,
 * https://docs.stripe.com/api/payment_intents/object, https://docs.stripe.com/api/payment_methods/object,
 * https://docs.stripe.com/api/charges/object, https://docs.stripe.com/api/refunds/object,
 * https://docs.stripe.com/api/disputes/object, https://docs.stripe.com/api/events/object.
 */

const id = (prefix: string) => z.string().regex(new RegExp(`^(?:${prefix})_[A-Za-z0-9_]+$`));
/** An expandable field: the id, or the object when expanded. */
const expandable = <T extends z.ZodType>(prefix: string, object: T) => z.union([id(prefix), object]).nullable().optional();
const metadata = z.record(z.string(), z.string()).nullable().optional();
const amount = z.number().int().min(0);
const currency = z.string().regex(/^[a-zA-Z]{3}$/);

export const paymentMethodWire = z.object({
  id: id('pm'),
  customer: expandable('cus', z.object({ id: id('cus') })),
  card: z.object({ brand: z.string(), last4: z.string(), exp_month: z.number().int(), exp_year: z.number().int() }).nullable().optional(),
});

export const paymentIntentWire = z.object({
  id: id('pi'),
  object: z.literal('payment_intent'),
  amount,
  amount_received: amount.optional(),
  currency,
  status: z.string(),
  customer: expandable('cus', z.object({ id: id('cus') })),
  payment_method: expandable('pm', paymentMethodWire),
  setup_future_usage: z.string().nullable().optional(),
  metadata,
  last_payment_error: z.object({ code: z.string().nullable().optional(), decline_code: z.string().nullable().optional(), message: z.string().nullable().optional() }).nullable().optional(),
});

export const sessionWire = z.object({
  id: id('cs'),
  object: z.literal('checkout.session'),
  status: z.enum(['open', 'complete', 'expired']).nullable(),
  payment_status: z.enum(['paid', 'unpaid', 'no_payment_required']),
  amount_total: amount.nullable(),
  currency: currency.nullable(),
  client_reference_id: z.string().nullable().optional(),
  metadata,
  customer: expandable('cus', z.object({ id: id('cus') })),
  payment_intent: expandable('pi', paymentIntentWire),
  url: z.string().nullable().optional(),
});

export const chargeWire = z.object({
  id: id('ch'),
  object: z.literal('charge'),
  amount,
  amount_refunded: amount,
  currency,
  payment_intent: expandable('pi', z.object({ id: id('pi') })),
  refunds: z.object({ data: z.array(z.lazy(() => refundWire)) }).nullable().optional(),
});

export const refundWire = z.object({
  id: id('re'),
  object: z.literal('refund'),
  amount,
  currency,
  status: z.string().nullable(),
  charge: expandable('ch', z.object({ id: id('ch') })),
  payment_intent: expandable('pi', z.object({ id: id('pi') })),
  failure_reason: z.string().nullable().optional(),
  created: z.number().int().optional(),
});

export const refundListWire = z.object({ object: z.literal('list'), data: z.array(refundWire) });

export const disputeWire = z.object({
  id: id('dp|du'),
  object: z.literal('dispute'),
  amount,
  currency,
  reason: z.string(),
  charge: expandable('ch', z.object({ id: id('ch') })),
  payment_intent: expandable('pi', z.object({ id: id('pi') })),
});

export const eventWire = z.object({
  id: id('evt'),
  object: z.literal('event'),
  type: z.string(),
  data: z.object({ object: z.record(z.string(), z.unknown()), previous_attributes: z.record(z.string(), z.unknown()).nullable().optional() }),
});

export type PaymentIntentWire = z.infer<typeof paymentIntentWire>;
export type SessionWire = z.infer<typeof sessionWire>;
export type RefundWire = z.infer<typeof refundWire>;

/** The id of an expandable field, whether Stripe sent the id or the object. */
export const idOf = (field: string | { id: string } | null | undefined): string | undefined => (typeof field === 'string' ? field : field?.id);

/** Our reference as a checkout or charge set it: client_reference_id, or the metadata the adapter writes. */
export const referenceOf = (object: { client_reference_id?: string | null | undefined; metadata?: Record<string, string> | null | undefined }): string | undefined =>
  object.client_reference_id ?? object.metadata?.booking_id ?? object.metadata?.topup_id;

/**
 * Stripe's smallest unit as our hundredths, with the currency upper-cased. Stripe asks amounts
 * in three-decimal currencies to be whole tens (https://docs.stripe.com/currencies#three-decimal),
 * so `fromProviderUnits` refusing one means a malformed answer.
 */
export function ourMoney(units: number, currencyCode: string): { amountMinor: number; currency: string } {
  const code = currencyCode.toUpperCase();
  return { amountMinor: fromProviderUnits(units, code), currency: code };
}

/** The card a payment intent saved for later off-session charges, when it saved one. */
export function savedCardOf(intent: PaymentIntentWire): SavedCard | undefined {
  if (intent.setup_future_usage !== 'off_session') return undefined;
  const method = intent.payment_method;
  const customerId = idOf(intent.customer) ?? (typeof method === 'object' ? idOf(method?.customer) : undefined);
  if (typeof method !== 'object' || !method?.card || !customerId) return undefined;
  return { customerId, paymentMethodId: method.id, brand: method.card.brand, last4: method.card.last4, expMonth: method.card.exp_month, expYear: method.card.exp_year };
}
