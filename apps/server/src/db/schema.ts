/**
 * The database schema: every entity of spec section 3. Money is integer minor units (`_minor`),
 * times are epoch milliseconds, both as bigint. Percentages are stored in hundredths.
 */
import type { AuditValues } from '@rideway/domain';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const ms = (name: string) => bigint(name, { mode: 'number' });
const minor = (name: string) => bigint(name, { mode: 'number' });

export type Ratings = { userrating: number; details: { user: string; rate: number }[] };
/** A booking's fare parts in minor units (domain FareBreakdownMinor), and what the fare cap took off (fare integrity). */
export type FareBreakdownColumn = { base: number; distance: number; time: number; extras: number; minimum: number; cap: number };
export type PricedChoiceMinor = { description: string; amount: number };
export type CancelSlabMinor = { minsDelayed: number; amount: number };

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email'),
    mobile: text('mobile'),
    usertype: text('usertype').notNull(),
    loginType: text('login_type'),
    /** The Facebook user id of an account that signs in with Facebook. */
    facebookId: text('facebook_id'),
    /** Issue 20: the Google and Apple user ids (the ID token's `sub`) of an account that signs in with them. */
    googleId: text('google_id'),
    appleId: text('apple_id'),
    passwordHash: text('password_hash'),
    emailVerified: boolean('email_verified').notNull().default(false),
    approved: boolean('approved').notNull().default(true),
    createdAt: ms('created_at').notNull(),
    createdByAdmin: boolean('created_by_admin').notNull().default(false),
    referralId: text('referral_id'),
    signupViaReferral: text('signup_via_referral'),
    profileImage: text('profile_image'),
    pushToken: text('push_token'),
    userPlatform: text('user_platform'),
    /** Issue 19: the admin's (promotional) notifications reach this user; trip notices always do. */
    promoNotifications: boolean('promo_notifications').notNull().default(true),
    /** Issue 19: the language code push, SMS and mail reach this user in (a language file's code); null: the default. */
    language: text('language'),
    fleetadmin: text('fleetadmin'),
    driverActiveStatus: boolean('driver_active_status').notNull().default(false),
    queue: boolean('queue').notNull().default(false),
    locationLat: doublePrecision('location_lat'),
    locationLng: doublePrecision('location_lng'),
    locationAt: ms('location_at'),
    carType: text('car_type'),
    vehicleMake: text('vehicle_make'),
    vehicleModel: text('vehicle_model'),
    vehicleNumber: text('vehicle_number'),
    otherInfo: text('other_info'),
    licenseImage: text('license_image'),
    ratings: jsonb('ratings').$type<Ratings>(),
    bankName: text('bank_name'),
    bankCode: text('bank_code'),
    bankAccount: text('bank_account'),
    /** Issue 20: when the account was deleted (anonymised; its bookings and ledger stay). Null: a live account. */
    deletedAt: ms('deleted_at'),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_mobile_key').on(t.mobile),
    uniqueIndex('users_referral_id_key').on(t.referralId),
    uniqueIndex('users_facebook_id_key').on(t.facebookId),
    uniqueIndex('users_google_id_key').on(t.googleId),
    uniqueIndex('users_apple_id_key').on(t.appleId),
    index('users_usertype_idx').on(t.usertype),
    index('users_fleetadmin_idx').on(t.fleetadmin),
    // The licence route finds the driver a stored licence belongs to.
    index('users_license_image_idx').on(t.licenseImage),
    check('users_usertype_check', sql`${t.usertype} in ('rider', 'driver', 'admin', 'fleetadmin')`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    uid: text('uid').notNull().references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ms('created_at').notNull(),
    expiresAt: ms('expires_at').notNull(),
  },
  (t) => [index('sessions_uid_idx').on(t.uid)],
);

/**
 * Issue 20: a Google or Apple sign-in under way. The state is kept hashed; the PKCE verifier and
 * nonce never leave the server; the browser that started it holds the token whose hash is here.
 */
export const socialSignIns = pgTable(
  'social_sign_ins',
  {
    stateHash: text('state_hash').primaryKey(),
    provider: text('provider').notNull(),
    browserHash: text('browser_hash').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    nonce: text('nonce').notNull(),
    next: text('next'),
    expiresAt: ms('expires_at').notNull(),
  },
  (t) => [index('social_sign_ins_expires_at_idx').on(t.expiresAt), check('social_sign_ins_provider_check', sql`${t.provider} IN ('google', 'apple')`)],
);

/** Single-use links sent by mail: email verification and password reset. */
export const authTokens = pgTable('auth_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  uid: text('uid').notNull().references(() => users.id, { onDelete: 'cascade' }),
  purpose: text('purpose').notNull(),
  expiresAt: ms('expires_at').notNull(),
  usedAt: ms('used_at'),
});

