import type { AssignStep, CancelStep, CompleteStep, StartStep } from '@rideway/contract';
import type { BookingAction, PaymentMode, RoadLeg } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { bookings, savedCards, users } from '../../db/schema';
import { schedule } from '../../jobs/runner';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import type { BookingRow } from '../dispatch/booking-view';
import { beginDispatch, legToPickup } from '../dispatch/service';
import { findUser } from '../users/accounts';
import { newestPosition, plausibleReachPosition, routeDriven } from './before-step';
import { cancelCharge, driverCar, type DriverCar, rateDriver, ratingComment, reachFare, saveDrop, settlement, trackingPoint, walletPaidAhead } from './effects';
import { receiptMail } from './receipt';
import { referralBonus } from './referral-bonus';
import { commitStep, refuseTakenOffer, runStep, takenOffers, SYSTEM, type StepChange, type StepEffect } from './step';

/**
 * The trip engine: one function per section 4 step, each one transaction (see step.ts). The
 * domain (packages/domain booking-transitions) decides whether a step is allowed and what it
 * sets; these functions add what the step reads first and the effects it has.
 */

type StepRequest = { actor: Actor; bookingId: string };

/** The accepts running in this process, by booking: the last of each booking's line (acceptBooking). */
const acceptsInLine = new Map<string, Promise<unknown>>();

/**
 * Accept a NEW trip offered to this driver: the driver's details and car are copied in (its row
 * locked first). Drivers racing to one booking in this process go one after another, and an accept
 * of a booking this process has seen taken is refused without a transaction (takenOffers): the
 * booking's lock is held by one accept, not by a queue of losers each holding a connection.
 */
export async function acceptBooking(ctx: AppContext, { actor, bookingId }: StepRequest): Promise<BookingRow> {
  const ahead = acceptsInLine.get(bookingId);
  const mine = (async () => {
    if (ahead) await ahead.catch(() => undefined);
    refuseTakenOffer(actor, takenOffers.get(bookingId, ctx.now()));
    // The driver's row, locked and read once: its details go into the plan, its car into the booking.
    let car: DriverCar | undefined;
    const action = async (tx: Tx): Promise<BookingAction> => {
      const driver = await acceptingDriver(tx, actor.uid);
      car = driver.car;
      return { type: 'accept', driver: driver.details };
    };
    const row = await commitStep(ctx, { actor, bookingId, action, effects: [driverCar(() => car)] });
    takenOffers.remember(row, ctx.now());
    return row;
  })();
  acceptsInLine.set(bookingId, mine);
  try {
    const row = await mine;
    ctx.metrics?.offerOutcome('accepted');
    return row;
  } finally {
    if (acceptsInLine.get(bookingId) === mine) acceptsInLine.delete(bookingId);
  }
}

/** The driver is at the pickup. */
export const arriveBooking = (ctx: AppContext, { actor, bookingId }: StepRequest) =>
  commitStep(ctx, { actor, bookingId, action: { type: 'arrive' } });

/** The trip starts (the rider's OTP when the booking has one); a tracking point where the driver is. */
export async function startBooking(ctx: AppContext, { actor, bookingId, otp }: StepRequest & StartStep) {
  const position = await newestPosition(ctx, actor.uid);
  return commitStep(ctx, { actor, bookingId, action: { type: 'start', otp }, effects: [trackingPoint(position)] });
}

/** The drop is reached: a tracking point, the taxi fare over the route driven, the drop saved for the rider. */
export async function reachBooking(ctx: AppContext, { actor, bookingId }: StepRequest) {
  const position = await plausibleReachPosition(ctx, bookingId, await newestPosition(ctx, actor.uid));
  const driven = await routeDriven(ctx, bookingId, actor.uid, position);
  return commitStep(ctx, { actor, bookingId, action: { type: 'reach' }, effects: [trackingPoint(position), reachFare(driven), saveDrop] });
}

/**
 * Pay. The rider pays by wallet; the driver closes a cash, wallet or prepaid trip, or hands a card
 * trip over to the rider's payment (PENDING). A wallet payment above the booked estimate is the
 * rider's to make (decisions.md, fare integrity). A rider's card payment is confirmed by the payment
 * provider (`payByCardWithin`), never here.
 */
export async function payBooking(ctx: AppContext, { actor, bookingId, payment_mode }: StepRequest & { payment_mode: PaymentMode }) {
  if (actor.usertype === 'rider' && payment_mode === 'card') throw new AppError('payment_mode_invalid', 'payment_mode');
  const action = (_tx: Tx, booking: BookingRow): BookingAction => {
    const handsOver = actor.usertype === 'driver' && !booking.prepaid && booking.paymentMode === 'card' && payment_mode === 'card';
    // Fare integrity: wallet money above the booked estimate is taken only by the rider's own Pay.
    if (actor.usertype === 'driver' && !booking.prepaid && payment_mode === 'wallet' && booking.tripCostMinor > booking.estimateMinor) throw new AppError('wallet_payment_needs_rider', 'payment_mode');
    return handsOver ? { type: 'awaitPayment' } : { type: 'pay', payment_mode };
  };
  return commitStep(ctx, { actor, bookingId, action, effects: [settlement, walletPaidAhead, referralBonus, receiptMail], afterWrite: chargeCardOnFile(ctx) });
}

/**
 * The rider's card payment, confirmed by the provider, inside the transaction that records the
 * provider's confirmation; the caller runs `afterStep` once it commits.
 */
