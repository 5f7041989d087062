import type { Booking, DriverOffer, FareBreakdown, PaymentPacket } from '@rideway/contract';
import { fromMinor, kmInUnit, type BookingStatus, type PaymentMode, type UserType } from '@rideway/domain';
import type { bookings } from '../../db/schema';

/**
 * A booking as the API shows it (section 3). It lives with dispatch, the lowest of the trip
 * modules, because dispatch's live announcements carry it as well as every booking route's answer.
 */

export type BookingRow = typeof bookings.$inferSelect;

/** The statuses in which the rider owes a payment through a provider (section 4). */
export const PROVIDER_PAYMENT_STATUSES: readonly BookingStatus[] = ['PAYMENT_PENDING', 'PENDING'];

type DeliveryFields = Partial<Pick<Booking, 'deliveryPerson' | 'deliveryPersonPhone' | 'pickUpInstructions' | 'deliveryInstructions' | 'parcelTypeIndex' | 'optionIndex' | 'parcelTypeSelected' | 'optionSelected'>>;

/**
 * Section 3's payment packet while the rider owes a payment through a provider: a delivery paid
 * ahead (PAYMENT_PENDING) or a trip the driver handed over (PENDING). The amount is customer_paid,
 * what the card payment form charges.
 */
function paymentPacketOf(row: BookingRow): PaymentPacket | null {
  if (!PROVIDER_PAYMENT_STATUSES.includes(row.status as BookingStatus)) return null;
  const amount = fromMinor(row.customerPaidMinor);
  return {
    appcat: row.delivery ? 'delivery' : 'taxi',
    payment_mode: 'card',
    customer_paid: amount,
    discount_amount: 0,
    usedWalletMoney: 0,
    cardPaymentAmount: amount,
    cashPaymentAmount: 0,
    payableAmount: amount,
    promo_applied: false,
    promo_details: null,
  };
}

/** Issue 17: the booking's fare parts in major units, or null for a booking made before they were recorded. */
function fareBreakdownOf(row: BookingRow): FareBreakdown | null {
  const parts = row.fareBreakdown;
  if (!parts) return null;
  return {
    base_fare: fromMinor(parts.base),
    distance_fare: fromMinor(parts.distance),
    time_fare: fromMinor(parts.time),
    extras: fromMinor(parts.extras),
    min_fare_top_up: fromMinor(parts.minimum),
    fare_cap_reduction: fromMinor(parts.cap),
  };
}

/**
 * The rider's email and phone are for the rider, admins, and the driver who accepted the trip (and
 * that driver's fleet admin): a driver only offered the trip does not see them (decisions.md).
 */
function seesRiderContact(row: BookingRow, viewer: { uid: string; usertype: UserType }): boolean {
  if (viewer.usertype === 'admin' || viewer.uid === row.customer) return true;
  if (row.driver === null) return false;
  return viewer.uid === row.driver || (viewer.usertype === 'fleetadmin' && viewer.uid === row.fleetadmin);
}

/**
 * Push tokens are shown only to their owner. The booking for one viewer, money in major units. The trip OTP is the rider's to tell the
 * driver, so only the rider and admins see it; only admins see whom it is offered to.
 */