/** Phone sign-in codes. */
export const otpCodes = pgTable(
  'otp_codes',
  {
    verificationId: text('verification_id').primaryKey(),
    mobile: text('mobile').notNull(),
    codeHash: text('code_hash').notNull(),
    createdAt: ms('created_at').notNull(),
    expiresAt: ms('expires_at').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    usedAt: ms('used_at'),
  },
  (t) => [index('otp_codes_mobile_idx').on(t.mobile, t.createdAt)],
);

/**
 * Attempt counters of the sign-in, password-reset and OTP throttles (modules/auth/throttle.ts):
 * one row per key, counted in fixed windows by an atomic upsert, so every server process shares them.
 */
export const throttleCounters = pgTable(
  'throttle_counters',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    windowEndsAt: ms('window_ends_at').notNull(),
  },
  (t) => [index('throttle_counters_window_idx').on(t.windowEndsAt)],
);

/** The addresses an account signed in from with its password: they keep working while strangers are throttled. */
export const knownSignIns = pgTable(
  'known_sign_ins',
  {
    accountKey: text('account_key').notNull(),
    address: text('address').notNull(),
    lastAt: ms('last_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountKey, t.address] }), index('known_sign_ins_last_idx').on(t.lastAt)],
);

export const savedAddresses = pgTable(
  'saved_addresses',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    uid: text('uid').notNull().references(() => users.id, { onDelete: 'cascade' }),
    description: text('description').notNull(),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
    count: integer('count').notNull().default(1),
    /** Issue 17: 'home' or 'work', each at most once per rider; or null. */
    label: text('label'),
    /** Issue 17: a name of the rider's own, when there is no label. */
    name: text('name'),
  },
  (t) => [
    index('saved_addresses_uid_idx').on(t.uid),
    check('saved_addresses_label_check', sql`${t.label} IS NULL OR ${t.label} IN ('home', 'work')`),
    uniqueIndex('saved_addresses_uid_label_key').on(t.uid, t.label).where(sql`${t.label} IS NOT NULL`),
  ],
);

export const carTypes = pgTable(
  'car_types',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    image: text('image').notNull().default(''),
    baseFareMinor: minor('base_fare_minor').notNull(),
    ratePerUnitDistanceMinor: minor('rate_per_unit_distance_minor').notNull(),
    ratePerHourMinor: minor('rate_per_hour_minor').notNull(),
    minFareMinor: minor('min_fare_minor').notNull(),
    /** Minor units when flat, hundredths of a percent when percentage. */
    convenienceFeesHundredths: bigint('convenience_fees_hundredths', { mode: 'number' }).notNull(),
    convenienceFeeType: text('convenience_fee_type').notNull(),
    extraInfo: text('extra_info').notNull().default(''),
    createdAt: ms('created_at').notNull(),
    parcelTypes: jsonb('parcel_types').$type<PricedChoiceMinor[]>().notNull().default([]),
    options: jsonb('options').$type<PricedChoiceMinor[]>().notNull().default([]),
    cancelSlab: jsonb('cancel_slab').$type<CancelSlabMinor[]>().notNull().default([]),
  },
  (t) => [uniqueIndex('car_types_name_key').on(t.name)],
);

export const promos = pgTable(
  'promos',
  {
    id: text('id').primaryKey(),
    promoName: text('promo_name').notNull(),
    promoDescription: text('promo_description').notNull().default(''),
    promoDiscountType: text('promo_discount_type').notNull(),
    /** Minor units when flat, hundredths of a percent when percentage. */
    promoDiscountValueHundredths: bigint('promo_discount_value_hundredths', { mode: 'number' }).notNull(),
    maxPromoDiscountValueMinor: minor('max_promo_discount_value_minor').notNull(),
    minOrderMinor: minor('min_order_minor').notNull(),
    promoValidity: ms('promo_validity').notNull(),
    promoUsageLimit: integer('promo_usage_limit').notNull(),
    userAvail: integer('user_avail').notNull().default(0),
    createdAt: ms('created_at').notNull(),
  },
  (t) => [uniqueIndex('promos_name_key').on(t.promoName)],
);

