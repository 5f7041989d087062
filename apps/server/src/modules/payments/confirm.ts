/**
 * Security-critical: the one confirmation path of every payment provider (issue 18). Every piece
 * of a provider's news (a verified notification, a lookup, a completion, an off-session charge,
 * the test provider's signed confirmation) arrives here as a PaymentEvent and is recorded once
 * per provider and event id (payment_events): a replay finds its row and changes nothing. In the
 * same transaction:
 * - payment_succeeded: the amount and currency are checked against the booking's customer_paid
 *   and the booking's currency (a mismatch is recorded, not paid, and given back in full); the booking is paid through the
 *   trip engine (`payByCardWithin`), or a top-up credited to the wallet (txRef TopUp). A payment
 *   the booking can no longer take (cancelled meanwhile, or paid already) is recorded and given
 *   back in full through the provider (a refund of kind `unapplied`, sent by the refund job).
 * - payment_failed: the checkout is closed; the booking stays payable.
 * - refund_succeeded / refund_failed: the requested refund is settled.
 * - dispute_opened and anything else: recorded for the admins' payments page.
 * No provider is called here (ARCHITECTURE rule 2).
 */
import { and, asc, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { bookings, paymentAttempts, paymentEvents, payments, refunds, savedCards, topups } from '../../db/schema';
import { schedule } from '../../jobs/runner';
import type { PaymentEvent, SavedCard } from '../../providers/payments/port';
import { AppError } from '../../http/app-error';
import { afterStep, payByCardWithin, REFUND_JOB } from '../bookings';
import type { BookingRow } from '../dispatch/booking-view';
import { appendEntry } from '../wallet/ledger';
import { isCardPayable } from './payable';

/** Where a PaymentEvent came from. */
export type EventSource = 'notification' | 'lookup' | 'complete' | 'off_session' | 'test';

/** What the platform did with an event; `replayed` when it was recorded before and nothing changed now. */
export type EventOutcome = {
  outcome: 'paid' | 'credited' | 'mismatch' | 'refunded_late' | 'duplicate' | 'failed' | 'pending' | 'settled' | 'recorded' | 'ignored' | 'unknown_reference';
  replayed: boolean;
  /** The booking or top-up the event was about, when known. */
  bookingId?: string;
  topupId?: string;
};

type PaymentNews = Extract<PaymentEvent, { reference: string }>;
type Succeeded = PaymentNews & { type: 'payment_succeeded' };
type RefundNews = Extract<PaymentEvent, { type: 'refund_succeeded' | 'refund_failed' }>;

const fieldsOf = (event: PaymentEvent) => ({
  reference: 'reference' in event ? event.reference : null,
  transactionId: 'transactionId' in event ? event.transactionId : null,
  amountMinor: 'amountMinor' in event ? event.amountMinor : null,
  currency: 'currency' in event ? event.currency : null,
});

/** Records and acts on one event of a provider, once. */
export async function applyPaymentEvent(ctx: AppContext, provider: string, event: PaymentEvent, source: EventSource): Promise<EventOutcome> {
  const now = ctx.now();
  const result = await ctx.db.transaction(async (tx) => {
    const recorded = await tx
      .insert(paymentEvents)
      .values({ provider, eventId: event.eventId, type: event.type, source, ...fieldsOf(event), outcome: 'recorded', receivedAt: now })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id });
    const row = recorded[0];
    if (!row) {
      const first = (await tx.select().from(paymentEvents).where(and(eq(paymentEvents.provider, provider), eq(paymentEvents.eventId, event.eventId))).limit(1))[0];
      return { outcome: { outcome: (first?.outcome ?? 'recorded') as EventOutcome['outcome'], replayed: true }, paid: undefined };
    }
    const acted = await act(ctx, tx, provider, event, now);
    await tx.update(paymentEvents).set({ outcome: acted.outcome.outcome, detail: acted.detail ?? null }).where(eq(paymentEvents.id, row.id));
    return acted;
  });
  ctx.metrics?.paymentConfirmation(provider, result.outcome.replayed ? 'replayed' : result.outcome.outcome);
  if (result.paid) await afterStep(ctx, result.paid);
  return result.outcome;
}

type Acted = { outcome: EventOutcome; detail?: string; paid?: BookingRow };

