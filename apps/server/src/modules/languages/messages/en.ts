import { ERROR_CATALOGUE, type Messages } from '@rideway/contract';

const errors = Object.fromEntries(Object.entries(ERROR_CATALOGUE).map(([key, entry]) => [key, entry.message])) as {
  [K in keyof typeof ERROR_CATALOGUE]: string;
};

export const en: Messages = {
  ...errors,
  notice_driver_accepted: 'Your driver is on the way.',
  notice_driver_near: 'Your driver has arrived at the pickup.',
  notice_trip_started: 'Your trip has started.',
  notice_trip_completed: 'You have reached your destination.',
  notice_payment_received: 'Payment received. Thank you!',
  notice_booking_cancelled: 'The booking was cancelled.',
  notice_rating_received: 'You received a new rating.',
  notice_trip_assigned: 'A new trip was assigned to you.',
  account_create_successfully: 'Your account was created. Please sign in.',
  profile_updated: 'Profile updated.',
  login_success: 'Signed in. Complete your profile to continue.',
  booking_success: 'Booking confirmed. Your booking id is',
  driver_assigned: 'Driver assigned successfully and notified.',
  updated: 'Updated.',
  reset_pass_msg: 'If an account uses this email, a reset link is on its way.',
  success: 'Success',
  no_bookings: 'No bookings yet.',
  no_cancel_reasons: 'No cancellation reasons.',
  no_cars: 'No car types available.',
  settings_error: 'The settings could not be loaded.',
  no_tasks: 'No tasks right now.',
  chat_not_found: 'No messages yet.',
  no_data_available: 'No data available.',
  no_promos_available: 'No promos available.',
  no_users_available: 'No users available.',
  no_withdraws_available: 'No WITHDRAWS available.',
  no_provider_found: 'No payment provider found.',
  provider_fetch_error: 'The payment providers could not be loaded.',
  language_fetch_failed: 'Language fetch failed',
  fetch_call_error: 'Fetch Call Error',
  unable_to_get_user_token: 'Unable to get user token',
  base_settings_error_1: 'Base Settings Error 1',
  base_settings_error_2: 'Base Settings Error 2',
  hidden_for_demo: 'Hidden for Demo',
  hidden: 'Hidden',
};
