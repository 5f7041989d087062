/**
 * The web app's own numbers: timings, sizes and limits the spec leaves to the app. Those the spec
 * fixes (the 240 px drawer, the 200 ms place-search debounce, the register redirect, the delayed
 * cancel, the dashboard map, the breakpoints) come from `@rideway/domain`'s spec constants instead.
 */
import { BOOKING_OTP_MAX } from '@rideway/domain';

/** How often an online driver's newest position goes to the platform (issue 8: "every few seconds"). */
export const POSITION_SHARE_INTERVAL_MS = 4000;

/** The dashboard asks the browser for its position once: how long to wait, and how old a fix may be. */
export const BROWSER_POSITION_TIMEOUT_MS = 10_000;
export const BROWSER_POSITION_MAX_AGE_MS = 60_000;

/** Place search starts at this many typed characters. */
export const PLACE_SEARCH_MIN_CHARS = 2;

/** The longest side a parcel photo is sent at: enough to see a parcel and its label, small on a phone's data. */
export const PARCEL_PHOTO_MAX_SIDE_PX = 1280;
/** The longest side a driver's licence photo is sent at: its text must stay readable. */
export const LICENCE_PHOTO_MAX_SIDE_PX = 1600;

/** The rider's trip code has as many digits as the largest code (section 9: 5). */
export const BOOKING_OTP_DIGITS = String(BOOKING_OTP_MAX).length;

/** The profile's wallet card lists this many newest entries. */
export const WALLET_HISTORY_SHOWN = 10;

/** The booking history searches this long after the last key typed (issue 17). */
export const BOOKING_SEARCH_DEBOUNCE_MS = 300;

/** An admin table's page size, and the larger sizes offered. */
export const ADMIN_TABLE_PAGE_SIZE = 10;
export const ADMIN_TABLE_PAGE_SIZES = [25, 50] as const;

/** A new promo's form starts valid for this many days, for this many uses. */
export const PROMO_DEFAULT_VALIDITY_DAYS = 30;
export const PROMO_DEFAULT_USAGE_LIMIT = 100;

/** The rider's ETA line is asked again this often, and at most this often when the driver's live position moves (issue 16). */
export const ETA_REFRESH_MS = 30_000;
export const ETA_MOVE_REFRESH_MIN_MS = 10_000;

/** A new offer's alert: how many times CarHornRepeat repeats it, and each vibration and pause. */
export const OFFER_ALERT_REPEATS = 3;
export const OFFER_VIBRATION_MS = [300, 150] as const;

/** How long reference data (settings, car types, cancel reasons, providers) stays fresh in the cache. */
export const REFERENCE_DATA_STALE_MS = 5 * 60_000;
/** How long the signed-in user's query stays fresh before a screen refetches it. */
export const SESSION_STALE_MS = 60_000;

/**
 * A write sent with an `Idempotency-Key` (booking, payment, withdraw request, wallet credit) is
 * sent again with the same key after these waits when no answer came back, the server was
 * unreachable or the first try was still running: the server answers the first result once.
 */
export const IDEMPOTENT_RETRY_DELAYS_MS = [1000, 3000] as const;

/** How often a booking's payments are asked about again while a refund waits for the provider's answer. */
export const REFUND_POLL_MS = 3000;

/** A success notice (issue 17) stays this long: long enough to read two lines, short enough not to linger. */
export const NOTICE_AUTO_HIDE_MS = 5000;
