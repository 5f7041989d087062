import type { Settings } from '@rideway/contract';
import { DEFAULT_DRIVER_RADIUS } from '@rideway/domain';

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
  MobileLoginEnabled: true,
  appcat: 'taxi',
};
