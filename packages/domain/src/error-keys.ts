/**
 * Every error key the product answers with. The first group is spec section 8 word for word
 * (section 5 quotes 'no user match', 'must login' and the others with spaces; their keys use
 * underscores). The second group covers rules the spec states without naming a key; each is
 * recorded in docs/decisions.md.
 */
export const SPEC_ERROR_KEYS = [
  'login_error',
  'require_approval',
  'email_verify_message',
  'not_logged_in',
  'login_validate_error',
  'otp_validate_error',
  'user_does_not_exists',
  'proper_email',
  'proper_input_name',
  'password_alphaNumeric_check',
  'password_blank_messege',
  'password_complexity_check',
  'mobile_no_blank_error',
  'user_exists',
  'email_or_mobile_issue',
  'referer_not_found',
  'reg_error',
  'proper_bonus',
  'update_failed',
  'demo_mode',
  'must_login',
  'user_issue_contact_admin',
  'select_proper',
  'past_booking_error',
  'place_to_coords_error',
  'no_driver_found_alert_messege',
  'deliveryDetailMissing',
  'google_places_error',
  'no_details_error',
  'allow_location',
  'not_valid_user_type',
  'no_user_match',
  'no_route_found',
  'wrong_code',
  'location_fetch_error',
] as const;

const ADDED_ERROR_KEYS = [
  'validation_error',
  'not_found',
  'forbidden',
  'invalid_transition',
  'book_later_too_far',
  'book_later_limit',
  'wallet_payment_needs_rider',
  'otp_mismatch',
  'photo_required',
  'rating_invalid',
  'rating_comment_too_long',
  'payment_mode_invalid',
  'insufficient_balance',
  'withdraw_already_decided',
  'amount_mismatch',
  'proper_driver_radius',
  'field_not_editable',
  'notification_blank',
  'promo_not_found',
  'promo_expired',
  'promo_min_order',
  'promo_exhausted',
  'promo_already_used',
  'driver_busy',
  'driver_car_type_mismatch',
  'auto_dispatch_on',
  'too_many_requests',
  'idempotency_key_reused',
  'idempotency_key_in_use',
  'payment_provider_unavailable',
  'payment_provider_error',
  'topup_limit_reached',
  'topup_amount_exceeded',
  'refund_exceeds_paid',
  'proper_service_area',
  'outside_service_area',
  'proper_timezone',
  'proper_place_name',
  'saved_place_label_taken',
  'saved_places_full',
  'internal_error',
] as const;

export const ERROR_KEYS = [...SPEC_ERROR_KEYS, ...ADDED_ERROR_KEYS] as const;
export type ErrorKey = (typeof ERROR_KEYS)[number];

const ERROR_KEY_SET: ReadonlySet<string> = new Set(ERROR_KEYS);
export const isErrorKey = (value: unknown): value is ErrorKey =>
  typeof value === 'string' && ERROR_KEY_SET.has(value);
