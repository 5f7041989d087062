import { z } from 'zod';
import { bookingSchema } from '../booking';
import { estimateSchema } from '../catalogue';
import { optionalBody } from '../http';
import { uid } from '../primitives';

/** Request and response schemas of the bookings routes: estimates, bookings and section 4's steps. */

export const estimateResponse = estimateSchema.extend({
  polylinePoints: z.string(),
  parcelTypeIndex: z.number().int().nonnegative().optional(),
  optionIndex: z.number().int().nonnegative().optional(),
});

export const bookingListResponse = z.object({ bookings: z.array(bookingSchema) });

/** The driver's start: the rider's trip code, when the booking has one (text or a number). */
export const startStepSchema = optionalBody(
  z.object({
    otp: z.union([z.string({ error: 'otp_mismatch' }).max(20), z.number({ error: 'otp_mismatch' }).int()], { error: 'otp_mismatch' }).optional(),
  }),
);
export type StartStep = z.output<typeof startStepSchema>;

/** Whole stars from 1 to 5; none is no rating. */
export const completeStepSchema = optionalBody(z.object({ rating: z.number({ error: 'rating_invalid' }).int().min(1).max(5).nullish() }));
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
