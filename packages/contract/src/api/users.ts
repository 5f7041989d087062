import { z } from 'zod';
import { uid } from '../primitives';

/** The own profile, and the users an admin or fleet admin manages (sections 5 and 6). */

export const profileUpdateSchema = z.object({ firstName: z.string(), lastName: z.string(), email: z.string(), mobile: z.string() }).partial();
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
