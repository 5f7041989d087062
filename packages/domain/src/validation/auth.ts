import { fail, ok, type Result } from '../result';
import { LOGIN_OTP_EXCLUSIVE_MAX, LOGIN_OTP_EXCLUSIVE_MIN } from '../spec-constants';
import { isStandardEmail } from './email';
import { fieldOf, MAX_EMAIL_LENGTH, textOf } from './fields';

const MAX_PASSWORD_INPUT = 128;

/** Section 5: login by email needs a standard email and a non-empty password (login_validate_error). */
export function validateEmailLogin(input: unknown): Result<{ email: string; password: string }> {
  // Pasted addresses often carry spaces at the ends; they are never part of an address.
  const email = textOf(fieldOf(input, 'email'), MAX_EMAIL_LENGTH + 2)?.trim();
  const password = textOf(fieldOf(input, 'password'), MAX_PASSWORD_INPUT);
  if (!isStandardEmail(email) || !password) return fail('login_validate_error');
  return ok({ email: email.toLowerCase(), password });
}

/** Section 5: a login OTP is exactly 6 digits, strictly between 100000 and 999999 (otp_validate_error). */
export function validateLoginOtp(value: unknown): Result<string> {
  const text = typeof value === 'number' ? String(value) : textOf(value, 6);
  if (text === undefined || !/^\d{6}$/.test(text)) return fail('otp_validate_error', 'otp');
  const code = Number(text);
  if (code <= LOGIN_OTP_EXCLUSIVE_MIN || code >= LOGIN_OTP_EXCLUSIVE_MAX) return fail('otp_validate_error', 'otp');
  return ok(text);
}
