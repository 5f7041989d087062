import { MAX_RATING_COMMENT_LENGTH } from '@rideway/domain';
import { z } from 'zod';
import { bookingSchema, bookingStatusSchema } from '../booking';
import { estimateSchema } from '../catalogue';
import { estimateRequestSchema } from '../booking-request';
import { optionalBody } from '../http';
import { money, uid } from '../primitives';

/** Request and response schemas of the bookings routes: estimates, bookings and section 4's steps. */

export const estimateResponse = estimateSchema.extend({
  polylinePoints: z.string(),
  parcelTypeIndex: z.number().int().nonnegative().optional(),
  optionIndex: z.number().int().nonnegative().optional(),
});

export const bookingListResponse = z.object({ bookings: z.array(bookingSchema) });

/**
 * GET /api/bookings filters (issue 17), within the caller's scope: `q` matches the reference or
 * the rider's or driver's name (any part, any case), `status` one status, and `from`/`to` the
 * trip date (epoch ms, both ends included).
 */
export const bookingListQuery = z.object({
  q: z.string().trim().max(100).optional(),
  status: bookingStatusSchema.optional(),
  from: z.coerce.number().int().nonnegative().optional(),
  to: z.coerce.number().int().nonnegative().optional(),
});
export type BookingListQuery = z.output<typeof bookingListQuery>;
/** GET /api/bookings answers at most this many bookings, the newest: a search finds older ones. */
export const BOOKING_LIST_LIMIT = 500;

/**
 * Issue 17, the estimate dialog's Apply: the estimate's input and a promo code, and for an admin
 * the rider it books for. The server prices the trip itself and checks the code against that
 * amount and that rider, as the booking will (promo_not_found, promo_expired, promo_min_order,
 * promo_exhausted, promo_already_used).
 */
export const promoCheckRequestSchema = estimateRequestSchema.extend({
  // A code of the wrong type is bad input (validation_error); a blank or over-long one names no promo.
  promo: z.string().max(50, { error: 'promo_not_found' }).trim().min(1, { error: 'promo_not_found' }),
  customer: z.string({ error: 'select_proper' }).max(128).trim().min(1).optional().meta({ description: 'The rider an admin books for (admin only)' }),
});
export type PromoCheckRequest = z.output<typeof promoCheckRequestSchema>;

/** The code's discount on this estimate and what the rider would pay (customer_paid); nothing is used up. */
export const promoCheckResponse = z.object({
  promo_details: bookingSchema.shape.promo_details.unwrap(),
  estimateFare: money,
  discount: money,
  customer_paid: money,
});
export type PromoCheck = z.infer<typeof promoCheckResponse>;

/** The driver's start: the rider's trip code, when the booking has one (text or a number). */
export const startStepSchema = optionalBody(
  z.object({
    otp: z.union([z.string({ error: 'otp_mismatch' }).max(20), z.number({ error: 'otp_mismatch' }).int()], { error: 'otp_mismatch' }).optional(),
  }),
);
export type StartStep = z.output<typeof startStepSchema>;

/**
 * Whole stars from 1 to 5; none is no rating. A comment (issue 17) goes only with a rating: at
 * most MAX_RATING_COMMENT_LENGTH characters as sent, trimmed; a blank one is none.
 */
export const completeStepSchema = optionalBody(
  z
    .object({
      rating: z.number({ error: 'rating_invalid' }).int().min(1).max(5).nullish(),
      comment: z.string({ error: 'rating_comment_too_long' }).max(MAX_RATING_COMMENT_LENGTH, { error: 'rating_comment_too_long' }).trim().optional(),
    })
    .refine((body) => !body.comment || (body.rating !== undefined && body.rating !== null), { message: 'rating_invalid', path: ['rating'] }),
);
export type CompleteStep = z.output<typeof completeStepSchema>;

export const cancelStepSchema = optionalBody(z.object({ reason: z.string({ error: 'select_proper' }).trim().min(1).max(500) }));
export type CancelStep = z.output<typeof cancelStepSchema>;

/** The driver an admin offers the booking to (autoDispatch off). */
export const assignStepSchema = optionalBody(z.object({ driver: uid }));
export type AssignStep = z.output<typeof assignStepSchema>;

/** A trip photo's largest image, decoded. */
export const MAX_TRIP_PHOTO_BYTES = 3 * 1024 * 1024;

/** The parcel's photo at the pickup or at the drop, as a PNG, JPEG or WebP data URL. */
export const tripPhotoSchema = z.object({
  kind: z.enum(['pickup', 'deliver']),
  image: z.string().max(Math.ceil((MAX_TRIP_PHOTO_BYTES * 4) / 3) + 100).meta({ description: 'A PNG, JPEG or WebP data URL' }),
});
export type TripPhoto = z.output<typeof tripPhotoSchema>;
