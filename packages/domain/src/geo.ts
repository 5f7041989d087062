import {
  KM_PER_MILE,
  MAX_ROUTE_WAYPOINTS,
  SAVED_ADDRESS_MATCH_RADIUS,
} from './spec-constants';
import type { BookingStatus } from './booking-status';

export type LatLng = { lat: number; lng: number };

/** Mean Earth radius (IUGG), km. */
export const EARTH_RADIUS_KM = 6371.0088;
export const toRadians = (degrees: number): number => (degrees * Math.PI) / 180;

/** Section 9: great-circle distance in km (haversine, stable for short distances). */
export function greatCircleKm(a: LatLng, b: LatLng): number {
  const dLat = toRadians(b.lat - a.lat);
  const dLng = toRadians(b.lng - a.lng);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(toRadians(a.lat)) * Math.cos(toRadians(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Section 9: km to miles. */
export const kmToMiles = (km: number): number => km / KM_PER_MILE;

/** A distance in km expressed in the unit in force (miles when convert_to_mile). */
export const kmInUnit = (km: number, convertToMile: boolean): number =>
  convertToMile ? kmToMiles(km) : km;

/** Great-circle distance in the unit in force. */
export const distanceInUnit = (a: LatLng, b: LatLng, convertToMile: boolean): number =>
  kmInUnit(greatCircleKm(a, b), convertToMile);

/** Section 9: route distance in km from the route's metres. */
export const routeKmFromMetres = (metres: number): number => metres / 1000;

export const isLatLng = (value: unknown): value is LatLng => {
  if (typeof value !== 'object' || value === null) return false;
  const { lat, lng } = value as Record<string, unknown>;
  return (
    typeof lat === 'number' &&
    typeof lng === 'number' &&
    Number.isFinite(lat) &&
    Number.isFinite(lng) &&
    Math.abs(lat) <= 90 &&
    Math.abs(lng) <= 180
  );
};

/**
 * Section 9: above 25 points, keep every Nth point with N = int(count / 25) + 1, starting with
 * the first; 25 or fewer are kept as they are. The result never exceeds 25 points.
 */
export function thinWaypoints<T>(points: readonly T[]): T[] {
  if (points.length <= MAX_ROUTE_WAYPOINTS) return [...points];
  const step = Math.floor(points.length / MAX_ROUTE_WAYPOINTS) + 1;
  return points.filter((_, index) => index % step === 0);
}

/** Section 4: tracking points count only while the trip is STARTED or REACHED. */
export const tracksTripDistance = (status: BookingStatus): boolean =>
  status === 'STARTED' || status === 'REACHED';

/**
 * Section 9: how the final route distance is obtained from a trip's tracked points:
 * 0 or 1 points give distance 0; 2 points use the drive-time call (start, dest); 3 or more use
 * the multi-location call with the points between as (thinned) waypoints.
 */
type TrackedRoutePlan<T> =
  | { kind: 'none' }
  | { kind: 'pair'; start: T; dest: T }
  | { kind: 'multi'; start: T; dest: T; waypoints: T[] };

export function trackedRoutePlan<T>(points: readonly T[]): TrackedRoutePlan<T> {
  const start = points[0];
  const dest = points[points.length - 1];
  if (points.length < 2 || start === undefined || dest === undefined) return { kind: 'none' };
  if (points.length === 2) return { kind: 'pair', start, dest };
  return { kind: 'multi', start, dest, waypoints: thinWaypoints(points.slice(1, -1)) };
}

type SavedAddress = { description: string; lat: number; lng: number; count: number };

/**
 * Section 4 REACHED: the drop is saved to the rider's saved addresses. Within 0.1 distance units
 * (km, or miles when convert_to_mile) of a saved one, the nearest such entry's count goes up;
 * otherwise a new entry with count 1 is added. The input list is not changed.
 */
export function recordSavedAddress(
  saved: readonly SavedAddress[],
  drop: { description: string; lat: number; lng: number },
  convertToMile: boolean,
): SavedAddress[] {
  let nearestIndex = -1;
  let nearestDistance = Infinity;
  saved.forEach((entry, index) => {
    const distance = distanceInUnit(entry, drop, convertToMile);
    if (distance <= SAVED_ADDRESS_MATCH_RADIUS && distance < nearestDistance) {
      nearestIndex = index;
      nearestDistance = distance;
    }
  });
  if (nearestIndex === -1) return [...saved, { ...drop, count: 1 }];
  return saved.map((entry, index) =>
    index === nearestIndex ? { ...entry, count: entry.count + 1 } : entry,
  );
}

/**
 * Fare integrity (docs/decisions.md): a tracking point that implies driving faster than this
 * from the trip's previous point is not a position a car reached, and is discarded.
 */
export const MAX_TRACKING_SPEED_KMH = 200;

/** Points this close are GPS jitter, whatever the time between them. */
export const SAME_INSTANT_JITTER_KM = 0.1;

type TimedPoint = LatLng & { at: number };

/**
 * Whether a car could have driven from `previous` to `next` (straight line, epoch milliseconds)
 * at no more than MAX_TRACKING_SPEED_KMH. Without a previous point, any point is plausible; so is
 * one stamped at the very same instant (no time elapsed to measure a speed over: simultaneous
 * reports, or a stopped test clock), which the fare's bound by the estimate still covers.
 */
export function isPlausibleMove(previous: TimedPoint | undefined, next: TimedPoint, maxKmh: number = MAX_TRACKING_SPEED_KMH): boolean {
  if (!previous) return true;
  const km = greatCircleKm(previous, next);
  const hours = (next.at - previous.at) / 3_600_000;
  if (hours <= 0) return true;
  return km <= SAME_INSTANT_JITTER_KM || km / hours <= maxKmh;
}
