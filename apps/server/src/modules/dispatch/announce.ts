import type { Tx } from '../../db/client';
import { eventRow, type OutboxRow } from '../../realtime/events';
import { languageMap } from '../languages/service';
import { languagesOf, renderFrom, type LanguageFiles, type Render } from '../messages/render';
import { messageRows, writeOutbox } from '../outbox/service';
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

/** The booking's change for everyone following it, and the offers it makes or withdraws (announcementRows, written). */
export async function announceBooking(...args: Parameters<typeof announcementRows>): Promise<void> {
  await writeOutbox(args[0], await announcementRows(...args));
}

/**
 * announceBooking's outbox rows, for a caller that writes them with its own (a trip step): the
 * booking's live view, the withdrawn offers, and each new offer with its push notice. The new
 * drivers' languages are read in one query; `languages` are the files the notices are written
 * from, read before the transaction (from the process's cache), else read here once.
 */
export async function announcementRows(
  tx: Tx,
  before: BookingRow | undefined,
  after: BookingRow,
  now: number,
  settings: Pick<Settings, 'appName' | 'convert_to_mile'>,
  languages?: LanguageFiles,
): Promise<OutboxRow[]> {
  const was = Object.keys(before?.requestedDrivers ?? {});
  const is = Object.keys(after.requestedDrivers);
  const withdrawn = was.filter((uid) => !is.includes(uid) && uid !== after.driver);
  const rows = [eventRow(`booking:${after.id}`, 'booking', liveView(after), now, bookingAudience(after)), ...withdrawn.map((uid) => eventRow(`user:${uid}`, 'offer_withdrawn', { bookingId: after.id }, now))];
  const offered = is.filter((uid) => !was.includes(uid));
  if (offered.length === 0) return rows;
  const chosen = await languagesOf(tx, offered);
  const files = languages ?? (await languageMap(tx));
  const renderers = new Map<string | null, Render>();
  const renderOf = (language: string | null): Render => {
    const known = renderers.get(language);
    if (known) return known;
    const render = renderFrom(files, language);
    renderers.set(language, render);
    return render;
  };
  for (const uid of offered) {
    // Each driver's offer carries its own leg to the pickup: written to that driver's topic only.
    rows.push(eventRow(`user:${uid}`, 'offer', { ...publicBookingView(after), ...offerFieldsFor(after, uid, settings.convert_to_mile) }, now));
    const msg = renderOf(chosen.get(uid) ?? null)('push_trip_request');
    rows.push(...messageRows({ channel: 'push', recipient: uid, payload: { title: settings.appName, msg, screen: 'DriverTrips' } }, now));
  }
  return rows;
}