export const promoUses = pgTable(
  'promo_uses',
  {
    promoId: text('promo_id').notNull().references(() => promos.id, { onDelete: 'cascade' }),
    uid: text('uid').notNull(),
    bookingId: text('booking_id').notNull(),
    at: ms('at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.promoId, t.uid] })],
);

export const cancelReasons = pgTable(
  'cancel_reasons',
  {
    id: text('id').primaryKey(),
    label: text('label').notNull(),
    value: integer('value').notNull(),
  },
  (t) => [index('cancel_reasons_value_idx').on(t.value)],
);

export const notifications = pgTable('notifications', {
  id: text('id').primaryKey(),
  devicetype: text('devicetype').notNull(),
  usertype: text('usertype').notNull(),
  title: text('title').notNull(),
  body: text('body').notNull(),
  createdAt: ms('created_at').notNull(),
  recipients: integer('recipients').notNull().default(0),
  /** Issue 19: how many devices of each kind (webpush, fcm, expo) it was addressed to. */
  devices: jsonb('devices').$type<Partial<Record<'webpush' | 'fcm' | 'expo', number>>>().notNull().default({}),
});

export const settings = pgTable('settings', {
  id: integer('id').primaryKey().default(1),
  value: jsonb('value').$type<Record<string, unknown>>().notNull(),
});

export const bookings = pgTable(
  'bookings',
  {
    id: text('id').primaryKey(),
    reference: text('reference').notNull(),
    status: text('status').notNull(),
    carType: text('car_type').notNull(),
    carImage: text('car_image'),
    // No foreign key: a booking keeps its rider's name and contact when the account is deleted.
    customer: text('customer').notNull(),
    customerName: text('customer_name').notNull(),
    customerEmail: text('customer_email').notNull().default(''),
    customerContact: text('customer_contact').notNull().default(''),
    customerToken: text('customer_token'),
    customerImage: text('customer_image'),
    pickup: jsonb('pickup').$type<{ lat: number; lng: number; add: string }>().notNull(),
    drop: jsonb('drop').$type<{ lat: number; lng: number; add: string }>().notNull(),
    estimateMinor: minor('estimate_minor').notNull(),
    estimateDistance: doublePrecision('estimate_distance').notNull(),
    distance: doublePrecision('distance').notNull().default(0),
    estimateTime: doublePrecision('estimate_time').notNull(),
    bookLater: boolean('book_later').notNull().default(false),
    tripdate: ms('tripdate').notNull(),
    bookingDate: ms('booking_date').notNull(),
    otp: integer('otp'),
    bookingTypeAdmin: boolean('booking_type_admin').notNull().default(false),
    coords: jsonb('coords').$type<{ lat: number; lng: number }[]>().notNull().default([]),
    tripCostMinor: minor('trip_cost_minor').notNull(),
    /** The currency code the booking was made in (issue 17): its amounts are in it for good. */
    currency: text('currency').notNull(),
    convenienceFeesMinor: minor('convenience_fees_minor').notNull(),
    driverShareMinor: minor('driver_share_minor').notNull(),
    discountMinor: minor('discount_minor').notNull().default(0),
    customerPaidMinor: minor('customer_paid_minor').notNull(),
    cashPaymentAmountMinor: minor('cash_payment_amount_minor').notNull().default(0),
    cardPaymentAmountMinor: minor('card_payment_amount_minor').notNull().default(0),
    usedWalletMoneyMinor: minor('used_wallet_money_minor').notNull().default(0),
    payableAmountMinor: minor('payable_amount_minor').notNull().default(0),
    paymentMode: text('payment_mode').notNull().default('cash'),
    prepaid: boolean('prepaid').notNull().default(false),
    gateway: text('gateway'),
    promoApplied: boolean('promo_applied').notNull().default(false),
    promoDetails: jsonb('promo_details').$type<Record<string, unknown>>(),
    driver: text('driver'),
    driverName: text('driver_name'),
    driverImage: text('driver_image'),
    driverContact: text('driver_contact'),
    driverToken: text('driver_token'),
    vehicleNumber: text('vehicle_number'),
    /** The accepting driver's car, copied in with its plate so the rider can find it (issue 17). */
    vehicleMake: text('vehicle_make'),
    vehicleModel: text('vehicle_model'),
    driverRating: doublePrecision('driver_rating'),
    fleetadmin: text('fleetadmin'),
    driverArriveTime: ms('driver_arrive_time'),
    acceptedAt: ms('accepted_at'),
    tripStartTime: ms('trip_start_time'),
    tripEndTime: ms('trip_end_time'),
    totalTripTime: integer('total_trip_time'),
    reason: text('reason'),
    cancelledBy: text('cancelled_by'),
    cancellationChargeMinor: minor('cancellation_charge_minor').notNull().default(0),
    /** What a cancel gives back of the money paid ahead (decisions.md, refund on cancel); 0 otherwise. */
    refundAmountMinor: minor('refund_amount_minor').notNull().default(0),
    /** The fare the route driven gave at REACHED when it went past the estimate's bound (fare integrity), else null. */
    uncappedFareMinor: minor('uncapped_fare_minor'),
    rating: integer('rating'),
    /** The rider's words with the rating (issue 17), stored as typed: shown as text, never as markup. */
    ratingComment: text('rating_comment'),
    /** The parts of the fare the booking holds (the estimate's, then the route driven's), in minor units (issue 17). */
    fareBreakdown: jsonb('fare_breakdown').$type<FareBreakdownColumn>(),
    pickupImage: text('pickup_image'),
    deliverImage: text('deliver_image'),
    requestedDrivers: jsonb('requested_drivers').$type<Record<string, true>>().notNull().default({}),
    /** Drivers already asked in this booking's search (issue 5 dispatch in batches). */
    offeredDrivers: jsonb('offered_drivers').$type<string[]>().notNull().default([]),
    /** The current round of offers; a round's timeout job acts only if it is still current. */
    dispatchRound: integer('dispatch_round').notNull().default(0),
    /** The booking a no-taker booking was booked again as (issue 17): set once, so a retry makes one booking. */
    retriedAs: text('retried_as'),
    /** When the trip's location history was pruned (issue 20 point 4): its points thinned, its chat removed. */
    historyPrunedAt: ms('history_pruned_at'),
    /** Each offered driver's road leg to the pickup, as the maps table answered it when offered (admins and that driver only). */
    offerLegs: jsonb('offer_legs').$type<Record<string, { distanceKm: number; durationSeconds: number }>>().notNull().default({}),
    /** When the current round's offers time out (OFFER_TIMEOUT_S after it began); null when no round timeout applies. */
    offerExpiresAt: ms('offer_expires_at'),
    /** Drivers who declined: never offered this booking again. */
    declinedDrivers: jsonb('declined_drivers').$type<string[]>().notNull().default([]),
    delivery: jsonb('delivery').$type<Record<string, unknown>>(),
    updatedAt: ms('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('bookings_reference_key').on(t.reference),
    index('bookings_customer_idx').on(t.customer),
    index('bookings_driver_idx').on(t.driver),
    index('bookings_fleetadmin_idx').on(t.fleetadmin),
    index('bookings_status_idx').on(t.status),
    // The retention job's scan: trips not pruned yet, by when they ended.
    index('bookings_history_due_idx').on(sql`coalesce(${t.tripEndTime}, ${t.tripdate})`).where(sql`${t.historyPrunedAt} is null`),
    // A driver holds at most one active trip (issue 4): enforced by the database.
    uniqueIndex('bookings_one_active_trip_per_driver')
      .on(t.driver)
      .where(sql`${t.status} in ('ACCEPTED', 'ARRIVED', 'STARTED', 'REACHED')`),
  ],
);

export const tracking = pgTable(
  'tracking',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    bookingId: text('booking_id').notNull().references(() => bookings.id, { onDelete: 'cascade' }),
    at: ms('at').notNull(),
    status: text('status').notNull(),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
  },
  (t) => [index('tracking_booking_idx').on(t.bookingId, t.at)],
);

export const chats = pgTable(
  'chats',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    bookingId: text('booking_id').notNull().references(() => bookings.id, { onDelete: 'cascade' }),
    from: text('from_uid').notNull(),
    source: text('source').notNull(),
    message: text('message').notNull(),
    at: ms('at').notNull(),
  },
  (t) => [index('chats_booking_idx').on(t.bookingId, t.at)],
);

/** Card payments: one row per provider transaction, so a repeated confirmation changes nothing. */
export const payments = pgTable(
  'payments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    bookingId: text('booking_id').notNull().references(() => bookings.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    transactionId: text('transaction_id').notNull(),
    amountMinor: minor('amount_minor').notNull(),
    currency: text('currency').notNull(),
    outcome: text('outcome').notNull(),
    at: ms('at').notNull(),
  },
  (t) => [uniqueIndex('payments_provider_transaction_key').on(t.provider, t.transactionId), index('payments_booking_idx').on(t.bookingId)],
);

