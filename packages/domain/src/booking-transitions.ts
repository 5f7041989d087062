import type { BookingStatus, UserType } from './booking-status';
import type { Notice } from './notices';
import { fail, ok, type Result } from './result';

/**
 * Section 4's booking state machine: for a booking, an actor and an action, the next status,
 * the fields the change sets and the notices it sends, or the key it is refused with. Pure: the
 * server applies a plan in one transaction guarded by `from` (`UPDATE ... WHERE status = from`).
 */

export const PAYMENT_MODES = ['cash', 'wallet', 'card'] as const;
export type PaymentMode = (typeof PAYMENT_MODES)[number];

/** Who acts: a signed-in user, or the platform itself (dispatch timeouts). */
export type Actor = { usertype: UserType; uid: string } | { usertype: 'system' };

/** The booking fields the state machine reads. */
export type BookingFacts = {
  status: BookingStatus;
  customer: string;
  driver?: string | null;
  requestedDrivers?: Readonly<Record<string, true>> | null;
  carType: string;
  prepaid: boolean;
  payment_mode: PaymentMode;
  /** The booking OTP, or false when otp_secure was off at creation. */
  otp: number | false;
  startTime?: number | null;
  /** A parcel's photos (delivery bookings only): taken at the pickup, and at the drop. */
  photos?: { pickup_image: string | null; deliver_image: string | null } | null;
};

/** The driver fields copied into a booking on accept (section 4). */
export type AcceptingDriver = {
  uid: string;
  queue: boolean;
  driver_name: string;
  driver_image: string;
  driver_contact: string;
  driver_token: string;
  vehicle_number: string;
  driverRating: number;
  fleetadmin: string | null;
};

export type AssignableDriver = { uid: string; usertype: string; approved: boolean; carType?: string | null };

export type BookingAction =
  | { type: 'accept'; driver: AcceptingDriver }
  | { type: 'arrive' }
  | { type: 'start'; otp?: unknown }
  | { type: 'reach' }
  | { type: 'awaitPayment' }
  | { type: 'pay'; payment_mode: PaymentMode }
  | { type: 'complete'; rating?: unknown }
  | { type: 'cancel'; reason: unknown }
  | { type: 'assign'; driver: AssignableDriver };

export type TransitionContext = { at: number; autoDispatch: boolean };

/** Fields a transition writes, named as in section 3. */
export type BookingPatch = {
  driver?: string;
  driver_name?: string;
  driver_image?: string;
  driver_contact?: string;
  driver_token?: string;
  vehicle_number?: string;
  driverRating?: number;
  fleetadmin?: string | null;
  driver_arrive_time?: number;
  trip_start_time?: number;
  startTime?: number;
  trip_end_time?: number;
  endTime?: number;
  total_trip_time?: number;
  prepaid?: boolean;
  payment_mode?: PaymentMode;
  rating?: number;
  reason?: string;
  cancelledBy?: UserType | 'system';
};

export type RequestedDriversChange = { clear: true } | { add: string };

export type TransitionPlan = {
  from: BookingStatus;
  to: BookingStatus;
  set: BookingPatch;
  /** The assigned driver's queue flag after the change, when it changes. */
  driverQueue?: boolean;
  requestedDrivers?: RequestedDriversChange;
  /** Set on PAID: the money moves of section 4 are due (see `settlePayment`). */
  settles?: true;
  notices: Notice[];
};

const MAX_REASON_LENGTH = 500;
const RATING_MIN = 1;
const RATING_MAX = 5;

const isUser = (actor: Actor, usertype: UserType): actor is { usertype: UserType; uid: string } =>
  actor.usertype === usertype;
const isCustomer = (actor: Actor, booking: BookingFacts): boolean =>
  isUser(actor, 'rider') && actor.uid === booking.customer;
const isAssignedDriver = (actor: Actor, booking: BookingFacts): boolean =>
  isUser(actor, 'driver') && booking.driver != null && actor.uid === booking.driver;

type Rule = (booking: BookingFacts, actor: Actor, ctx: TransitionContext) => Result<TransitionPlan>;

const plan = (booking: BookingFacts, to: BookingStatus, rest: Omit<TransitionPlan, 'from' | 'to'>): Result<TransitionPlan> =>
  ok({ from: booking.status, to, ...rest });

function requireStatus(booking: BookingFacts, allowed: readonly BookingStatus[]): Result<null> {
  return allowed.includes(booking.status) ? ok(null) : fail('invalid_transition');
}

/**
 * Why a driver can no longer take a booking, from the booking alone: not a driver, not offered it
 * (a taken booking withdraws every offer), or past NEW. Accept's rule checks it first; the server
 * also asks it outside the transaction for a driver who raced another to the same booking.
 */
