import {
  appendRating,
  boundedFareMinor,
  cancelRefund,
  cancellationCharge,
  fareBreakdownMinor,
  fareForMinor,
  fromMinor,
  kmInUnit,
  settlePayment,
  toMinor,
  type BookingStatus,
  type LatLng,
  type PaymentMode,
} from '@rideway/domain';
import { eq } from 'drizzle-orm';
import { carTypes, users } from '../../db/schema';
import { toApiCarType } from '../cartypes/service';
import { recordDrop } from '../places/service';
import { addTrackingPoint } from '../presence/service';
import { appendEntry, takeFromWallet } from '../wallet/ledger';
import type { Tx } from '../../db/client';
import type { RouteDriven } from './before-step';
import { paidAhead, refundPaidAhead } from './refunds';
import type { StepChange, StepEffect } from './step';

/**
 * The named effects of section 4's steps. Each runs inside the step's transaction after the
 * domain accepted the step, writes what it owns, and returns the booking columns it changes.
 */

/** STARTED and REACHED record a tracking point at the driver's newest position (section 4). */
export const trackingPoint = (position: LatLng | undefined): StepEffect => async (tx, { booking, plan, now }) => {
  if (!position || !booking.driver) return undefined;
  await addTrackingPoint(tx, { bookingId: booking.id, status: plan.to, lat: position.lat, lng: position.lng, at: now }, { uids: [booking.customer, booking.driver], fleetadmin: booking.fleetadmin, admins: true });
  return undefined;
};

/**
 * REACHED in taxi mode: the fare is recomputed over the route driven and the time driven, bounded
 * by the estimate plus `fareMarginPercent` (decisions.md, fare integrity), the discount kept but
 * never above it, and the drop is where the trip ended (section 4).
 */
export const reachFare = (driven: RouteDriven | undefined): StepEffect => async (tx, { booking, plan, settings }) => {
  if (!driven || settings.appcat !== 'taxi') return undefined;
  const carType = (await tx.select().from(carTypes).where(eq(carTypes.name, booking.carType)).limit(1))[0];
  if (!carType) return undefined;
  const distance = Math.round(kmInUnit(driven.km, settings.convert_to_mile) * 1000) / 1000;
  const rates = toApiCarType(carType);
  const measured = { distance, duration: plan.set.total_trip_time ?? booking.totalTripTime ?? booking.estimateTime };
  const drivenFare = fareForMinor(rates, measured);
  // Fare integrity: never above the estimate plus the settings' margin; the cap is recorded.
  const fare = boundedFareMinor(drivenFare, booking.estimateMinor, settings.fareMarginPercent);
  const discount = Math.min(booking.discountMinor, fare.grandTotal);
  return {
    uncappedFareMinor: fare.uncapped,
    // Issue 17: the parts of the fare driven, and what the cap took off them (fee excluded).
    fareBreakdown: { ...fareBreakdownMinor(rates, measured), cap: drivenFare.totalCost - fare.totalCost },
    distance,
    tripCostMinor: fare.grandTotal,
    convenienceFeesMinor: fare.convenience_fees,
    driverShareMinor: fare.totalCost,
    discountMinor: discount,
    customerPaidMinor: fare.grandTotal - discount,
    payableAmountMinor: fare.grandTotal - discount,
    drop: { lat: driven.end.lat, lng: driven.end.lng, add: driven.address },
  };
};

/** REACHED: the drop joins the rider's saved addresses, or counts once more for a near one (section 4). */
export const saveDrop: StepEffect = async (tx, { booking, columns, settings }) => {
  await recordDrop(tx, booking.customer, columns.drop ?? booking.drop, settings.convert_to_mile);
  return undefined;
};

/** PAID: section 4's money moves between the rider's and the driver's wallets, and the amounts paid. */
export const settlement: StepEffect = async (tx, { booking, plan, columns, now }) => {
  if (!plan.settles) return undefined;
  const settled = settlePayment({
    trip_cost: fromMinor(booking.tripCostMinor),
    discount: fromMinor(booking.discountMinor),
    driver_share: fromMinor(booking.driverShareMinor),
    payment_mode: (columns.paymentMode ?? booking.paymentMode) as PaymentMode,
    prepaid: booking.prepaid,
  });
  for (const move of settled.moves) {
    const uid = move.party === 'driver' ? booking.driver : booking.customer;
    if (!uid) continue;
    const entry = { uid, type: move.type, amountMinor: move.amount, txRef: move.txRef, at: now, bookingId: booking.id } as const;
    if (move.party === 'customer') await takeFromWallet(tx, { ...entry, type: 'Debit' });
    else await appendEntry(tx, entry);
  }
  return {
    customerPaidMinor: settled.customer_paid,
    cashPaymentAmountMinor: settled.cashPaymentAmount,
    cardPaymentAmountMinor: settled.cardPaymentAmount,
    usedWalletMoneyMinor: settled.usedWalletMoney,
    payableAmountMinor: settled.payableAmount,
  };
};

