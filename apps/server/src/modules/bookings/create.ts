import { randomUUID } from 'node:crypto';
import type { BookingRequest } from '@rideway/contract';
import { bookingOtp, bookingReference, fareBreakdownMinor, fromMinor, initialBookingStatus, isBookLaterLeadMet, toMinor, validateDeliveryDetails } from '@rideway/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { recordAudit } from '../../audit/record';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { bookings, promos, promoUses, users } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError, unwrap } from '../../http/app-error';
import { providersInForce } from '../../providers/payments/in-force';
import { availableDriversNear, beginDispatch } from '../dispatch/service';
import { languageMap } from '../languages/service';
import { getSettings } from '../settings/service';
import { findUser, type UserRow } from '../users/accounts';
import { findPromo, promoOffer } from '../promos/offer';
import { estimateTrip } from './estimate';
import type { BookingRow } from '../dispatch/booking-view';

/** Applies a promo inside the booking's transaction: counted once per rider, never past its limit. */
async function applyPromo(tx: Tx, name: string, riderUid: string, bookingId: string, tripCost: number, now: number) {
  const promo = await findPromo(tx, name, true);
  const offer = await promoOffer(tx, promo, { riderUid, tripCost, now });
  await tx.update(promos).set({ userAvail: sql`${promos.userAvail} + 1` }).where(eq(promos.id, promo.id));
  await tx.insert(promoUses).values({ promoId: promo.id, uid: riderUid, bookingId, at: now });
  return offer;
}

/** Book later (decisions.md): a trip date at most this far ahead. */
export const BOOK_LATER_MAX_AHEAD_MS = 30 * 24 * 3600_000;
/** Book later (decisions.md): at most this many of a rider's later bookings open (waiting for a driver) at once. */
export const MAX_OPEN_BOOK_LATER = 5;
/** The statuses in which a later booking still waits for a driver. */
const OPEN_BOOK_LATER_STATUSES = ['NEW', 'PAYMENT_PENDING'];

/**
 * Refuses a later booking past the rider's limit. The rider's row is locked first, so parallel
 * requests of one rider are counted one after the other.
 */
async function checkOpenBookLater(tx: Tx, riderUid: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, riderUid)).for('update');
  const open = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(bookings)
    .where(and(eq(bookings.customer, riderUid), eq(bookings.bookLater, true), inArray(bookings.status, OPEN_BOOK_LATER_STATUSES)));
  if ((open[0]?.count ?? 0) >= MAX_OPEN_BOOK_LATER) throw new AppError('book_later_limit');
}

/** The rider booked for: the caller, or the rider an admin books for (admin form; select_proper). */
async function customerOf(ctx: AppContext, actor: Actor, request: BookingRequest): Promise<UserRow> {
  const customer = actor.usertype !== 'admin' ? actor.user : request.customer === undefined ? undefined : await findUser(ctx.db, request.customer);
  // A deleted (anonymised) rider is no rider to book for (issue 20).
  if (customer?.usertype !== 'rider' || customer.deletedAt !== null) throw new AppError('select_proper', 'customer');
  return customer;
}

/**
 * `claim` runs first in the booking's transaction with the new booking's id: a retry (issue 17)
 * marks the booking it replaces there, so two retries of one booking cannot both book.
 */
type CreateOptions = { claim?: (tx: Tx, bookingId: string) => Promise<void> };

/**
 * POST /api/bookings (section 4 creation, section 5 booking rules). Every amount is computed
 * here from the car type and the maps route; amounts a client sends are never read.
 */
