import { MAX_TRIP_PHOTO_BYTES, type TripPhoto } from '@rideway/contract';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { bookings } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import { decodeImageDataUrl, deleteStoredFileOf, fileUrl, withStoredFile } from '../../providers/storage';
import { announceBooking } from '../dispatch/announce';
import type { BookingRow } from '../dispatch/booking-view';
import { getSettings } from '../settings/service';
import { afterStep, lockBooking } from './step';

/** When each photo is taken: the parcel at the pickup (before the start), then at the drop (before REACHED). */
const PHOTO_STATUSES = { pickup: ['ACCEPTED', 'ARRIVED'], deliver: ['STARTED'] } as const;

/** Who may add which photo when: the trip's driver, on a delivery, in the photo's statuses. */
function assertPhotoAllowed(row: BookingRow, actor: Actor, kind: TripPhoto['kind']): void {
  if (row.driver !== actor.uid) throw new AppError('forbidden');
  if (!row.delivery) throw new AppError('validation_error', 'kind');
  if (!(PHOTO_STATUSES[kind] as readonly string[]).includes(row.status)) throw new AppError('invalid_transition');
}

const photoOf = (row: BookingRow, kind: TripPhoto['kind']): string | null => (kind === 'pickup' ? row.pickupImage : row.deliverImage);

/**
 * POST /api/bookings/:id/photos: the trip's driver photographs the parcel (pickup_image,
 * deliver_image; delivery bookings only). A later photo of the same kind replaces the earlier
 * one until the trip moves on; the rider sees it live with the booking.
 *
 * Every check runs on a read before a byte is stored (a refused photo stores nothing), and again
 * on the locked row; the file is removed when that write fails, and a replaced photo's file is
 * deleted once the new one is committed.
 */
export async function addTripPhoto(ctx: AppContext, actor: Actor, id: string, { kind, image }: TripPhoto): Promise<BookingRow> {
  const decoded = decodeImageDataUrl(image, MAX_TRIP_PHOTO_BYTES);
  if (!decoded) throw new AppError('validation_error', 'image');
  assertPhotoAllowed(await ctx.db.transaction((tx) => lockBooking(tx, actor, id)), actor, kind);
  const settings = await getSettings(ctx.db);
  const { before, after } = await withStoredFile(ctx.storage, { folder: 'trips', ...decoded }, (key) =>
    ctx.db.transaction(async (tx) => {
      const row = await lockBooking(tx, actor, id);
      assertPhotoAllowed(row, actor, kind);
      const url = fileUrl(key);
      const now = ctx.now();
      const set = kind === 'pickup' ? { pickupImage: url, updatedAt: now } : { deliverImage: url, updatedAt: now };
      const updated = (await tx.update(bookings).set(set).where(eq(bookings.id, row.id)).returning())[0];
      if (!updated) throw new AppError('not_found');
      await announceBooking(tx, row, updated, now, settings);
      return { before: row, after: updated };
    }),
  );
  await deleteStoredFileOf(ctx.storage, photoOf(before, kind));
  await afterStep(ctx, after);
  return after;
}