export function bookingView(row: BookingRow, viewer: { uid: string; usertype: UserType }): Booking {
  const seesOtp = viewer.usertype === 'admin' || viewer.uid === row.customer;
  const seesContact = seesRiderContact(row, viewer);
  return {
    id: row.id,
    booking_id: row.reference,
    carType: row.carType,
    carImage: row.carImage,
    customer: row.customer,
    customer_email: seesContact ? row.customerEmail : '',
    customer_name: row.customerName,
    customer_contact: seesContact ? row.customerContact : '',
    customer_token: viewer.uid === row.customer ? row.customerToken : null,
    customer_image: row.customerImage,
    pickup: row.pickup,
    drop: row.drop,
    pickupAddress: row.pickup.add,
    dropAddress: row.drop.add,
    estimate: fromMinor(row.estimateMinor),
    estimateDistance: row.estimateDistance,
    distance: row.distance,
    estimateTime: row.estimateTime,
    status: row.status as BookingStatus,
    bookLater: row.bookLater,
    tripdate: row.tripdate,
    bookingDate: row.bookingDate,
    otp: seesOtp && row.otp !== null ? row.otp : false,
    booking_type_admin: row.bookingTypeAdmin,
    coords: row.coords,
    trip_cost: fromMinor(row.tripCostMinor),
    convenience_fees: fromMinor(row.convenienceFeesMinor),
    driver_share: fromMinor(row.driverShareMinor),
    currency: row.currency,
    discount: fromMinor(row.discountMinor),
    discount_amount: fromMinor(row.discountMinor),
    paymentPacket: paymentPacketOf(row),
    driver: row.driver,
    driver_name: row.driverName,
    driver_image: row.driverImage,
    driver_contact: row.driverContact,
    driver_token: row.driver !== null && viewer.uid === row.driver ? row.driverToken : null,
    vehicle_number: row.vehicleNumber,
    vehicleMake: row.vehicleMake,
    vehicleModel: row.vehicleModel,
    driverRating: row.driverRating,
    fleetadmin: row.fleetadmin,
    driver_arrive_time: row.driverArriveTime,
    trip_start_time: row.tripStartTime,
    startTime: row.tripStartTime,
    trip_end_time: row.tripEndTime,
    endTime: row.tripEndTime,
    total_trip_time: row.totalTripTime,
    reason: row.reason,
    cancelledBy: row.cancelledBy as Booking['cancelledBy'],
    rating: row.rating,
    // The rider's words are for the rider and admins only (decisions.md, rating comments).
    ...(row.ratingComment !== null && (viewer.usertype === 'admin' || viewer.uid === row.customer) ? { rating_comment: row.ratingComment } : {}),
    fare_breakdown: fareBreakdownOf(row),
    cashPaymentAmount: fromMinor(row.cashPaymentAmountMinor),
    cardPaymentAmount: fromMinor(row.cardPaymentAmountMinor),
    usedWalletMoney: fromMinor(row.usedWalletMoneyMinor),
    payableAmount: fromMinor(row.payableAmountMinor),
    customer_paid: fromMinor(row.customerPaidMinor),
    prepaid: row.prepaid,
    payment_mode: row.paymentMode as PaymentMode,
    gateway: row.gateway,
    promo_applied: row.promoApplied,
    promo_details: (row.promoDetails ?? null) as Booking['promo_details'],
    pickup_image: row.pickupImage,
    deliver_image: row.deliverImage,
    requestedDrivers: viewer.usertype === 'admin' ? row.requestedDrivers : {},
    cancellationCharge: fromMinor(row.cancellationChargeMinor),
    ...(row.refundAmountMinor > 0 ? { refundAmount: fromMinor(row.refundAmountMinor) } : {}),
    fareCapped: row.uncappedFareMinor !== null,
    uncappedFare: row.uncappedFareMinor === null ? null : fromMinor(row.uncappedFareMinor),
    // Issue 17: the rider's live search state; a count of rounds names no driver.
    search_round: row.dispatchRound,
    retried_as: viewer.usertype === 'admin' || viewer.uid === row.customer ? row.retriedAs : null,
    ...((row.delivery ?? {}) as DeliveryFields),
  };
}

/**
 * The booking as live events carry it: one view for every follower, so it is serialized once.
 * It holds neither the trip OTP, the offers nor any push token; the rider and admins read those
 * by GET. The rider's contact is in it only for the trip's parties (`partyBookingView`), never in
 * what the drivers offered the trip receive.
 */
export const publicBookingView = (row: BookingRow): Booking => bookingView(row, { uid: '', usertype: 'driver' });

/** The live view for the trip's parties (rider, accepting driver, its fleet admin, admins): the rider's contact once accepted. */
export function partyBookingView(row: BookingRow): Booking {
  const view = publicBookingView(row);
  return row.driver === null ? view : { ...view, customer_email: row.customerEmail, customer_contact: row.customerContact };
}

/** The fields an offer adds for the one driver it is made to (issue 17). */
export type OfferFields = Pick<DriverOffer, 'pickupLeg' | 'offerExpiresAt'>;

/**
 * That driver's own road leg to the pickup (distance in the settings' unit, duration in seconds)
 * and when its offer times out: a round's offer OFFER_TIMEOUT_S after the round began; an admin's
 * assignment has no timeout. Never another driver's leg.
 */
export function offerFieldsFor(row: BookingRow, uid: string, convertToMile: boolean): OfferFields {
  const leg = row.offerLegs[uid];
  return {
    pickupLeg: leg ? { distance: Math.round(kmInUnit(leg.distanceKm, convertToMile) * 1000) / 1000, duration: Math.round(leg.durationSeconds) } : null,
    offerExpiresAt: row.offeredDrivers.includes(uid) ? row.offerExpiresAt : null,
  };
}

/** A trip offered to the driver viewing it: the booking as that driver sees it, with its offer's fields. */
export const driverOfferView = (row: BookingRow, viewer: { uid: string; usertype: UserType }, convertToMile: boolean): DriverOffer => ({
  ...bookingView(row, viewer),
  ...offerFieldsFor(row, viewer.uid, convertToMile),
});
