import type { Tx } from '../../db/client';
import { emit } from '../../realtime/events';
import { renderFor } from '../messages/render';
import { enqueue } from '../outbox/service';
import type { Settings } from '@rideway/contract';
import { offerFieldsFor, partyBookingView, publicBookingView, type BookingRow } from './booking-view';

/** Who follows a booking live: its rider, its driver, the drivers it is offered to, its fleet admin and admins. */
const bookingAudience = (row: BookingRow) => ({
  uids: [row.customer, ...(row.driver ? [row.driver] : []), ...Object.keys(row.requestedDrivers)],
  fleetadmin: row.fleetadmin,
  admins: true,
});

/**
 * The live view every follower receives (one audience per topic: the subscription layer drops a
 * follower an event does not admit). The rider's contact is in it only once a driver accepted and
 * no other driver is still offered the trip (decisions.md).
 */
const liveView = (row: BookingRow) => (Object.keys(row.requestedDrivers).every((uid) => uid === row.driver) ? partyBookingView(row) : publicBookingView(row));

/** The booking's change for everyone following it, and the offers it makes or withdraws. */
export async function announceBooking(
  tx: Tx,
  before: BookingRow | undefined,
  after: BookingRow,
  now: number,
  settings: Pick<Settings, 'appName' | 'convert_to_mile'>,
): Promise<void> {
  const was = Object.keys(before?.requestedDrivers ?? {});
  const is = new Set(Object.keys(after.requestedDrivers));
  const withdrawn = was.filter((uid) => !is.has(uid) && uid !== after.driver);
  await emit(tx, `booking:${after.id}`, 'booking', liveView(after), now, bookingAudience(after));
  for (const uid of withdrawn) await emit(tx, `user:${uid}`, 'offer_withdrawn', { bookingId: after.id }, now);
  for (const uid of is) {
    if (was.includes(uid)) continue;
    // Each driver's offer carries its own leg to the pickup: written to that driver's topic only.
    await emit(tx, `user:${uid}`, 'offer', { ...publicBookingView(after), ...offerFieldsFor(after, uid, settings.convert_to_mile) }, now);
    const render = await renderFor(tx, uid);
    await enqueue(tx, { channel: 'push', recipient: uid, payload: { title: settings.appName, msg: render('push_trip_request'), screen: 'DriverTrips' } }, now);
  }
}
