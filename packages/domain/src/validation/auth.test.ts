import { describe, expect, it } from 'vitest';
import { validateEmailLogin, validateLoginOtp } from './auth';

describe('section 5: login by email', () => {
  it('accepts a standard email and a non-empty password, normalising the email', () => {
    expect(validateEmailLogin({ email: ' Rider@Example.COM ', password: 'secret' })).toEqual({
      ok: true,
      value: { email: 'rider@example.com', password: 'secret' },
    });
  });

  it.each([
    ['a bad email', { email: 'rider@', password: 'x' }],
    ['no email', { password: 'x' }],
    ['an empty password', { email: 'a@b.co', password: '' }],
    ['a password that is not text', { email: 'a@b.co', password: 123456 }],
    ['an absurdly long password', { email: 'a@b.co', password: 'x'.repeat(129) }],
    ['no body', null],
    ['an array', ['a@b.co', 'x']],
  ])('refuses %s with login_validate_error', (_name, input) => {
    expect(validateEmailLogin(input)).toEqual({ ok: false, key: 'login_validate_error' });
  });
});

describe('section 5: a login OTP is exactly 6 digits between 100000 and 999999 exclusive', () => {
  it('accepts 6 digits inside the bounds, as text or number', () => {
    expect(validateLoginOtp('123456')).toEqual({ ok: true, value: '123456' });
    expect(validateLoginOtp(100001)).toEqual({ ok: true, value: '100001' });
    expect(validateLoginOtp('999998').ok).toBe(true);
  });

  it.each(['100000', '999999', '12345', '1234567', '12a456', ' 123456', '', null, 123456.5, '０１２３４５'])(
    'refuses %j with otp_validate_error',
    (otp) => {
      expect(validateLoginOtp(otp)).toEqual({ ok: false, key: 'otp_validate_error', field: 'otp' });
    },
  );
});
