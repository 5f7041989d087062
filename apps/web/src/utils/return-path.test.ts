import { describe, expect, it } from 'vitest';
import { loginReturningTo } from './return-path';

describe('the login address for a page (issue 17)', () => {
  it('writes the login address for a page', () => {
    expect(loginReturningTo('/withdraws?x=1')).toBe('/login?next=%2Fwithdraws%3Fx%3D1');
    expect(loginReturningTo('/')).toBe('/login');
    expect(loginReturningTo('/login')).toBe('/login');
  });
});
