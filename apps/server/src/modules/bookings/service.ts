import { BOOKING_LIST_LIMIT, type Booking, type BookingListQuery, type DriverOffer } from '@rideway/contract';
import { and, desc, eq, gte, ilike, lte, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { bookings } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { bookingView, driverOfferView } from '../dispatch/booking-view';
import { getSettings } from '../settings/service';
import { lockBooking } from './step';

/** The caller's scope of bookings (section 6). */
function scopeOf(actor: Actor) {
  switch (actor.usertype) {
    case 'admin':
      return undefined;
    case 'rider':
      return eq(bookings.customer, actor.uid);
    case 'driver':
      return or(eq(bookings.driver, actor.uid), and(eq(bookings.status, 'NEW'), sql`(${bookings.requestedDrivers} -> ${actor.uid}) is not null`));
    case 'fleetadmin':
      return eq(bookings.fleetadmin, actor.uid);
  }
}

/** `%`, `_` and `\` match themselves in a search, not any text. */
const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/** The list's filters (issue 17), applied inside the caller's scope. */
function filtersOf({ q, status, from, to }: BookingListQuery) {
  const pattern = q ? likePattern(q) : undefined;
  return [
    pattern === undefined ? undefined : or(ilike(bookings.reference, pattern), ilike(bookings.customerName, pattern), ilike(bookings.driverName, pattern)),
    status === undefined ? undefined : eq(bookings.status, status),
    from === undefined ? undefined : gte(bookings.tripdate, from),
    to === undefined ? undefined : lte(bookings.tripdate, to),
  ];
}

/** GET /api/bookings: the caller's bookings, newest first, optionally searched and filtered. */
export async function listBookings(ctx: AppContext, actor: Actor, filters: BookingListQuery = {}): Promise<Booking[]> {
  const rows = await ctx.db.select().from(bookings).where(and(scopeOf(actor), ...filtersOf(filters))).orderBy(desc(bookings.bookingDate)).limit(BOOKING_LIST_LIMIT);
  return rows.map((row) => bookingView(row, actor));
}

export async function getBooking(ctx: AppContext, actor: Actor, id: string): Promise<Booking> {
  return bookingView(await ctx.db.transaction((tx) => lockBooking(tx, actor, id)), actor);
}

/** GET /api/driver/tasks: the NEW bookings that request this driver (section 6), each with this driver's leg and offer timeout. */
export async function driverTasks(ctx: AppContext, actor: Actor): Promise<DriverOffer[]> {
  const { convert_to_mile } = await getSettings(ctx.db);
  const rows = await ctx.db.select().from(bookings).where(and(scopeOf(actor), eq(bookings.status, 'NEW'))).orderBy(desc(bookings.bookingDate)).limit(100);
  return rows.map((row) => driverOfferView(row, actor, convert_to_mile));
}
