import { z } from 'zod';
import { bookingSchema } from '../booking';
import { epochMs } from '../primitives';

/** Request and response schemas of dispatch: the trips offered to a driver, a decline, and the rider's ETA. */

/** A road leg as a client sees it: distance in the settings' unit (km, or miles when convert_to_mile), duration in seconds. */
export const roadLegSchema = z.object({ distance: z.number().nonnegative(), duration: z.number().int().nonnegative() });

/**
 * What an offer tells the driver it is made to, and no one else (issue 17): its own leg to the
 * pickup (null when the maps provider could not say) and when the offer times out (null when no
 * round timeout applies: an admin's assignment).
 */
export const offerFieldsSchema = z.object({ pickupLeg: roadLegSchema.nullable(), offerExpiresAt: epochMs.nullable() });

/** A trip offered to the signed-in driver. */
export const driverOfferSchema = bookingSchema.extend(offerFieldsSchema.shape);
export type DriverOffer = z.infer<typeof driverOfferSchema>;

export const driverTasksResponse = z.object({ tasks: z.array(driverOfferSchema) });

/** POST /api/bookings/:id/decline: the booking the driver declined (the same answer for a replay). */
export const declineResponse = z.object({ bookingId: z.string() });

/** GET /api/bookings/:id/eta: the driver's road distance and time to the pickup (or, once STARTED, to the drop). */
export const etaResponse = z.object({
  target: z.enum(['pickup', 'drop']),
  distance: z.number().nonnegative(),
  duration: z.number().int().nonnegative(),
  /** True when estimated without a road network (the offline maps adapter). */
  approximate: z.boolean(),
  /** When it was computed: it is reused while the driver moved little (issue 16). */
  at: epochMs,
});
export type Eta = z.infer<typeof etaResponse>;
