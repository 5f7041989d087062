import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fareForMinor, type FareRates } from './fare';
import { fareBreakdownMinor } from './fare-breakdown';

const sedan: FareRates = { base_fare: 2.5, rate_per_unit_distance: 1.2, rate_per_hour: 18, min_fare: 5, convenience_fees: 10, convenience_fee_type: 'percentage' };

describe('issue 17: the parts of a fare', () => {
  it('splits a fare into base, distance, time and extras', () => {
    // 2.50 + 1.2 x 10 + 18 x 0.5 + 3 = 26.50
    expect(fareBreakdownMinor(sedan, { distance: 10, duration: 1800 }, { parcel: { amount: 3 } })).toEqual({ base: 250, distance: 1200, time: 900, extras: 300, minimum: 0 });
  });

  it('shows what min_fare adds, and no base fare when it is not above 0', () => {
    expect(fareBreakdownMinor({ ...sedan, base_fare: 0, min_fare: 10 }, { distance: 1, duration: 600 })).toEqual({ base: 0, distance: 120, time: 300, extras: 0, minimum: 580 });
  });

  it('lets the time part take the cent the rounding leaves over', () => {
    // 1.005 x 1 = 100.5 minor -> 101; 0.3 minor of time: the sum 100.8 rounds to 101, so time is 0.
    const parts = fareBreakdownMinor({ ...sedan, base_fare: 0, min_fare: 0, rate_per_unit_distance: 1.005, rate_per_hour: 0.108 }, { distance: 1, duration: 100 });
    expect(parts).toMatchObject({ distance: 101, time: 0 });
  });

  it('always adds up to the fare, with no negative part', () => {
    const amount = fc.integer({ min: 0, max: 100_000 }).map((minor) => minor / 100);
    fc.assert(
      fc.property(amount, amount, amount, amount, fc.double({ min: 0, max: 500, noNaN: true }), fc.integer({ min: 0, max: 86_400 }), fc.option(amount), (base, perKm, perHour, min, distance, duration, parcel) => {
        const rates = { ...sedan, base_fare: base, rate_per_unit_distance: perKm, rate_per_hour: perHour, min_fare: min };
        const extras = parcel === null ? {} : { parcel: { amount: parcel } };
        const parts = fareBreakdownMinor(rates, { distance, duration }, extras);
        expect(parts.base + parts.distance + parts.time + parts.extras + parts.minimum).toBe(fareForMinor(rates, { distance, duration }, extras).totalCost);
        for (const value of Object.values(parts)) expect(value).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});
