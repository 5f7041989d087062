import type { Tx } from '../../db/client';
import { emit } from '../../realtime/events';
import { enqueue } from '../outbox/service';
import { publicBookingView, type BookingRow } from './booking-view';

/** Who follows a booking live: its rider, its driver, the drivers it is offered to, its fleet admin and admins. */
const bookingAudience = (row: BookingRow) => ({
  uids: [row.customer, ...(row.driver ? [row.driver] : []), ...Object.keys(row.requestedDrivers)],
  fleetadmin: row.fleetadmin,
  admins: true,
});

/** The booking's change for everyone following it, and the offers it makes or withdraws. */
export async function announceBooking(tx: Tx, before: BookingRow | undefined, after: BookingRow, now: number, appName: string): Promise<void> {
  const was = Object.keys(before?.requestedDrivers ?? {});
  const is = new Set(Object.keys(after.requestedDrivers));
  const withdrawn = was.filter((uid) => !is.has(uid) && uid !== after.driver);
  await emit(tx, `booking:${after.id}`, 'booking', publicBookingView(after), now, bookingAudience(after));
  for (const uid of withdrawn) await emit(tx, `user:${uid}`, 'offer_withdrawn', { bookingId: after.id }, now);
  for (const uid of is) {
    if (was.includes(uid)) continue;
    await emit(tx, `user:${uid}`, 'offer', publicBookingView(after), now);
    await enqueue(tx, { channel: 'push', recipient: uid, payload: { title: appName, msg: 'A new trip request is waiting for you.', screen: 'DriverTrips' } }, now);
  }
}
