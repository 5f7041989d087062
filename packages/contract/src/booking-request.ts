import { MAX_NAME_LENGTH, PAYMENT_MODES } from '@rideway/domain';
import { z } from 'zod';

/**
 * Section 3 Booking request, as a client sends it to POST /api/bookings, and the estimate request
 * it starts from. Each field answers section 5's key for any problem of its shape (select_proper,
 * deliveryDetailMissing, payment_mode_invalid), in the order section 5 checks them; the rules that
 * need the clock or the settings (past_booking_error, delivery details in delivery mode) are the
 * server's.
 */

const MAX_ADDRESS_LENGTH = 300;
const MAX_INSTRUCTIONS_LENGTH = 500;

/** A pickup or a drop: coordinates and an address that is not blank. */
const bookingPlace = z.object(
  {
    lat: z.number({ error: 'select_proper' }).min(-90).max(90),
    lng: z.number({ error: 'select_proper' }).min(-180).max(180),
    add: z.string({ error: 'select_proper' }).max(MAX_ADDRESS_LENGTH).trim().min(1),
  },
  { error: 'select_proper' },
);

const carTypeName = z.string({ error: 'select_proper' }).max(MAX_NAME_LENGTH).trim().min(1);

/** A parcel type or option, by its index in the car type's list (delivery mode). */
const choiceIndex = z.number({ error: 'select_proper' }).int().nonnegative().nullish();

const deliveryText = (max: number) => z.string({ error: 'deliveryDetailMissing' }).max(max).optional();

export const estimateRequestSchema = z.object({
  pickup: bookingPlace,
  drop: bookingPlace,
  carType: carTypeName,
  parcelTypeIndex: choiceIndex,
  optionIndex: choiceIndex,
});
export type EstimateRequest = z.output<typeof estimateRequestSchema>;

/** Issue 17: a trip priced for every car type at once (POST /api/estimates/car-types). */
export const carTypeEstimatesRequestSchema = z.object({ pickup: bookingPlace, drop: bookingPlace });
export type CarTypeEstimatesRequest = z.output<typeof carTypeEstimatesRequestSchema>;

// Strict: amounts are never part of a request (ARCHITECTURE.md rule 1), and a client that sends
// one learns it was not taken.
export const bookingRequestSchema = z
  .strictObject({
    pickup: bookingPlace,
    drop: bookingPlace,
    carType: carTypeName,
    /** The rider an admin books for (admin form; required there). */
    customer: z.string({ error: 'select_proper' }).max(128).trim().min(1).optional(),
    bookLater: z.boolean({ error: 'select_proper' }).default(false),
    tripdate: z.number({ error: 'select_proper' }).int().min(1).max(Number.MAX_SAFE_INTEGER).optional().meta({ description: 'Epoch milliseconds; required to book later' }),
    deliveryPerson: deliveryText(MAX_NAME_LENGTH),
    deliveryPersonPhone: deliveryText(40),
    pickUpInstructions: deliveryText(MAX_INSTRUCTIONS_LENGTH),
    deliveryInstructions: deliveryText(MAX_INSTRUCTIONS_LENGTH),
    payment_mode: z.enum(PAYMENT_MODES, { error: 'payment_mode_invalid' }).default('cash'),
    parcelTypeIndex: choiceIndex,
    optionIndex: choiceIndex,
    promo: z.string().max(50, { error: 'promo_not_found' }).optional(),
  })
  .refine((request) => !request.bookLater || request.tripdate !== undefined, { message: 'select_proper', path: ['tripdate'] });
export type BookingRequest = z.infer<typeof bookingRequestSchema>;
