import { describe, expect, it } from 'vitest';
import { countryList, countryNamed, mobileDigits, splitMobile } from './countries';

const countries = countryList('en');
const uk = countryNamed(countries, 'United Kingdom');
const us = countryNamed(countries, 'US');

describe('issue 17: mobiles with the dial code of their country', () => {
  it('finds the settings country by English name or code', () => {
    expect(uk?.dialCode).toBe('44');
    expect(countryNamed(countries, 'gb')).toBe(uk);
    expect(us?.dialCode).toBe('1');
  });

  it('puts the dial code in front, reading a number written the national way', () => {
    expect(mobileDigits('7700900123', uk)).toBe('447700900123');
    // A UK mobile typed with its trunk 0 is the same number.
    expect(mobileDigits('07700900123', uk)).toBe('447700900123');
    expect(mobileDigits('2025550123', us)).toBe('12025550123');
    // Anything else goes as typed behind the dial code, for the server to judge (section 5).
    expect(mobileDigits('12', uk)).toBe('4412');
    expect(mobileDigits('+44 7700', uk)).toBe('44+44 7700');
    expect(mobileDigits('', uk)).toBe('');
    expect(mobileDigits('7700900123', undefined)).toBe('7700900123');
  });

  it('splits a stored mobile back into its country and number', () => {
    expect(splitMobile('447700900123', countries, uk)).toEqual({ country: uk, national: '7700900123' });
    // The settings country first, even for a number too short to be valid.
    expect(splitMobile('4470000201', countries, uk)).toEqual({ country: uk, national: '70000201' });
    expect(splitMobile('12025550123', countries, uk)).toEqual({ country: us, national: '2025550123' });
    expect(splitMobile('', countries, uk)).toEqual({ country: undefined, national: '' });
    expect(splitMobile('999', countries, uk)).toEqual({ country: undefined, national: '999' });
  });
});
