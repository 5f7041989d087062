import { describe, expect, it } from 'vitest';
import { bookingRequestSchema } from './booking-request';
import { bookingSchema, chatMessageSchema, trackingEntrySchema } from './booking';
import { cancelReasonSchema, carTypeSchema, estimateSchema, notificationSchema, promoSchema } from './catalogue';
import { earningReportRowSchema, withdrawSchema } from './money-records';
import { money } from './primitives';
import { PAYMENT_PROVIDER_NAMES, paymentProviderSchema } from './providers';
import { PUBLIC_SETTINGS_KEYS, publicSettingsSchema, settingsSchema } from './settings';
import { userSchema } from './user';

const now = Date.parse('2026-11-22T10:00:00Z');

const settings = {
  appName: 'Rideway', fareMarginPercent: 30, topupMaxPerDay: 500, topupCountPerDay: 5, locationHistoryDays: 730, symbol: '$', code: 'USD', country: 'United States', bonus: 5, otp_secure: true, driver_approval: true,
  email_verify: false, autoDispatch: true, CarHornRepeat: false, convert_to_mile: false, bank_fields: true, driverRadius: 10,
  license: 'secret-licence', CompanyName: 'Rideway Ltd', CompanyWebsite: 'https://rideway.example', CompanyTerms: '', contact_email: '',
  FacebookHandle: '', TwitterHandle: '', InstagramHandle: '', AppleStoreLink: '', PlayStoreLink: '', AllowCriticalEditsAdmin: true,
  AllowCountrySelection: true, FacebookLoginEnabled: false, GoogleLoginEnabled: false, AppleLoginEnabled: false, MobileLoginEnabled: true, appcat: 'taxi', serviceArea: [], timezone: 'UTC', RequireDriverDocuments: true, RequireStaffTwoFactor: false,
};

describe('section 3 entities as zod schemas', () => {
  it('money has at most 2 decimals', () => {
    expect(money.safeParse(12.34).success).toBe(true);
    expect(money.safeParse(12.345).success).toBe(false);
    expect(money.safeParse(Number.NaN).success).toBe(false);
    expect(money.safeParse('12').success).toBe(false);
  });

  it('settings: every section 3 setting, and a public subset without the licence', () => {
    expect(settingsSchema.parse(settings)).toEqual(settings);
    expect(settingsSchema.safeParse({ ...settings, driverRadius: -1 }).success).toBe(false);
    expect(settingsSchema.safeParse({ ...settings, appcat: 'boats' }).success).toBe(false);
    expect(PUBLIC_SETTINGS_KEYS).not.toContain('license');
    expect(PUBLIC_SETTINGS_KEYS).not.toContain('bonus');
    expect(Object.keys(publicSettingsSchema.parse(settings))).not.toContain('license');
  });

  it('car type with parcel types, options and cancelSlab', () => {
    const carType = {
      id: 'c1', name: 'Sedan', image: '/img/sedan.png', base_fare: 2.5, rate_per_unit_distance: 1.2, rate_per_hour: 18, min_fare: 5,
      convenience_fees: 10, convenience_fee_type: 'percentage', extra_info: '4 seats', createdAt: now,
      parcelTypes: [{ description: 'Small box', amount: 2 }], options: [{ description: 'Fragile', amount: 1.5 }],
      cancelSlab: [{ minsDelayed: 5, amount: 3 }],
    };
    expect(carTypeSchema.parse(carType)).toEqual(carType);
    expect(carTypeSchema.safeParse({ ...carType, base_fare: -1 }).success).toBe(false);
    expect(carTypeSchema.safeParse({ ...carType, convenience_fee_type: 'weird' }).success).toBe(false);
  });

  it('promo, notification, cancel reason, withdraw, earning row, provider', () => {
    expect(promoSchema.safeParse({
      id: 'p', promo_name: 'WELCOME', promo_description: '', promo_discount_type: 'flat', promo_discount_value: 5, max_promo_discount_value: 0,
      min_order: 10, promo_validity: now, promo_usage_limit: 100, user_avail: 0, createdAt: now,
    }).success).toBe(true);
    expect(notificationSchema.safeParse({ id: 'n', devicetype: 'IOS', usertype: 'All', title: 'Hi', body: 'b', createdAt: now }).success).toBe(true);
    expect(notificationSchema.safeParse({ id: 'n', devicetype: 'WEB', usertype: 'All', title: 'Hi', body: 'b', createdAt: now }).success).toBe(false);
    expect(cancelReasonSchema.safeParse({ id: 'r1', label: 'Driver late', value: 0 }).success).toBe(true);
    expect(withdrawSchema.safeParse({ id: 'w', uid: 'u', date: now, name: 'Dee', amount: 50, currency: 'GBP', processed: false, rejected: false, procesDate: null, bankName: null, bankCode: null, bankAccount: null }).success).toBe(true);
    expect(earningReportRowSchema.safeParse({ year: 2026, month: 11, monthsName: 'November', currency: 'GBP', bookings: 1, tripCost: 1, rideCost: 1, convenienceFee: 0, discountAmount: 0, customerPaid: 1, driverShare: 1, myEarning: 0, profit: 0 }).success).toBe(true);
    expect(PAYMENT_PROVIDER_NAMES).toHaveLength(13);
    expect(paymentProviderSchema.safeParse({ name: 'test', link: '/pay/test' }).success).toBe(true);
    expect(estimateSchema.safeParse({ estimateFare: 25.85, totalCost: 23.5, convenience_fees: 2.35, grandTotal: 25.85, distance: 10, duration: 1800, approximate: true }).success).toBe(true);
  });

  it('a booking request carries no amounts and refuses unknown fields', () => {
    const request = { pickup: { lat: 1, lng: 2, add: 'A' }, drop: { lat: 1.1, lng: 2.1, add: 'B' }, carType: 'Sedan' };
    expect(bookingRequestSchema.parse(request)).toEqual({ ...request, bookLater: false, payment_mode: 'cash' });
    expect(bookingRequestSchema.safeParse({ ...request, trip_cost: 0.01 }).success).toBe(false);
    expect(bookingRequestSchema.safeParse({ ...request, estimate: 1 }).success).toBe(false);
    expect(bookingRequestSchema.safeParse({ ...request, pickup: { lat: 100, lng: 2, add: 'A' } }).success).toBe(false);
  });

  it('booking, tracking entry and chat message shapes', () => {
    expect(trackingEntrySchema.safeParse({ id: 't', at: now, status: 'STARTED', lat: 1, lng: 2 }).success).toBe(true);
    expect(trackingEntrySchema.safeParse({ id: 't', at: now, status: 'DRIVING', lat: 1, lng: 2 }).success).toBe(false);
    expect(chatMessageSchema.safeParse({ smsId: '7', message: 'On my way', from: 'd1', type: 'msg', msgDate: '2026-11-22', msgTime: '10:00', source: 'driver', createdAt: now }).success).toBe(true);
    expect(bookingSchema.shape.otp.safeParse(false).success).toBe(true);
    expect(bookingSchema.shape.otp.safeParse(12345).success).toBe(true);
    expect(bookingSchema.shape.otp.safeParse(1234).success).toBe(false);
    expect(bookingSchema.shape.status.options).toHaveLength(10);
  });

  it('a user never carries a password', () => {
    expect(Object.keys(userSchema.shape)).not.toContain('password');
    expect(userSchema.shape.usertype.safeParse('superuser').success).toBe(false);
  });
});
