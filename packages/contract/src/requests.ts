import { NOTIFICATION_DEVICE_TYPES, NOTIFICATION_USER_TYPES } from '@rideway/domain';
import { z } from 'zod';
import { cancelSlabSchema, carTypeSchema, promoSchema } from './catalogue';
import { money, pricedChoice, uid } from './primitives';

/**
 * Request bodies. The car type, promo and cancel reason bodies are what the server validates
 * with; the others describe the API (the server checks them with the domain's section 5
 * validators, which answer the spec's keys).
 */

export const registerRequestSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  mobile: z.string().meta({ description: 'Digits only, at least 6; the dial code is chosen apart' }),
  password: z.string(),
  usertype: z.enum(['rider', 'driver']).optional(),
  referralId: z.string().optional(),
  carType: z.string().optional().meta({ description: 'Drivers: the name of a car type' }),
  vehicleNumber: z.string().optional(),
  vehicleMake: z.string().optional(),
  vehicleModel: z.string().optional(),
  licenseImage: z.string().optional().meta({ description: 'Drivers: the licence image as a PNG, JPEG or WebP data URL' }),
});

export const loginRequestSchema = z.object({ email: z.string(), password: z.string() });
export const otpRequestSchema = z.object({ mobile: z.string() });
export const otpVerifySchema = z.object({ verificationId: z.string(), otp: z.string().meta({ description: '6 digits' }) });
export const passwordResetRequestSchema = z.object({ email: z.string() });
export const passwordResetConfirmSchema = z.object({ token: z.string(), password: z.string() });
export const profileUpdateSchema = z.object({ firstName: z.string(), lastName: z.string(), email: z.string(), mobile: z.string() }).partial();
export const walletCreditSchema = z.object({ uid, amount: money });
export const withdrawRequestSchema = z.object({ amount: money, bankName: z.string().optional(), bankCode: z.string().optional(), bankAccount: z.string().optional() });
export const notificationDraftSchema = z.object({
  usertype: z.enum(NOTIFICATION_USER_TYPES),
  devicetype: z.enum(NOTIFICATION_DEVICE_TYPES),
  title: z.string(),
  body: z.string(),
});
const vehicleFields = {
  carType: z.string().trim().min(1).max(100).optional(),
  vehicleNumber: z.string().trim().max(30).optional(),
  vehicleMake: z.string().trim().max(60).optional(),
  vehicleModel: z.string().trim().max(60).optional(),
  other_info: z.string().max(1000).optional(),
};

/** POST /api/users. Names, email and mobile are checked first by the section 5 validators. */
export const addUserRequestSchema = z.strictObject({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  mobile: z.string(),
  usertype: z.enum(['rider', 'driver', 'fleetadmin']),
  password: z.string().optional(),
  fleetadmin: uid.nullable().optional(),
  ...vehicleFields,
});

/** PATCH /api/users/:id; approval and fleet are an admin's to change. */
export const editUserRequestSchema = z.strictObject({
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  email: z.string().optional(),
  mobile: z.string().optional(),
  approved: z.boolean().optional(),
  fleetadmin: uid.nullable().optional(),
  bankName: z.string().max(100).optional(),
  bankCode: z.string().max(50).optional(),
  bankAccount: z.string().max(50).optional(),
  ...vehicleFields,
});

const carTypeFields = {
  name: carTypeSchema.shape.name.trim(),
  image: z.string().max(3_000_000).meta({ description: 'A URL, or a PNG, JPEG or WebP data URL to upload' }),
  base_fare: carTypeSchema.shape.base_fare,
  rate_per_unit_distance: carTypeSchema.shape.rate_per_unit_distance,
  rate_per_hour: carTypeSchema.shape.rate_per_hour,
  min_fare: carTypeSchema.shape.min_fare,
  convenience_fees: carTypeSchema.shape.convenience_fees,
  convenience_fee_type: carTypeSchema.shape.convenience_fee_type,
  extra_info: carTypeSchema.shape.extra_info,
  parcelTypes: z.array(pricedChoice).max(50),
  options: z.array(pricedChoice).max(50),
  cancelSlab: z.array(cancelSlabSchema).max(50),
};
export const carTypeCreateSchema = z.strictObject({
  ...carTypeFields,
  image: carTypeFields.image.default(''),
  extra_info: carTypeFields.extra_info.default(''),
  parcelTypes: carTypeFields.parcelTypes.default([]),
  options: carTypeFields.options.default([]),
  cancelSlab: carTypeFields.cancelSlab.default([]),
});
export const carTypeUpdateSchema = z.strictObject(carTypeFields).partial();

// user_avail is counted by the server and read-only: a body carrying it is refused.
const promoFields = {
  promo_name: promoSchema.shape.promo_name.trim().toUpperCase(),
  promo_description: promoSchema.shape.promo_description,
  promo_discount_type: promoSchema.shape.promo_discount_type,
  promo_discount_value: promoSchema.shape.promo_discount_value,
  max_promo_discount_value: promoSchema.shape.max_promo_discount_value,
  min_order: promoSchema.shape.min_order,
  promo_validity: promoSchema.shape.promo_validity,
  promo_usage_limit: promoSchema.shape.promo_usage_limit.max(1_000_000_000),
};
export const promoCreateSchema = z.strictObject({
  ...promoFields,
  promo_description: promoFields.promo_description.default(''),
  max_promo_discount_value: promoFields.max_promo_discount_value.default(0),
  min_order: promoFields.min_order.default(0),
});
export const promoUpdateSchema = z.strictObject(promoFields).partial();

export const cancelReasonInputSchema = z.strictObject({ label: z.string().trim().min(1).max(200) });