export async function createBooking(ctx: AppContext, actor: Actor, request: BookingRequest, options: CreateOptions = {}): Promise<BookingRow> {
  const settings = await getSettings(ctx.db);
  const now = ctx.now();
  // Section 5's order past the request's shape: the admin form's rider, the date ahead, the delivery details.
  if (actor.usertype === 'admin' && request.customer === undefined) throw new AppError('select_proper', 'customer');
  if (request.bookLater && !isBookLaterLeadMet(request.tripdate ?? 0, now)) throw new AppError('past_booking_error', 'tripdate');
  if (request.bookLater && (request.tripdate ?? 0) > now + BOOK_LATER_MAX_AHEAD_MS) throw new AppError('book_later_too_far', 'tripdate');
  const delivery = settings.appcat === 'delivery' ? unwrap(validateDeliveryDetails(request)) : undefined;
  const customer = await customerOf(ctx, actor, request);
  // A card booking needs a provider to pay it through: refused up front when none is in force.
  if (request.payment_mode === 'card' && (await providersInForce(ctx.db, ctx.config)).length === 0) throw new AppError('payment_provider_unavailable', 'payment_mode');
  const estimate = await estimateTrip(ctx, request, settings);
  const { pickup, drop } = request;

  // Section 5: book now needs an available driver in range; the quickest few to drive to the
  // pickup get the first offers. Looked up, road times included, before the transaction (the live
  // index may be Redis, the road times are a maps call); accept rechecks the driver.
  const offersNow = settings.autoDispatch && initialBookingStatus(settings.appcat, actor.usertype === 'admin') === 'NEW';
  const nearest = request.bookLater ? [] : await availableDriversNear(ctx, ctx.db, pickup, estimate.carType.name, settings, { limit: ctx.config.OFFER_BATCH_SIZE, byRoad: offersNow });
  if (!request.bookLater && nearest.length === 0) throw new AppError('no_driver_found_alert_messege');

  // The offers' push notices are written from the language files read here, from the process's cache.
  const languages = await languageMap(ctx.db);
  return ctx.db.transaction(async (tx) => {
    if (request.bookLater) await checkOpenBookLater(tx, customer.id);
    const id = randomUUID();
    await options.claim?.(tx, id);
    const tripCost = toMinor(estimate.grandTotal);
    const fees = toMinor(estimate.convenience_fees);
    const promo = request.promo ? await applyPromo(tx, request.promo, customer.id, id, estimate.grandTotal, now) : undefined;
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
      pickup,
      drop,
      estimateMinor: tripCost,
      estimateDistance: estimate.distance,
      distance: estimate.distance,
      estimateTime: estimate.duration,
      bookLater: request.bookLater,
      tripdate: request.bookLater ? (request.tripdate ?? now) : now,
      bookingDate: now,
      otp: bookingOtp(settings.otp_secure) || null,
      bookingTypeAdmin: madeByAdmin,
      tripCostMinor: tripCost,
      // Issue 17: the booking keeps the currency it was priced in, whatever the settings say later.
      currency: settings.code,
      convenienceFeesMinor: fees,
      driverShareMinor: tripCost - fees,
      discountMinor: discount,
      customerPaidMinor: tripCost - discount,
      payableAmountMinor: tripCost - discount,
      paymentMode: request.payment_mode,
      promoApplied: promo !== undefined,
      promoDetails: promo?.details ?? null,
      fareBreakdown: { ...fareBreakdownMinor(estimate.carType, { distance: estimate.distance, duration: estimate.duration }, estimate.extras), cap: 0 },
      delivery: delivery
        ? {
            ...delivery,
            ...(estimate.parcelTypeIndex !== undefined ? { parcelTypeIndex: estimate.parcelTypeIndex, parcelTypeSelected: estimate.carType.parcelTypes[estimate.parcelTypeIndex] } : {}),
            ...(estimate.optionIndex !== undefined ? { optionIndex: estimate.optionIndex, optionSelected: estimate.carType.options[estimate.optionIndex] } : {}),
          }
        : null,
      updatedAt: now,
    };
    const inserted = (await tx.insert(bookings).values(row).returning())[0];
    if (!inserted) throw new AppError('internal_error');
    // Issue 23 point 8: an admin's booking for a rider (section 2, /addbookings) is an admin's change.
    if (madeByAdmin) {
      const booked = { reference: inserted.reference, status: inserted.status, customer: inserted.customer, carType: inserted.carType, bookLater: inserted.bookLater, tripdate: inserted.tripdate, trip_cost: fromMinor(inserted.tripCostMinor), currency: inserted.currency, payment_mode: inserted.paymentMode };
      await recordAudit(tx, { actor, action: 'booking.create', entityId: inserted.id, before: null, after: booked, at: now });
    }
    return beginDispatch(ctx, tx, inserted, settings, now, request.bookLater ? undefined : { round: inserted.dispatchRound, fresh: nearest, again: [], languages });
  });
}
