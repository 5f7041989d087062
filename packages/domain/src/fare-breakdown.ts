import { fareForMinor, type FareExtras, type FareRates } from './fare';
import { roundMinor, toMinor } from './money';

type TripMeasure = { distance: number; duration: number };

/**
 * The parts of a section 9 fare's total (before the convenience fee), in minor units, so a rider
 * can see why a trip cost what it did (issue 17). They add up to `fareForMinor`'s totalCost
 * exactly: base + distance + time + extras + minimum === totalCost.
 */
export type FareBreakdownMinor = {
  /** base_fare, when above 0. */
  base: number;
  /** rate_per_unit_distance x distance, to the cent. */
  distance: number;
  /** rate_per_hour x hours, taking the cent the parts' rounding leaves over. */
  time: number;
  /** The parcel type's and the option's amounts (delivery). */
  extras: number;
  /** What min_fare adds when the cost is below it. */
  minimum: number;
};

/**
 * The breakdown of `fareForMinor(rates, trip, extras)`. The cost is summed in the same order as
 * the fare, so the parts round the same way; the time part absorbs the one rounding (it is never
 * negative, since rounding half away from zero never decreases as a sum grows).
 */
export function fareBreakdownMinor(rates: FareRates, trip: TripMeasure, extras: FareExtras = {}): FareBreakdownMinor {
  const distanceRaw = toMinor(rates.rate_per_unit_distance) * trip.distance;
  let cost = distanceRaw + (toMinor(rates.rate_per_hour) * trip.duration) / 3600;
  const base = rates.base_fare > 0 ? toMinor(rates.base_fare) : 0;
  if (base > 0) cost += base;
  const parcel = extras.parcel ? toMinor(extras.parcel.amount) : 0;
  const option = extras.option ? toMinor(extras.option.amount) : 0;
  if (extras.parcel) cost += parcel;
  if (extras.option) cost += option;
  const rounded = roundMinor(cost);
  const distance = roundMinor(distanceRaw);
  const { totalCost } = fareForMinor(rates, trip, extras);
  return { base, distance, time: rounded - base - parcel - option - distance, extras: parcel + option, minimum: totalCost - rounded };
}
