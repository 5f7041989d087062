import { MAX_EMAIL_LENGTH, MAX_NAME_LENGTH, MAX_TEXT_LENGTH, validateProfileEmail } from '@rideway/domain';
import { z } from 'zod';
import { checkedBy, keyedString } from '../http';
import { uid } from '../primitives';
import { userSchema } from '../user';
import { languageCode, mobileNumber, newPassword, personName, standardEmail } from './auth';

/** The own profile, and the users an admin or fleet admin manages (sections 5 and 6). */

/**
 * PATCH /api/me: only the four own-profile fields; any other (usertype, walletBalance, approved,
 * ...) is refused with field_not_editable, and a body that is no object with update_failed.
 * Whether email and mobile may change depends on the account (section 5), so the service decides.
 */
export const profileUpdateSchema = z.strictObject(
  {
    firstName: personName('firstName').optional(),
    lastName: personName('lastName').optional(),
    email: checkedBy(keyedString('proper_email', MAX_EMAIL_LENGTH), validateProfileEmail).optional(),
    mobile: mobileNumber.optional(),
    /** Issue 19: the language chosen in the app's language selector; messages reach the user in it. */
    language: languageCode.optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'field_not_editable' : 'update_failed') },
);
export type ProfileUpdateRequest = z.output<typeof profileUpdateSchema>;

const vehicleFields = {
  carType: z.string().trim().min(1).max(MAX_NAME_LENGTH).optional(),
  vehicleNumber: z.string().trim().max(30).optional(),
  vehicleMake: z.string().trim().max(60).optional(),
  vehicleModel: z.string().trim().max(60).optional(),
  other_info: z.string().max(MAX_TEXT_LENGTH).optional(),
};

/** POST /api/users: names, email and mobile answer their section 5 keys; the rest validation_error. */
export const addUserRequestSchema = z.strictObject({
  firstName: personName('firstName'),
  lastName: personName('lastName'),
  email: standardEmail,
  mobile: mobileNumber,
  usertype: z.enum(['rider', 'driver', 'fleetadmin']),
  password: newPassword.optional(),
  fleetadmin: uid.nullable().optional(),
  ...vehicleFields,
});
export type AddUserRequest = z.output<typeof addUserRequestSchema>;

/**
 * PATCH /api/users/:id. Approval and fleet are an admin's to change (forbidden); so are email,
 * mobile and the bank fields: a fleet admin sending one of them changed is refused with
 * field_not_editable naming it (sent back unchanged, as forms do, it passes). A new email or
 * mobile, or approval withdrawn, ends the user's sessions.
 */
export const editUserRequestSchema = z.strictObject({
  firstName: personName('firstName').optional(),
  lastName: personName('lastName').optional(),
  email: standardEmail.optional(),
  mobile: mobileNumber.optional(),
  approved: z.boolean().optional(),
  fleetadmin: uid.nullable().optional(),
  bankName: z.string().max(100).optional(),
  bankCode: z.string().max(50).optional(),
  bankAccount: z.string().max(50).optional(),
  ...vehicleFields,
});
export type EditUserRequest = z.output<typeof editUserRequestSchema>;

/**
 * GET /api/users?usertype=&search=: admins list riders, drivers or fleet admins (never admins).
 * Issue 20 point 6: `search` keeps those whose first or last name, email or mobile contains it
 * (any case; % and _ are plain characters).
 */
export const userListQuery = z.object({ usertype: z.enum(['rider', 'driver', 'fleetadmin']).optional(), search: z.string().trim().max(100).optional() });

export const userResponse = z.object({ user: userSchema });
/** GET /api/session: the signed-in user, or null for a visitor (answered 200 either way, so a visitor's page makes no failing request). */
export const currentSessionResponse = z.object({ user: userSchema.nullable() });
export const userListResponse = z.object({ users: z.array(userSchema) });
