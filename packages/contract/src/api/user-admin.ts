import { z } from 'zod';
import { bookingStatusSchema } from '../booking';
import { keyedString } from '../http';
import { walletHistoryEntrySchema } from '../money-records';
import { epochMs, money } from '../primitives';
import { userSchema } from '../user';
import { documentProblemSchema, driverDocumentSchema } from './documents';
import { vehicleSchema } from './vehicles';

/** Issue 20 point 6: an admin's (or a fleet admin's, for its own drivers) view of one user, and approval with a reason. */

/** At most this many users answer a search: a search narrows, it does not page. */
export const USER_SEARCH_LIMIT = 100;

/** A reason is at most this long: the user reads it in a push message and a mail. */
export const MAX_APPROVAL_REASON = 500;

/** One of the user's trips, as rider or as driver, newest first. */
export const userTripSchema = z.object({
  id: z.string(),
  /** The booking's reference (section 3 booking_id). */
  booking_id: z.string(),
  /** Whether the user was the rider (customer) or the driver of this trip. */
  role: z.enum(['rider', 'driver']),
  status: bookingStatusSchema,
  tripdate: epochMs,
  carType: z.string(),
  pickupAddress: z.string(),
  dropAddress: z.string(),
  trip_cost: money,
  currency: z.string(),
});
export type UserTrip = z.infer<typeof userTripSchema>;

/** A rating the user received as a driver, with the rider's words. */
export const userRatingSchema = z.object({ bookingId: z.string(), booking_id: z.string(), rate: z.number().int().min(1).max(5), comment: z.string().nullable(), at: epochMs });

/** One approval or suspension: its reason, who decided it (null when that account is gone) and when. */
export const userStatusChangeSchema = z.object({
  approved: z.boolean(),
  reason: z.string().nullable(),
  changedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  at: epochMs,
});
export type UserStatusChange = z.infer<typeof userStatusChangeSchema>;

/**
 * GET /api/users/:id/detail. Each section is the user's newest few; the counts are of all. A
 * driver's vehicles are all of them (at most a handful), the active one marked.
 */
export const userDetailResponse = z.object({
  user: userSchema,
  documents: z.object({ documents: z.array(driverDocumentSchema), problems: z.array(documentProblemSchema) }),
  vehicles: z.array(vehicleSchema),
  /** asRider is null for a fleet admin, who sees only the trips its driver drove. */
  trips: z.object({ asRider: z.number().int().nullable(), asDriver: z.number().int(), recent: z.array(userTripSchema) }),
  wallet: z.object({ walletBalance: money, recent: z.array(walletHistoryEntrySchema) }),
  ratings: z.object({ userrating: z.number().nullable(), count: z.number().int(), recent: z.array(userRatingSchema) }),
  statusHistory: z.array(userStatusChangeSchema),
  /** A fleet admin's two-factor sign-in (null for riders and drivers): an admin may reset it. */
  twoFactor: z.object({ enabled: z.boolean() }).nullable(),
});
export type UserDetail = z.infer<typeof userDetailResponse>;

/**
 * POST /api/users/:id/approval: approve, or suspend with the reason the user reads
 * (suspend_reason_required without one). A reason with an approval is optional.
 */
export const userApprovalRequestSchema = z
  .strictObject({
    approved: z.boolean({ error: 'validation_error' }),
    reason: keyedString('suspend_reason_required', MAX_APPROVAL_REASON).optional(),
  })
  .refine((body) => body.approved || (body.reason ?? '').trim() !== '', { error: 'suspend_reason_required', path: ['reason'] });
export type UserApprovalRequest = z.output<typeof userApprovalRequestSchema>;

/** The user as it is now, and whether this call changed it (a repeat changes nothing and tells nobody). */
export const userApprovalResponse = z.object({ user: userSchema, changed: z.boolean() });
