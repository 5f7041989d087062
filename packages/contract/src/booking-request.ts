import { z } from 'zod';
import { epochMs, place, uid } from './primitives';

/**
 * Section 3 Booking request, as a client sends it to POST /api/bookings. Amounts are never part
 * of it: the server computes every amount itself (ARCHITECTURE.md rule 1). Unknown fields are
 * refused.
 */
export const bookingRequestSchema = z.strictObject({
  pickup: place,
  drop: place,
  carType: z.string().min(1).max(100),
  bookLater: z.boolean().default(false),
  tripdate: epochMs.optional(),
  payment_mode: z.enum(['cash', 'wallet', 'card']).default('cash'),
  promo: z.string().max(50).optional(),
  customer: uid.optional(),
  parcelTypeIndex: z.number().int().nonnegative().optional(),
  optionIndex: z.number().int().nonnegative().optional(),
  deliveryPerson: z.string().max(100).optional(),
  deliveryPersonPhone: z.string().max(40).optional(),
  pickUpInstructions: z.string().max(500).optional(),
  deliveryInstructions: z.string().max(500).optional(),
});
export type BookingRequest = z.infer<typeof bookingRequestSchema>;
