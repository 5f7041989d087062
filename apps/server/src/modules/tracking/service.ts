import { canViewTracking, type BookingStatus } from '@rideway/domain';
import { asc, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { bookings, tracking } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';

/** GET /api/bookings/:id/tracking: section 3 tracking entries (at, status, lat, lng, id), oldest first. */
export async function listTracking(ctx: AppContext, actor: Actor, id: string) {
  const row = (await ctx.db.select({ status: bookings.status, customer: bookings.customer, driver: bookings.driver, fleetadmin: bookings.fleetadmin }).from(bookings).where(eq(bookings.id, id)).limit(1))[0];
  if (!row || !canViewTracking(actor, { ...row, status: row.status as BookingStatus })) throw new AppError('not_found');
  const points = await ctx.db.select().from(tracking).where(eq(tracking.bookingId, id)).orderBy(asc(tracking.at), asc(tracking.id)).limit(5000);
  return points.map((point) => ({ id: point.id, at: point.at, status: point.status as BookingStatus, lat: point.lat, lng: point.lng }));
}
