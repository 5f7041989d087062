import { PAYMENT_MODES, validateCreditAmount } from '@rideway/domain';
import { z } from 'zod';
import { bookingSchema } from '../booking';
import { optionalBody } from '../http';
import { epochMs, money } from '../primitives';
import { PAYMENT_PROVIDER_NAMES } from '../providers';
import { checkedInput, formNumber } from './form-input';

/** Request and response schemas of the payments routes. */

/** POST /api/bookings/:id/pay: the rider's payment or the driver's closing of the trip. */
export const payStepSchema = optionalBody(z.object({ payment_mode: z.enum(PAYMENT_MODES, { error: 'payment_mode_invalid' }) }));

/** Section 4's card payment form: its hidden fields, posted to the provider's link. */
export const paymentFormSchema = z.object({
  redirect: z.string(),
  method: z.literal('POST'),
  fields: z.object({
    order_id: z.string(),
    amount: z.string(),
    currency: z.string(),
    product_name: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    quantity: z.string(),
    cust_id: z.string(),
    mobile_no: z.string(),
    email: z.string(),
  }),
});
export type PaymentForm = z.infer<typeof paymentFormSchema>;

/** The booking after the step, or, for a rider's card, the form to post to the provider. */
export const payResponse = z.union([bookingSchema, paymentFormSchema]);

/** The payment form as the test provider's checkout receives it (a form post, or JSON). */
export const testCheckoutSchema = z.object({
  order_id: z.string().max(100),
  amount: z.string().max(20),
  currency: z.string().max(8),
  product_name: z.string().max(200).optional(),
});
export type TestCheckout = z.output<typeof testCheckoutSchema>;

/**
 * The test provider's signed confirmation. Each field is text here: an altered one is refused by
 * the signature check, which answers for all of them.
 */
export const testConfirmationSchema = z.object({
  order_id: z.string().max(100),
  amount_minor: z.string().max(20),
  currency: z.string().max(8),
  transaction_id: z.string().max(100),
  outcome: z.string().max(20),
  signature: z.string().max(200),
});
export type TestConfirmation = z.output<typeof testConfirmationSchema>;

/** The provider's pages are HTML. */
export const htmlPage = { description: 'An HTML page', content: { 'text/html': { schema: z.string() } } };

/* Real payments (issue 18): every provider's checkout, notifications and return, cards on file, top-ups, refunds. */

const providerName = z.enum(PAYMENT_PROVIDER_NAMES);

/**
 * The section 4 card payment form as a provider's checkout receives it (a same-origin form post
 * with the session): the booking (`order_id`) or the top-up (`topup_id`), and the rider's choice
 * to keep the card. The other section 4 fields (amount, currency, names) may be posted and are
 * not read: the amount is always the booking's own.
 */
export const providerCheckoutSchema = z.object({
  order_id: z.string().max(100).optional(),
  topup_id: z.string().max(100).optional(),
  save_card: z.string().max(8).optional(),
});
export type ProviderCheckout = z.output<typeof providerCheckoutSchema>;

/** Where a provider sends the rider back: our checkout attempt (and the provider's own parameters, not read). */
/** `status` is Flutterwave's word on its redirect (successful, failed, cancelled): only `cancelled` is read, for the landing's wording; the payment is still looked up. */
export const providerReturnQuery = z.object({ attempt: z.string().max(100), cancelled: z.string().max(8).optional(), status: z.string().max(20).optional() });

/** The nonce a provider's browser script (Braintree Drop-in) gives for a client checkout, posted from our page. */
export const providerCompleteSchema = z.object({
  attempt: z.string().max(100),
  payment_method_nonce: z.string().max(4000),
  device_data: z.string().max(4000).optional(),
});

/** A notification is acknowledged once verified (recorded once; a replay changes nothing). */
export const webhookAck = z.object({ received: z.literal(true) });

/** The answer of a redirect. */
export const redirectAnswer = { 303: z.null().meta({ description: 'See Other: to the provider, or back to the app' }) };

/** A card on file at a provider: never a card number. */
export const savedCardSchema = z.object({
  id: z.number().int(),
  provider: providerName,
  brand: z.string(),
  last4: z.string(),
  expMonth: z.number().int(),
  expYear: z.number().int(),
  createdAt: epochMs,
});
export type SavedCardView = z.output<typeof savedCardSchema>;
export const savedCardsResponse = z.object({ cards: z.array(savedCardSchema) });
export const numericIdParams = z.object({ id: z.coerce.number({ error: 'not_found' }).int().positive().max(Number.MAX_SAFE_INTEGER) });

