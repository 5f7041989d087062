import {
  appendRating,
  canViewBooking,
  cancellationCharge,
  fareForMinor,
  fromMinor,
  greatCircleKm,
  kmInUnit,
  planTransition,
  recordSavedAddress,
  settlePayment,
  toMinor,
  trackedRoutePlan,
  tracksTripDistance,
  type BookingAction,
  type BookingFacts,
  type BookingStatus,
  type PaymentMode,
} from '@rideway/domain';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { bookings, carTypes, savedAddresses, tracking, users } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError, unwrap } from '../../http/app-error';
import { toApiCarType } from '../cartypes/service';
import { en } from '../languages/messages/en';
import { enqueue } from '../outbox/service';
import { getSettings } from '../settings/service';
import { appendEntry, takeFromWallet } from '../wallet/ledger';
import { announceBooking, beginDispatch } from '../dispatch/service';
import { addTrackingPoint, syncDriver } from '../presence/service';
import type { BookingRow } from './view';

const facts = (row: BookingRow): BookingFacts => ({
  status: row.status as BookingStatus,
  customer: row.customer,
  driver: row.driver,
  requestedDrivers: row.requestedDrivers,
  carType: row.carType,
  prepaid: row.prepaid,
  payment_mode: row.paymentMode as PaymentMode,
  otp: row.otp ?? false,
  startTime: row.tripStartTime,
  photos: row.delivery ? { pickup_image: row.pickupImage, deliver_image: row.deliverImage } : null,
});

/** The server itself, acting on a timer (a booking nobody took is cancelled). */
export const SYSTEM = 'system' as const;
export type StepActor = Actor | typeof SYSTEM;

/** The booking, locked for this transaction, or 404 when missing or not the caller's to see. */
export async function lockBooking(tx: Tx, actor: StepActor, id: string): Promise<BookingRow> {
  const row = (await tx.select().from(bookings).where(eq(bookings.id, id)).for('update'))[0];
  const visible = row && (actor === SYSTEM || canViewBooking({ uid: actor.uid, usertype: actor.usertype }, { ...row, status: row.status as BookingStatus }));
  if (!row || !visible) throw new AppError('not_found');
  return row;
}

/** Section 4 REACHED in taxi mode: distance from the tracked points (section 9), fare recomputed. */
async function finalFare(ctx: AppContext, tx: Tx, row: BookingRow, convertToMile: boolean) {
  const points = await tx.select({ lat: tracking.lat, lng: tracking.lng }).from(tracking).where(eq(tracking.bookingId, row.id)).orderBy(tracking.at);
  const plan = trackedRoutePlan(points);
  // Without at least two tracked points the trip was not followed: the estimate stands.
  if (plan.kind === 'none') return undefined;
  const route = await ctx.maps.route(plan.kind === 'pair' ? [plan.start, plan.dest] : [plan.start, ...plan.waypoints, plan.dest]);
  const km = route?.distanceKm ?? points.slice(1).reduce((sum, p, i) => sum + greatCircleKm(points[i] ?? p, p), 0);
  const carRow = (await tx.select().from(carTypes).where(eq(carTypes.name, row.carType)).limit(1))[0];
  if (!carRow) return undefined;
  const distance = Math.round(kmInUnit(km, convertToMile) * 1000) / 1000;
  const fare = fareForMinor(toApiCarType(carRow), { distance, duration: row.totalTripTime ?? row.estimateTime });
  return { distance, fare, last: plan.dest };
}

/** The step, or a function of the transaction that reads what the step needs (accept reads the driver). */
export type StepInput = { action: BookingAction | ((tx: Tx, booking: BookingRow) => Promise<BookingAction>); actor: StepActor; id: string };

/**
 * Runs one section 4 step as one transaction: the booking row is locked, the domain plans the
 * step from its current status, and the change, the driver's queue flag, the offers, the money
 * moves and the notices are written together, or nothing is.
 */
export async function runStep(ctx: AppContext, input: StepInput): Promise<BookingRow> {
  const updated = await ctx.db.transaction((tx) => runStepIn(ctx, tx, input));
  await afterStep(ctx, updated);
  return updated;
}

/** After a step commits: the driver's entry in the live index follows its queue flag, and events leave. */
export async function afterStep(ctx: AppContext, updated: BookingRow): Promise<void> {
  if (updated.driver) await syncDriver(ctx, updated.driver);
  ctx.live.relay.kick();
}

/** Section 4's tracking point of a step, from the driver's newest position. */
async function trackStep(ctx: AppContext, tx: Tx, row: BookingRow, status: BookingStatus, now: number): Promise<void> {
  if (!row.driver) return;
  const live = await ctx.live.geo.get(row.driver);
  const stored = live ? undefined : (await tx.select({ lat: users.locationLat, lng: users.locationLng }).from(users).where(eq(users.id, row.driver)))[0];
  const position = live ?? (stored?.lat != null && stored.lng != null ? { lat: stored.lat, lng: stored.lng } : undefined);
  if (!position) return;
  await addTrackingPoint(tx, { bookingId: row.id, status, lat: position.lat, lng: position.lng, at: now }, { uids: [row.customer, row.driver], fleetadmin: row.fleetadmin, admins: true });
}

