import { describe, expect, it } from 'vitest';
import { pathAfterLogin, safeReturnPath } from './return-path';

const ORIGIN = 'https://rideway.example';

describe('the page sign-in returns to (issue 17)', () => {
  it('keeps a path of this app, with its query and fragment', () => {
    expect(safeReturnPath('/withdraws', ORIGIN)).toBe('/withdraws');
    expect(safeReturnPath('/bookings/b-1?payment=paid#chat', ORIGIN)).toBe('/bookings/b-1?payment=paid#chat');
  });

  it('never leaves this site, however the address is written', () => {
    for (const next of [
      'https://evil.example',
      'https://evil.example/withdraws',
      '//evil.example',
      '//evil.example/withdraws',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      'javascript:alert(1)',
      'evil.example',
      `${ORIGIN}.evil.example/x`,
      'data:text/html,hi',
      ' /withdraws',
    ]) expect(safeReturnPath(next, ORIGIN), JSON.stringify(next)).toBeNull();
  });

  it('ignores nothing, blanks and the login page itself', () => {
    expect(safeReturnPath(null, ORIGIN)).toBeNull();
    expect(safeReturnPath('', ORIGIN)).toBeNull();
    expect(safeReturnPath('/login?next=/withdraws', ORIGIN)).toBeNull();
  });

  it("goes back to the page asked for when the role may open it, else to the role's home", () => {
    expect(pathAfterLogin('/withdraws', 'admin', ORIGIN)).toBe('/withdraws');
    expect(pathAfterLogin('/driverearning', 'fleetadmin', ORIGIN)).toBe('/driverearning');
    expect(pathAfterLogin('/withdraws', 'fleetadmin', ORIGIN)).toBe('/dashboard');
    expect(pathAfterLogin('/riders', 'rider', ORIGIN)).toBe('/');
    expect(pathAfterLogin('/bookings/b-1', 'rider', ORIGIN)).toBe('/bookings/b-1');
    expect(pathAfterLogin('https://evil.example', 'admin', ORIGIN)).toBe('/dashboard');
    expect(pathAfterLogin(null, 'driver', ORIGIN)).toBe('/bookings');
  });

  it('never returns to an API path', () => {
    expect(safeReturnPath('/api/auth/logout', ORIGIN)).toBeNull();
    expect(pathAfterLogin('/api/me/export', 'rider', ORIGIN)).toBe('/');
  });
});
