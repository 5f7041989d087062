import type { Booking } from '@rideway/contract';
import type { TFunction } from 'i18next';
import { useEffect, useState } from 'react';
import { announceCancel } from './offer-alert';

/** The statuses in which the driver is on its way or on the trip: a cancel then must not pass unnoticed. */
const UNDER_WAY = new Set<Booking['status']>(['ACCEPTED', 'ARRIVED', 'STARTED']);

const statusesOf = (trips: readonly Booking[]): string => trips.map((trip) => `${trip.id}:${trip.status}`).join(',');

/**
 * Issue 17: the driver's trip, seen under way, is now CANCELLED (the rider or an admin cancelled
 * it): it is answered once, with a sound, until dismissed. The statuses last seen are kept in
 * state and compared as the trips change, React's way of reacting to a change of props.
 */
export function useCancelledTrip(trips: readonly Booking[]): { cancelled: Booking | null; dismiss: () => void } {
  const [seen, setSeen] = useState<{ key: string; statuses: ReadonlyMap<string, Booking['status']> }>(() => ({ key: statusesOf(trips), statuses: new Map(trips.map((trip) => [trip.id, trip.status])) }));
  const [cancelled, setCancelled] = useState<Booking | null>(null);
  const key = statusesOf(trips);
  if (key !== seen.key) {
    const newly = trips.find((trip) => trip.status === 'CANCELLED' && UNDER_WAY.has(seen.statuses.get(trip.id) ?? 'CANCELLED'));
    setSeen({ key, statuses: new Map([...seen.statuses, ...trips.map((trip) => [trip.id, trip.status] as const)]) });
    if (newly) setCancelled(newly);
  }
  useEffect(() => {
    if (cancelled) announceCancel();
  }, [cancelled]);
  return { cancelled, dismiss: () => { setCancelled(null); } };
}

/** What the driver is told: who cancelled which trip, and why. */
export function cancelledText(t: TFunction, trip: Booking): string {
  const what = t(trip.cancelledBy === 'rider' ? 'trip_cancelled_by_rider' : 'trip_cancelled_alert', { reference: trip.booking_id });
  return trip.reason ? `${what} ${t('cancel_reason_title')}: ${trip.reason}` : what;
}