export const payByCardWithin = (ctx: AppContext, tx: Tx, { bookingId, customer, gateway }: { bookingId: string; customer: string; gateway: string }) =>
  runStep(ctx, tx, {
    actor: { uid: customer, usertype: 'rider' },
    bookingId,
    action: { type: 'pay', payment_mode: 'card' },
    effects: [settlement, recordGateway(gateway), referralBonus, receiptMail],
    afterWrite: searchWhenPaidAhead(ctx),
  });

/** The rider completes a paid trip, with an optional rating for the driver and a comment with it. */
export const completeBooking = (ctx: AppContext, { actor, bookingId, rating, comment }: StepRequest & CompleteStep) =>
  commitStep(ctx, { actor, bookingId, action: { type: 'complete', rating }, effects: [rateDriver, ratingComment(comment)] });

/** The rider or an admin cancels with a reason; a late rider's cancel is charged; money paid ahead goes back. */
export const cancelBooking = (ctx: AppContext, { actor, bookingId, reason }: StepRequest & CancelStep) =>
  commitStep(ctx, { actor, bookingId, action: { type: 'cancel', reason }, effects: [cancelCharge] });

/** A booking nobody took in time is cancelled by the system (money paid ahead goes back); one taken meanwhile is left alone. */
export async function cancelUntaken(ctx: AppContext, bookingId: string, reason: string): Promise<void> {
  try {
    await commitStep(ctx, { actor: SYSTEM, bookingId, action: { type: 'cancel', reason }, effects: [cancelCharge] });
  } catch (error) {
    if (error instanceof AppError && (error.key === 'invalid_transition' || error.key === 'not_found')) return;
    throw error;
  }
}

/** An admin offers a NEW booking to a driver of its car type (autoDispatch off). */
export async function assignDriver(ctx: AppContext, { actor, bookingId, driver: uid }: StepRequest & AssignStep) {
  const driver = await findUser(ctx.db, uid);
  if (!driver) throw new AppError('not_found', 'driver');
  const assignable = { uid: driver.id, usertype: driver.usertype, approved: driver.approved, carType: driver.carType };
  // The driver's road leg to the pickup, for its offer: asked before the step's transaction opens.
  const booked = (await ctx.db.select({ pickup: bookings.pickup }).from(bookings).where(eq(bookings.id, bookingId)))[0];
  const leg = booked ? await legToPickup(ctx, await newestPosition(ctx, driver.id), booked.pickup) : undefined;
  return commitStep(ctx, { actor, bookingId, action: { type: 'assign', driver: assignable }, effects: [offerLeg(driver.id, leg)] });
}

/** The assigned driver's leg on the booking (none when the maps provider could not say). */
const offerLeg = (uid: string, leg: RoadLeg | undefined): StepEffect => (_tx, { booking }) => {
  const { [uid]: _old, ...others } = booking.offerLegs;
  return Promise.resolve({ offerLegs: leg ? { ...others, [uid]: leg } : others });
};

/** The driver's columns an accept reads: the row is locked, and read no wider than the booking needs. */
const ACCEPTING_COLUMNS = {
  id: users.id,
  queue: users.queue,
  firstName: users.firstName,
  lastName: users.lastName,
  profileImage: users.profileImage,
  mobile: users.mobile,
  pushToken: users.pushToken,
  vehicleNumber: users.vehicleNumber,
  ratings: users.ratings,
  fleetadmin: users.fleetadmin,
  vehicleMake: users.vehicleMake,
  vehicleModel: users.vehicleModel,
};

/** The accepting driver's details as section 4 copies them into the booking, and its car (issue 17). */
async function acceptingDriver(tx: Tx, uid: string) {
  const driver = (await tx.select(ACCEPTING_COLUMNS).from(users).where(eq(users.id, uid)).for('update'))[0];
  if (!driver) throw new AppError('not_found');
  const details = {
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
  const car: DriverCar = { vehicleMake: driver.vehicleMake, vehicleModel: driver.vehicleModel };
  return { details, car };
}

/** The provider that took a card payment, written with the payment. */
const recordGateway = (gateway: string): StepEffect => () => Promise.resolve({ gateway });

/** The job that charges a card trip handed over to the rider (PENDING) to the rider's card on file, after commit (payments/cards.ts). */
export const CARD_ON_FILE_JOB = 'payment.card_on_file';

/** A card trip handed over (PENDING) whose rider keeps a card on file: its charge is scheduled with the step. */
const chargeCardOnFile = (ctx: AppContext) => async (tx: Tx, updated: BookingRow, change: StepChange): Promise<BookingRow> => {
  const next = await searchWhenPaidAhead(ctx)(tx, updated, change);
  if (change.plan.to !== 'PENDING' || updated.paymentMode !== 'card') return next;
  const hasCard = (await tx.select({ id: savedCards.id }).from(savedCards).where(eq(savedCards.uid, updated.customer)).limit(1)).length > 0;
  if (hasCard) await schedule(tx, CARD_ON_FILE_JOB, change.now, { bookingId: updated.id });
  return next;
};

/** A delivery paid ahead becomes NEW: its search for a driver starts in the same transaction. */
const searchWhenPaidAhead = (ctx: AppContext) => async (tx: Tx, updated: BookingRow, { plan, settings, now }: StepChange): Promise<BookingRow> =>
  plan.from === 'PAYMENT_PENDING' && plan.to === 'NEW' ? beginDispatch(ctx, tx, updated, settings, now) : updated;