/**
 * Refunds of money paid ahead, on a cancel (decisions.md, refund on cancel): to the wallet at once
 * (`provider` wallet), or back through the card provider that took it, requested in the cancel's
 * transaction and succeeded when the provider confirms. One per booking: a booking is cancelled once.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    bookingId: text('booking_id').notNull().references(() => bookings.id, { onDelete: 'cascade' }),
    /** wallet, or the payment provider that took the money (test, stripe, ...). */
    provider: text('provider').notNull(),
    /** The provider's transaction refunded; null for the wallet. */
    transactionId: text('transaction_id'),
    amountMinor: minor('amount_minor').notNull(),
    currency: text('currency').notNull(),
    /**
     * requested, succeeded or failed; awaiting_dashboard when the provider's API makes no refunds
     * (PayFast): an admin refunds in the provider's dashboard and confirms it here (issue 22).
     */
    status: text('status').notNull(),
    /** The provider's id of the refund, once it answered. */
    providerRefundId: text('provider_refund_id'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: ms('created_at').notNull(),
    confirmedAt: ms('confirmed_at'),
    /** cancel (money paid ahead, on a cancel), admin (an admin's refund of a paid trip) or unapplied (a payment confirmed after the booking could take it). */
    kind: text('kind').notNull().default('cancel'),
    /** The admin's reason, for an admin refund. */
    reason: text('reason'),
    /** The admin who refunded, for an admin refund. */
    requestedBy: text('requested_by'),
    /** The admin who confirmed a refund made in the provider's dashboard (issue 22); null when the provider's API confirmed it. */
    confirmedBy: text('confirmed_by'),
  },
  (t) => [
    // One cancel refund per booking; admin refunds and refunds of a payment that came too late may be several (issue 18).
    uniqueIndex('refunds_booking_cancel_key').on(t.bookingId).where(sql`${t.kind} = 'cancel'`),
    uniqueIndex('refunds_unapplied_key').on(t.bookingId, t.transactionId).where(sql`${t.kind} = 'unapplied'`),
    index('refunds_status_idx').on(t.status),
    check('refunds_kind_check', sql`${t.kind} in ('cancel', 'admin', 'unapplied')`),
    check('refunds_status_check', sql`${t.status} in ('requested', 'awaiting_dashboard', 'succeeded', 'failed')`),
    check('refunds_amount_check', sql`${t.amountMinor} > 0`),
  ],
);

