import { randomUUID } from 'node:crypto';
import {
  bookingOtp,
  bookingReference,
  fieldOf,
  fromMinor,
  initialBookingStatus,
  isPaymentMode,
  promoDiscount,
  textOf,
  toMinor,
  validateBookingForm,
} from '@rideway/domain';
import { and, eq, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { bookings, promos, promoUses } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError, unwrap } from '../../http/app-error';
import { availableDriversNear, beginDispatch } from '../dispatch/service';
import { getSettings } from '../settings/service';
import { findUser } from '../users/accounts';
import { estimateTrip } from './estimate';
import type { BookingRow } from './view';

/** Applies a promo inside the booking's transaction: counted once per rider, never past its limit. */
async function applyPromo(tx: Tx, name: string, riderUid: string, bookingId: string, tripCost: number, now: number) {
  const promo = (await tx.select().from(promos).where(eq(promos.promoName, name.trim().toUpperCase())).for('update'))[0];
  if (!promo) throw new AppError('promo_not_found', 'promo');
  const used = await tx.select({ uid: promoUses.uid }).from(promoUses).where(and(eq(promoUses.promoId, promo.id), eq(promoUses.uid, riderUid))).limit(1);
  const discount = unwrap(
    promoDiscount(
      {
        promo_discount_type: promo.promoDiscountType as 'flat' | 'percentage',
        promo_discount_value: fromMinor(promo.promoDiscountValueHundredths),
        max_promo_discount_value: fromMinor(promo.maxPromoDiscountValueMinor),
        min_order: fromMinor(promo.minOrderMinor),
        promo_validity: promo.promoValidity,
        promo_usage_limit: promo.promoUsageLimit,
        user_avail: promo.userAvail,
      },
      { tripCost, now, usedByRider: used.length > 0 },
    ),
  );
  await tx.update(promos).set({ userAvail: sql`${promos.userAvail} + 1` }).where(eq(promos.id, promo.id));
  await tx.insert(promoUses).values({ promoId: promo.id, uid: riderUid, bookingId, at: now });
  return { discount, details: { promo_name: promo.promoName, promo_discount_type: promo.promoDiscountType, promo_discount_value: fromMinor(promo.promoDiscountValueHundredths) } };
}

/**
 * POST /api/bookings (section 4 creation, section 5 booking rules). Every amount is computed
 * here from the car type and the maps route; amounts a client sends are never read.
 */
export async function createBooking(ctx: AppContext, actor: Actor, input: unknown): Promise<BookingRow> {
  const settings = await getSettings(ctx.db);
  const now = ctx.now();
  const form = unwrap(validateBookingForm(input, { form: actor.usertype === 'admin' ? 'admin' : 'rider', user: actor, appCategory: settings.appcat, now }));
  const paymentValue = fieldOf(input, 'payment_mode') ?? 'cash';
  if (!isPaymentMode(paymentValue)) throw new AppError('payment_mode_invalid', 'payment_mode');
  const customer = form.customer ? await findUser(ctx.db, form.customer) : actor.user;
  if (customer?.usertype !== 'rider') throw new AppError('select_proper', 'customer');
  const estimate = await estimateTrip(ctx, { pickup: form.pickup, drop: form.drop, carType: form.carType, parcelTypeIndex: fieldOf(input, 'parcelTypeIndex'), optionIndex: fieldOf(input, 'optionIndex') }, settings);
  const promoName = fieldOf(input, 'promo');
  if (promoName !== undefined && promoName !== '' && !textOf(promoName, 50)) throw new AppError('promo_not_found', 'promo');

  return ctx.db.transaction(async (tx) => {
    // Section 5: book now needs an available driver in range; the nearest few get the first offers.
    const nearest = form.bookLater ? [] : await availableDriversNear(ctx, tx, form.pickup, estimate.carType.name, settings, { limit: ctx.config.OFFER_BATCH_SIZE });
    if (!form.bookLater && nearest.length === 0) throw new AppError('no_driver_found_alert_messege');
    const id = randomUUID();
    const tripCost = toMinor(estimate.grandTotal);
    const fees = toMinor(estimate.convenience_fees);
    const promo = typeof promoName === 'string' && promoName !== '' ? await applyPromo(tx, promoName, customer.id, id, estimate.grandTotal, now) : undefined;
    const discount = promo ? toMinor(promo.discount) : 0;
    const madeByAdmin = actor.usertype === 'admin';
    const row: typeof bookings.$inferInsert = {
      id,
      reference: bookingReference(),
      status: initialBookingStatus(settings.appcat, madeByAdmin),
      carType: estimate.carType.name,
      carImage: estimate.carType.image || null,
      customer: customer.id,
      customerName: `${customer.firstName} ${customer.lastName}`,
      customerEmail: customer.email ?? '',
      customerContact: customer.mobile ?? '',
      customerToken: customer.pushToken,
      customerImage: customer.profileImage,
      pickup: form.pickup,
      drop: form.drop,
      estimateMinor: tripCost,
      estimateDistance: estimate.distance,
      distance: estimate.distance,
      estimateTime: estimate.duration,
      bookLater: form.bookLater,
      tripdate: form.tripdate,
      bookingDate: now,
      otp: bookingOtp(settings.otp_secure) || null,
      bookingTypeAdmin: madeByAdmin,
      tripCostMinor: tripCost,
      convenienceFeesMinor: fees,
      driverShareMinor: tripCost - fees,
      discountMinor: discount,
      customerPaidMinor: tripCost - discount,
      payableAmountMinor: tripCost - discount,
      paymentMode: paymentValue,
      promoApplied: promo !== undefined,
      promoDetails: promo?.details ?? null,
      delivery: form.delivery
        ? {
            ...form.delivery,
            ...(estimate.parcelTypeIndex !== undefined ? { parcelTypeIndex: estimate.parcelTypeIndex, parcelTypeSelected: estimate.carType.parcelTypes[estimate.parcelTypeIndex] } : {}),
            ...(estimate.optionIndex !== undefined ? { optionIndex: estimate.optionIndex, optionSelected: estimate.carType.options[estimate.optionIndex] } : {}),
          }
        : null,
      updatedAt: now,
    };
    const inserted = (await tx.insert(bookings).values(row).returning())[0];
    if (!inserted) throw new AppError('internal_error');
    return beginDispatch(ctx, tx, inserted, settings, now, nearest);
  });
}

/** GET /api/bookings: the caller's scope of bookings, newest first (section 6). */
export function scopeOf(actor: Actor) {
  switch (actor.usertype) {
    case 'admin':
      return undefined;
    case 'rider':
      return eq(bookings.customer, actor.uid);
    case 'driver':
      return or(eq(bookings.driver, actor.uid), and(eq(bookings.status, 'NEW'), sql`(${bookings.requestedDrivers} -> ${actor.uid}) is not null`));
    case 'fleetadmin':
      return eq(bookings.fleetadmin, actor.uid);
  }
}
