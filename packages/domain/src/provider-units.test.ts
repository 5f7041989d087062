import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { currencyDecimals, fromProviderDecimal, fromProviderUnits, toProviderDecimal, toProviderUnits } from './provider-units';

/** Issue 18: amounts in the provider's smallest unit, converted in one helper per currency rule. */
describe('provider units', () => {
  it('knows the ISO 4217 decimals of a currency', () => {
    expect([currencyDecimals('USD'), currencyDecimals('gbp'), currencyDecimals('JPY'), currencyDecimals('KWD')]).toEqual([2, 2, 0, 3]);
  });

  it('converts hundredths to the smallest unit and back', () => {
    expect(toProviderUnits(1234, 'USD')).toBe(1234);
    expect(toProviderUnits(120_000, 'JPY')).toBe(1200);
    expect(toProviderUnits(1234, 'KWD')).toBe(12_340);
    expect(fromProviderUnits(1200, 'JPY')).toBe(120_000);
    expect(fromProviderUnits(12_340, 'KWD')).toBe(1234);
    expect(() => toProviderUnits(120_050, 'JPY')).toThrow(RangeError);
    expect(() => fromProviderUnits(12_345, 'KWD')).toThrow(RangeError);
    expect(() => toProviderUnits(12.5, 'USD')).toThrow(RangeError);
  });

  it('writes and reads the decimal strings PayPal uses', () => {
    expect(toProviderDecimal(1234, 'USD')).toBe('12.34');
    expect(toProviderDecimal(5, 'EUR')).toBe('0.05');
    expect(toProviderDecimal(120_000, 'JPY')).toBe('1200');
    expect(toProviderDecimal(1234, 'KWD')).toBe('12.340');
    expect(fromProviderDecimal('12.34', 'USD')).toBe(1234);
    expect(fromProviderDecimal('12.3', 'USD')).toBe(1230);
    expect(fromProviderDecimal('1200', 'JPY')).toBe(120_000);
    for (const bad of ['12.345', '-1.00', '1e3', '', 'abc', '12.34.5']) expect(fromProviderDecimal(bad, 'USD')).toBeUndefined();
    expect(fromProviderDecimal('12.5', 'JPY')).toBeUndefined();
    expect(fromProviderDecimal('12.345', 'KWD')).toBeUndefined();
  });

  it('round-trips every amount exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e12 }), fc.constantFrom('USD', 'EUR', 'GBP', 'KWD'), (minor, currency) => {
        expect(fromProviderUnits(toProviderUnits(minor, currency), currency)).toBe(minor);
        expect(fromProviderDecimal(toProviderDecimal(minor, currency), currency)).toBe(minor);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e10 }), (yen) => {
        expect(toProviderUnits(fromProviderUnits(yen, 'JPY'), 'JPY')).toBe(yen);
      }),
    );
  });
});
