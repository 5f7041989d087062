import { NOTIFICATION_DEVICE_TYPES, NOTIFICATION_USER_TYPES } from '@rideway/domain';
import { z } from 'zod';
import { epochMs, money, nonNegativeMoney, pricedChoice } from './primitives';

export const cancelSlabSchema = z.object({ minsDelayed: z.number().int().nonnegative(), amount: nonNegativeMoney });

/** Section 3 Car type. */
export const carTypeSchema = z.object({
  id: z.string(),
  name: z.string().min(1).max(100),
  image: z.string().max(2000),
  base_fare: nonNegativeMoney,
  rate_per_unit_distance: nonNegativeMoney,
  rate_per_hour: nonNegativeMoney,
  min_fare: nonNegativeMoney,
  convenience_fees: nonNegativeMoney,
  convenience_fee_type: z.enum(['flat', 'percentage']),
  extra_info: z.string().max(1000),
  createdAt: epochMs,
  parcelTypes: z.array(pricedChoice),
  options: z.array(pricedChoice),
  cancelSlab: z.array(cancelSlabSchema),
});
export type CarType = z.infer<typeof carTypeSchema>;

/** Section 3 Promo; user_avail is read-only. */
export const promoSchema = z.object({
  id: z.string(),
  promo_name: z.string().min(1).max(50),
  promo_description: z.string().max(500),
  promo_discount_type: z.enum(['flat', 'percentage']),
  promo_discount_value: nonNegativeMoney,
  max_promo_discount_value: nonNegativeMoney,
  min_order: nonNegativeMoney,
  promo_validity: epochMs,
  promo_usage_limit: z.number().int().nonnegative(),
  user_avail: z.number().int().nonnegative(),
  createdAt: epochMs,
});
export type Promo = z.infer<typeof promoSchema>;

/** Section 3 Notification. */
export const notificationSchema = z.object({
  id: z.string(),
  devicetype: z.enum(NOTIFICATION_DEVICE_TYPES),
  usertype: z.enum(NOTIFICATION_USER_TYPES),
  title: z.string().min(1).max(100),
  body: z.string().min(1).max(1000),
  createdAt: epochMs,
});
export type Notification = z.infer<typeof notificationSchema>;

/** Section 3 Cancel reason: a label and its index. */
export const cancelReasonSchema = z.object({ id: z.string(), label: z.string().min(1).max(200), value: z.number().int().nonnegative() });
export type CancelReason = z.infer<typeof cancelReasonSchema>;

/** Section 3 Estimate and route details. */
export const estimateSchema = z.object({
  estimateFare: money,
  totalCost: money,
  convenience_fees: money,
  grandTotal: money,
  distance: z.number().nonnegative(),
  duration: z.number().nonnegative(),
  approximate: z.boolean(),
});
export type Estimate = z.infer<typeof estimateSchema>;

/** Issue 17: one car type's price for a trip; the route (distance, duration) is the same for each. */
export const carTypeEstimateSchema = z.object({ carType: z.string(), estimateFare: money, convenience_fees: money });
export const carTypeEstimatesResponse = z.object({
  distance: z.number().nonnegative(),
  duration: z.number().nonnegative(),
  approximate: z.boolean(),
  /** Every car type that can price this trip, in the car types' order. */
  estimates: z.array(carTypeEstimateSchema),
});
export type CarTypeEstimates = z.infer<typeof carTypeEstimatesResponse>;

export const routeDetailsSchema = z.object({
  distance: z.number().nonnegative().meta({ description: 'km' }),
  duration: z.number().nonnegative().meta({ description: 'seconds' }),
  polylinePoints: z.string(),
});