/** A delivery paid ahead from the wallet (PAYMENT_PENDING to NEW): the money is taken now. */
export const walletPaidAhead: StepEffect = async (tx, { booking, plan, columns, now }) => {
  if (plan.from !== 'PAYMENT_PENDING' || plan.to !== 'NEW' || columns.paymentMode !== 'wallet') return undefined;
  await takeFromWallet(tx, { uid: booking.customer, type: 'Debit', amountMinor: booking.customerPaidMinor, txRef: 'TripPayment', at: now, bookingId: booking.id });
  return { usedWalletMoneyMinor: booking.customerPaidMinor, payableAmountMinor: 0 };
};

/** The car type's cancellation charge for this cancel (decisions.md), in minor units. */
async function chargeFor(tx: Tx, { booking, plan, now }: StepChange): Promise<number> {
  if (!booking.driver) return 0;
  const carType = (await tx.select({ cancelSlab: carTypes.cancelSlab }).from(carTypes).where(eq(carTypes.name, booking.carType)).limit(1))[0];
  const slabs = (carType?.cancelSlab ?? []).map((slab) => ({ minsDelayed: slab.minsDelayed, amount: fromMinor(slab.amount) }));
  const cancelledBy = (plan.set.cancelledBy ?? 'system') as 'rider' | 'admin' | 'system';
  return toMinor(cancellationCharge({ slabs, status: booking.status as BookingStatus, cancelledBy, acceptedAt: booking.acceptedAt, now, tripCost: fromMinor(booking.tripCostMinor) }));
}

/**
 * CANCELLED: the car type's cancellation charge, and the money paid ahead given back
 * (decisions.md, cancellation charge and refund on cancel). The charge is kept first from what the
 * rider paid ahead; the rest goes back the way it came (wallet at once, card through its provider);
 * a charge the payment did not cover is owed from the wallet, even below zero. The driver who was
 * on the way is credited the whole charge.
 */
export const cancelCharge: StepEffect = async (tx, change) => {
  const { booking, now } = change;
  const charge = await chargeFor(tx, change);
  const paid = await paidAhead(tx, booking);
  const { refund, owed } = cancelRefund({ paid: paid?.amountMinor ?? 0, charge });
  if (owed > 0) await appendEntry(tx, { uid: booking.customer, type: 'Debit', amountMinor: owed, txRef: 'CancellationCharge', at: now, bookingId: booking.id });
  if (charge > 0 && booking.driver) await appendEntry(tx, { uid: booking.driver, type: 'Credit', amountMinor: charge, txRef: 'CancellationCharge', at: now, bookingId: booking.id });
  const refunded = paid ? await refundPaidAhead(tx, { booking, paid, amountMinor: refund, currency: booking.currency, now }) : false;
  return { cancellationChargeMinor: charge, refundAmountMinor: refunded ? refund : 0 };
};

/** COMPLETE with a rating: appended to the driver's ratings, whose average is recomputed (section 4). */
export const rateDriver: StepEffect = async (tx, { booking, plan }) => {
  const rating = plan.set.rating;
  if (rating === undefined || !booking.driver) return undefined;
  const driver = (await tx.select().from(users).where(eq(users.id, booking.driver)).for('update'))[0];
  if (driver) await tx.update(users).set({ ratings: appendRating(driver.ratings, { user: booking.customer, rate: rating }) }).where(eq(users.id, driver.id));
  return undefined;
};

/** COMPLETE with a rating: the rider's comment is kept with it, as typed (issue 17; shown as text, never markup). */
export const ratingComment = (comment: string | undefined): StepEffect => (_tx, { plan }) =>
  Promise.resolve(plan.set.rating !== undefined && comment ? { ratingComment: comment } : undefined);

/** The car a driver drives, as its row holds it. */
export type DriverCar = Pick<typeof users.$inferSelect, 'vehicleMake' | 'vehicleModel'>;

/**
 * Accept: the driver's car is copied in beside its plate, so the rider knows which car to look for
 * (issue 17); `car` is the driver's row as the step's action locked and read it.
 */
export const driverCar = (car: () => DriverCar | undefined): StepEffect => (_tx, { plan }) => {
  const driven = car();
  return Promise.resolve(plan.set.driver && driven ? { vehicleMake: driven.vehicleMake, vehicleModel: driven.vehicleModel } : undefined);
};
