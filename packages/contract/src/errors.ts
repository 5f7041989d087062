import type { ErrorKey } from '@rideway/domain';
import { z } from 'zod';
import { ERROR_KEYS } from '@rideway/domain';

/** An entry of the error catalogue: the HTTP status it is answered with and its English text. */
type ErrorEntry = { status: number; message: string };

/**
 * Section 8's error catalogue, one entry per key. The web shows the translated key; `message`
 * is the English text for other clients and logs. Every bad-input key is a 4xx; only the two
 * server faults are 5xx.
 */
export const ERROR_CATALOGUE = {
  login_error: { status: 401, message: 'Sign-in failed. Check your details and try again.' },
  require_approval: { status: 403, message: 'Your account is waiting for approval.' },
  email_verify_message: { status: 403, message: 'Please verify your email address. We have sent you a verification link.' },
  not_logged_in: { status: 401, message: 'You are not signed in.' },
  login_validate_error: { status: 400, message: 'Enter a valid email address and your password.' },
  otp_validate_error: { status: 400, message: 'Enter the 6-digit code.' },
  user_does_not_exists: { status: 404, message: 'No account uses this number.' },
  proper_email: { status: 400, message: 'Enter a valid email address.' },
  proper_input_name: { status: 400, message: 'Enter a proper name.' },
  password_alphaNumeric_check: { status: 400, message: 'The password needs 6 to 30 characters: letters, digits, @, * or #.' },
  password_blank_messege: { status: 400, message: 'Enter a password.' },
  password_complexity_check: {
    status: 400,
    message: 'The password needs 8 to 30 characters with a digit, a lowercase letter, an uppercase letter and a special character, and no spaces.',
  },
  mobile_no_blank_error: { status: 400, message: 'Enter a mobile number of at least 6 digits, without +, spaces or dashes.' },
  user_exists: { status: 409, message: 'An account with this email or mobile number already exists.' },
  email_or_mobile_issue: { status: 400, message: 'The email or mobile number could not be checked.' },
  referer_not_found: { status: 400, message: 'No user has this referral id.' },
  reg_error: { status: 500, message: 'Registration failed. Please try again.' },
  proper_bonus: { status: 400, message: 'Enter a referral bonus of 0 or more.' },
  update_failed: { status: 400, message: 'The update failed.' },
  demo_mode: { status: 403, message: 'This change is not allowed in demo mode.' },
  must_login: { status: 401, message: 'Please sign in to book.' },
  user_issue_contact_admin: { status: 403, message: 'Only riders can book here. Please contact the admin.' },
  select_proper: { status: 400, message: 'Please fill in every required choice.' },
  past_booking_error: { status: 400, message: 'A later booking must be at least 15 minutes from now.' },
  place_to_coords_error: { status: 422, message: 'The place could not be located.' },
  no_driver_found_alert_messege: { status: 409, message: 'No driver is available near the pickup right now.' },
  deliveryDetailMissing: { status: 400, message: "Enter the recipient's name and a valid phone number." },
  google_places_error: { status: 422, message: 'The place search failed.' },
  no_details_error: { status: 400, message: 'Choose a user and enter an amount above 0.' },
  allow_location: { status: 400, message: 'Allow location access to see the map around you.' },
  not_valid_user_type: { status: 403, message: 'This account type cannot sign in here.' },
  no_user_match: { status: 422, message: 'No user matches this audience.' },
  no_route_found: { status: 422, message: 'No Route Found' },
  wrong_code: { status: 400, message: 'wrong code' },
  location_fetch_error: { status: 404, message: 'The location could not be fetched.' },
  validation_error: { status: 400, message: 'The request is not valid.' },
  not_found: { status: 404, message: 'Not found.' },
  forbidden: { status: 403, message: 'You are not allowed to do this.' },
  invalid_transition: { status: 409, message: 'The booking is not in a state that allows this.' },
  book_later_too_far: { status: 400, message: 'A later booking can be at most 30 days from now.' },
  book_later_limit: { status: 409, message: 'You already have the most open later bookings allowed. Cancel one or wait until it is done.' },
  wallet_payment_needs_rider: { status: 409, message: 'The fare is above the booked estimate: the rider pays it from the wallet.' },
  otp_mismatch: { status: 400, message: "The code does not match the rider's trip code." },
  photo_required: { status: 409, message: 'Take a photo of the parcel first.' },
  rating_invalid: { status: 400, message: 'A rating is a whole number of stars from 1 to 5.' },
  rating_comment_too_long: { status: 400, message: 'A comment is at most 500 characters.' },
  payment_mode_invalid: { status: 400, message: 'This payment method cannot be used here.' },
  insufficient_balance: { status: 409, message: 'The wallet balance is too low.' },
  withdraw_already_decided: { status: 409, message: 'This withdraw request has already been processed or rejected.' },
  amount_mismatch: { status: 400, message: 'The amount does not match the booking.' },
  proper_driver_radius: { status: 400, message: 'Enter a driver radius of 0 or more.' },
  field_not_editable: { status: 403, message: 'This field cannot be changed.' },
  notification_blank: { status: 400, message: 'Enter a title and a message.' },
  promo_not_found: { status: 404, message: 'This promo code does not exist.' },
  promo_expired: { status: 400, message: 'This promo has expired.' },
  promo_min_order: { status: 400, message: 'The trip is below the minimum order for this promo.' },
  promo_exhausted: { status: 400, message: 'This promo has been used up.' },
  promo_already_used: { status: 400, message: 'You have already used this promo.' },
  driver_busy: { status: 409, message: 'The driver is on another trip.' },
  driver_car_type_mismatch: { status: 400, message: "The driver's car type differs from the booking's." },
  auto_dispatch_on: { status: 409, message: 'Drivers are assigned automatically while auto dispatch is on.' },
  too_many_requests: { status: 429, message: 'Too many attempts. Please wait and try again.' },
  idempotency_key_reused: { status: 422, message: 'This Idempotency-Key was already used for a different request. Use a new key for a new request.' },
  idempotency_key_in_use: { status: 409, message: 'A request with this Idempotency-Key is still being processed. Check its result before trying again.' },
  payment_provider_unavailable: { status: 409, message: 'Card payments are not available right now. Please choose cash or wallet.' },
  service_unavailable: { status: 503, message: 'The service is busy or one of its parts is unavailable. Nothing was changed; please try again in a moment.' },
  payment_provider_error: { status: 502, message: 'The payment provider could not be reached. Nothing was charged; please try again in a moment.' },
  topup_limit_reached: { status: 429, message: 'You have reached the number of wallet top-ups allowed today.' },
  topup_amount_exceeded: { status: 409, message: 'This top-up is above the amount you may add to your wallet today.' },
  refund_exceeds_paid: { status: 409, message: 'The refund is more than what was paid and not yet refunded.' },
  refund_not_awaiting_dashboard: { status: 409, message: "This refund is not waiting to be made in the payment provider's dashboard." },
  proper_service_area: { status: 400, message: 'Draw the service area as at most 20 areas, each with 3 to 500 points (2000 points in all).' },
  outside_service_area: { status: 422, message: 'Sorry, we do not serve this pickup location yet. Please choose a pickup inside our service area.' },
  proper_timezone: { status: 400, message: 'Enter a time zone name such as Europe/London or UTC.' },
  proper_history_days: { status: 400, message: 'Enter a whole number of days from 30 to 3650.' },
  proper_place_name: { status: 400, message: 'A place name is 1 to 40 characters.' },
  saved_place_label_taken: { status: 409, message: 'You already have a place with this label. Edit or remove it first.' },
  saved_places_full: { status: 409, message: 'You keep the most saved places allowed. Remove one first.' },
  photo_invalid: { status: 400, message: 'Choose a PNG, JPEG or WebP image.' },
  photo_too_large: { status: 413, message: 'The image is too large. Choose one of at most 5 MB.' },
  wrong_current_password: { status: 400, message: 'The current password is not correct.' },
  account_has_active_trip: { status: 409, message: 'The account has a trip in progress. Finish or cancel it first.' },
  account_owes_money: { status: 409, message: 'The account owes money. Settle the wallet balance first.' },
  // Issue 20 point 5: two-factor sign-in.
  two_factor_code_wrong: { status: 400, message: 'The code is not correct. Enter the current code from your authenticator app, or a recovery code.' },
  two_factor_challenge_expired: { status: 400, message: 'This sign-in has expired. Please sign in again.' },
  two_factor_required: { status: 409, message: 'Two-factor sign-in is required for staff and cannot be turned off.' },
  two_factor_already_enabled: { status: 409, message: 'Two-factor sign-in is already on.' },
  two_factor_not_enabled: { status: 409, message: 'Two-factor sign-in is not on.' },
  two_factor_not_started: { status: 409, message: 'Start adding an authenticator app first.' },
  two_factor_reset_own: { status: 409, message: 'Turn your own two-factor sign-in off from your profile.' },
  two_factor_reset_reason_required: { status: 400, message: 'Say why (3 to 500 characters): the person is told.' },
  message_not_failed: { status: 409, message: 'Only a message whose delivery failed can be sent again.' },
  documents_required: { status: 409, message: 'Your documents must be sent, approved and in date before you go online.' },
  proper_document_image: { status: 400, message: 'Choose a PNG, JPEG or WebP image of at most 5 MB.' },
  proper_expiry_date: { status: 400, message: 'Enter the expiry date printed on the document; it cannot be in the past.' },
  document_already_reviewed: { status: 409, message: 'This document has already been reviewed.' },
  vehicle_details_required: { status: 400, message: "Enter the vehicle's make, model and number." },
  vehicle_not_approved: { status: 409, message: "Only an approved vehicle can be made active." },
  vehicle_switch_on_trip: { status: 409, message: "You cannot change vehicles during a trip." },
  vehicle_limit: { status: 409, message: "You have as many vehicles as allowed. Delete one first." },
  vehicle_active_delete: { status: 409, message: "The active vehicle cannot be deleted. Make another one active first." },
  vehicle_last_delete: { status: 409, message: "Your only vehicle cannot be deleted." },
  vehicle_number_taken: { status: 409, message: "You already have a vehicle with this number." },
  vehicle_already_reviewed: { status: 409, message: "This vehicle has already been reviewed." },
  document_vehicle_required: { status: 400, message: 'Choose the vehicle this registration or insurance is for.' },
  document_vehicle_not_allowed: { status: 400, message: 'A licence or ID belongs to you, not to a vehicle: send it without one.' },
  vehicle_documents_required: { status: 409, message: "This vehicle's registration and insurance must be approved and in date before you switch to it while online. Go offline to switch now." },
  suspend_reason_required: { status: 400, message: 'Give the reason for the suspension; the user reads it.' },
  approval_own_account: { status: 403, message: 'You cannot approve or suspend your own account.' },
  social_email_unverified: { status: 409, message: 'An account already uses this email. Sign in to it with your password, or verify its email, before signing in with Google or Apple.' },
  internal_error: { status: 500, message: 'Something went wrong on our side.' },
} as const satisfies Record<ErrorKey, ErrorEntry>;

export const errorKeySchema = z.enum(ERROR_KEYS);

/** The body of every error answer: `{"error": {"code", "message", "details"?}}`. */
export const errorResponseSchema = z.object({
  error: z.object({
    code: errorKeySchema,
    message: z.string(),
    field: z.string().optional(),
    details: z.unknown().optional(),
  }),
});
type ErrorResponse = z.infer<typeof errorResponseSchema>;

export const errorStatus = (key: ErrorKey): number => ERROR_CATALOGUE[key].status;

/** The error body for a key, with the catalogue's English text. */
export function errorBody(key: ErrorKey, extra: { field?: string; details?: unknown } = {}): ErrorResponse {
  return { error: { code: key, message: ERROR_CATALOGUE[key].message, ...extra } };
}
