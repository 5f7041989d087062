import { BOOK_LATER_MIN_LEAD_MS } from './spec-constants';

/** Section 4: booking statuses. */
export const BOOKING_STATUSES = [
  'PAYMENT_PENDING',
  'NEW',
  'ACCEPTED',
  'ARRIVED',
  'STARTED',
  'REACHED',
  'PENDING',
  'PAID',
  'COMPLETE',
  'CANCELLED',
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** Section 4: active bookings. */
export const ACTIVE_BOOKING_STATUSES = [
  'PAYMENT_PENDING',
  'NEW',
  'ACCEPTED',
  'ARRIVED',
  'STARTED',
  'REACHED',
  'PENDING',
  'PAID',
] as const satisfies readonly BookingStatus[];

/** Section 4: for a driver, the booking in these statuses is tracked live. */
const LIVE_TRACKED_STATUSES = ['ACCEPTED', 'ARRIVED', 'STARTED'] as const satisfies readonly BookingStatus[];

/** Section 4: earnings count only these statuses. */
export const EARNING_STATUSES = ['PAID', 'COMPLETE'] as const satisfies readonly BookingStatus[];

const has = (list: readonly BookingStatus[], status: BookingStatus): boolean => list.includes(status);
export const isActiveStatus = (status: BookingStatus): boolean => has(ACTIVE_BOOKING_STATUSES, status);
export const isLiveTrackedStatus = (status: BookingStatus): boolean => has(LIVE_TRACKED_STATUSES, status);
export const isEarningStatus = (status: BookingStatus): boolean => has(EARNING_STATUSES, status);

export const APP_CATEGORIES = ['taxi', 'delivery'] as const;
export type AppCategory = (typeof APP_CATEGORIES)[number];

/** Section 4 creation: NEW for the taxi category or an admin-made booking, else PAYMENT_PENDING. */
export const initialBookingStatus = (appCategory: AppCategory, madeByAdmin: boolean): BookingStatus =>
  appCategory === 'taxi' || madeByAdmin ? 'NEW' : 'PAYMENT_PENDING';

/** Section 9: a book-later trip date must lie at least 15 minutes ahead. */
export const isBookLaterLeadMet = (tripdate: number, now: number): boolean =>
  tripdate - now >= BOOK_LATER_MIN_LEAD_MS;

export const USER_TYPES = ['rider', 'driver', 'admin', 'fleetadmin'] as const;
export type UserType = (typeof USER_TYPES)[number];
export const isUserType = (value: unknown): value is UserType =>
  typeof value === 'string' && (USER_TYPES as readonly string[]).includes(value);

/** Section 4: cancel is enabled for these statuses (rider and admin). */
const CANCELLABLE_STATUSES = ['NEW', 'ACCEPTED', 'PAYMENT_PENDING'] as const satisfies readonly BookingStatus[];

/** Section 4: cancel in the booking list, only for a rider or an admin in NEW, ACCEPTED or PAYMENT_PENDING. */
export const canShowCancel = (status: BookingStatus, usertype: UserType): boolean =>
  (usertype === 'rider' || usertype === 'admin') && has(CANCELLABLE_STATUSES, status);

/** Section 4: the cancel of a PAYMENT_PENDING booking is sent after a delay with a fixed reason; others ask for a reason. */
export const cancelNeedsReasonDialog = (status: BookingStatus): boolean =>
  status === 'NEW' || status === 'ACCEPTED';

/** Section 4: assign driver, only when NEW, the user is an admin and autoDispatch is off. */
export const canShowAssignDriver = (status: BookingStatus, usertype: UserType, autoDispatch: boolean): boolean =>
  status === 'NEW' && usertype === 'admin' && !autoDispatch;

/** Section 4: pay now, only when PENDING and the user is a rider. */
export const canShowPayNow = (status: BookingStatus, usertype: UserType): boolean =>
  status === 'PENDING' && usertype === 'rider';

/** Section 4: the fixed reason of a PAYMENT_PENDING booking's delayed cancel. */
export const INCOMPLETE_BOOKING_REASON = 'Incomplete booking: payment not completed';
