import {
  MAX_EMAIL_LENGTH,
  MAX_LOGIN_EMAIL_INPUT,
  MAX_NAME_LENGTH,
  MAX_PASSWORD_INPUT,
  MOBILE_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  validateLoginEmail,
  validateLoginOtp,
  validateLoginPassword,
  validateMobile,
  validateName,
  validatePassword,
  validateReferralId,
  validateRegistrationEmail,
} from '@rideway/domain';
import { z } from 'zod';
import { checkedBy, keyedString } from '../http';
import { userSchema } from '../user';
import { checkedInput } from './form-input';

/**
 * Sign-up, sign-in and password reset (section 5). Each field answers its section 5 key, and a
 * body's fields are in the order the form checks them, so the first problem is the one reported.
 */

/** A first or last name with a non-whitespace character, trimmed (proper_input_name). */
export const personName = (field: string) => checkedBy(keyedString('proper_input_name', MAX_NAME_LENGTH), (value) => validateName(value, field));
/** A standard email, trimmed and lowercased (proper_email). */
export const standardEmail = checkedBy(keyedString('proper_email', MAX_EMAIL_LENGTH), validateRegistrationEmail);
/** Section 5's password mode in use, 'alphanumeric' (password_alphaNumeric_check). */
export const newPassword = checkedBy(keyedString('password_alphaNumeric_check', PASSWORD_MAX_LENGTH), validatePassword).meta({
  description: '6 to 30 letters, digits, @, * or #',
});
/** Digits only, at least 6; the dial code is chosen apart (mobile_no_blank_error). */
export const mobileNumber = checkedBy(keyedString('mobile_no_blank_error', MOBILE_MAX_LENGTH), validateMobile).meta({
  description: 'Digits only, at least 6; the dial code is chosen apart',
});

/** The largest licence image a driver may upload, and its data URL's length. */
export const MAX_LICENCE_BYTES = 5 * 1024 * 1024;
const MAX_LICENCE_DATA_URL = Math.ceil((MAX_LICENCE_BYTES * 4) / 3) + 100;

/**
 * POST /api/auth/register. The driver's fields are checked by the service once the user type is
 * known (a known car type, a vehicle number, a licence image), after the referral id's lookup.
 */
/** Issue 19: a language file's code (en, ar, es, pt-BR), as GET /get_languages names them. */
export const languageCode = z.string().trim().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, { error: 'select_proper' });

export const registerRequestSchema = z.object({
  firstName: personName('firstName'),
  lastName: personName('lastName'),
  email: standardEmail,
  password: newPassword,
  mobile: mobileNumber,
  referralId: checkedBy(keyedString('referer_not_found', 100), validateReferralId).nullish(),
  usertype: z.enum(['rider', 'driver'], { error: 'not_valid_user_type' }).nullish(),
  carType: keyedString('select_proper', MAX_NAME_LENGTH).optional().meta({ description: 'Drivers: the name of a car type' }),
  vehicleNumber: keyedString('select_proper', 30).optional().meta({ description: 'Drivers' }),
  vehicleMake: z.string().max(60).optional(),
  vehicleModel: z.string().max(60).optional(),
  licenseImage: keyedString('select_proper', MAX_LICENCE_DATA_URL).optional().meta({ description: 'Drivers: the licence image as a PNG, JPEG or WebP data URL' }),
  /** Issue 19: the language the app was in at sign-up; messages reach the user in it (an unknown one is not kept). */
  language: languageCode.optional(),
});
export type RegisterRequest = z.output<typeof registerRequestSchema>;

export const loginRequestSchema = z.object({
  email: checkedBy(keyedString('login_validate_error', MAX_LOGIN_EMAIL_INPUT), validateLoginEmail),
  password: checkedBy(keyedString('login_validate_error', MAX_PASSWORD_INPUT), validateLoginPassword),
});
export type LoginRequest = z.output<typeof loginRequestSchema>;

export const otpRequestSchema = z.object({ mobile: mobileNumber });
export type OtpRequest = z.output<typeof otpRequestSchema>;

/** The code is checked before the verification id, as the phone form does (section 5). */
export const otpVerifySchema = z.object({
  otp: checkedInput(z.union([z.string(), z.number()], { error: 'otp_validate_error' }), validateLoginOtp).meta({ description: '6 digits' }),
  verificationId: keyedString('login_error', 100).min(1),
});
export type OtpVerifyRequest = z.output<typeof otpVerifySchema>;

/** Any text that could be an email: the answer is the same whether or not it has an account. */
export const passwordResetRequestSchema = z.object({ email: keyedString('proper_email', MAX_EMAIL_LENGTH).min(1) });
export type PasswordResetRequest = z.output<typeof passwordResetRequestSchema>;

export const passwordResetConfirmSchema = z.object({ password: newPassword, token: z.string().max(100).min(1, { error: 'not_found' }) });
export type PasswordResetConfirm = z.output<typeof passwordResetConfirmSchema>;

/**
 * The browser navigations (the mailed link, Facebook's callback) answer every outcome with a
 * redirect: a malformed value counts as a missing one, and the service refuses it.
 */
const linkValue = (max: number) => z.string().max(max).optional().catch(undefined);
export const verifyEmailQuery = z.object({ token: linkValue(100) });
export const facebookCallbackQuery = z.object({ code: linkValue(2000), state: linkValue(100) });
/** Issue 20: where Google or Apple sign-in starts; `next` is the page to return to (a path of this site only). */
export const socialStartQuery = z.object({ next: linkValue(2000) });
/**
 * The provider's answer: Google's by query, Apple's as a form post (response_mode=form_post, with
 * `user`, the name Apple sends once). `iss` is the issuer RFC 9207 adds; `error` a refusal.
 */
export const socialCallbackFields = z.object({ code: linkValue(2000), state: linkValue(100), iss: linkValue(300), error: linkValue(200), user: linkValue(2000) });

export const registerResponse = z.object({ user: userSchema });
/** A signed-in answer: the session token (also set as the cookie) and the user. */
export const sessionResponse = z.object({ token: z.string(), user: userSchema });
export const otpRequestResponse = z.object({ verificationId: z.string() });
export const signInMethodsResponse = z.object({ email: z.literal(true), mobile: z.boolean(), facebook: z.boolean(), google: z.boolean(), apple: z.boolean() });
