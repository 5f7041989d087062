/**
 * The numbers of product-spec section 9 (and the few of sections 2 and 4 that rules depend on),
 * each written once. Everything else imports them from here.
 */

/** Section 9: kilometres in a mile; distances are divided by it when convert_to_mile is on. */
export const KM_PER_MILE = 1.609344;
/** Section 9: book-later minimum lead. */
export const BOOK_LATER_MIN_LEAD_MS = 15 * 60 * 1000;
/** Section 9: default driver radius (miles when convert_to_mile, else km). */
export const DEFAULT_DRIVER_RADIUS = 10;
/** Section 9: waypoints are thinned above this many points. */
export const MAX_ROUTE_WAYPOINTS = 25;
/** Section 9: saved-address match radius, in the distance unit in force. */
export const SAVED_ADDRESS_MATCH_RADIUS = 0.1;
/** Section 9: booking OTP range, inclusive. */
export const BOOKING_OTP_MIN = 10000;
export const BOOKING_OTP_MAX = 99999;
/** Section 5: a login OTP lies strictly between these bounds. */
export const LOGIN_OTP_EXCLUSIVE_MIN = 100000;
export const LOGIN_OTP_EXCLUSIVE_MAX = 999999;
/** Section 9: referral id suffix range, inclusive. */
export const REFERRAL_SUFFIX_MIN = 1000;
export const REFERRAL_SUFFIX_MAX = 9999;
/** Section 9: password length bounds of the alphanumeric mode. */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 30;
/** Section 5: the complex password mode's minimum length. */
export const COMPLEX_PASSWORD_MIN_LENGTH = 8;
/** Section 9: a mobile number has at least this many characters. */
export const MOBILE_MIN_LENGTH = 6;
/** Section 9: a delivery phone is longer than this many characters. */
export const DELIVERY_PHONE_MIN_EXCLUSIVE = 6;
/** Section 9: money has 2 decimals, ratings 1. */
export const MONEY_DECIMALS = 2;
export const RATING_DECIMALS = 1;
/** Section 9: UI delays, in milliseconds (the others of its list are decided in docs/decisions.md). */
export const DELAYED_CANCEL_MS = 1500;
export const REGISTER_REDIRECT_DELAY_MS = 3000;
export const AUTOCOMPLETE_DEBOUNCE_MS = 200;
/** Section 2 and 9: the cancellation reasons table shows 10 rows a page. */
export const CANCEL_REASONS_PAGE_SIZE = 10;
/** Section 2: the side drawer width and the layout breakpoints, in px. */
export const DRAWER_WIDTH_PX = 240;
export const LAYOUT_BREAKPOINTS_PX = [576, 768, 992, 1200] as const;
/** Section 2: the public header changes colour after this much scroll. */
export const HEADER_SCROLL_CHANGE_PX = 400;
/** Section 2: dashboard map zoom and driver marker size (width by height). */
export const DASHBOARD_MAP_ZOOM = 10;
export const DRIVER_MARKER_SIZE_PX = { width: 35, height: 25 } as const;
/** Section 9: default language. */
export const DEFAULT_LANGUAGE = 'en';
/** The visitor's chosen language as a cookie, so the server writes the landing page in it (issue 21 point 5). */
export const LANGUAGE_COOKIE = 'rideway_language';
