import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BOOKING_REFERENCE_ALPHABET,
  bookingOtp,
  bookingReference,
  loginOtp,
  randomIntInclusive,
  referralId,
  referralNamePart,
  type RandomSource,
} from './codes';
import { validateLoginOtp } from './validation/auth';
import { isReferralIdFormat } from './validation/registration';

/** A scripted source: returns the given 32-bit draws in turn. */
const scripted = (...draws: number[]): RandomSource => {
  let i = 0;
  return (buffer) => {
    buffer[0] = draws[i++ % draws.length] ?? 0;
    return buffer;
  };
};

describe('section 9: codes from a cryptographically secure source', () => {
  it('draws uniformly inside the range, rejecting the biased tail', () => {
    // 2^32 % 3 = 1, so the single top draw 2^32 - 1 is rejected and the next one used.
    expect(randomIntInclusive(0, 2, scripted(2 ** 32 - 1, 4))).toBe(1);
    expect(randomIntInclusive(5, 5)).toBe(5);
    expect(() => randomIntInclusive(2, 1)).toThrow(RangeError);
    expect(() => randomIntInclusive(0, 2 ** 32)).toThrow(RangeError);
  });

  it('booking OTP: a 5-digit number from 10000 to 99999 when otp_secure, else false', () => {
    expect(bookingOtp(false)).toBe(false);
    expect(bookingOtp(true, scripted(0))).toBe(10000);
    expect(bookingOtp(true, scripted(89_999))).toBe(99999);
    for (let i = 0; i < 500; i += 1) {
      const otp = bookingOtp(true);
      expect(otp).toBeGreaterThanOrEqual(10000);
      expect(otp).toBeLessThanOrEqual(99999);
    }
  });

  it('login OTP: 6 digits that the section 5 check accepts, at both ends of the range', () => {
    expect(loginOtp(scripted(0))).toBe('100001');
    expect(loginOtp(scripted(899_997))).toBe('999998');
    for (let i = 0; i < 500; i += 1) expect(validateLoginOtp(loginOtp()).ok).toBe(true);
  });

  it('referral ids: lowercase first name plus 1000 to 9999', () => {
    expect(referralId('Ada', 'admin', scripted(0))).toBe('ada1000');
    expect(referralId('Ada', 'signup', scripted(8999))).toBe('ada9999');
    expect(referralId('  Mary-Jane 2 ', 'signup', scripted(0))).toBe('maryjane1000');
    expect(referralNamePart('Zoë')).toBe('zoë');
    expect(referralNamePart('x'.repeat(40))).toHaveLength(20);
  });

  it("referral ids: social sign-ups without a name use 'temp', Apple 'rider'", () => {
    expect(referralId(' ', 'social', scripted(0))).toBe('temp1000');
    expect(referralId('', 'apple', scripted(0))).toBe('rider1000');
    expect(referralId('123', 'admin', scripted(0))).toBe('user1000');
  });

  it('property: every generated referral id passes the referral id check', () => {
    fc.assert(fc.property(fc.string(), fc.constantFrom('signup' as const, 'admin' as const, 'social' as const, 'apple' as const), (name, source) => {
      expect(isReferralIdFormat(referralId(name, source))).toBe(true);
    }));
  });

  it('booking references: 7 characters that cannot be misread', () => {
    const reference = bookingReference();
    expect(reference).toMatch(/^[A-HJKMNP-Z2-9]{7}$/);
    expect(BOOKING_REFERENCE_ALPHABET).not.toMatch(/[01IOL]/);
    expect(new Set(Array.from({ length: 200 }, () => bookingReference())).size).toBe(200);
  });
});

