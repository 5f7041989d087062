import { declineOutcome } from '@rideway/domain';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { bookings } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import { getSettings } from '../settings/service';
import { announceBooking } from './announce';
import { advanceRound } from './service';

/**
 * Security-critical: POST /api/bookings/:id/decline (issue 17). Only a driver the booking was
 * offered to may decline it; anyone else gets the same 404 as for a missing booking, and a trip
 * already taken answers invalid_transition. The driver leaves the offer at once (offer_withdrawn)
 * and is never offered this booking again. When it was the round's last offered driver, the next
 * round goes out now instead of at the round's timeout. A replay answers the same and changes
 * nothing: the decline is recorded once, so it never starts a second round.
 */
export async function declineOffer(ctx: AppContext, actor: Actor, bookingId: string): Promise<{ bookingId: string }> {
  const nextRound = await ctx.db.transaction(async (tx) => {
    const row = (await tx.select().from(bookings).where(eq(bookings.id, bookingId)).for('update'))[0];
    if (!row) throw new AppError('not_found');
    const outcome = declineOutcome(row, actor.uid);
    if (outcome === 'not_offered') throw new AppError('not_found');
    if (outcome === 'too_late') throw new AppError('invalid_transition');
    if (outcome === 'already') return undefined;
    const settings = await getSettings(tx);
    const now = ctx.now();
    const { [actor.uid]: _declined, ...requestedDrivers } = row.requestedDrivers;
    const updated = (
      await tx
        .update(bookings)
        .set({ requestedDrivers, declinedDrivers: row.declinedDrivers.includes(actor.uid) ? row.declinedDrivers : [...row.declinedDrivers, actor.uid], updatedAt: now })
        .where(and(eq(bookings.id, row.id), eq(bookings.status, 'NEW')))
        .returning()
    )[0];
    if (!updated) throw new AppError('invalid_transition');
    if (outcome === 'record') return undefined;
    ctx.metrics?.offerOutcome('declined');
    await announceBooking(tx, row, updated, now, settings);
    // The round's last offer is gone: the next one need not wait for the timeout.
    return Object.keys(requestedDrivers).length === 0 && settings.autoDispatch ? updated.dispatchRound : undefined;
  });
  ctx.live.relay.kick();
  if (nextRound !== undefined) {
    try {
      await advanceRound(ctx, bookingId, nextRound);
    } catch (error) {
      // The decline is recorded; the round's timeout job still sends the next offers.
      ctx.log.warn({ err: error, bookingId }, 'the next round after a decline failed; it waits for the round timeout');
    }
  }
  return { bookingId };
}