async function act(ctx: AppContext, tx: Tx, provider: string, event: PaymentEvent, now: number): Promise<Acted> {
  switch (event.type) {
    case 'payment_succeeded':
      return succeeded(ctx, tx, provider, { ...event, type: 'payment_succeeded' }, now);
    case 'payment_failed':
    case 'payment_pending':
      return failedOrPending(tx, provider, event, now);
    case 'refund_succeeded':
    case 'refund_failed':
      return refundAnswer(tx, provider, event, now);
    case 'dispute_opened':
      return { outcome: { outcome: 'recorded', replayed: false }, detail: event.reason.slice(0, 500) };
    case 'ignored':
      return { outcome: { outcome: 'ignored', replayed: false }, detail: event.providerType.slice(0, 200) };
  }
}

/** The checkouts of this reference at the provider that are still open are closed with this status. */
async function closeAttempts(tx: Tx, provider: string, reference: string, status: 'succeeded' | 'failed', now: number): Promise<void> {
  await tx
    .update(paymentAttempts)
    .set({ status, updatedAt: now })
    .where(and(eq(paymentAttempts.provider, provider), eq(paymentAttempts.reference, reference), eq(paymentAttempts.status, 'open')));
}

async function succeeded(ctx: AppContext, tx: Tx, provider: string, event: Succeeded, now: number): Promise<Acted> {
  const booking = (await tx.select().from(bookings).where(eq(bookings.id, event.reference)).for('update'))[0];
  if (booking) return payBookingWith(ctx, tx, provider, event, booking, now);
  const topup = (await tx.select().from(topups).where(eq(topups.id, event.reference)).for('update'))[0];
  if (topup) return creditTopup(tx, provider, event, topup, now);
  return { outcome: { outcome: 'unknown_reference', replayed: false }, detail: 'no booking or top-up has this reference' };
}

async function payBookingWith(ctx: AppContext, tx: Tx, provider: string, event: Succeeded, booking: BookingRow, now: number): Promise<Acted> {
  const ids = { bookingId: booking.id };
  // The booking's own currency (issue 17), not the settings' now: a change of the setting must not turn a payment into a mismatch.
  const matches = event.amountMinor === booking.customerPaidMinor && event.currency.toUpperCase() === booking.currency.toUpperCase();
  const payable = isCardPayable(booking);
  const outcome = !matches ? 'mismatch' : payable ? 'succeeded' : 'unapplied';
  const inserted = await tx
    .insert(payments)
    .values({ bookingId: booking.id, provider, transactionId: event.transactionId, amountMinor: event.amountMinor, currency: event.currency.toUpperCase(), outcome, at: now })
    .onConflictDoNothing()
    .returning({ id: payments.id });
  // Another event about the same transaction (its notification after its lookup) was acted on already.
  if (inserted.length === 0) return { outcome: { outcome: 'duplicate', replayed: false, ...ids } };
  await keepCard(tx, provider, booking.customer, event.savedCard, now);
  await closeAttempts(tx, provider, booking.id, 'succeeded', now);
  if (!matches) {
    // Money the booking does not owe is given back in full; the booking stays payable.
    if (event.amountMinor > 0) await requestFullRefund(tx, provider, event, booking.id, now);
    return { outcome: { outcome: 'mismatch', replayed: false, ...ids }, detail: `took ${event.amountMinor} ${event.currency}, the booking owes ${booking.customerPaidMinor} ${booking.currency}: refunded in full` };
  }
  if (!payable) return refundUnapplied(tx, provider, event, booking, now);
  try {
    // A savepoint: a trip engine refusal leaves the payment's record and gives the money back.
    const paid = await tx.transaction((inner) => payByCardWithin(ctx, inner, { bookingId: booking.id, customer: booking.customer, gateway: provider }));
    return { outcome: { outcome: 'paid', replayed: false, ...ids }, paid };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    await tx.update(payments).set({ outcome: 'unapplied' }).where(and(eq(payments.provider, provider), eq(payments.transactionId, event.transactionId)));
    return refundUnapplied(tx, provider, event, booking, now);
  }
}

/** Gives a payment back in full through the provider that took it (a refund of kind `unapplied`, sent by the refund job), once. */
async function requestFullRefund(tx: Tx, provider: string, event: Succeeded, bookingId: string, now: number): Promise<void> {
  const refund = (
    await tx
      .insert(refunds)
      .values({ bookingId, provider, transactionId: event.transactionId, amountMinor: event.amountMinor, currency: event.currency.toUpperCase(), status: 'requested', kind: 'unapplied', createdAt: now })
      .onConflictDoNothing()
      .returning({ id: refunds.id })
  )[0];
  if (refund) await schedule(tx, REFUND_JOB, now, { refundId: refund.id });
}

