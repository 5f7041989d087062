import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { customerPaid, driverShare, fareFor, fareForMinor, type FareRates } from './fare';
import { toMinor } from './money';

const sedan: FareRates = {
  base_fare: 2.5,
  rate_per_unit_distance: 1.2,
  rate_per_hour: 18,
  min_fare: 5,
  convenience_fees: 10,
  convenience_fee_type: 'percentage',
};

describe('section 9: fare', () => {
  it('is rate x distance + rate per hour x hours + base fare, fee on top', () => {
    // 1.2 x 10 + 18 x 0.5 + 2.5 = 23.5; 10% fee = 2.35; grand 25.85
    expect(fareFor(sedan, { distance: 10, duration: 1800 })).toEqual({
      totalCost: 23.5,
      convenience_fees: 2.35,
      grandTotal: 25.85,
    });
  });

  it('adds base_fare only when above 0', () => {
    const noBase = { ...sedan, base_fare: 0, min_fare: 0 };
    expect(fareFor(noBase, { distance: 10, duration: 0 }).totalCost).toBe(12);
    expect(fareFor({ ...noBase, base_fare: -3 }, { distance: 10, duration: 0 }).totalCost).toBe(12);
  });

  it('adds the parcel type and option amounts when selected', () => {
    const fare = fareFor(sedan, { distance: 10, duration: 1800 }, { parcel: { amount: 3 }, option: { amount: 1.25 } });
    expect(fare.totalCost).toBe(27.75);
  });

  it('takes min_fare when the cost is below it', () => {
    expect(fareFor({ ...sedan, min_fare: 30 }, { distance: 1, duration: 60 }).totalCost).toBe(30);
  });

  it('charges a flat fee as is, a percentage fee of the total', () => {
    expect(fareFor({ ...sedan, convenience_fee_type: 'flat', convenience_fees: 1.5 }, { distance: 10, duration: 1800 })).toEqual({
      totalCost: 23.5,
      convenience_fees: 1.5,
      grandTotal: 25,
    });
  });

  it('rounds each amount to 2 decimals, half away from zero', () => {
    // 1.005 per km x 1 km = 1.005 -> 1.01; 15% of 1.01 = 0.1515 -> 0.15
    const fare = fareFor(
      { base_fare: 0, rate_per_unit_distance: 1.005, rate_per_hour: 0, min_fare: 0, convenience_fees: 15, convenience_fee_type: 'percentage' },
      { distance: 1, duration: 0 },
    );
    expect(fare).toEqual({ totalCost: 1.01, convenience_fees: 0.15, grandTotal: 1.16 });
  });

  it('gives minor units to the server', () => {
    expect(fareForMinor(sedan, { distance: 10, duration: 1800 })).toEqual({ totalCost: 2350, convenience_fees: 235, grandTotal: 2585 });
  });

  it('section 9: driver share = estimate fare - convenience fees; customer_paid = trip_cost - discount', () => {
    expect(driverShare(25.85, 2.35)).toBe(23.5);
    expect(driverShare(0.3, 0.1)).toBe(0.2);
    expect(customerPaid(25.85, 5)).toBe(20.85);
    expect(customerPaid(0.3, 0.1)).toBe(0.2);
  });

  const money = fc.integer({ min: 0, max: 100_000 }).map((minor) => minor / 100);
  const rates = fc.record({
    base_fare: money,
    rate_per_unit_distance: money,
    rate_per_hour: money,
    min_fare: money,
    convenience_fees: fc.integer({ min: 0, max: 10_000 }).map((m) => m / 100),
    convenience_fee_type: fc.constantFrom('flat' as const, 'percentage' as const),
  });
  const trip = fc.record({
    distance: fc.double({ min: 0, max: 2000, noNaN: true }),
    duration: fc.integer({ min: 0, max: 86_400 }),
  });
  const extras = fc.record({ parcel: fc.option(money.map((amount) => ({ amount })), { nil: undefined }), option: fc.option(money.map((amount) => ({ amount })), { nil: undefined }) });

  it('property: the parts add up to grandTotal exactly, every amount has at most 2 decimals', () => {
    fc.assert(
      fc.property(rates, trip, extras, (r, t, e) => {
        const minor = fareForMinor(r, t, e);
        expect(minor.totalCost + minor.convenience_fees).toBe(minor.grandTotal);
        const fare = fareFor(r, t, e);
        for (const amount of Object.values(fare)) expect(toMinor(amount) / 100).toBe(amount);
        expect(toMinor(fare.totalCost) + toMinor(fare.convenience_fees)).toBe(toMinor(fare.grandTotal));
        expect(fare.totalCost).toBeGreaterThanOrEqual(r.min_fare);
      }),
    );
  });

  it('property: driver_share + convenience_fees = trip_cost, exactly', () => {
    fc.assert(
      fc.property(rates, trip, (r, t) => {
        const fare = fareFor(r, t);
        const share = driverShare(fare.grandTotal, fare.convenience_fees);
        expect(toMinor(share) + toMinor(fare.convenience_fees)).toBe(toMinor(fare.grandTotal));
        expect(share).toBe(fare.totalCost);
      }),
    );
  });

  it('property: a longer or slower trip never costs less', () => {
    fc.assert(
      fc.property(rates, trip, fc.double({ min: 0, max: 100, noNaN: true }), (r, t, more) => {
        const base = fareForMinor(r, t).grandTotal;
        expect(fareForMinor(r, { ...t, distance: t.distance + more }).grandTotal).toBeGreaterThanOrEqual(base);
        expect(fareForMinor(r, { ...t, duration: t.duration + 60 }).grandTotal).toBeGreaterThanOrEqual(base);
      }),
    );
  });
});