/** POST /api/wallet/topup: an amount above 0 and the provider to pay it with. */
export const topupRequestSchema = z.object({
  amount: checkedInput(formNumber('no_details_error'), validateCreditAmount),
  provider: providerName,
});
export type TopupRequest = z.output<typeof topupRequestSchema>;

/** The top-up, pending until the provider confirms it; and the form to post to the provider's checkout. */
export const topupResponse = z.object({
  topup_id: z.string(),
  amount: money,
  redirect: z.string(),
  method: z.literal('POST'),
  fields: z.record(z.string(), z.string()),
});
export type TopupAnswer = z.output<typeof topupResponse>;

/** POST /api/bookings/:id/refunds: an admin's refund of a paid trip, in part or in full, with a reason. */
export const adminRefundSchema = z.object({
  amount: checkedInput(formNumber('no_details_error'), validateCreditAmount),
  reason: z.string({ error: 'select_proper' }).trim().min(1, { error: 'select_proper' }).max(500),
});
export type AdminRefundRequest = z.output<typeof adminRefundSchema>;

export const refundRecordSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['cancel', 'admin', 'unapplied']),
  provider: z.string(),
  /** The provider's transaction refunded (null for the wallet): what the admin looks for in a provider's dashboard. */
  transactionId: z.string().nullable(),
  amount: money,
  currency: z.string(),
  /**
   * awaiting_dashboard: the provider's API makes no refunds here (PayFast); an admin refunds in the
   * provider's dashboard, then confirms it (issue 22). It counts as refunded, like a requested one.
   */
  status: z.enum(['requested', 'awaiting_dashboard', 'succeeded', 'failed']),
  /** The provider's id of the refund, once it is confirmed. */
  providerRefundId: z.string().nullable(),
  reason: z.string().nullable(),
  createdAt: epochMs,
  confirmedAt: epochMs.nullable(),
});
export type RefundRecord = z.output<typeof refundRecordSchema>;

/** POST /api/refunds/:id/dashboard-confirmation: an admin made the refund in the provider's dashboard; the provider's reference of it. Nothing else is read: the amount is the refund's own. */
export const dashboardRefundConfirmationSchema = z.object({
  // A provider's reference: letters, digits and the separators references use, nothing an admin's screen could be confused by.
  providerRefundId: z.string({ error: 'select_proper' }).trim().regex(/^[A-Za-z0-9._:/-]{1,100}$/, { error: 'select_proper' }),
});
export type DashboardRefundConfirmation = z.output<typeof dashboardRefundConfirmationSchema>;

export const paymentRecordSchema = z.object({
  id: z.number().int(),
  provider: z.string(),
  transactionId: z.string(),
  amount: money,
  currency: z.string(),
  /** succeeded (paid the booking), declined, mismatch (recorded, not paid) or unapplied (refunded in full). */
  outcome: z.string(),
  at: epochMs,
});

/** A booking's money through providers and the wallet: its payments, its refunds, and what may still be refunded. */
export const bookingPaymentsResponse = z.object({
  payments: z.array(paymentRecordSchema),
  refunds: z.array(refundRecordSchema),
  refundable: money,
});
export type BookingPayments = z.output<typeof bookingPaymentsResponse>;

/** The admins' view of the configured providers: mode, and the webhook URL to paste into each provider's dashboard. */
export const paymentProvidersAdminResponse = z.object({
  providers: z.array(
    z.object({
      name: providerName,
      testMode: z.boolean(),
      checkoutLink: z.string(),
      /** Null for a provider without notifications (the embedded test provider). */
      webhookUrl: z.string().nullable(),
      savesCards: z.boolean(),
      /** The currencies the provider takes (issue 22), null when it is not limited here. */
      currencies: z.array(z.string()).nullable(),
      /** False when it cannot take the settings currency: it is configured but not offered to riders. */
      takesCurrency: z.boolean(),
    }),
  ),
  /** The settings currency the providers were checked against. */
  currency: z.string(),
});

export const paymentEventsQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });
export const paymentEventsResponse = z.object({
  events: z.array(
    z.object({
      id: z.number().int(),
      provider: z.string(),
      eventId: z.string(),
      type: z.string(),
      source: z.string(),
      reference: z.string().nullable(),
      amount: money.nullable(),
      currency: z.string().nullable(),
      outcome: z.string(),
      detail: z.string().nullable(),
      receivedAt: epochMs,
    }),
  ),
});