/** The same step inside a caller's transaction (a payment confirmation records its row with it). */
export async function runStepIn(ctx: AppContext, tx: Tx, { action: step, actor, id }: StepInput): Promise<BookingRow> {
  const settings = await getSettings(tx);
  const now = ctx.now();
  const row = await lockBooking(tx, actor, id);
  const action = typeof step === 'function' ? await step(tx, row) : step;
  const plan = unwrap(planTransition(facts(row), actor === SYSTEM ? { usertype: 'system' } : { usertype: actor.usertype, uid: actor.uid }, action, { at: now, autoDispatch: settings.autoDispatch }));
  const set: Partial<typeof bookings.$inferInsert> = { status: plan.to, updatedAt: now };
  const p = plan.set;
  if (p.driver !== undefined) Object.assign(set, { driver: p.driver, driverName: p.driver_name, driverImage: p.driver_image, driverContact: p.driver_contact, driverToken: p.driver_token, vehicleNumber: p.vehicle_number, driverRating: p.driverRating, fleetadmin: p.fleetadmin, acceptedAt: now });
  if (p.driver_arrive_time !== undefined) set.driverArriveTime = p.driver_arrive_time;
  if (p.trip_start_time !== undefined) set.tripStartTime = p.trip_start_time;
  if (p.trip_end_time !== undefined) set.tripEndTime = p.trip_end_time;
  if (p.total_trip_time !== undefined) set.totalTripTime = p.total_trip_time;
  if (p.prepaid !== undefined) set.prepaid = p.prepaid;
  if (p.payment_mode !== undefined) set.paymentMode = p.payment_mode;
  if (p.rating !== undefined) set.rating = p.rating;
  if (p.reason !== undefined) set.reason = p.reason;
  if (p.cancelledBy !== undefined) set.cancelledBy = p.cancelledBy;
  if (plan.requestedDrivers && 'clear' in plan.requestedDrivers) set.requestedDrivers = {};
  if (plan.requestedDrivers && 'add' in plan.requestedDrivers) set.requestedDrivers = { ...row.requestedDrivers, [plan.requestedDrivers.add]: true };

  // Section 4: tracking points are recorded on STARTED and REACHED, before the fare reads them.
  if (tracksTripDistance(plan.to) && plan.from !== plan.to) await trackStep(ctx, tx, row, plan.to, now);

  if (action.type === 'reach') {
    const tripRow = { ...row, totalTripTime: p.total_trip_time ?? row.totalTripTime };
    const final = settings.appcat === 'taxi' ? await finalFare(ctx, tx, tripRow, settings.convert_to_mile) : undefined;
    if (final) {
      const discount = Math.min(row.discountMinor, final.fare.grandTotal);
      Object.assign(set, { distance: final.distance, tripCostMinor: final.fare.grandTotal, convenienceFeesMinor: final.fare.convenience_fees, driverShareMinor: final.fare.totalCost, discountMinor: discount, customerPaidMinor: final.fare.grandTotal - discount, payableAmountMinor: final.fare.grandTotal - discount });
      const add = await ctx.maps.reverseGeocode(final.last);
      set.drop = { lat: final.last.lat, lng: final.last.lng, add };
    }
    const drop = set.drop ?? row.drop;
    const saved = await tx.select().from(savedAddresses).where(eq(savedAddresses.uid, row.customer));
    const next = recordSavedAddress(saved, { description: drop.add, lat: drop.lat, lng: drop.lng }, settings.convert_to_mile);
    const bumped = saved.findIndex((entry, index) => next[index]?.count !== entry.count);
    const match = saved[bumped];
    if (match) await tx.update(savedAddresses).set({ count: match.count + 1 }).where(eq(savedAddresses.id, match.id));
    else await tx.insert(savedAddresses).values({ uid: row.customer, description: drop.add, lat: drop.lat, lng: drop.lng, count: 1 });
  }

  if (plan.settles) {
    const paidBy = (set.paymentMode ?? row.paymentMode) as PaymentMode;
    const trip_cost = fromMinor(set.tripCostMinor ?? row.tripCostMinor);
    const settlement = settlePayment({ trip_cost, discount: fromMinor(set.discountMinor ?? row.discountMinor), driver_share: fromMinor(set.driverShareMinor ?? row.driverShareMinor), payment_mode: paidBy, prepaid: row.prepaid });
    Object.assign(set, { customerPaidMinor: settlement.customer_paid, cashPaymentAmountMinor: settlement.cashPaymentAmount, cardPaymentAmountMinor: settlement.cardPaymentAmount, usedWalletMoneyMinor: settlement.usedWalletMoney, payableAmountMinor: settlement.payableAmount });
    for (const move of settlement.moves) {
      const uid = move.party === 'driver' ? row.driver : row.customer;
      if (!uid) continue;
      const entry = { uid, type: move.type, amountMinor: move.amount, txRef: move.txRef, at: now, bookingId: row.id } as const;
      if (move.party === 'customer') await takeFromWallet(tx, { ...entry, type: 'Debit' });
      else await appendEntry(tx, entry);
    }
  }
  if (action.type === 'pay' && plan.to === 'NEW' && set.paymentMode === 'wallet') {
    // Paying a PAYMENT_PENDING delivery ahead from the wallet takes the money now.
    await takeFromWallet(tx, { uid: row.customer, type: 'Debit', amountMinor: row.customerPaidMinor, txRef: 'TripPayment', at: now, bookingId: row.id });
    Object.assign(set, { usedWalletMoneyMinor: row.customerPaidMinor, payableAmountMinor: 0 });
  }

  if (action.type === 'cancel') {
    const charge = toMinor(cancellationCharge({ slabs: await cancelSlabs(tx, row.carType), status: row.status as BookingStatus, cancelledBy: (p.cancelledBy ?? 'system') as 'rider' | 'admin' | 'system', acceptedAt: row.acceptedAt, now, tripCost: fromMinor(row.tripCostMinor) }));
    if (charge > 0 && row.driver) {
      // The rider owes the charge even beyond the wallet's balance; the driver is compensated.
      await appendEntry(tx, { uid: row.customer, type: 'Debit', amountMinor: charge, txRef: 'CancellationCharge', at: now, bookingId: row.id });
      await appendEntry(tx, { uid: row.driver, type: 'Credit', amountMinor: charge, txRef: 'CancellationCharge', at: now, bookingId: row.id });
      set.cancellationChargeMinor = charge;
    }
  }

  if (action.type === 'complete' && p.rating !== undefined && row.driver) {
    const driver = (await tx.select().from(users).where(eq(users.id, row.driver)).for('update'))[0];
    if (driver) await tx.update(users).set({ ratings: appendRating(driver.ratings, { user: row.customer, rate: p.rating }) }).where(eq(users.id, driver.id));
  }

  const driverUid = p.driver ?? row.driver;
  if (plan.driverQueue !== undefined && driverUid) await tx.update(users).set({ queue: plan.driverQueue }).where(eq(users.id, driverUid));

  const updated = (
    await tx
      .update(bookings)
      .set(set)
      .where(and(eq(bookings.id, row.id), eq(bookings.status, plan.from)))
      .returning()
      .catch((error: unknown) => {
        // The database holds a driver to one active trip (bookings_one_active_trip_per_driver).
        if (isUniqueViolation(error)) throw new AppError('driver_busy');
        throw error;
      })
  )[0];
  if (!updated) throw new AppError('invalid_transition');
  for (const notice of plan.notices) {
    const recipient = notice.to === 'customer' ? row.customer : driverUid;
    if (!recipient) continue;
    await enqueue(tx, { channel: 'push', recipient, payload: { title: settings.appName, msg: en[notice.key], screen: notice.screen, params: { bookingId: row.id } } }, now);
  }
  await announceBooking(tx, row, updated, now, settings.appName);
  // A delivery paid ahead becomes NEW: its search for a driver starts now.
  if (plan.from === 'PAYMENT_PENDING' && plan.to === 'NEW') return beginDispatch(ctx, tx, updated, settings, now);
  return updated;
}

