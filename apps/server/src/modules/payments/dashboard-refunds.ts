/**
 * Security-critical: an admin confirms a refund made in a payment provider's dashboard (issue 22).
 * A provider whose API makes no refunds here (PayFast) leaves its refunds awaiting_dashboard; the
 * admin refunds in the provider's dashboard, then records it here with the provider's reference.
 * It is settled by the same step as a refund the provider's API confirmed (`recordRefundConfirmed`:
 * succeeded, the rider told), and only from awaiting_dashboard, checked in the UPDATE itself, so a
 * double click or two admins at once confirm it once. The amount is the refund's own: the request
 * carries only the reference.
 */
import type { BookingPayments, DashboardRefundConfirmation } from '@rideway/contract';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { refunds } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import { recordRefundConfirmed } from '../bookings';
import { bookingPayments } from './admin';

export async function confirmDashboardRefund(ctx: AppContext, actor: Actor, refundId: number, request: DashboardRefundConfirmation): Promise<BookingPayments> {
  const bookingId = await ctx.db.transaction(async (tx) => {
    const confirmed = await recordRefundConfirmed(tx, { refundId, from: 'awaiting_dashboard', providerRefundId: request.providerRefundId, now: ctx.now(), confirmedBy: actor.uid });
    if (confirmed) return confirmed.bookingId;
    const known = (await tx.select({ id: refunds.id }).from(refunds).where(eq(refunds.id, refundId)).limit(1))[0];
    throw new AppError(known ? 'refund_not_awaiting_dashboard' : 'not_found');
  });
  return bookingPayments(ctx, actor, bookingId);
}
