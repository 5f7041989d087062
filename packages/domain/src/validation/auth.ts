import { fail, ok, type Result } from '../result';
import { LOGIN_OTP_EXCLUSIVE_MAX, LOGIN_OTP_EXCLUSIVE_MIN } from '../spec-constants';
import { isStandardEmail } from './email';
import { fieldOf, MAX_EMAIL_LENGTH, textOf } from './fields';


/** The longest login email accepted: an address with a pasted space at each end. */
export const MAX_LOGIN_EMAIL_INPUT = MAX_EMAIL_LENGTH + 2;
export const MAX_PASSWORD_INPUT = 128;

/** Section 5: the email of a login matches the standard pattern (login_validate_error). */
export function validateLoginEmail(value: unknown): Result<string> {
  // Pasted addresses often carry spaces at the ends; they are never part of an address.
  const email = textOf(value, MAX_LOGIN_EMAIL_INPUT)?.trim();
  return isStandardEmail(email) ? ok(email.toLowerCase()) : fail('login_validate_error');
}

/** Section 5: the password of a login is not empty (login_validate_error). */
export function validateLoginPassword(value: unknown): Result<string> {
  const password = textOf(value, MAX_PASSWORD_INPUT);
  return password ? ok(password) : fail('login_validate_error');
}

/** Section 5: login by email needs a standard email and a non-empty password (login_validate_error). */
export function validateEmailLogin(input: unknown): Result<{ email: string; password: string }> {
  const email = validateLoginEmail(fieldOf(input, 'email'));
  const password = validateLoginPassword(fieldOf(input, 'password'));
  if (!email.ok || !password.ok) return fail('login_validate_error');
  return ok({ email: email.value, password: password.value });
}

/** Section 5: a login OTP is exactly 6 digits, strictly between 100000 and 999999 (otp_validate_error). */
export function validateLoginOtp(value: unknown): Result<string> {
  const text = typeof value === 'number' ? String(value) : textOf(value, 6);
  if (text === undefined || !/^\d{6}$/.test(text)) return fail('otp_validate_error', 'otp');
  const code = Number(text);
  if (code <= LOGIN_OTP_EXCLUSIVE_MIN || code >= LOGIN_OTP_EXCLUSIVE_MAX) return fail('otp_validate_error', 'otp');
  return ok(text);
}
