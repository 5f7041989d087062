import { fail, ok, type Result } from '../result';
import { isSimpleEmail } from './email';
import { fieldOf } from './fields';
import { validateMobile, validateName } from './registration';

/** The fields a user may change on their own profile (section 7 updateProfile). */
export const OWN_PROFILE_FIELDS = ['firstName', 'lastName', 'email', 'mobile'] as const;
type OwnProfileField = (typeof OWN_PROFILE_FIELDS)[number];
type ProfileUpdate = Partial<Record<OwnProfileField, string>>;

/** Section 5: email and mobile are disabled for email-login users; usertype is read-only. */
export const editableProfileFields = (isEmailLoginUser: boolean): readonly OwnProfileField[] =>
  isEmailLoginUser ? ['firstName', 'lastName'] : OWN_PROFILE_FIELDS;

/** Section 5: a profile's email matches the simple pattern (proper_email). */
export const validateProfileEmail = (value: unknown): Result<string> =>
  isSimpleEmail(value) ? ok(value.trim().toLowerCase()) : fail('proper_email', 'email');

/**
 * Section 5 on checked fields: the changes an account may make to its profile. An email-login
 * user's email and mobile stay as they are (field_not_editable); sent back unchanged, as forms
 * do, they are left out.
 */
export function editableProfileChanges(
  update: ProfileUpdate,
  current: { email: string; mobile: string; isEmailLoginUser: boolean },
): Result<ProfileUpdate> {
  const editable = editableProfileFields(current.isEmailLoginUser);
  const changes: ProfileUpdate = {};
  for (const field of OWN_PROFILE_FIELDS) {
    const value = update[field];
    if (value === undefined) continue;
    if (editable.includes(field)) changes[field] = value;
    else if (value !== current[field as 'email' | 'mobile']) return fail('field_not_editable', field);
  }
  return ok(changes);
}

/**
 * Section 5 profile update. Only the four own-profile fields are accepted; any other field
 * (usertype, walletBalance, approved, ratings, ...) is refused with field_not_editable, as is
 * a change of email or mobile by an email-login user. Email uses the simple pattern (proper_email).
 */
export function validateProfileUpdate(
  input: unknown,
  current: { email: string; mobile: string; isEmailLoginUser: boolean },
): Result<ProfileUpdate> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return fail('update_failed');
  const editable = editableProfileFields(current.isEmailLoginUser);
  const update: ProfileUpdate = {};
  for (const key of Object.keys(input)) {
    if (!(OWN_PROFILE_FIELDS as readonly string[]).includes(key)) return fail('field_not_editable', key);
  }
  for (const field of OWN_PROFILE_FIELDS) {
    const value = fieldOf(input, field);
    if (value === undefined) continue;
    if (!editable.includes(field)) {
      if (value !== current[field as 'email' | 'mobile']) return fail('field_not_editable', field);
      continue;
    }
    const checked =
      field === 'email'
        ? validateProfileEmail(value)
        : field === 'mobile'
          ? validateMobile(value)
          : validateName(value, field);
    if (!checked.ok) return checked;
    update[field] = checked.value;
  }
  return ok(update);
}
