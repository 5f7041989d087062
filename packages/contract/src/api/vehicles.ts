import { DOCUMENT_STATUSES, MAX_NAME_LENGTH } from '@rideway/domain';
import { z } from 'zod';
import { keyedString } from '../http';
import { epochMs } from '../primitives';
import { MAX_DOCUMENT_BYTES } from './documents';

/** Issue 20 point 3: a driver's vehicles, one active at a time, each reviewed by an admin or the driver's fleet admin. */

const MAX_VEHICLE_DATA_URL = Math.ceil((MAX_DOCUMENT_BYTES * 4) / 3) + 100;

export const vehicleStatusSchema = z.enum(DOCUMENT_STATUSES);

export const vehicleSchema = z.object({
  id: z.string(),
  uid: z.string(),
  carType: z.string(),
  vehicleMake: z.string().nullable(),
  vehicleModel: z.string().nullable(),
  vehicleNumber: z.string().nullable(),
  /** Where the photo is served (/api/files/documents/…): only to the driver, its fleet admin and admins. None for a vehicle from a sign-up form. */
  image: z.string().nullable(),
  status: vehicleStatusSchema,
  reason: z.string().nullable(),
  reviewedBy: z.string().nullable(),
  reviewedAt: epochMs.nullable(),
  /** The car the driver drives now: its car type is the one dispatch matches. */
  active: z.boolean(),
  createdAt: epochMs,
});
export type Vehicle = z.infer<typeof vehicleSchema>;

const vehicleText = (max: number) => keyedString('vehicle_details_required', max).trim().min(1, { error: 'vehicle_details_required' });

/** POST /api/driver/vehicles: a vehicle to review, with its photo (a PNG, JPEG or WebP data URL). */
export const vehicleAddSchema = z.object({
  carType: keyedString('select_proper', MAX_NAME_LENGTH).trim().min(1, { error: 'select_proper' }),
  vehicleMake: vehicleText(MAX_NAME_LENGTH),
  vehicleModel: vehicleText(MAX_NAME_LENGTH),
  vehicleNumber: vehicleText(30),
  image: keyedString('proper_document_image', MAX_VEHICLE_DATA_URL),
});
export type VehicleAdd = z.infer<typeof vehicleAddSchema>;

export const vehicleResponse = z.object({ vehicle: vehicleSchema });
/** GET /api/driver/vehicles and a user's vehicles on the admin's user page. */
export const vehicleListResponse = z.object({ vehicles: z.array(vehicleSchema) });
export type VehicleList = z.infer<typeof vehicleListResponse>;

/** GET /api/vehicles: what an admin (all drivers) or a fleet admin (its own) reviews. */
export const vehicleReviewQuery = z.object({ status: vehicleStatusSchema.optional() });
export const reviewVehicleSchema = vehicleSchema.extend({ driverName: z.string(), driverEmail: z.string().nullable() });
export type ReviewVehicle = z.infer<typeof reviewVehicleSchema>;
export const vehicleReviewListResponse = z.object({ vehicles: z.array(reviewVehicleSchema) });

/** POST /api/vehicles/:id/reject: the reason the driver reads. */
export const vehicleRejectSchema = z.object({ reason: keyedString('no_details_error', 500).refine((value) => value.trim() !== '', { error: 'no_details_error' }) });