/**
 * Referral bonuses paid (decisions.md, referral bonus): one row per referred user, written with the
 * credits when the user's first trip completes, so the bonus is paid at most once per referred user.
 */
export const referralBonuses = pgTable('referral_bonuses', {
  referredUid: text('referred_uid').primaryKey(),
  referrerUid: text('referrer_uid').notNull(),
  /** The first completed trip; null for a bonus paid at sign-up before issue 15. */
  bookingId: text('booking_id'),
  amountMinor: minor('amount_minor').notNull(),
  at: ms('at').notNull(),
});

/** The append-only wallet ledger: a user's balance is the sum of its entries. */
export const walletEntries = pgTable(
  'wallet_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    uid: text('uid').notNull().references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    /** Signed minor units: credits positive, debits and withdrawals negative. */
    amountMinor: minor('amount_minor').notNull(),
    /** The entry's currency code (issue 17): its booking's, else the one in force when written. */
    currency: text('currency').notNull(),
    txRef: text('tx_ref').notNull(),
    bookingId: text('booking_id'),
    at: ms('at').notNull(),
  },
  (t) => [index('wallet_entries_uid_idx').on(t.uid, t.at)],
);

export const withdraws = pgTable(
  'withdraws',
  {
    id: text('id').primaryKey(),
    uid: text('uid').notNull().references(() => users.id, { onDelete: 'cascade' }),
    date: ms('date').notNull(),
    name: text('name').notNull(),
    amountMinor: minor('amount_minor').notNull(),
    /** The currency code in force when it was requested (issue 17). */
    currency: text('currency').notNull(),
    processed: boolean('processed').notNull().default(false),
    /** Issue 17: an admin refused it and the amount went back to the wallet; never with processed. */
    rejected: boolean('rejected').notNull().default(false),
    /** When an admin decided it, paid out or rejected. */
    procesDate: ms('proces_date'),
    bankName: text('bank_name'),
    bankCode: text('bank_code'),
    bankAccount: text('bank_account'),
  },
  (t) => [index('withdraws_uid_idx').on(t.uid)],
);

export const languages = pgTable('languages', {
  code: text('code').primaryKey(),
  name: text('name').notNull(),
  dir: text('dir').notNull(),
  isDefault: boolean('is_default').notNull().default(false),
  position: integer('position').notNull(),
  messages: jsonb('messages').$type<Record<string, string>>().notNull(),
});

/** Messages that leave the system (mail, SMS, push, events), written in the transaction of their cause. */
export const outbox = pgTable(
  'outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    channel: text('channel').notNull(),
    recipient: text('recipient').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: ms('created_at').notNull(),
    deliveredAt: ms('delivered_at'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** When a failed delivery may be tried again. */
    nextAttemptAt: ms('next_attempt_at'),
    /** Events only: their place in the one ordered stream clients resume from (issue 5). */
    seq: bigint('seq', { mode: 'number' }),
    /** Push only: when the recipient read it in the app's inbox (issue 19). */
    readAt: ms('read_at'),
    /** SMS and mail: when delivery was given up (a permanent refusal or the last attempt failed), for admins to see. */
    failedAt: ms('failed_at'),
  },
  (t) => [
    index('outbox_pending_idx').on(t.channel, t.deliveredAt),
    index('outbox_inbox_idx').on(t.recipient, t.id).where(sql`${t.channel} = 'push'`),
    uniqueIndex('outbox_event_seq_key').on(t.seq),
    index('outbox_event_topic_idx').on(t.recipient, t.seq).where(sql`${t.channel} = 'event'`),
  ],
);

