import type { BookingRequest } from '@rideway/contract';
import { NO_TAKER_REASON } from '@rideway/domain';
import { and, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { bookings } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import type { BookingRow } from '../dispatch/booking-view';
import { SYSTEM } from './step';
import { createBooking } from './create';

/** A booking the system cancelled because no driver took it in time (decisions.md, "No taker"), not yet retried. */
const noTakerWhere = (id: string) =>
  and(eq(bookings.id, id), eq(bookings.status, 'CANCELLED'), eq(bookings.cancelledBy, SYSTEM), eq(bookings.reason, NO_TAKER_REASON), isNull(bookings.retriedAs));

const DELIVERY_TEXTS = ['deliveryPerson', 'deliveryPersonPhone', 'pickUpInstructions', 'deliveryInstructions'] as const;
const DELIVERY_CHOICES = ['parcelTypeIndex', 'optionIndex'] as const;

/** The trip of a booking, as a booking request made now: same places, car type, payment and parcel. */
function requestOf(row: BookingRow): BookingRequest {
  const delivery = row.delivery ?? {};
  const request: BookingRequest = { pickup: row.pickup, drop: row.drop, carType: row.carType, bookLater: false, payment_mode: row.paymentMode as BookingRequest['payment_mode'] };
  for (const field of DELIVERY_TEXTS) {
    const value = delivery[field];
    if (typeof value === 'string') request[field] = value;
  }
  for (const field of DELIVERY_CHOICES) {
    const value = delivery[field];
    if (typeof value === 'number') request[field] = value;
  }
  return request;
}

/**
 * Security-critical. POST /api/bookings/:id/retry (issue 17): the rider books again a trip that
 * no driver took in time. Only the booking's own rider may (anyone else's booking, or a missing
 * one, is the same 404), and only a booking the system cancelled for want of a taker, once. It
 * is a NEW booking made by booking creation itself: priced now, the section 5 driver check now
 * (no_driver_found_alert_messege again when still nobody is near), its search starting now. A
 * promo is not carried over (the rider books from the form to use one). The old booking is
 * marked in the new one's transaction, guarded by its state: a second retry, at once or later,
 * answers invalid_transition and books nothing.
 */
export async function retryBooking(ctx: AppContext, actor: Actor, bookingId: string): Promise<BookingRow> {
  const old = (await ctx.db.select().from(bookings).where(eq(bookings.id, bookingId)))[0];
  if (old?.customer !== actor.uid) throw new AppError('not_found');
  if (old.status !== 'CANCELLED' || old.cancelledBy !== SYSTEM || old.reason !== NO_TAKER_REASON || old.retriedAs !== null) throw new AppError('invalid_transition');
  return createBooking(ctx, actor, requestOf(old), {
    claim: async (tx, newId) => {
      const claimed = await tx.update(bookings).set({ retriedAs: newId }).where(noTakerWhere(bookingId)).returning({ id: bookings.id });
      if (claimed.length === 0) throw new AppError('invalid_transition');
    },
  });
}
