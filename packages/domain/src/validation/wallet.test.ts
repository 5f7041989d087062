import { describe, expect, it } from 'vitest';
import { validateAddToWallet } from './wallet';

describe('section 5: add to wallet needs a user and an amount above 0', () => {
  it('accepts a user and a positive 2-decimal amount', () => {
    expect(validateAddToWallet({ uid: 'u1', amount: 25.5 })).toEqual({ ok: true, value: { uid: 'u1', amount: 25.5 } });
    expect(validateAddToWallet({ uid: 'u1', amount: '10' })).toEqual({ ok: true, value: { uid: 'u1', amount: 10 } });
  });

  it.each([
    ['no user', { amount: 10 }],
    ['a blank user', { uid: '  ', amount: 10 }],
    ['zero', { uid: 'u1', amount: 0 }],
    ['a negative amount', { uid: 'u1', amount: -5 }],
    ['more than 2 decimals', { uid: 'u1', amount: 1.005 }],
    ['no amount', { uid: 'u1' }],
    ['text', { uid: 'u1', amount: 'lots' }],
    ['too much', { uid: 'u1', amount: 1e7 }],
  ])('refuses %s with no_details_error', (_name, input) => {
    expect(validateAddToWallet(input)).toEqual({ ok: false, key: 'no_details_error' });
  });
});
