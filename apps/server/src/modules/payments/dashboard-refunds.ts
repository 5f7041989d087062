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
import { recordAudit } from '../../audit/record';
import type { AppContext } from '../../context';
import { refunds } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import { recordRefundConfirmed } from '../bookings';
import { bookingPayments, refundView } from './admin';

export async function confirmDashboardRefund(ctx: AppContext, actor: Actor, refundId: number, request: DashboardRefundConfirmation): Promise<BookingPayments> {
  const bookingId = await ctx.db.transaction(async (tx) => {
    // The refund as it waited, for the audit entry (issue 23 point 8); the UPDATE below still decides.
    const waiting = (await tx.select().from(refunds).where(eq(refunds.id, refundId)).for('update'))[0];
    const confirmed = waiting && (await recordRefundConfirmed(tx, { refundId, from: 'awaiting_dashboard', providerRefundId: request.providerRefundId, now: ctx.now(), confirmedBy: actor.uid }));
    if (!confirmed) throw new AppError(waiting ? 'refund_not_awaiting_dashboard' : 'not_found');
    await recordAudit(tx, { actor, action: 'refund.confirm', entityId: String(refundId), before: refundView(waiting), after: refundView(confirmed), at: ctx.now() });
    return confirmed.bookingId;
  });
  return bookingPayments(ctx, actor, bookingId);
}