async function cancelSlabs(tx: Tx, carType: string) {
  const row = (await tx.select({ cancelSlab: carTypes.cancelSlab }).from(carTypes).where(eq(carTypes.name, carType)).limit(1))[0];
  return (row?.cancelSlab ?? []).map((slab) => ({ minsDelayed: slab.minsDelayed, amount: fromMinor(slab.amount) }));
}

/** The accepting driver's details as section 4 copies them into the booking. */
export async function acceptingDriver(tx: Tx, uid: string) {
  const driver = (await tx.select().from(users).where(eq(users.id, uid)).for('update'))[0];
  if (!driver) throw new AppError('not_found');
  return {
    uid: driver.id,
    queue: driver.queue,
    driver_name: `${driver.firstName} ${driver.lastName}`,
    driver_image: driver.profileImage ?? '',
    driver_contact: driver.mobile ?? '',
    driver_token: driver.pushToken ?? '',
    vehicle_number: driver.vehicleNumber ?? '',
    driverRating: driver.ratings?.userrating ?? 0,
    fleetadmin: driver.fleetadmin,
  };
}

const isUniqueViolation = (error: unknown): boolean => {
  const cause = error instanceof Error && 'cause' in error ? error.cause : error;
  return typeof cause === 'object' && cause !== null && 'code' in cause && cause.code === '23505';
};

/** A booking nobody took in time is cancelled by the system; one taken meanwhile is left alone. */
export async function cancelUntaken(ctx: AppContext, bookingId: string, reason: string): Promise<void> {
  try {
    await runStep(ctx, { actor: SYSTEM, id: bookingId, action: { type: 'cancel', reason } });
  } catch (error) {
    if (error instanceof AppError && (error.key === 'invalid_transition' || error.key === 'not_found')) return;
    throw error;
  }
}