/** A payment the booking could not take (cancelled meanwhile, or paid already): given back in full through the provider. */
async function refundUnapplied(tx: Tx, provider: string, event: Succeeded, booking: BookingRow, now: number): Promise<Acted> {
  await requestFullRefund(tx, provider, event, booking.id, now);
  return { outcome: { outcome: 'refunded_late', replayed: false, bookingId: booking.id }, detail: `the booking is ${booking.status}: refunded in full` };
}

async function creditTopup(tx: Tx, provider: string, event: Succeeded, topup: typeof topups.$inferSelect, now: number): Promise<Acted> {
  const ids = { topupId: topup.id };
  if (topup.status === 'credited') return { outcome: { outcome: 'duplicate', replayed: false, ...ids } };
  if (topup.provider !== provider || event.amountMinor !== topup.amountMinor || event.currency.toUpperCase() !== topup.currency.toUpperCase()) {
    return { outcome: { outcome: 'mismatch', replayed: false, ...ids }, detail: `took ${event.amountMinor} ${event.currency} through ${provider}, the top-up is ${topup.amountMinor} ${topup.currency} through ${topup.provider}` };
  }
  await tx.update(topups).set({ status: 'credited', transactionId: event.transactionId, creditedAt: now }).where(eq(topups.id, topup.id));
  await appendEntry(tx, { uid: topup.uid, type: 'Credit', amountMinor: topup.amountMinor, txRef: 'TopUp', at: now });
  await keepCard(tx, provider, topup.uid, event.savedCard, now);
  await closeAttempts(tx, provider, topup.id, 'succeeded', now);
  return { outcome: { outcome: 'credited', replayed: false, ...ids } };
}

async function failedOrPending(tx: Tx, provider: string, event: PaymentNews, now: number): Promise<Acted> {
  if (event.type === 'payment_pending') return { outcome: { outcome: 'pending', replayed: false } };
  await closeAttempts(tx, provider, event.reference, 'failed', now);
  // A top-up whose payment failed may not be paid later: the rider starts a new one.
  await tx.update(topups).set({ status: 'failed' }).where(and(eq(topups.id, event.reference), eq(topups.status, 'pending')));
  return { outcome: { outcome: 'failed', replayed: false } };
}

/** The provider's answer about a refund: the oldest requested refund of that transaction and amount is settled. */
async function refundAnswer(tx: Tx, provider: string, event: RefundNews, now: number): Promise<Acted> {
  const match = and(eq(refunds.provider, provider), eq(refunds.transactionId, event.transactionId), eq(refunds.status, 'requested'));
  const byId = (await tx.select().from(refunds).where(and(eq(refunds.provider, provider), eq(refunds.providerRefundId, event.providerRefundId))).limit(1))[0];
  const target = byId ?? (await tx.select().from(refunds).where(and(match, eq(refunds.amountMinor, event.amountMinor))).orderBy(asc(refunds.id)).limit(1))[0];
  if (!target) return { outcome: { outcome: 'recorded', replayed: false }, detail: 'a refund this platform did not ask for' };
  if (target.status !== 'requested') return { outcome: { outcome: 'duplicate', replayed: false, bookingId: target.bookingId } };
  const answered =
    event.type === 'refund_succeeded'
      ? { status: 'succeeded', providerRefundId: event.providerRefundId, confirmedAt: now, lastError: null }
      : { status: 'failed', providerRefundId: event.providerRefundId, lastError: 'the provider refused the refund' };
  await tx.update(refunds).set({ ...answered, }).where(and(eq(refunds.id, target.id), eq(refunds.status, 'requested')));
  return { outcome: { outcome: 'settled', replayed: false, bookingId: target.bookingId } };
}

/** A card the rider asked to keep, on file for later off-session charges (once per payment method). */
async function keepCard(tx: Tx, provider: string, uid: string, card: SavedCard | undefined, now: number): Promise<void> {
  if (!card) return;
  await tx
    .insert(savedCards)
    .values({ uid, provider, customerId: card.customerId, paymentMethodId: card.paymentMethodId, brand: card.brand.slice(0, 40), last4: card.last4.slice(-4), expMonth: card.expMonth, expYear: card.expYear, createdAt: now })
    .onConflictDoNothing();
}
