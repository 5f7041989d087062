import { MAX_PASSWORD_INPUT } from '@rideway/domain';
import { z } from 'zod';
import { userSchema } from '../user';
import { newPassword } from './auth';

/**
 * Issue 20 point 2: the account's own privacy and security actions on the profile: a photo
 * (section 3's profile_image), a new password, a copy of the own data, and (DELETE /api/users/:id
 * with the own id) deleting the account.
 */

/** The largest photo accepted, before it is scaled down (a phone camera's JPEG fits). */
export const MAX_PROFILE_PHOTO_BYTES = 5 * 1024 * 1024;
/** The side of the square a profile photo is stored at (pixels). */
export const PROFILE_PHOTO_SIZE = 256;
const MAX_PROFILE_PHOTO_DATA_URL = Math.ceil((MAX_PROFILE_PHOTO_BYTES * 4) / 3) + 100;

/** PUT /api/me/photo: the image as a data URL; the server decides by its bytes what it is. */
export const profilePhotoRequestSchema = z.strictObject({
  image: z.string({ error: 'photo_invalid' }).min(1, { error: 'photo_invalid' }).max(MAX_PROFILE_PHOTO_DATA_URL, { error: 'photo_too_large' }).meta({ description: 'A PNG, JPEG or WebP image as a data URL, at most 5 MiB' }),
});
export type ProfilePhotoRequest = z.output<typeof profilePhotoRequestSchema>;

/**
 * POST /api/me/password: the current password (left out only by an account that has none, one
 * that signs in by phone or Facebook) and a new one by section 5's rule.
 */
export const passwordChangeRequestSchema = z.strictObject({
  currentPassword: z.string({ error: 'wrong_current_password' }).max(MAX_PASSWORD_INPUT, { error: 'wrong_current_password' }).optional(),
  newPassword,
});
export type PasswordChangeRequest = z.output<typeof passwordChangeRequestSchema>;

/** A trip in the own data: what was booked and paid, never another party's contact or token. */
export const exportedTripSchema = z.object({
  id: z.string(),
  reference: z.string().nullable(),
  role: z.enum(['rider', 'driver']),
  status: z.string(),
  carType: z.string(),
  pickupAddress: z.string(),
  dropAddress: z.string(),
  tripdate: z.number(),
  bookingDate: z.number(),
  trip_cost: z.number().nullable(),
  customer_paid: z.number().nullable(),
  driver_share: z.number().nullable(),
  payment_mode: z.string().nullable(),
  distance: z.number().nullable(),
  otherParty: z.string().nullable(),
});

export const accountExportSchema = z.object({
  exportedAt: z.number(),
  profile: userSchema.omit({ pushToken: true }),
  trips: z.array(exportedTripSchema),
  wallet: z.array(z.object({ type: z.string(), amount: z.number(), currency: z.string(), txRef: z.string(), bookingId: z.string().nullable(), date: z.number() })),
  withdraws: z.array(z.object({ id: z.string(), amount: z.number(), date: z.number(), processed: z.boolean() })),
  chatMessages: z.array(z.object({ bookingId: z.string(), message: z.string(), date: z.number() })),
  savedPlaces: z.array(z.object({ description: z.string(), lat: z.number(), lng: z.number(), count: z.number(), label: z.string().nullable(), name: z.string().nullable() })),
  notifications: z.array(z.object({ title: z.string(), msg: z.string(), date: z.number() })),
});
export type AccountExport = z.output<typeof accountExportSchema>;
