import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  currencySymbol,
  formatMoney,
  fromMinor,
  isMoneyAmount,
  MAX_MINOR,
  percentOfMinor,
  roundHalfAwayFromZero,
  roundMinor,
  roundMoney,
  sumMinor,
  toMinor,
} from './money';

describe('section 9: money has 2 decimals, held as integer minor units', () => {
  it('converts major to minor units and back exactly', () => {
    expect(toMinor(12.34)).toBe(1234);
    expect(toMinor(0.1 + 0.2)).toBe(30);
    expect(fromMinor(1234)).toBe(12.34);
    expect(toMinor(-7.5)).toBe(-750);
  });

  it('rounds half away from zero without float noise (1.005 -> 1.01, where toFixed gives 1.00)', () => {
    expect((1.005).toFixed(2)).toBe('1.00');
    expect(roundMoney(1.005)).toBe(1.01);
    expect(roundMoney(2.675)).toBe(2.68);
    expect(roundMoney(-1.005)).toBe(-1.01);
    expect(roundMoney(1.004999)).toBe(1);
    expect(roundHalfAwayFromZero(-0.4)).toBe(0);
    expect(Object.is(roundHalfAwayFromZero(-0.4), -0)).toBe(false);
  });

  it('property: the fast path agrees with rounding the 15-digit decimal form everywhere', () => {
    const reference = (x: number): number => {
      const cleaned = Number(x.toPrecision(15));
      const r = Math.round(Math.abs(cleaned));
      return cleaned < 0 && r !== 0 ? -r : r;
    };
    const nearHalves = fc.tuple(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: -20, max: 20 })).map(([n, k]) => n + 0.5 + k * Number.EPSILON * Math.max(1, Math.abs(n)));
    fc.assert(
      fc.property(fc.oneof(fc.double({ min: -1e13, max: 1e13, noNaN: true }), nearHalves, fc.integer({ min: -1e6, max: 1e6 }).map((m) => (m / 1000) * 100)), (x) => {
        expect(roundHalfAwayFromZero(x)).toBe(reference(x));
      }),
      { numRuns: 5000 },
    );
  });

  it('rounds fractional minor units and percentages to whole minor units', () => {
    expect(roundMinor(1234.5)).toBe(1235);
    expect(percentOfMinor(1999, 10)).toBe(200);
    expect(percentOfMinor(1000, 12.5)).toBe(125);
  });

  it('refuses what is not money: non-finite, non-integer minor units, out of range', () => {
    expect(() => toMinor(Number.NaN)).toThrow(RangeError);
    expect(() => toMinor(Infinity)).toThrow(RangeError);
    expect(() => fromMinor(1.5)).toThrow(RangeError);
    expect(() => toMinor(MAX_MINOR)).toThrow(RangeError);
    expect(() => sumMinor([MAX_MINOR, 1])).toThrow(RangeError);
  });

  it('tells money amounts (at most 2 decimals, finite, in range) from other values', () => {
    expect(isMoneyAmount(12.34)).toBe(true);
    expect(isMoneyAmount(0)).toBe(true);
    expect(isMoneyAmount(12.345)).toBe(false);
    expect(isMoneyAmount(Number.NaN)).toBe(false);
    expect(isMoneyAmount('12')).toBe(false);
    expect(isMoneyAmount(1e15)).toBe(false);
  });

  it('formats with the settings currency symbol and code', () => {
    const usd = { symbol: '$', code: 'USD' };
    expect(formatMoney(123450, usd)).toBe('$1,234.50');
    expect(formatMoney(5, usd, { withCode: true })).toBe('$0.05 USD');
    expect(formatMoney(-250, { symbol: '₹', code: 'INR' })).toBe('-₹2.50');
    expect(formatMoney(100, { symbol: '€', code: '' }, { withCode: true })).toBe('€1.00');
  });

  it('property: any 2-decimal amount survives minor -> major -> minor unchanged', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (minor) => {
        expect(toMinor(fromMinor(minor))).toBe(minor);
      }),
    );
  });

  it('property: summing in minor units never drifts, whatever the order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1e9, max: 1e9 }), { maxLength: 200 }), (amounts) => {
        const forward = sumMinor(amounts);
        const backward = sumMinor([...amounts].reverse());
        expect(forward).toBe(backward);
        expect(Number.isSafeInteger(forward)).toBe(true);
        // Adding the same amounts as major units with rounding at the end agrees too.
        expect(toMinor(amounts.reduce((total, m) => total + fromMinor(m), 0))).toBe(forward);
      }),
    );
  });
});

describe('issue 17: a record shows the symbol of its own currency', () => {
  const inForce = { symbol: '£', code: 'GBP' };
  it('uses the settings symbol for the currency in force, and the usual symbol of another', () => {
    expect(currencySymbol('GBP', inForce)).toBe('£');
    expect(currencySymbol('gbp', inForce)).toBe('£');
    expect(currencySymbol('', inForce)).toBe('£');
    expect(currencySymbol('USD', inForce)).toBe('$');
    expect(currencySymbol('EUR', inForce)).toBe('€');
    expect(currencySymbol('GBP', { symbol: '$', code: 'USD' })).toBe('£');
  });
  it('shows the code where no symbol exists', () => {
    expect(currencySymbol('CHF', inForce)).toBe('CHF ');
    expect(currencySymbol('??', inForce)).toBe('?? ');
    expect(formatMoney(1250, { symbol: currencySymbol('CHF', inForce), code: 'CHF' })).toBe('CHF 12.50');
  });
});