/** Durable scheduled work (book-later dispatch, retries). */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    runAt: ms('run_at').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    lockedUntil: ms('locked_until'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    doneAt: ms('done_at'),
  },
  (t) => [index('jobs_due_idx').on(t.doneAt, t.runAt)],
);

/** Devices that take push messages: browsers by Web Push, phones by their platform's token. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    uid: text('uid').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** webpush, fcm or apns. */
    kind: text('kind').notNull(),
    /** The Web Push endpoint, or the phone's token. */
    endpoint: text('endpoint').notNull(),
    keys: jsonb('keys').$type<{ p256dh: string; auth: string }>(),
    platform: text('platform'),
    createdAt: ms('created_at').notNull(),
  },
  (t) => [uniqueIndex('push_subscriptions_endpoint_key').on(t.endpoint), index('push_subscriptions_uid_idx').on(t.uid)],
);

/**
 * Issue 19: one row per device a push message from the outbox reached, written in the relay's
 * transaction: a retry of the message skips these devices. Expo's ticket waits here for its receipt.
 */
export const pushDeliveries = pgTable(
  'push_deliveries',
  {
    outboxId: bigint('outbox_id', { mode: 'number' }).notNull().references(() => outbox.id, { onDelete: 'cascade' }),
    /** The Web Push endpoint or the phone's token. */
    device: text('device').notNull(),
    /** webpush, fcm or expo. */
    kind: text('kind').notNull(),
    /** The admin's notification the message belongs to, if any (its delivered count). */
    notificationId: text('notification_id'),
    /** Expo's ticket id, whose receipt is read later. */
    ticket: text('ticket'),
    receiptCheckedAt: ms('receipt_checked_at'),
    deliveredAt: ms('delivered_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.outboxId, t.device] }),
    index('push_deliveries_notification_idx').on(t.notificationId),
    index('push_deliveries_receipt_idx').on(t.deliveredAt).where(sql`${t.ticket} IS NOT NULL AND ${t.receiptCheckedAt} IS NULL`),
  ],
);

/** Keys the server makes for itself once (the Web Push VAPID pair), shared by every process. */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: jsonb('value').$type<Record<string, string>>().notNull(),
});

/**
 * `Idempotency-Key`s of the writes money and trips depend on (http/idempotency.ts): one row per
 * user and key, claimed before the handler runs, spent in the write's own transaction, and
 * holding the first answer to replay. Kept 24 hours.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    uid: text('uid').notNull().references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** The route it was first used on, e.g. `POST /api/bookings/:id/pay`. */
    endpoint: text('endpoint').notNull(),
    /** SHA-256 of the route, its path parameters and the parsed body. */
    fingerprint: text('fingerprint').notNull(),
    /** in_flight (claimed), committed (its write committed, answer not yet stored) or done. */
    state: text('state').notNull(),
    /** The claim's token: only its holder may spend the key or store the answer. */
    owner: text('owner').notNull(),
    /** When the claim was taken (or taken over): an in_flight claim is held for a minute. */
    lockedAt: ms('locked_at').notNull(),
    statusCode: integer('status_code'),
    contentType: text('content_type'),
    response: text('response'),
    createdAt: ms('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.uid, t.key] }),
    index('idempotency_keys_created_idx').on(t.createdAt),
    check('idempotency_keys_state_check', sql`${t.state} in ('in_flight', 'committed', 'done')`),
  ],
);

/**
 * Checkouts and off-session charges started at a payment provider (issue 18): the intent is
 * written before the provider is called and the provider's checkout id after, outside any
 * transaction, so a crash in between is settled by the lookup job (payments/lookup-job.ts).
 */
export const paymentAttempts = pgTable(
  'payment_attempts',
  {
    /** Ours: also the idempotency key sent to the provider, and the return URL's `attempt`. */
    id: text('id').primaryKey(),
    provider: text('provider').notNull(),
    /** booking or topup. */
    purpose: text('purpose').notNull(),
    /** The booking's or top-up's id. */
    reference: text('reference').notNull(),
    uid: text('uid').notNull(),
    /** checkout (the rider at the provider's page) or off_session (a saved card charged). */
    kind: text('kind').notNull().default('checkout'),
    amountMinor: minor('amount_minor').notNull(),
    currency: text('currency').notNull(),
    /** The provider's id of the checkout (session, order, client token's order), once it answered. */
    checkoutId: text('checkout_id'),
    /** open, succeeded, failed, expired, or error (the provider refused to start it). */
    status: text('status').notNull(),
    saveCard: boolean('save_card').notNull().default(false),
    lastError: text('last_error'),
    createdAt: ms('created_at').notNull(),
    updatedAt: ms('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('payment_attempts_checkout_key').on(t.provider, t.checkoutId),
    index('payment_attempts_open_idx').on(t.status, t.createdAt),
    index('payment_attempts_reference_idx').on(t.reference),
    check('payment_attempts_status_check', sql`${t.status} in ('open', 'succeeded', 'failed', 'expired', 'error')`),
  ],
);

/**
 * Every notification, lookup answer and completion a provider gave, recorded once per provider
 * and event id: a replay finds its row and changes nothing (issue 18).
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    /** The normalised type (payment_succeeded, refund_failed, dispute_opened, ignored, ...). */
    type: text('type').notNull(),
    /** notification, lookup, complete, off_session or test. */
    source: text('source').notNull(),
    reference: text('reference'),
    transactionId: text('transaction_id'),
    amountMinor: minor('amount_minor'),
    currency: text('currency'),
    /** What the platform did with it: paid, credited, mismatch, refunded_late, failed, settled, recorded, ignored, unknown_reference. */
    outcome: text('outcome').notNull(),
    detail: text('detail'),
    receivedAt: ms('received_at').notNull(),
  },
  (t) => [uniqueIndex('payment_events_provider_event_key').on(t.provider, t.eventId), index('payment_events_received_idx').on(t.receivedAt)],
);

