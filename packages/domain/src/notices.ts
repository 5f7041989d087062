/** Section 2: the screens a push message can open; all but DriverTrips take a bookingId param. */
export const PUSH_SCREENS = ['BookingCab', 'BookedCab', 'wallet', 'onlineChat', 'DriverTrips'] as const;
export type PushScreen = (typeof PUSH_SCREENS)[number];

/** The notices section 4 names, by the message key that carries their text. */
export const NOTICE_KEYS = [
  'notice_driver_accepted',
  'notice_driver_near',
  'notice_trip_started',
  'notice_trip_completed',
  'notice_payment_received',
  'notice_booking_cancelled',
  'notice_rating_received',
  'notice_trip_assigned',
] as const;
export type NoticeKey = (typeof NOTICE_KEYS)[number];

export type NoticeRecipient = 'customer' | 'driver';

/** A notice a state change sends: who gets it, its text key and the screen it opens. */
export type Notice = { to: NoticeRecipient; key: NoticeKey; screen: PushScreen };
