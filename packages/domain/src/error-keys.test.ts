import { describe, expect, it } from 'vitest';
import { ERROR_KEYS, isErrorKey, SPEC_ERROR_KEYS } from './error-keys';

describe('section 8: the error catalogue keys', () => {
  it('holds every validation key of section 8', () => {
    const section8 =
      'login_validate_error, otp_validate_error, user_does_not_exists, proper_email, proper_input_name, password_alphaNumeric_check, password_blank_messege, password_complexity_check, mobile_no_blank_error, user_exists, email_or_mobile_issue, referer_not_found, reg_error, account_create_successfully, proper_bonus, update_failed, demo_mode, must_login, user_issue_contact_admin, select_proper, past_booking_error, place_to_coords_error, no_driver_found_alert_messege, deliveryDetailMissing, google_places_error, no_details_error, allow_location, not_valid_user_type'
        .split(', ')
        // account_create_successfully is a success message, not an error.
        .filter((key) => key !== 'account_create_successfully');
    for (const key of section8) expect(SPEC_ERROR_KEYS).toContain(key);
    for (const key of ['login_error', 'require_approval', 'email_verify_message', 'not_logged_in']) expect(SPEC_ERROR_KEYS).toContain(key);
  });

  it('has no duplicates and recognises only its own keys', () => {
    expect(new Set(ERROR_KEYS).size).toBe(ERROR_KEYS.length);
    expect(isErrorKey('past_booking_error')).toBe(true);
    expect(isErrorKey('toString')).toBe(false);
    expect(isErrorKey(undefined)).toBe(false);
  });
});
