import { fareFor, type FareRates } from '@rideway/domain';
import { opsPerSecond, report } from './measure';

/**
 * The exact fare (integer minor units, noise-free half-away rounding) against the seed's float
 * formula with toFixed rounding, which is fast but gets 1.005 wrong. Exactness should cost
 * little: the target is at least 0.2x of the float formula, far above what an estimate needs.
 */
function floatFare(rates: FareRates, distance: number, duration: number): { totalCost: number; convenience_fees: number; grandTotal: number } {
  let cost = rates.rate_per_unit_distance * distance + rates.rate_per_hour * (duration / 3600);
  if (rates.base_fare > 0) cost += rates.base_fare;
  const total = Math.max(cost, rates.min_fare);
  const fee = rates.convenience_fee_type === 'flat' ? rates.convenience_fees : (total * rates.convenience_fees) / 100;
  return { totalCost: Number(total.toFixed(2)), convenience_fees: Number(fee.toFixed(2)), grandTotal: Number((total + fee).toFixed(2)) };
}

const rates: FareRates = { base_fare: 2.5, rate_per_unit_distance: 1.2, rate_per_hour: 18, min_fare: 5, convenience_fees: 10, convenience_fee_type: 'percentage' };
let i = 0;
const exact = opsPerSecond(() => fareFor(rates, { distance: 3 + (i++ % 50) / 7, duration: 900 + (i % 60) }));
const baseline = opsPerSecond(() => floatFare(rates, 3 + (i++ % 50) / 7, 900 + (i % 60)));
export const passed = report('fare: exact minor-unit fare vs float toFixed formula', exact, baseline, { min: 0.2 });
