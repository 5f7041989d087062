import type { Booking } from '@rideway/contract';
import { and, desc, eq, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { bookings } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { bookingView } from '../dispatch/booking-view';
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

/** GET /api/bookings: the caller's bookings, newest first. */
export async function listBookings(ctx: AppContext, actor: Actor): Promise<Booking[]> {
  const rows = await ctx.db.select().from(bookings).where(scopeOf(actor)).orderBy(desc(bookings.bookingDate)).limit(500);
  return rows.map((row) => bookingView(row, actor));
}

export async function getBooking(ctx: AppContext, actor: Actor, id: string): Promise<Booking> {
  return bookingView(await ctx.db.transaction((tx) => lockBooking(tx, actor, id)), actor);
}

/** GET /api/driver/tasks: the NEW bookings that request this driver (section 6). */
export async function driverTasks(ctx: AppContext, actor: Actor): Promise<Booking[]> {
  const rows = await ctx.db.select().from(bookings).where(and(scopeOf(actor), eq(bookings.status, 'NEW'))).orderBy(desc(bookings.bookingDate)).limit(100);
  return rows.map((row) => bookingView(row, actor));
}
