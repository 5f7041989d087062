import { describe, expect, it } from 'vitest';
import { promoDiscount, type PromoTerms } from './promo';

const day = (iso: string): number => Date.parse(iso);
const promo: PromoTerms = {
  promo_discount_type: 'percentage',
  promo_discount_value: 20,
  max_promo_discount_value: 5,
  min_order: 10,
  promo_validity: day('2026-12-31T00:00:00Z'),
  promo_usage_limit: 100,
  user_avail: 0,
};
const use = { tripCost: 20, now: day('2026-11-22T10:00:00Z'), usedByRider: false };

describe('section 3 promo: discount by type, cap, minimum order, validity and usage limit', () => {
  it('takes a percentage of the trip cost', () => {
    expect(promoDiscount({ ...promo, max_promo_discount_value: 0 }, use)).toEqual({ ok: true, value: 4 });
  });

  it('caps a percentage discount at max_promo_discount_value', () => {
    expect(promoDiscount(promo, { ...use, tripCost: 100 })).toEqual({ ok: true, value: 5 });
  });

  it('gives a flat discount as is, never above the trip cost', () => {
    const flat = { ...promo, promo_discount_type: 'flat' as const, promo_discount_value: 3, min_order: 0 };
    expect(promoDiscount(flat, use)).toEqual({ ok: true, value: 3 });
    expect(promoDiscount({ ...flat, promo_discount_value: 50 }, use)).toEqual({ ok: true, value: 20 });
  });

  it('refuses a trip below min_order (promo_min_order)', () => {
    expect(promoDiscount(promo, { ...use, tripCost: 9.99 })).toEqual({ ok: false, key: 'promo_min_order' });
    expect(promoDiscount(promo, { ...use, tripCost: 10 }).ok).toBe(true);
  });

  it('stays valid through the whole validity day, then promo_expired', () => {
    expect(promoDiscount(promo, { ...use, now: day('2026-12-31T23:59:59Z') }).ok).toBe(true);
    expect(promoDiscount(promo, { ...use, now: day('2027-01-01T00:00:00Z') })).toEqual({ ok: false, key: 'promo_expired' });
  });

  it('reads the validity day in the given time zone', () => {
    // 20:00 UTC on 31 December is still the 31st in UTC but already 1 January in Kolkata (UTC+5:30).
    const late = { ...use, now: day('2026-12-31T20:00:00Z') };
    const validThe31st = { ...promo, promo_validity: day('2026-12-31T12:00:00Z') };
    expect(promoDiscount(validThe31st, late).ok).toBe(true);
    expect(promoDiscount(validThe31st, { ...late, timeZone: 'Asia/Kolkata' })).toEqual({ ok: false, key: 'promo_expired' });
  });

  it('refuses once promo_usage_limit uses are taken (promo_exhausted); 0 means unlimited', () => {
    expect(promoDiscount({ ...promo, user_avail: 100 }, use)).toEqual({ ok: false, key: 'promo_exhausted' });
    expect(promoDiscount({ ...promo, user_avail: 99 }, use).ok).toBe(true);
    expect(promoDiscount({ ...promo, promo_usage_limit: 0, user_avail: 10_000 }, use).ok).toBe(true);
  });

  it('lets each rider use a promo once (promo_already_used)', () => {
    expect(promoDiscount(promo, { ...use, usedByRider: true })).toEqual({ ok: false, key: 'promo_already_used' });
  });
});
