import { z } from 'zod';
import { liveDriverSchema } from '../live';
import { epochMs, latLng } from '../primitives';

/** Driver presence: positions, online status and the live map (section 6 availability). */

/** POST /api/driver/location: the driver's position. */
export const driverLocationSchema = latLng;
export type DriverLocation = z.output<typeof driverLocationSchema>;
/** When the position was taken, and whether the driver is on the live map. */
export const driverLocationResponse = z.object({ at: epochMs, online: z.boolean() });

/** PATCH /api/driver/status: online or offline. */
export const driverStatusSchema = z.object({ driverActiveStatus: z.boolean() });
export type DriverStatus = z.output<typeof driverStatusSchema>;
export const driverStatusResponse = driverStatusSchema;

export const liveDriversResponse = z.object({ drivers: z.array(liveDriverSchema) });
