import { fromMinor, percentOfMinor, roundMinor, toMinor } from './money';

export type FeeType = 'flat' | 'percentage';

/** The section 3 car-type fields a fare depends on; money in major units. */
export type FareRates = {
  base_fare: number;
  rate_per_unit_distance: number;
  rate_per_hour: number;
  min_fare: number;
  convenience_fees: number;
  convenience_fee_type: FeeType;
};

/** A route measured in the unit in force (km, or miles when convert_to_mile), duration in seconds. */
type TripMeasure = { distance: number; duration: number };

/** Delivery extras: the chosen parcel type and option, each `{ amount }` in major units. */
export type FareExtras = { parcel?: { amount: number }; option?: { amount: number } };

type Fare = { totalCost: number; convenience_fees: number; grandTotal: number };

/** The same fare in integer minor units, as the server stores it. */
type FareMinor = { totalCost: number; convenience_fees: number; grandTotal: number };

/**
 * Section 9 fare, in minor units. cost = rate_per_unit_distance x distance + rate_per_hour x
 * hours; base_fare added when above 0; parcel and option amounts added; total = max(cost,
 * min_fare), rounded to the cent; the fee is flat or a percentage of that rounded total, rounded
 * to the cent; grand total = total + fee. Rounding the total before taking the percentage keeps
 * the parts exact: totalCost + convenience_fees === grandTotal, always.
 */
export function fareForMinor(rates: FareRates, trip: TripMeasure, extras: FareExtras = {}): FareMinor {
  let cost =
    toMinor(rates.rate_per_unit_distance) * trip.distance +
    (toMinor(rates.rate_per_hour) * trip.duration) / 3600;
  if (rates.base_fare > 0) cost += toMinor(rates.base_fare);
  if (extras.parcel) cost += toMinor(extras.parcel.amount);
  if (extras.option) cost += toMinor(extras.option.amount);
  const totalCost = Math.max(roundMinor(cost), toMinor(rates.min_fare));
  const convenience_fees =
    rates.convenience_fee_type === 'flat'
      ? toMinor(rates.convenience_fees)
      : percentOfMinor(totalCost, rates.convenience_fees);
  return { totalCost, convenience_fees, grandTotal: totalCost + convenience_fees };
}

/** Section 9 fare in major units with 2 decimals (the API's money). */
export function fareFor(rates: FareRates, trip: TripMeasure, extras: FareExtras = {}): Fare {
  const fare = fareForMinor(rates, trip, extras);
  return {
    totalCost: fromMinor(fare.totalCost),
    convenience_fees: fromMinor(fare.convenience_fees),
    grandTotal: fromMinor(fare.grandTotal),
  };
}

/** Section 9: driver share = estimate fare minus convenience fees, 2 decimals. */
export const driverShare = (estimateFare: number, convenienceFees: number): number =>
  fromMinor(toMinor(estimateFare) - toMinor(convenienceFees));

/** Section 9: customer_paid = trip_cost minus discount, 2 decimals. */
export const customerPaid = (tripCost: number, discount: number): number =>
  fromMinor(toMinor(tripCost) - toMinor(discount));

/** Fare integrity (docs/decisions.md): the default margin over the estimate a fare driven may reach. */
export const DEFAULT_FARE_MARGIN_PERCENT = 30;

/**
 * Fare integrity: the fare at REACHED is at most the booked estimate plus `marginPercent` of it
 * (rounded to the cent). Above that it is capped, its convenience fee scaled down in proportion so
 * totalCost + convenience_fees === grandTotal still holds; `uncapped` is the fare before the cap,
 * or null when it was within the bound.
 */
export function boundedFareMinor(fare: FareMinor, estimateMinor: number, marginPercent: number): FareMinor & { uncapped: number | null } {
  const bound = Math.round(estimateMinor * (1 + Math.max(0, marginPercent) / 100));
  if (fare.grandTotal <= bound) return { ...fare, uncapped: null };
  const convenience_fees = Math.round((fare.convenience_fees * bound) / fare.grandTotal);
  return { totalCost: bound - convenience_fees, convenience_fees, grandTotal: bound, uncapped: fare.grandTotal };
}
