import { describe, expect, it } from 'vitest';
import { boundedFareMinor, DEFAULT_FARE_MARGIN_PERCENT } from './fare';

describe('fare integrity: the fare driven is bounded by the estimate', () => {
  it('keeps a fare within the estimate plus the margin', () => {
    expect(boundedFareMinor({ totalCost: 700, convenience_fees: 100, grandTotal: 800 }, 660, 30)).toEqual({ totalCost: 700, convenience_fees: 100, grandTotal: 800, uncapped: null });
  });
  it('caps a fare above it and records the uncapped amount', () => {
    const capped = boundedFareMinor({ totalCost: 40000, convenience_fees: 2429, grandTotal: 42429 }, 660, DEFAULT_FARE_MARGIN_PERCENT);
    expect(capped.grandTotal).toBe(858);
    expect(capped.totalCost + capped.convenience_fees).toBe(858);
    expect(capped.uncapped).toBe(42429);
  });
  it('with no margin, the estimate itself is the bound', () => {
    expect(boundedFareMinor({ totalCost: 900, convenience_fees: 100, grandTotal: 1000 }, 660, 0).grandTotal).toBe(660);
  });
});
