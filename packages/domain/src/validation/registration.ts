import { fail, ok, type Result } from '../result';
import {
  COMPLEX_PASSWORD_MIN_LENGTH,
  MOBILE_MIN_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from '../spec-constants';
import { isStandardEmail } from './email';
import { fieldOf, isNonBlank, MAX_NAME_LENGTH, textOf } from './fields';

/** Section 5: the three password modes; 'alphanumeric' is the one in use. */
type PasswordMode = 'alphanumeric' | 'any' | 'complex';

/** An upper bound for the 'any' mode, which the spec leaves open, so hashing cost stays bounded. */
const ANY_PASSWORD_MAX_LENGTH = 128;
/** E.164 allows at most 15 digits. */
export const MOBILE_MAX_LENGTH = 15;

const ALPHANUMERIC_PASSWORD = new RegExp(`^[a-zA-Z0-9@*#]{${PASSWORD_MIN_LENGTH},${PASSWORD_MAX_LENGTH}}$`);

/** Section 5: first and last names need a non-whitespace character (proper_input_name). */
export const validateName = (value: unknown, field: string): Result<string> =>
  isNonBlank(value, MAX_NAME_LENGTH) ? ok(value.trim()) : fail('proper_input_name', field);

export const validateRegistrationEmail = (value: unknown): Result<string> =>
  isStandardEmail(value) ? ok(value.trim().toLowerCase()) : fail('proper_email', 'email');

/** Section 5: a password by the mode in force, each mode with its own key. */
export function validatePassword(value: unknown, mode: PasswordMode = 'alphanumeric'): Result<string> {
  switch (mode) {
    case 'alphanumeric':
      return typeof value === 'string' && ALPHANUMERIC_PASSWORD.test(value)
        ? ok(value)
        : fail('password_alphaNumeric_check', 'password');
    case 'any': {
      const text = textOf(value, ANY_PASSWORD_MAX_LENGTH);
      return text ? ok(text) : fail('password_blank_messege', 'password');
    }
    case 'complex': {
      const text = textOf(value, PASSWORD_MAX_LENGTH);
      const strong =
        text !== undefined &&
        text.length >= COMPLEX_PASSWORD_MIN_LENGTH &&
        /\d/.test(text) &&
        /[a-z]/.test(text) &&
        /[A-Z]/.test(text) &&
        /[^a-zA-Z0-9\s]/.test(text) &&
        !/\s/.test(text);
      return strong ? ok(text) : fail('password_complexity_check', 'password');
    }
  }
}

/**
 * Section 5: a phone number of at least 6 characters with no plus, space or dash (the dial code
 * is chosen apart); we also require digits only, at most 15 (mobile_no_blank_error).
 */
export function validateMobile(value: unknown): Result<string> {
  const text = textOf(value, MOBILE_MAX_LENGTH);
  if (text === undefined || text.length < MOBILE_MIN_LENGTH || !/^\d+$/.test(text)) {
    return fail('mobile_no_blank_error', 'mobile');
  }
  return ok(text);
}

type RegistrationFields = {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  mobile: string;
  referralId?: string;
};

/** Referral ids are a lowercase name part and four digits (section 9). */
export const isReferralIdFormat = (value: unknown): value is string =>
  typeof value === 'string' && /^[\p{Ll}\p{Lo}]{1,20}\d{4}$/u.test(value.trim().toLowerCase());

/** Section 5: a referral id, if entered, has the form of one (referer_not_found); empty means none. */
export function validateReferralId(value: unknown): Result<string | undefined> {
  if (value === undefined || value === null || value === '') return ok(undefined);
  return isReferralIdFormat(value) ? ok(value.trim().toLowerCase()) : fail('referer_not_found', 'referralId');
}

/**
 * Section 5 registration, in form order: names, email, password, phone, then the referral id's
 * form (whether it names a user is the server's lookup, with the same referer_not_found).
 */
export function validateRegistration(input: unknown, passwordMode: PasswordMode = 'alphanumeric'): Result<RegistrationFields> {
  const firstName = validateName(fieldOf(input, 'firstName'), 'firstName');
  if (!firstName.ok) return firstName;
  const lastName = validateName(fieldOf(input, 'lastName'), 'lastName');
  if (!lastName.ok) return lastName;
  const email = validateRegistrationEmail(fieldOf(input, 'email'));
  if (!email.ok) return email;
  const password = validatePassword(fieldOf(input, 'password'), passwordMode);
  if (!password.ok) return password;
  const mobile = validateMobile(fieldOf(input, 'mobile'));
  if (!mobile.ok) return mobile;
  const referral = validateReferralId(fieldOf(input, 'referralId'));
  if (!referral.ok) return referral;
  const fields: RegistrationFields = {
    firstName: firstName.value,
    lastName: lastName.value,
    email: email.value,
    password: password.value,
    mobile: mobile.value,
  };
  return ok(referral.value === undefined ? fields : { ...fields, referralId: referral.value });
}
