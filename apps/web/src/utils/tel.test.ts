import { describe, expect, it } from 'vitest';
import { telHref } from './tel';

describe('tap to call (issue 17)', () => {
  it('keeps the digits and a leading plus', () => {
    expect(telHref('+44 7700-900 123')).toBe('tel:+447700900123');
    expect(telHref('4470000101')).toBe('tel:4470000101');
  });

  it('makes no link of what is not a number', () => {
    expect(telHref('')).toBeUndefined();
    expect(telHref('javascript:alert(1)')).toBeUndefined();
    expect(telHref('12')).toBeUndefined();
    expect(telHref('1+2+3+4')).toBe('tel:1234');
  });
});
