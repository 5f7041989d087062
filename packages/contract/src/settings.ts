import { APP_CATEGORIES, DEFAULT_LOCATION_HISTORY_DAYS, isTimeZone, MAX_BONUS, MAX_DRIVER_RADIUS, MAX_LOCATION_HISTORY_DAYS, MAX_SERVICE_AREA_POLYGONS, MIN_LOCATION_HISTORY_DAYS, MAX_SERVICE_AREA_VERTICES, MIN_SERVICE_AREA_VERTICES, validateServiceArea } from '@rideway/domain';
import { z } from 'zod';

/** A retention period that is not a whole number of days in range answers proper_history_days. */
const historyKey = { error: 'proper_history_days' } as const;

/** Every problem of the service area answers proper_service_area (section 5's key style). */
const areaKey = { error: 'proper_service_area' } as const;
const areaVertex = z.object({ lat: z.number(areaKey).min(-90, areaKey).max(90, areaKey), lng: z.number(areaKey).min(-180, areaKey).max(180, areaKey) }, areaKey);

/**
 * Issue 16, point 6: the polygons the service runs in (each its vertices in order); empty means
 * everywhere. The shape is typed here; the whole rule (limits, distinct vertices) is the domain's.
 */
export const serviceAreaSchema = z
  .array(z.array(areaVertex, areaKey).min(MIN_SERVICE_AREA_VERTICES, areaKey).max(MAX_SERVICE_AREA_VERTICES, areaKey), areaKey)
  .max(MAX_SERVICE_AREA_POLYGONS, areaKey)
  .refine((area) => validateServiceArea(area).ok, areaKey)
  .meta({ description: 'Polygons of {lat, lng} vertices (at most 20, each 3 to 500 vertices, 2000 in all); a pickup outside every one is refused. Empty: everywhere.' });

const optionalText = (max: number) => z.string().max(max);

/** Section 3 Settings. `appcat` is the app category (taxi or delivery). */
export const settingsSchema = z.object({
  appName: optionalText(100).min(1),
  symbol: optionalText(8),
  code: optionalText(8),
  country: optionalText(100),
  bonus: z.number().min(0).max(MAX_BONUS),
  otp_secure: z.boolean(),
  driver_approval: z.boolean(),
  email_verify: z.boolean(),
  autoDispatch: z.boolean(),
  CarHornRepeat: z.boolean(),
  convert_to_mile: z.boolean(),
  bank_fields: z.boolean(),
  driverRadius: z.number().min(0).max(MAX_DRIVER_RADIUS),
  license: optionalText(200),
  CompanyName: optionalText(200),
  CompanyWebsite: optionalText(300),
  CompanyTerms: optionalText(300),
  contact_email: optionalText(254),
  FacebookHandle: optionalText(300),
  TwitterHandle: optionalText(300),
  InstagramHandle: optionalText(300),
  AppleStoreLink: optionalText(300),
  PlayStoreLink: optionalText(300),
  AllowCriticalEditsAdmin: z.boolean(),
  AllowCountrySelection: z.boolean(),
  FacebookLoginEnabled: z.boolean(),
  /** Issue 20: sign-in with Google and with Apple, each offered when on and the server holds that provider's client. */
  GoogleLoginEnabled: z.boolean().default(false),
  AppleLoginEnabled: z.boolean().default(false),
  MobileLoginEnabled: z.boolean(),
  appcat: z.enum(APP_CATEGORIES),
  /**
   * Issue 17: the operator's time zone (an IANA name): report months, book-later times and the
   * dates the web shows are read in it.
   */
  timezone: z.string({ error: 'proper_timezone' }).refine(isTimeZone, { error: 'proper_timezone' }),
  /** Fare integrity: the fare at REACHED is at most the estimate plus this percentage (decisions.md). */
  fareMarginPercent: z.number().min(0).max(1000).default(30),
  /** Wallet top-ups by card (issue 18): at most this much money per rider in any 24 hours (0: no top-ups), against card testing. */
  topupMaxPerDay: z.number().min(0).max(1_000_000).refine((value) => Number.isInteger(Math.round(value * 100)) && Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, { message: 'an amount with at most 2 decimals' }).default(500),
  /** Wallet top-ups by card: at most this many started per rider in any 24 hours. */
  topupCountPerDay: z.number().int().min(0).max(100).default(5),
  /**
   * Issue 20 point 4: a finished trip's tracking points are thinned and its chat removed this many
   * days after it ended (decisions.md, location history).
   */
  locationHistoryDays: z.number(historyKey).int(historyKey).min(MIN_LOCATION_HISTORY_DAYS, historyKey).max(MAX_LOCATION_HISTORY_DAYS, historyKey).default(DEFAULT_LOCATION_HISTORY_DAYS),
  /** Issue 16, point 6: where the service runs; a pickup outside is refused (outside_service_area). */
  serviceArea: serviceAreaSchema.default([]),
  /** Issue 20: a driver goes online only with every required document approved and in date. */
  RequireDriverDocuments: z.boolean().default(true),
  /** Issue 20 point 5: every admin and fleet admin signs in with an authenticator app (TOTP), enrolling at the next sign-in. */
  RequireStaffTwoFactor: z.boolean().default(false),
});
export type Settings = z.infer<typeof settingsSchema>;

/** The settings anyone may read (the web needs them before sign-in); the rest are admin-only. */
export const PUBLIC_SETTINGS_KEYS = [
  'appName',
  'symbol',
  'code',
  'country',
  'otp_secure',
  'CarHornRepeat',
  'convert_to_mile',
  'bank_fields',
  'driverRadius',
  'CompanyName',
  'CompanyWebsite',
  'CompanyTerms',
  'contact_email',
  'FacebookHandle',
  'TwitterHandle',
  'InstagramHandle',
  'AppleStoreLink',
  'PlayStoreLink',
  'AllowCriticalEditsAdmin',
  'AllowCountrySelection',
  'FacebookLoginEnabled',
  'GoogleLoginEnabled',
  'AppleLoginEnabled',
  'MobileLoginEnabled',
  'appcat',
  // The web shows dates and reads book-later times in it.
  'timezone',
  // The booking form warns of a pickup outside before Book.
  'serviceArea',
] as const satisfies readonly (keyof Settings)[];

/**
 * The map tiles (a {z}/{x}/{y} URL template and its attribution): from the server's configuration
 * (MAP_TILE_URL, MAP_TILE_ATTRIBUTION), not stored settings, so the admin cannot edit them.
 */
export const mapTilesSchema = z.object({ mapTileUrl: z.string(), mapTileAttribution: z.string() });
export type MapTiles = z.infer<typeof mapTilesSchema>;

export const publicSettingsSchema = settingsSchema.pick(
  Object.fromEntries(PUBLIC_SETTINGS_KEYS.map((key) => [key, true])) as { [K in (typeof PUBLIC_SETTINGS_KEYS)[number]]: true },
);
export type PublicSettings = z.infer<typeof publicSettingsSchema>;