/** Cards on file at a provider (Stripe customer + payment method): never a card number. */
export const savedCards = pgTable(
  'saved_cards',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    uid: text('uid').notNull().references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    customerId: text('customer_id').notNull(),
    paymentMethodId: text('payment_method_id').notNull(),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    expMonth: integer('exp_month').notNull(),
    expYear: integer('exp_year').notNull(),
    createdAt: ms('created_at').notNull(),
  },
  (t) => [uniqueIndex('saved_cards_method_key').on(t.provider, t.paymentMethodId), index('saved_cards_uid_idx').on(t.uid)],
);

/** Wallet top-ups by card: credited to the wallet (txRef TopUp) only on the provider's confirmation, once. */
export const topups = pgTable(
  'topups',
  {
    id: text('id').primaryKey(),
    uid: text('uid').notNull().references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    amountMinor: minor('amount_minor').notNull(),
    currency: text('currency').notNull(),
    /** pending, credited or failed. */
    status: text('status').notNull(),
    transactionId: text('transaction_id'),
    createdAt: ms('created_at').notNull(),
    creditedAt: ms('credited_at'),
  },
  (t) => [
    index('topups_uid_idx').on(t.uid, t.createdAt),
    check('topups_status_check', sql`${t.status} in ('pending', 'credited', 'failed')`),
    check('topups_amount_check', sql`${t.amountMinor} > 0`),
  ],
);

/**
 * Issue 20 point 3: a driver's documents, each kind with its expiry day (YYYY-MM-DD in the
 * operator's time zone), reviewed by an admin or the driver's fleet admin. History is kept: a new
 * upload replaces a pending one of its kind, while reviewed ones stay (decisions.md).
 */
export const driverDocuments = pgTable(
  'driver_documents',
  {
    id: text('id').primaryKey(),
    uid: text('uid').notNull().references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    /** The vehicle a registration or insurance belongs to; none for the licence and ID (issue 20 point 3). */
    vehicleId: text('vehicle_id').references(() => vehicles.id, { onDelete: 'cascade' }),
    /** The stored image's URL (/api/files/documents/…). */
    image: text('image').notNull(),
    expiresOn: text('expires_on').notNull(),
    status: text('status').notNull().default('pending'),
    reason: text('reason'),
    reviewedBy: text('reviewed_by'),
    reviewedAt: ms('reviewed_at'),
    createdAt: ms('created_at').notNull(),
    /** When each expiry reminder went out (once each), and when the expiry itself was dealt with. */
    reminded30At: ms('reminded_30_at'),
    reminded7At: ms('reminded_7_at'),
    expiryHandledAt: ms('expiry_handled_at'),
  },
  (t) => [
    index('driver_documents_uid_idx').on(t.uid, t.kind, t.createdAt),
    index('driver_documents_status_idx').on(t.status, t.createdAt),
    index('driver_documents_vehicle_idx').on(t.vehicleId, t.kind, t.createdAt),
    // The files route finds the driver a stored document belongs to.
    uniqueIndex('driver_documents_image_key').on(t.image),
    check('driver_documents_kind_check', sql`${t.kind} in ('licence_front', 'licence_back', 'id', 'registration', 'insurance')`),
    check('driver_documents_status_check', sql`${t.status} in ('pending', 'approved', 'rejected')`),
    // The driver's own papers never belong to a vehicle.
    check('driver_documents_vehicle_check', sql`${t.vehicleId} is null or ${t.kind} in ('registration', 'insurance')`),
    check('driver_documents_expires_on_check', sql`${t.expiresOn} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`),
  ],
);

/**
 * Issue 20 point 5: a staff member's TOTP (authenticator app) secret, enabled once confirmed; the
 * last time step accepted (a code is never accepted twice) and the wrong codes of the current window.
 */
