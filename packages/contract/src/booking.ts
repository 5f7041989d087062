import { BOOKING_STATUSES, PAYMENT_MODES } from '@rideway/domain';
import { z } from 'zod';
import { epochMs, latLng, money, place, pricedChoice, uid } from './primitives';

export const bookingStatusSchema = z.enum(BOOKING_STATUSES);
const paymentModeSchema = z.enum(PAYMENT_MODES);

/**
 * Section 3 Payment packet: the card payment a rider owes. Its amounts are the booking's
 * customer_paid, which already holds any promo discount, so the discount, wallet and cash parts
 * are 0 and no promo is named (section 3).
 */
export const paymentPacketSchema = z.object({
  appcat: z.enum(['taxi', 'delivery']),
  payment_mode: z.literal('card'),
  customer_paid: money,
  discount_amount: z.literal(0),
  usedWalletMoney: z.literal(0),
  cardPaymentAmount: money,
  cashPaymentAmount: z.literal(0),
  payableAmount: money,
  promo_applied: z.literal(false),
  promo_details: z.null(),
});
export type PaymentPacket = z.infer<typeof paymentPacketSchema>;

const promoAppliedSchema = z.object({ promo_name: z.string(), promo_discount_type: z.enum(['flat', 'percentage']), promo_discount_value: money });

/**
 * Issue 17: how the booking's fare is made up, so estimate and charge can be told apart. The parts
 * of the fare the booking holds now (the estimate's until REACHED, then the route driven's):
 * base_fare + distance_fare + time_fare + extras + min_fare_top_up - fare_cap_reduction is
 * trip_cost minus convenience_fees. Null for bookings made before it was recorded.
 */
export const fareBreakdownSchema = z.object({
  base_fare: money,
  distance_fare: money,
  time_fare: money,
  /** The parcel type's and option's amounts (delivery). */
  extras: money,
  /** What min_fare added when the trip cost less. */
  min_fare_top_up: money,
  /** What the fare cap took off (decisions.md, fare integrity); 0 when not capped. */
  fare_cap_reduction: money,
});
export type FareBreakdown = z.infer<typeof fareBreakdownSchema>;

/** Section 3 Booking, as the API shows it. Optional fields appear once the trip reaches them. */
export const bookingSchema = z.object({
  id: z.string(),
  booking_id: z.string(),
  carType: z.string(),
  carImage: z.string().nullable(),
  customer: uid,
  customer_email: z.string(),
  customer_name: z.string(),
  customer_contact: z.string(),
  customer_token: z.string().nullable(),
  customer_image: z.string().nullable(),
  pickup: place,
  drop: place,
  pickupAddress: z.string(),
  dropAddress: z.string(),
  estimate: money,
  estimateDistance: z.number().nonnegative(),
  distance: z.number().nonnegative(),
  estimateTime: z.number().nonnegative(),
  status: bookingStatusSchema,
  bookLater: z.boolean(),
  tripdate: epochMs,
  bookingDate: epochMs,
  otp: z.union([z.literal(false), z.number().int().min(10000).max(99999)]),
  booking_type_admin: z.boolean(),
  coords: z.array(latLng),
  trip_cost: money,
  convenience_fees: money,
  driver_share: money,
  /** The currency code the booking was made in (issue 17): its amounts stay in it whatever the settings say later. */
  currency: z.string(),
  discount: money,
  discount_amount: money,
  /** While the rider owes a payment through a provider (PAYMENT_PENDING, PENDING); null otherwise. */
  paymentPacket: paymentPacketSchema.nullable(),
  driver: uid.nullable(),
  driver_name: z.string().nullable(),
  driver_image: z.string().nullable(),
  driver_contact: z.string().nullable(),
  driver_token: z.string().nullable(),
  vehicle_number: z.string().nullable(),
  /** The accepting driver's car (issue 17), beside its plate. */
  vehicleMake: z.string().nullable(),
  vehicleModel: z.string().nullable(),
  driverRating: z.number().min(0).max(5).nullable(),
  fleetadmin: uid.nullable(),
  driver_arrive_time: epochMs.nullable(),
  trip_start_time: epochMs.nullable(),
  startTime: epochMs.nullable(),
  trip_end_time: epochMs.nullable(),
  endTime: epochMs.nullable(),
  total_trip_time: z.number().int().nonnegative().nullable(),
  reason: z.string().nullable(),
  // Null listed among the values: OpenAPI 3.0 admits null in an enum only when the enum names it.
  cancelledBy: z.literal(['rider', 'admin', 'system', null]),
  rating: z.number().int().min(1).max(5).nullable(),
  /** The rider's comment with the rating (issue 17): only the rider and admins see it. */
  rating_comment: z.string().optional(),
  fare_breakdown: fareBreakdownSchema.nullable(),
  cashPaymentAmount: money,
  cardPaymentAmount: money,
  usedWalletMoney: money,
  payableAmount: money,
  customer_paid: money,
  prepaid: z.boolean(),
  payment_mode: paymentModeSchema,
  gateway: z.string().nullable(),
  promo_applied: z.boolean(),
  promo_details: promoAppliedSchema.nullable(),
  pickup_image: z.string().nullable(),
  deliver_image: z.string().nullable(),
  requestedDrivers: z.record(z.string(), z.literal(true)),
  /** What a cancel charged the rider (docs/decisions.md, cancellation charge); 0 otherwise. */
  cancellationCharge: money,
  /** What a cancel gave back of the money paid ahead (decisions.md, refund on cancel); absent when nothing was. */
  refundAmount: money.optional(),
  /** Fare integrity (decisions.md): true when the fare driven went past the estimate's bound and was capped. */
  fareCapped: z.boolean(),
  /** The fare the route driven gave before the cap, when capped; null otherwise. */
  uncappedFare: money.nullable(),
  /** Issue 17: how many rounds of offers the driver search has made (0: not started); names no driver. */
  search_round: z.number().int().nonnegative().optional(),
  /** Issue 17: the booking a no-taker booking was retried as (its rider and admins see it); null otherwise. */
  retried_as: z.string().nullable().optional(),
  deliveryPerson: z.string().optional(),
  deliveryPersonPhone: z.string().optional(),
  pickUpInstructions: z.string().optional(),
  deliveryInstructions: z.string().optional(),
  parcelTypeIndex: z.number().int().nonnegative().optional(),
  optionIndex: z.number().int().nonnegative().optional(),
  parcelTypeSelected: pricedChoice.optional(),
  optionSelected: pricedChoice.optional(),
});
export type Booking = z.infer<typeof bookingSchema>;

/** Section 3 Tracking entry. */
export const trackingEntrySchema = z.object({
  id: z.string(),
  at: epochMs,
  status: bookingStatusSchema,
  lat: z.number(),
  lng: z.number(),
});
export type TrackingEntry = z.infer<typeof trackingEntrySchema>;

/** Section 3 Chat message; msgDate and msgTime are UTC, createdAt the instant. */
export const chatMessageSchema = z.object({
  smsId: z.string(),
  message: z.string().min(1).max(2000),
  from: uid,
  type: z.literal('msg'),
  msgDate: z.string(),
  msgTime: z.string(),
  source: z.enum(['customer', 'driver']),
  createdAt: epochMs,
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;
