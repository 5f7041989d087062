import type { Settings } from '@rideway/contract';
import { DEFAULT_DRIVER_RADIUS, DEFAULT_LOCATION_HISTORY_DAYS } from '@rideway/domain';

/** The settings of a new installation: a taxi service that needs no outside provider. */
export const DEFAULT_SETTINGS: Settings = {
  appName: 'Rideway',
  symbol: '$',
  code: 'USD',
  country: 'United States',
  bonus: 0,
  otp_secure: false,
  driver_approval: true,
  email_verify: false,
  autoDispatch: true,
  CarHornRepeat: false,
  convert_to_mile: false,
  fareMarginPercent: 30,
  topupMaxPerDay: 500,
  topupCountPerDay: 5,
  locationHistoryDays: DEFAULT_LOCATION_HISTORY_DAYS,
  // No service area drawn: the service runs everywhere (issue 16, point 6).
  serviceArea: [],
  // Issue 20: drivers' documents are checked before they go online.
  RequireDriverDocuments: true,
  RequireStaffTwoFactor: false,
  bank_fields: true,
  driverRadius: DEFAULT_DRIVER_RADIUS,
  license: '',
  CompanyName: '',
  CompanyWebsite: '',
  CompanyTerms: '',
  contact_email: '',
  FacebookHandle: '',
  TwitterHandle: '',
  InstagramHandle: '',
  AppleStoreLink: '',
  PlayStoreLink: '',
  AllowCriticalEditsAdmin: true,
  AllowCountrySelection: true,
  FacebookLoginEnabled: false,
  GoogleLoginEnabled: false,
  AppleLoginEnabled: false,
  MobileLoginEnabled: true,
  appcat: 'taxi',
  // Issue 17: a new installation's clock is UTC until the operator names its city's zone.
  timezone: 'UTC',
};