export const twoFactor = pgTable('two_factor', {
  uid: text('uid').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  enabledAt: ms('enabled_at'),
  lastTimeStep: ms('last_time_step'),
  failedCount: integer('failed_count').notNull().default(0),
  failedSince: ms('failed_since'),
  createdAt: ms('created_at').notNull(),
});

/** Single-use recovery codes, by their SHA-256. */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    uid: text('uid').notNull().references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: ms('used_at'),
  },
  (t) => [primaryKey({ columns: [t.uid, t.codeHash] })],
);

/** A sign-in waiting for its second step (a code, or enrolment first when the setting requires it). */
export const twoFactorChallenges = pgTable(
  'two_factor_challenges',
  {
    tokenHash: text('token_hash').primaryKey(),
    uid: text('uid').notNull().references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    next: text('next'),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    expiresAt: ms('expires_at').notNull(),
  },
  (t) => [
    index('two_factor_challenges_uid_idx').on(t.uid),
    index('two_factor_challenges_expires_at_idx').on(t.expiresAt),
    check('two_factor_challenges_purpose_check', sql`${t.purpose} IN ('code', 'enrol')`),
  ],
);

/**
 * Issue 20 point 6: each time an admin approved or suspended an account, with the reason (required
 * for a suspension), who did it and when; the user's detail page shows this history.
 */
export const userStatusChanges = pgTable(
  'user_status_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    uid: text('uid').notNull().references(() => users.id, { onDelete: 'cascade' }),
    approved: boolean('approved').notNull(),
    reason: text('reason'),
    changedBy: text('changed_by').references(() => users.id, { onDelete: 'set null' }),
    changedAt: ms('changed_at').notNull(),
  },
  (t) => [index('user_status_changes_uid_idx').on(t.uid, t.changedAt)],
);

/**
 * Issue 20 point 3: a driver's vehicles, each reviewed by an admin or the driver's fleet admin.
 * One at most is active (the partial unique index); the user's carType, vehicleMake,
 * vehicleModel and vehicleNumber mirror it (modules/vehicles/service.ts).
 */
export const vehicles = pgTable(
  'vehicles',
  {
    id: text('id').primaryKey(),
    uid: text('uid').notNull().references(() => users.id, { onDelete: 'cascade' }),
    carType: text('car_type').notNull(),
    vehicleMake: text('vehicle_make'),
    vehicleModel: text('vehicle_model'),
    vehicleNumber: text('vehicle_number'),
    /** The number as people compare plates (domain plateKey): unique per driver. */
    numberKey: text('number_key'),
    /** The stored photo's URL (/api/files/documents/…); none for a vehicle from a sign-up form. */
    image: text('image'),
    status: text('status').notNull().default('pending'),
    reason: text('reason'),
    reviewedBy: text('reviewed_by'),
    reviewedAt: ms('reviewed_at'),
    active: boolean('active').notNull().default(false),
    createdAt: ms('created_at').notNull(),
  },
  (t) => [
    index('vehicles_uid_idx').on(t.uid, t.createdAt),
    index('vehicles_status_idx').on(t.status, t.createdAt),
    uniqueIndex('vehicles_one_active').on(t.uid).where(sql`${t.active}`),
    uniqueIndex('vehicles_number_key').on(t.uid, t.numberKey),
    uniqueIndex('vehicles_image_key').on(t.image),
    check('vehicles_status_check', sql`${t.status} in ('pending', 'approved', 'rejected')`),
  ],
);

/**
 * Issue 23 point 8: the audit log. Each admin's and fleet admin's change, written in the change's
 * own transaction (a change is never without its entry, a refused one leaves none): who (the
 * account and its type then), when, the action and the entity it changed, and the changed fields'
 * values before and after (secrets redacted; domain auditChange). Entries are not changed after,
 * but for erasing a deleted person's data from the entries about the account (decisions.md).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: ms('at').notNull(),
    actorUid: text('actor_uid').references(() => users.id, { onDelete: 'set null' }),
    actorUsertype: text('actor_usertype').notNull(),
    /** The domain's AUDIT_ACTIONS: user.update, settings.update, wallet.credit, ... */
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    /** The changed fields' values before (null for a creation) and after (null for a deletion). */
    before: jsonb('before').$type<AuditValues>(),
    after: jsonb('after').$type<AuditValues>(),
    /** The request that made the change, as the server's log lines name it. */
    requestId: text('request_id'),
  },
  (t) => [
    // Newest first is the primary key's order; a date range, an entity's history and an actor's work each have an index.
    index('audit_log_at_idx').on(t.at),
    index('audit_log_entity_idx').on(t.entityType, t.entityId, t.id),
    index('audit_log_actor_idx').on(t.actorUid, t.id),
    index('audit_log_action_idx').on(t.action, t.id),
  ],
);
