import { randomUUID } from 'node:crypto';
import type { PaymentForm, TestCheckout, TestConfirmation } from '@rideway/contract';
import { fromMinor, toMinor } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { bookings } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import { isTestProviderOn, providersInForce } from '../../providers/payments/in-force';
import { testProvider } from '../../providers/payments/test-provider';
import type { PaymentEvent } from '../../providers/payments/port';
import { applyPaymentEvent } from './confirm';
import { isCardPayable } from './payable';
import { getSettings } from '../settings/service';
import { sign, verify, type Confirmation } from './signing';

export { TEST_CHECKOUT_PATH, TEST_COMPLETE_PATH } from '../../providers/payments/test-provider';
type BookingRow = typeof bookings.$inferSelect;

/** The caller's own booking that a card may pay now: another's or a missing one is not found. */
export async function ownCardPayableBooking(ctx: AppContext, actor: Actor, bookingId: string | undefined): Promise<BookingRow> {
  const booking = bookingId ? (await ctx.db.select().from(bookings).where(eq(bookings.id, bookingId)).limit(1))[0] : undefined;
  if (!booking || booking.customer !== actor.uid) throw new AppError('not_found');
  if (!isCardPayable(booking)) throw new AppError('invalid_transition');
  return booking;
}

/**
 * Section 4: the card payment form's hidden fields, posted to the provider's link. The rider's
 * POST /pay with a card answers these with the link to post them to.
 */
export async function cardPaymentForm(ctx: AppContext, actor: Actor, bookingId: string): Promise<PaymentForm> {
  const booking = await ownCardPayableBooking(ctx, actor, bookingId);
  // No provider in force: no form points anywhere a card could be "paid" for free.
  const provider = (await providersInForce(ctx.db, ctx.config))[0];
  if (!provider) throw new AppError('payment_provider_unavailable', 'payment_mode');
  const settings = await getSettings(ctx.db);
  return {
    redirect: provider.checkoutLink,
    method: 'POST' as const,
    fields: {
      order_id: booking.id,
      amount: fromMinor(booking.customerPaidMinor).toFixed(2),
      // Section 4's settings code, as it was when the booking was priced (issue 17).
      currency: booking.currency,
      product_name: `${settings.appName} ${booking.reference}`,
      first_name: actor.user.firstName,
      last_name: actor.user.lastName,
      quantity: '1',
      cust_id: actor.uid,
      mobile_no: actor.user.mobile ?? '',
      email: actor.user.email ?? '',
    },
  };
}

export type CheckoutPage = { confirmations: { outcome: Confirmation['outcome']; fields: Record<string, string> }[]; amount: string; currency: string; product: string };

/** Security-critical: the test provider serves only where it is on (in-force.ts), and only the booking's own rider. */
async function requireTestProvider(ctx: AppContext): Promise<void> {
  if (!(await isTestProviderOn(ctx.db, ctx.config))) throw new AppError('not_found');
}

/**
 * The test provider's checkout, for the booking's own rider (the web app's same-origin form post
 * carries the session): checks the posted form against the booking and signs both outcomes.
 */
export async function testCheckout(ctx: AppContext, secret: string, actor: Actor, form: TestCheckout): Promise<CheckoutPage> {
  await requireTestProvider(ctx);
  const booking = await ownCardPayableBooking(ctx, actor, form.order_id);
  const { currency } = form;
  if (!form.amount || !currency) throw new AppError('amount_mismatch');
  const amount = Number(form.amount);
  if (!Number.isFinite(amount) || toMinor(amount) !== booking.customerPaidMinor || currency !== booking.currency) throw new AppError('amount_mismatch');
  const transactionId = randomUUID();
  const confirmations = (['succeeded', 'declined'] as const).map((outcome) => {
    const confirmation: Confirmation = { orderId: booking.id, amountMinor: booking.customerPaidMinor, currency, transactionId, outcome };
    return {
      outcome,
      fields: { order_id: booking.id, amount_minor: String(booking.customerPaidMinor), currency, transaction_id: transactionId, outcome, signature: sign(secret, confirmation) },
    };
  });
  return { confirmations, amount: fromMinor(booking.customerPaidMinor).toFixed(2), currency, product: form.product_name ?? booking.reference };
}

/**
 * The test provider's confirmation, posted by its checkout page in the rider's browser: only the
 * booking's own rider may post it (a stranger holding the signed fields gets not found).
 */
export async function confirmTestPayment(ctx: AppContext, secret: string, actor: Actor, form: TestConfirmation): Promise<{ outcome: Confirmation['outcome']; bookingId: string }> {
  await requireTestProvider(ctx);
  const booking = (await ctx.db.select({ customer: bookings.customer }).from(bookings).where(eq(bookings.id, form.order_id)).limit(1))[0];
  if (booking?.customer !== actor.uid) throw new AppError('not_found');
  return confirmPayment(ctx, secret, form);
}

/**
 * The test provider's signed confirmation, one more source of a PaymentEvent for the shared
 * confirmation path (confirm.ts). A transaction is confirmed once: its event id is the
 * transaction's, so a declined one stays declined and a repeat changes nothing.
 */
export async function confirmPayment(ctx: AppContext, secret: string, form: TestConfirmation): Promise<{ outcome: Confirmation['outcome']; bookingId: string }> {
  const { outcome } = form;
  const confirmation: Confirmation = {
    orderId: form.order_id,
    amountMinor: Number(form.amount_minor),
    currency: form.currency,
    transactionId: form.transaction_id,
    outcome: outcome === 'succeeded' ? 'succeeded' : 'declined',
  };
  // An unsigned or altered confirmation is not one the provider sent.
  if ((outcome !== 'succeeded' && outcome !== 'declined') || !verify(secret, confirmation, form.signature)) throw new AppError('validation_error', 'signature');
  const event: PaymentEvent = {
    type: confirmation.outcome === 'succeeded' ? 'payment_succeeded' : 'payment_failed',
    eventId: `test:${confirmation.transactionId}`,
    reference: confirmation.orderId,
    transactionId: confirmation.transactionId,
    amountMinor: confirmation.amountMinor,
    currency: confirmation.currency,
  };
  const result = await applyPaymentEvent(ctx, testProvider.name, event, 'test');
  if (result.outcome === 'mismatch') throw new AppError('amount_mismatch');
  const paid = result.outcome === 'paid' || result.outcome === 'duplicate';
  return { outcome: paid ? 'succeeded' : 'declined', bookingId: confirmation.orderId };
}
