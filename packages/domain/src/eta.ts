import type { BookingStatus } from './booking-status';
import { greatCircleKm, type LatLng } from './geo';

/**
 * Issue 16: the rider's ETA. While the driver comes (ACCEPTED, ARRIVED) it is the time to the
 * pickup; once the trip is STARTED, the time to the drop. Before a driver took the trip and after
 * the drop is reached there is none.
 */
export type EtaTarget = 'pickup' | 'drop';

export function etaTargetOf(status: BookingStatus): EtaTarget | undefined {
  if (status === 'ACCEPTED' || status === 'ARRIVED') return 'pickup';
  if (status === 'STARTED') return 'drop';
  return undefined;
}

/** An ETA is asked again only once the driver moved more than this since it was computed... */
export const ETA_REUSE_METRES = 50;
/** ...or once it is older than this. */
export const ETA_REUSE_MS = 30_000;

type EtaBasis = { target: EtaTarget; from: LatLng; at: number };

/**
 * May an ETA computed on `cached` answer a request on `next`? Same target, the driver within
 * ETA_REUSE_METRES of where it was, and at most ETA_REUSE_MS old: a flood of requests then costs
 * one maps call per window.
 */
export const canReuseEta = (cached: EtaBasis, next: EtaBasis): boolean =>
  cached.target === next.target && next.at - cached.at <= ETA_REUSE_MS && greatCircleKm(cached.from, next.from) * 1000 <= ETA_REUSE_METRES;
