import { kmInUnit } from '@rideway/domain';

/** A route's distance (in the unit in force, one decimal) and duration (whole minutes, at least one), as the estimate dialog shows them. */
export type RouteFigures = { distance: string; minutes: number };

export function routeFigures(distanceKm: number, durationSeconds: number, convertToMile: boolean): RouteFigures {
  return { distance: kmInUnit(distanceKm, convertToMile).toFixed(1), minutes: Math.max(1, Math.round(durationSeconds / 60)) };
}