export function offerRefusal(booking: BookingFacts, actor: Actor): Result<null> {
  if (!isUser(actor, 'driver')) return fail('forbidden');
  if (!booking.requestedDrivers?.[actor.uid]) return fail('not_found');
  return requireStatus(booking, ['NEW']);
}

function accept(driver: AcceptingDriver): Rule {
  return (booking, actor) => {
    if (!isUser(actor, 'driver') || actor.uid !== driver.uid) return fail('forbidden');
    const refused = offerRefusal(booking, actor);
    if (!refused.ok) return refused;
    if (driver.queue) return fail('driver_busy');
    const { uid, queue: _queue, ...details } = driver;
    return plan(booking, 'ACCEPTED', {
      set: { driver: uid, ...details },
      driverQueue: true,
      // The booking is taken: every outstanding offer is withdrawn with the accepting one.
      requestedDrivers: { clear: true },
      notices: [{ to: 'customer', key: 'notice_driver_accepted', screen: 'BookedCab' }],
    });
  };
}

const arrive: Rule = (booking, actor, ctx) => {
  if (!isAssignedDriver(actor, booking)) return fail('forbidden');
  const status = requireStatus(booking, ['ACCEPTED']);
  if (!status.ok) return status;
  return plan(booking, 'ARRIVED', {
    set: { driver_arrive_time: ctx.at },
    notices: [{ to: 'customer', key: 'notice_driver_near', screen: 'BookedCab' }],
  });
};

/** The OTP a driver typed, as text; anything that is not a string or a number matches nothing. */
const otpText = (otp: unknown): string | undefined =>
  typeof otp === 'string' ? otp.trim() : typeof otp === 'number' && Number.isInteger(otp) ? String(otp) : undefined;

function start(otp: unknown): Rule {
  return (booking, actor, ctx) => {
    if (!isAssignedDriver(actor, booking)) return fail('forbidden');
    const status = requireStatus(booking, ['ARRIVED']);
    if (!status.ok) return status;
    if (booking.otp !== false && otpText(otp) !== String(booking.otp)) return fail('otp_mismatch');
    // A parcel leaves the pickup with a photo of it, so both sides can see what was handed over.
    if (booking.photos && !booking.photos.pickup_image) return fail('photo_required', 'pickup_image');
    return plan(booking, 'STARTED', {
      set: { trip_start_time: ctx.at, startTime: ctx.at },
      notices: [{ to: 'customer', key: 'notice_trip_started', screen: 'BookedCab' }],
    });
  };
}

const reach: Rule = (booking, actor, ctx) => {
  if (!isAssignedDriver(actor, booking)) return fail('forbidden');
  const status = requireStatus(booking, ['STARTED']);
  if (!status.ok) return status;
  if (booking.photos && !booking.photos.deliver_image) return fail('photo_required', 'deliver_image');
  const startedAt = booking.startTime ?? ctx.at;
  return plan(booking, 'REACHED', {
    set: {
      trip_end_time: ctx.at,
      endTime: ctx.at,
      total_trip_time: Math.max(0, Math.round((ctx.at - startedAt) / 1000)),
    },
    notices: [{ to: 'customer', key: 'notice_trip_completed', screen: 'BookedCab' }],
  });
};

/** Section 4 PENDING: the driver hands an unpaid trip over to the rider's payment and is freed. */
const awaitPayment: Rule = (booking, actor) => {
  if (!isAssignedDriver(actor, booking)) return fail('forbidden');
  const status = requireStatus(booking, ['REACHED']);
  if (!status.ok) return status;
  if (booking.prepaid) return fail('invalid_transition');
  return plan(booking, 'PENDING', { set: {}, driverQueue: false, notices: [] });
};

/**
 * Payment. A rider pays a PAYMENT_PENDING booking ahead (card or wallet; it becomes NEW and
 * prepaid), or a REACHED or PENDING trip (card or wallet). The driver closes a REACHED or PENDING
 * trip that is prepaid, paid by wallet, or paid in cash into the driver's hand.
 */
