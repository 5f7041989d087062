import {
  BOOKING_OTP_MAX,
  BOOKING_OTP_MIN,
  LOGIN_OTP_EXCLUSIVE_MAX,
  LOGIN_OTP_EXCLUSIVE_MIN,
  REFERRAL_SUFFIX_MAX,
  REFERRAL_SUFFIX_MIN,
} from './spec-constants';

/** Fills a buffer with cryptographically secure random bytes (Web Crypto, in Node and browsers). */
export type RandomSource = (buffer: Uint32Array) => Uint32Array;

const secureRandom: RandomSource = (buffer) => globalThis.crypto.getRandomValues(buffer);

const RANGE = 2 ** 32;

/** A uniform integer in [min, max], by rejection sampling so no value is favoured. */
export function randomIntInclusive(min: number, max: number, random: RandomSource = secureRandom): number {
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max < min || max - min >= RANGE) {
    throw new RangeError(`bad range ${min}..${max}`);
  }
  const span = max - min + 1;
  const limit = RANGE - (RANGE % span);
  const buffer = new Uint32Array(1);
  for (;;) {
    const draw = random(buffer)[0] ?? 0;
    if (draw < limit) return min + (draw % span);
  }
}

/** Section 9: the booking OTP, a 5-digit number from 10000 to 99999 when otp_secure, else false. */
export const bookingOtp = (otpSecure: boolean, random: RandomSource = secureRandom): number | false =>
  otpSecure ? randomIntInclusive(BOOKING_OTP_MIN, BOOKING_OTP_MAX, random) : false;

/** Section 9: a 6-digit login code that section 5's check accepts (strictly inside its bounds). */
export const loginOtp = (random: RandomSource = secureRandom): string =>
  String(randomIntInclusive(LOGIN_OTP_EXCLUSIVE_MIN + 1, LOGIN_OTP_EXCLUSIVE_MAX - 1, random));

const MAX_REFERRAL_NAME = 20;

/** The lowercase letters of a first name (other characters dropped), at most 20. */
export const referralNamePart = (firstName: string): string =>
  Array.from(firstName.toLowerCase().replace(/[^\p{Ll}\p{Lo}]/gu, ''))
    .slice(0, MAX_REFERRAL_NAME)
    .join('');

export type ReferralSource = 'signup' | 'admin' | 'social' | 'apple';

/**
 * Section 9 referral ids: the lowercase first name plus a random number from 1000 to 9999.
 * Social sign-ups without a usable name use 'temp' ('rider' for Apple); other users without one
 * use 'user'.
 */
export function referralId(firstName: string, source: ReferralSource, random: RandomSource = secureRandom): string {
  const fallback = source === 'apple' ? 'rider' : source === 'social' ? 'temp' : 'user';
  const name = referralNamePart(firstName) || fallback;
  return `${name}${randomIntInclusive(REFERRAL_SUFFIX_MIN, REFERRAL_SUFFIX_MAX, random)}`;
}

/** Letters and digits that cannot be mistaken for one another when read aloud or typed. */
export const BOOKING_REFERENCE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const BOOKING_REFERENCE_LENGTH = 7;

/** A booking id short enough to read aloud: 7 characters, 31^7 (about 2.7e10) possibilities. */
export function bookingReference(random: RandomSource = secureRandom): string {
  return Array.from({ length: BOOKING_REFERENCE_LENGTH }, () =>
    BOOKING_REFERENCE_ALPHABET.charAt(randomIntInclusive(0, BOOKING_REFERENCE_ALPHABET.length - 1, random)),
  ).join('');
}
