import { USER_TYPES } from '@rideway/domain';
import { z } from 'zod';
import { epochMs, latLng, money, uid } from './primitives';

const userTypeSchema = z.enum(USER_TYPES);

const ratingsSchema = z.object({
  userrating: z.number().min(0).max(5),
  details: z.array(z.object({ user: uid, rate: z.number().int().min(1).max(5) })),
});

const savedAddressSchema = z.object({
  description: z.string().max(300),
  lat: z.number(),
  lng: z.number(),
  // min(1), not positive(): OpenAPI 3.0 writes positive() as a boolean exclusiveMinimum that JSON Schema validators refuse.
  count: z.number().int().min(1),
});

/** Section 3 User, as the API shows it (never a password or session). */
export const userSchema = z.object({
  id: uid,
  firstName: z.string(),
  lastName: z.string(),
  mobile: z.string(),
  email: z.string(),
  usertype: userTypeSchema,
  loginType: z.enum(['email', 'phone', 'facebook', 'apple', 'google']).nullable(),
  approved: z.boolean(),
  createdAt: epochMs,
  createdByAdmin: z.boolean(),
  referralId: z.string().nullable(),
  signupViaReferral: uid.nullable(),
  walletBalance: money,
  profile_image: z.string().nullable(),
  pushToken: z.string().nullable(),
  userPlatform: z.string().nullable(),
  fleetadmin: uid.nullable(),
  driverActiveStatus: z.boolean(),
  queue: z.boolean(),
  location: latLng.nullable(),
  carType: z.string().nullable(),
  vehicleMake: z.string().nullable(),
  vehicleModel: z.string().nullable(),
  vehicleNumber: z.string().nullable(),
  other_info: z.string().nullable(),
  licenseImage: z.string().nullable(),
  ratings: ratingsSchema.nullable(),
  bankName: z.string().nullable(),
  bankCode: z.string().nullable(),
  bankAccount: z.string().nullable(),
  savedAddresses: z.array(savedAddressSchema),
  /** Issue 19: the language code push, SMS and mail reach the user in (null: the default language). */
  language: z.string().nullable().optional(),
});
export type User = z.infer<typeof userSchema>;

/** Section 3 Auth info. */
export const authInfoSchema = z.object({
  uid,
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  profile: userSchema,
});
export type AuthInfo = z.infer<typeof authInfoSchema>;
