import { fromMinor, percentOfMinor, toMinor } from './money';
import { fail, ok, type Result } from './result';

/** The section 3 promo fields a discount depends on; money in major units. */
export type PromoTerms = {
  promo_discount_type: 'flat' | 'percentage';
  promo_discount_value: number;
  /** The cap on a percentage discount; 0 means no cap. */
  max_promo_discount_value: number;
  min_order: number;
  /** Epoch ms of the last day the promo is valid; it stays valid to the end of that day. */
  promo_validity: number;
  /** Total uses allowed across all riders; 0 means unlimited. */
  promo_usage_limit: number;
  /** Uses so far (read-only to admins). */
  user_avail: number;
};

type PromoUse = {
  /** The trip cost the promo applies to, in major units. */
  tripCost: number;
  now: number;
  /** Whether this rider has already used this promo: each rider may use a promo once. */
  usedByRider: boolean;
  /** The time zone the validity date is read in (default UTC). */
  timeZone?: string;
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** The end of the calendar day (in the given zone) that contains `at`. */
function endOfDay(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(at);
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const sinceMidnight = ((get('hour') * 60 + get('minute')) * 60 + get('second')) * 1000 + (at % 1000);
  return at - sinceMidnight + DAY_MS - 1;
}

/**
 * The discount a promo gives on a trip cost, in major units: flat, or a percentage capped by
 * max_promo_discount_value; never more than the trip cost. Refused with promo_expired after
 * promo_validity's day, promo_min_order below min_order, promo_exhausted at promo_usage_limit,
 * promo_already_used when this rider has used it.
 */
export function promoDiscount(promo: PromoTerms, use: PromoUse): Result<number> {
  if (use.now > endOfDay(promo.promo_validity, use.timeZone ?? 'UTC')) return fail('promo_expired');
  if (promo.promo_usage_limit > 0 && promo.user_avail >= promo.promo_usage_limit) {
    return fail('promo_exhausted');
  }
  if (use.usedByRider) return fail('promo_already_used');
  const tripCost = toMinor(use.tripCost);
  if (tripCost < toMinor(promo.min_order)) return fail('promo_min_order');
  let discount =
    promo.promo_discount_type === 'flat'
      ? toMinor(promo.promo_discount_value)
      : percentOfMinor(tripCost, promo.promo_discount_value);
  if (promo.promo_discount_type === 'percentage' && promo.max_promo_discount_value > 0) {
    discount = Math.min(discount, toMinor(promo.max_promo_discount_value));
  }
  return ok(fromMinor(Math.max(0, Math.min(discount, tripCost))));
}
