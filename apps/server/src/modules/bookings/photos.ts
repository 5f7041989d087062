import { MAX_TRIP_PHOTO_BYTES, type TripPhoto } from '@rideway/contract';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { bookings } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import { decodeImageDataUrl } from '../../providers/storage';
import { announceBooking } from '../dispatch/announce';
import type { BookingRow } from '../dispatch/booking-view';
import { getSettings } from '../settings/service';
import { afterStep, lockBooking } from './step';

/** When each photo is taken: the parcel at the pickup (before the start), then at the drop (before REACHED). */
const PHOTO_STATUSES = { pickup: ['ACCEPTED', 'ARRIVED'], deliver: ['STARTED'] } as const;

/**
 * POST /api/bookings/:id/photos: the trip's driver photographs the parcel (pickup_image,
 * deliver_image; delivery bookings only). A later photo of the same kind replaces the earlier
 * one until the trip moves on; the rider sees it live with the booking.
 */
export async function addTripPhoto(ctx: AppContext, actor: Actor, id: string, { kind, image }: TripPhoto): Promise<BookingRow> {
  const decoded = decodeImageDataUrl(image, MAX_TRIP_PHOTO_BYTES);
  if (!decoded) throw new AppError('validation_error', 'image');
  const settings = await getSettings(ctx.db);
  const updated = await ctx.db.transaction(async (tx) => {
    const row = await lockBooking(tx, actor, id);
    if (row.driver !== actor.uid) throw new AppError('forbidden');
    if (!row.delivery) throw new AppError('validation_error', 'kind');
    if (!(PHOTO_STATUSES[kind] as readonly string[]).includes(row.status)) throw new AppError('invalid_transition');
    const url = `/api/files/${await ctx.storage.put('trips', decoded.bytes, decoded.extension)}`;
    const now = ctx.now();
    const set = kind === 'pickup' ? { pickupImage: url, updatedAt: now } : { deliverImage: url, updatedAt: now };
    const after = (await tx.update(bookings).set(set).where(eq(bookings.id, row.id)).returning())[0];
    if (!after) throw new AppError('not_found');
    await announceBooking(tx, row, after, now, settings.appName);
    return after;
  });
  await afterStep(ctx, updated);
  return updated;
}
