import { ERROR_KEYS, NOTICE_KEYS } from '@rideway/domain';

/** Section 8's success messages. */
export const SUCCESS_KEYS = [
  'account_create_successfully',
  'profile_updated',
  'login_success',
  'booking_success',
  'driver_assigned',
  'updated',
  'reset_pass_msg',
  'success',
] as const;

/** Section 8's language messages for empty lists and failed fetches. */
export const INFO_KEYS = [
  'no_bookings',
  'no_cancel_reasons',
  'no_cars',
  'settings_error',
  'no_tasks',
  'chat_not_found',
  'no_data_available',
  'no_promos_available',
  'no_users_available',
  'no_withdraws_available',
  'no_provider_found',
  'provider_fetch_error',
  'language_fetch_failed',
  'fetch_call_error',
  'unable_to_get_user_token',
  'base_settings_error_1',
  'base_settings_error_2',
  'hidden_for_demo',
  'hidden',
] as const;

/** Every message key of the spec: errors, notices, successes and information. */
export const MESSAGE_KEYS = [...ERROR_KEYS, ...NOTICE_KEYS, ...SUCCESS_KEYS, ...INFO_KEYS] as const;
export type MessageKey = (typeof MESSAGE_KEYS)[number];
export type Messages = Record<MessageKey, string>;