function pay(mode: PaymentMode): Rule {
  return (booking, actor) => {
    const paidNotices: Notice[] = [
      { to: 'customer', key: 'notice_payment_received', screen: 'BookedCab' },
      { to: 'driver', key: 'notice_payment_received', screen: 'wallet' },
    ];
    if (isCustomer(actor, booking)) {
      if (mode === 'cash') return fail('payment_mode_invalid');
      if (booking.status === 'PAYMENT_PENDING') {
        return plan(booking, 'NEW', { set: { prepaid: true, payment_mode: mode }, notices: [] });
      }
      const status = requireStatus(booking, ['REACHED', 'PENDING']);
      if (!status.ok) return status;
      if (booking.prepaid) return fail('invalid_transition');
      return plan(booking, 'PAID', { set: { payment_mode: mode }, driverQueue: false, settles: true, notices: paidNotices });
    }
    if (isAssignedDriver(actor, booking)) {
      const status = requireStatus(booking, ['REACHED', 'PENDING']);
      if (!status.ok) return status;
      const allowed = booking.prepaid || mode === 'cash' || (mode === 'wallet' && booking.payment_mode === 'wallet');
      if (!allowed) return fail('payment_mode_invalid');
      const set: BookingPatch = booking.prepaid ? {} : { payment_mode: mode };
      return plan(booking, 'PAID', { set, driverQueue: false, settles: true, notices: paidNotices });
    }
    return fail('forbidden');
  };
}

function complete(rating: unknown): Rule {
  return (booking, actor) => {
    if (!isCustomer(actor, booking)) return fail('forbidden');
    const status = requireStatus(booking, ['PAID']);
    if (!status.ok) return status;
    if (rating === undefined || rating === null) return plan(booking, 'COMPLETE', { set: {}, notices: [] });
    if (typeof rating !== 'number' || !Number.isInteger(rating) || rating < RATING_MIN || rating > RATING_MAX) {
      return fail('rating_invalid');
    }
    return plan(booking, 'COMPLETE', {
      set: { rating },
      notices: [{ to: 'driver', key: 'notice_rating_received', screen: 'DriverTrips' }],
    });
  };
}

/** Statuses each kind of actor may cancel from (section 4 and 6; decisions.md). */
const CANCEL_FROM: Readonly<Record<'rider' | 'admin' | 'system', readonly BookingStatus[]>> = {
  rider: ['PAYMENT_PENDING', 'NEW', 'ACCEPTED'],
  admin: ['PAYMENT_PENDING', 'NEW', 'ACCEPTED', 'ARRIVED'],
  system: ['PAYMENT_PENDING', 'NEW'],
};

function cancel(reason: unknown): Rule {
  return (booking, actor) => {
    let by: 'rider' | 'admin' | 'system';
    if (actor.usertype === 'system') by = 'system';
    else if (isUser(actor, 'admin')) by = 'admin';
    else if (isCustomer(actor, booking)) by = 'rider';
    else return fail('forbidden');
    const status = requireStatus(booking, CANCEL_FROM[by]);
    if (!status.ok) return status;
    const text = typeof reason === 'string' ? reason.trim() : '';
    if (!text || text.length > MAX_REASON_LENGTH) return fail('select_proper', 'reason');
    const hadDriver = booking.driver != null && (booking.status === 'ACCEPTED' || booking.status === 'ARRIVED');
    const notices: Notice[] = [{ to: 'customer', key: 'notice_booking_cancelled', screen: 'BookedCab' }];
    if (hadDriver) notices.push({ to: 'driver', key: 'notice_booking_cancelled', screen: 'DriverTrips' });
    return plan(booking, 'CANCELLED', {
      set: { reason: text, cancelledBy: by },
      ...(hadDriver ? { driverQueue: false } : {}),
      ...(booking.status === 'NEW' ? { requestedDrivers: { clear: true } as const } : {}),
      notices,
    });
  };
}

function assign(driver: AssignableDriver): Rule {
  return (booking, actor, ctx) => {
    if (!isUser(actor, 'admin')) return fail('forbidden');
    const status = requireStatus(booking, ['NEW']);
    if (!status.ok) return status;
    if (ctx.autoDispatch) return fail('auto_dispatch_on');
    if (driver.usertype !== 'driver' || !driver.approved) return fail('not_found', 'driver');
    if (driver.carType !== booking.carType) return fail('driver_car_type_mismatch');
    return plan(booking, 'NEW', {
      set: {},
      requestedDrivers: { add: driver.uid },
      notices: [{ to: 'driver', key: 'notice_trip_assigned', screen: 'DriverTrips' }],
    });
  };
}

function ruleFor(action: BookingAction): Rule {
  switch (action.type) {
    case 'accept':
      return accept(action.driver);
    case 'arrive':
      return arrive;
    case 'start':
      return start(action.otp);
    case 'reach':
      return reach;
    case 'awaitPayment':
      return awaitPayment;
    case 'pay':
      return pay(action.payment_mode);
    case 'complete':
      return complete(action.rating);
    case 'cancel':
      return cancel(action.reason);
    case 'assign':
      return assign(action.driver);
  }
}

/** The plan for an action on a booking by an actor, or the key it is refused with. */
export function planTransition(
  booking: BookingFacts,
  actor: Actor,
  action: BookingAction,
  ctx: TransitionContext,
): Result<TransitionPlan> {
  return ruleFor(action)(booking, actor, ctx);
}
