import type { BookingStatus } from './booking-status';
import { thinWaypoints } from './geo';

/**
 * Issue 20 point 4: a finished trip's location history is kept no longer than needed. After the
 * settings' period (`locationHistoryDays`, 2 years by default: long enough for disputes and the
 * record-keeping a taxi licence asks for; decisions.md) its tracking points are thinned to the
 * route's shape and its chat is removed. Its distance, fare and receipt are columns of the
 * booking, and stay.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** The period a settings change may choose, in days: a month at least, ten years at most. */
export const MIN_LOCATION_HISTORY_DAYS = 30;
export const MAX_LOCATION_HISTORY_DAYS = 3650;
export const DEFAULT_LOCATION_HISTORY_DAYS = 730;

/**
 * Trips whose history may be pruned: those whose money has moved (PAID, which a rider may never
 * rate, and COMPLETE) or that were cancelled. An active trip keeps everything.
 */
export const HISTORY_SETTLED_STATUSES = ['PAID', 'COMPLETE', 'CANCELLED'] as const satisfies readonly BookingStatus[];

/** A trip that ended before this time has its history pruned. */
export const historyCutoff = (now: number, days: number): number => now - days * DAY_MS;

/**
 * The points a pruned trip keeps: the first and the last, and the ones between thinned as
 * section 9 thins waypoints (25 at most), so the route drawn on the trip page keeps its shape.
 */
export function retainedRoute<T>(points: readonly T[]): T[] {
  if (points.length <= 2) return [...points];
  const first = points[0] as T;
  const last = points[points.length - 1] as T;
  return [first, ...thinWaypoints(points.slice(1, -1)), last];
}
