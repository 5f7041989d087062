/**
 * Security-critical: an admin's refund of a paid trip (issue 18), and the admins' payments data.
 * A refund is in part or in full, never above what was paid less what was already refunded (the
 * domain's `checkRefund`, under the booking's lock so two admins at once cannot both pass), back
 * the way the money came: through the provider that took it (requested here, sent by the refund
 * job after commit), or to the wallet at once (a Credit, txRef Refund). The rider is told.
 */
import type { AdminRefundRequest, BookingPayments, RefundRecord } from '@rideway/contract';
import { checkRefund, fromMinor, refundableMinor, toMinor } from '@rideway/domain';
import { asc, desc, eq } from 'drizzle-orm';
import { recordAudit } from '../../audit/record';
import type { AppContext } from '../../context';
import { bookings, paymentEvents, payments, refunds } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError, unwrap } from '../../http/app-error';
import { schedule } from '../../jobs/runner';
import { providersSwitchedOn, takesCurrency } from '../../providers/payments/in-force';
import { REFUND_JOB } from '../bookings';
import { enqueue } from '../outbox/service';
import { getSettings } from '../settings/service';
import { appendEntry } from '../wallet/ledger';
import { publicBase, savesCards } from './checkout';
import { moneyOfBooking } from './money-of-booking';
import { renderFor } from '../messages/render';

const REFUNDABLE_STATUSES = new Set(['PAID', 'COMPLETE']);

export async function refundBookingByAdmin(ctx: AppContext, actor: Actor, bookingId: string, request: AdminRefundRequest): Promise<BookingPayments> {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const booking = (await tx.select().from(bookings).where(eq(bookings.id, bookingId)).for('update'))[0];
    if (!booking) throw new AppError('not_found');
    if (!REFUNDABLE_STATUSES.has(booking.status)) throw new AppError('invalid_transition');
    const money = await moneyOfBooking(tx, booking.id, booking.customer);
    if (money.via === 'none') throw new AppError('payment_mode_invalid');
    const amountMinor = unwrap(checkRefund({ paid: money.paidMinor, refunded: money.refundedMinor, amount: toMinor(request.amount) }));
    const settings = await getSettings(tx);
    const toWallet = money.via === 'wallet';
    const inserted = await tx
      .insert(refunds)
      .values({
        bookingId: booking.id,
        provider: toWallet ? 'wallet' : (money.card?.provider ?? ''),
        transactionId: toWallet ? null : (money.card?.transactionId ?? null),
        amountMinor,
        currency: money.card?.currency ?? booking.currency,
        status: toWallet ? 'succeeded' : 'requested',
        kind: 'admin',
        reason: request.reason,
        requestedBy: actor.uid,
        createdAt: now,
        confirmedAt: toWallet ? now : null,
      })
      .returning();
    const refund = inserted[0];
    if (!refund) throw new Error('the refund was not recorded');
    await recordAudit(tx, { actor, action: 'refund.create', entityId: String(refund.id), before: null, after: { ...refundView(refund), bookingId: booking.id }, at: now });
    if (toWallet) await appendEntry(tx, { uid: booking.customer, type: 'Credit', amountMinor, txRef: 'Refund', at: now, bookingId: booking.id });
    else await schedule(tx, REFUND_JOB, now, { refundId: refund.id });
    const amount = `${fromMinor(amountMinor).toFixed(2)} ${booking.currency}`;
    const render = await renderFor(tx, booking.customer);
    const msg = render(toWallet ? 'push_refund_to_wallet' : 'push_refund_to_card', { amount, reference: booking.reference });
    await enqueue(tx, { channel: 'push', recipient: booking.customer, payload: { title: settings.appName, msg, screen: 'BookedCab', params: { bookingId: booking.id } } }, now);
  });
  return bookingPayments(ctx, actor, bookingId);
}

/** A refund as the booking's payments show it (and the audit log keeps it). */
export const refundView = (row: typeof refunds.$inferSelect): RefundRecord => ({
  id: row.id,
  kind: row.kind as RefundRecord['kind'],
  provider: row.provider,
  transactionId: row.transactionId,
  amount: fromMinor(row.amountMinor),
  currency: row.currency,
  status: row.status as RefundRecord['status'],
  providerRefundId: row.providerRefundId,
  reason: row.reason,
  createdAt: row.createdAt,
  confirmedAt: row.confirmedAt,
});

/** GET /api/bookings/:id/payments: the booking's payments and refunds; an admin's, or the rider's own. */
export async function bookingPayments(ctx: AppContext, actor: Actor, bookingId: string): Promise<BookingPayments> {
  const booking = (await ctx.db.select().from(bookings).where(eq(bookings.id, bookingId)).limit(1))[0];
  if (!booking || (actor.usertype !== 'admin' && booking.customer !== actor.uid)) throw new AppError('not_found');
  const paid = await ctx.db.select().from(payments).where(eq(payments.bookingId, bookingId)).orderBy(asc(payments.id));
  const back = await ctx.db.select().from(refunds).where(eq(refunds.bookingId, bookingId)).orderBy(asc(refunds.id));
  const money = await moneyOfBooking(ctx.db, booking.id, booking.customer);
  return {
    payments: paid.map((row) => ({ id: row.id, provider: row.provider, transactionId: row.transactionId, amount: fromMinor(row.amountMinor), currency: row.currency, outcome: row.outcome, at: row.at })),
    refunds: back.map(refundView),
    refundable: REFUNDABLE_STATUSES.has(booking.status) ? fromMinor(refundableMinor({ paid: money.paidMinor, refunded: money.refundedMinor })) : 0,
  };
}

/** GET /api/payments/providers: the providers in force, their mode, and the webhook URL to paste into each provider's dashboard. */
export async function providersForAdmin(ctx: AppContext) {
  const base = publicBase(ctx);
  const { code } = await getSettings(ctx.db);
  return {
    providers: (await providersSwitchedOn(ctx.db, ctx.config)).map((provider) => ({
      name: provider.name,
      testMode: provider.testMode,
      checkoutLink: provider.checkoutLink,
      webhookUrl: provider.parseNotification ? `${base}/api/payments/${provider.name}/webhook` : null,
      savesCards: savesCards(provider),
      currencies: provider.currencies ? [...provider.currencies] : null,
      // Configured but not offered: the admin is told which currency it lacks (issue 22, point 3).
      takesCurrency: takesCurrency(provider, code),
    })),
    currency: code,
  };
}

/** GET /api/payments/events: the latest notifications, lookups and completions, with what the platform did. */
export async function latestPaymentEvents(ctx: AppContext, limit: number) {
  const rows = await ctx.db.select().from(paymentEvents).orderBy(desc(paymentEvents.id)).limit(limit);
  return {
    events: rows.map((row) => ({
      id: row.id,
      provider: row.provider,
      eventId: row.eventId,
      type: row.type,
      source: row.source,
      reference: row.reference,
      amount: row.amountMinor === null ? null : fromMinor(row.amountMinor),
      currency: row.currency,
      outcome: row.outcome,
      detail: row.detail,
      receivedAt: row.receivedAt,
    })),
  };
}
