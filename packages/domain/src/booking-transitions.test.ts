import { describe, expect, it } from 'vitest';
import { BOOKING_STATUSES, type BookingStatus } from './booking-status';
import {
  offerRefusal,
  planTransition,
  type AcceptingDriver,
  type Actor,
  type BookingAction,
  type BookingFacts,
  type TransitionContext,
} from './booking-transitions';

const rider: Actor = { usertype: 'rider', uid: 'rider-1' };
const otherRider: Actor = { usertype: 'rider', uid: 'rider-2' };
const driver: Actor = { usertype: 'driver', uid: 'driver-1' };
const otherDriver: Actor = { usertype: 'driver', uid: 'driver-2' };
const admin: Actor = { usertype: 'admin', uid: 'admin-1' };
const fleet: Actor = { usertype: 'fleetadmin', uid: 'fleet-1' };
const system: Actor = { usertype: 'system' };
const ctx: TransitionContext = { at: 1_800_000_000_000, autoDispatch: false };

const acceptingDriver: AcceptingDriver = {
  uid: 'driver-1',
  queue: false,
  driver_name: 'Dee Driver',
  driver_image: '',
  driver_contact: '5550101',
  driver_token: '',
  vehicle_number: 'AB-123',
  driverRating: 4.5,
  fleetadmin: 'fleet-1',
};

function booking(status: BookingStatus, extra: Partial<BookingFacts> = {}): BookingFacts {
  const assigned = !['PAYMENT_PENDING', 'NEW'].includes(status);
  return {
    status,
    customer: 'rider-1',
    driver: assigned ? 'driver-1' : null,
    requestedDrivers: status === 'NEW' ? { 'driver-1': true } : null,
    carType: 'Sedan',
    prepaid: false,
    payment_mode: 'cash',
    otp: false,
    startTime: assigned ? ctx.at - 600_000 : null,
    ...extra,
  };
}

describe('section 4: the trip runs NEW -> ACCEPTED -> ARRIVED -> STARTED -> REACHED -> PAID -> COMPLETE', () => {
  it('accept: driver details copied in, queue true, requested drivers cleared, customer told', () => {
    const result = planTransition(booking('NEW'), driver, { type: 'accept', driver: acceptingDriver }, ctx);
    expect(result).toEqual({
      ok: true,
      value: {
        from: 'NEW',
        to: 'ACCEPTED',
        set: {
          driver: 'driver-1',
          driver_name: 'Dee Driver',
          driver_image: '',
          driver_contact: '5550101',
          driver_token: '',
          vehicle_number: 'AB-123',
          driverRating: 4.5,
          fleetadmin: 'fleet-1',
        },
        driverQueue: true,
        requestedDrivers: { clear: true },
        notices: [{ to: 'customer', key: 'notice_driver_accepted', screen: 'BookedCab' }],
      },
    });
  });

  it('accept: only a requested driver; a busy driver is refused', () => {
    expect(planTransition(booking('NEW'), otherDriver, { type: 'accept', driver: { ...acceptingDriver, uid: 'driver-2' } }, ctx)).toEqual({
      ok: false,
      key: 'not_found',
    });
    expect(planTransition(booking('NEW'), driver, { type: 'accept', driver: { ...acceptingDriver, queue: true } }, ctx)).toEqual({
      ok: false,
      key: 'driver_busy',
    });
    // A driver cannot accept in another driver's name.
    expect(planTransition(booking('NEW'), otherDriver, { type: 'accept', driver: acceptingDriver }, ctx)).toEqual({ ok: false, key: 'forbidden' });
  });

  it('offerRefusal: what refuses an accept from the booking alone, as accept itself refuses it', () => {
    expect(offerRefusal(booking('NEW'), driver)).toEqual({ ok: true, value: null });
    // Taken by another: the offers were withdrawn with the accept.
    expect(offerRefusal(booking('ACCEPTED', { driver: 'driver-2' }), driver)).toEqual({ ok: false, key: 'not_found' });
    expect(offerRefusal(booking('CANCELLED', { requestedDrivers: { 'driver-1': true } }), driver)).toEqual({ ok: false, key: 'invalid_transition' });
    expect(offerRefusal(booking('NEW'), rider)).toEqual({ ok: false, key: 'forbidden' });
    for (const facts of [booking('NEW'), booking('ACCEPTED', { driver: 'driver-2' }), booking('CANCELLED', { requestedDrivers: { 'driver-1': true } })]) {
      const refused = offerRefusal(facts, driver);
      if (!refused.ok) expect(planTransition(facts, driver, { type: 'accept', driver: acceptingDriver }, ctx)).toEqual(refused);
    }
  });

  it('ARRIVED stores the arrival time and tells the customer the driver is near', () => {
    const result = planTransition(booking('ACCEPTED'), driver, { type: 'arrive' }, ctx);
    expect(result.ok && result.value).toMatchObject({
      to: 'ARRIVED',
      set: { driver_arrive_time: ctx.at },
      notices: [{ to: 'customer', key: 'notice_driver_near' }],
    });
  });

  it('STARTED stores the start time and notifies the customer', () => {
    const result = planTransition(booking('ARRIVED'), driver, { type: 'start' }, ctx);
    expect(result.ok && result.value).toMatchObject({
      to: 'STARTED',
      set: { trip_start_time: ctx.at, startTime: ctx.at },
      notices: [{ key: 'notice_trip_started' }],
    });
  });

  it('STARTED checks the booking OTP when one was issued (otp_secure)', () => {
    const secured = booking('ARRIVED', { otp: 48213 });
    expect(planTransition(secured, driver, { type: 'start', otp: '11111' }, ctx)).toEqual({ ok: false, key: 'otp_mismatch' });
    expect(planTransition(secured, driver, { type: 'start' }, ctx)).toEqual({ ok: false, key: 'otp_mismatch' });
    expect(planTransition(secured, driver, { type: 'start', otp: { toString: 'x' } }, ctx)).toEqual({ ok: false, key: 'otp_mismatch' });
    expect(planTransition(secured, driver, { type: 'start', otp: '48213' }, ctx).ok).toBe(true);
    expect(planTransition(secured, driver, { type: 'start', otp: 48213 }, ctx).ok).toBe(true);
  });

  it('a parcel starts only with its pickup photo, and reaches the drop only with its delivery photo', () => {
    const parcel = { photos: { pickup_image: null, deliver_image: null } };
    expect(planTransition(booking('ARRIVED', parcel), driver, { type: 'start' }, ctx)).toEqual({ ok: false, key: 'photo_required', field: 'pickup_image' });
    const picked = { photos: { pickup_image: '/api/files/trips/a.jpg', deliver_image: null } };
    expect(planTransition(booking('ARRIVED', picked), driver, { type: 'start' }, ctx).ok).toBe(true);
    expect(planTransition(booking('STARTED', picked), driver, { type: 'reach' }, ctx)).toEqual({ ok: false, key: 'photo_required', field: 'deliver_image' });
    const delivered = { photos: { pickup_image: '/api/files/trips/a.jpg', deliver_image: '/api/files/trips/b.jpg' } };
    expect(planTransition(booking('STARTED', delivered), driver, { type: 'reach' }, ctx).ok).toBe(true);
    // The OTP is checked first: a driver at the wrong door learns nothing about the parcel.
    expect(planTransition(booking('ARRIVED', { ...parcel, otp: 48213 }), driver, { type: 'start', otp: '11111' }, ctx)).toEqual({ ok: false, key: 'otp_mismatch' });
  });

  it('REACHED stores the end time and the total trip time in seconds', () => {
    const result = planTransition(booking('STARTED'), driver, { type: 'reach' }, ctx);
    expect(result.ok && result.value).toMatchObject({
      to: 'REACHED',
      set: { trip_end_time: ctx.at, endTime: ctx.at, total_trip_time: 600 },
      notices: [{ key: 'notice_trip_completed' }],
    });
  });

  it('PENDING frees the driver (queue false) for a trip that is not prepaid', () => {
    const result = planTransition(booking('REACHED', { payment_mode: 'card' }), driver, { type: 'awaitPayment' }, ctx);
    expect(result.ok && result.value).toMatchObject({ to: 'PENDING', driverQueue: false });
    expect(planTransition(booking('REACHED', { prepaid: true }), driver, { type: 'awaitPayment' }, ctx)).toEqual({
      ok: false,
      key: 'invalid_transition',
    });
  });

  it('PAID by the driver for cash: queue false, settles, both parties notified', () => {
    const result = planTransition(booking('REACHED'), driver, { type: 'pay', payment_mode: 'cash' }, ctx);
    expect(result.ok && result.value).toMatchObject({
      to: 'PAID',
      driverQueue: false,
      settles: true,
      set: { payment_mode: 'cash' },
    });
    expect(result.ok && result.value.notices.map((n) => n.to)).toEqual(['customer', 'driver']);
  });

  it('PAID by the driver for a prepaid trip or a wallet trip; card is the rider\'s to pay', () => {
    expect(planTransition(booking('REACHED', { prepaid: true, payment_mode: 'card' }), driver, { type: 'pay', payment_mode: 'card' }, ctx).ok).toBe(true);
    expect(planTransition(booking('REACHED', { payment_mode: 'wallet' }), driver, { type: 'pay', payment_mode: 'wallet' }, ctx).ok).toBe(true);
    expect(planTransition(booking('REACHED', { payment_mode: 'card' }), driver, { type: 'pay', payment_mode: 'card' }, ctx)).toEqual({
      ok: false,
      key: 'payment_mode_invalid',
    });
  });

  it('PAID by the rider by card or wallet from REACHED or PENDING, never cash', () => {
    expect(planTransition(booking('PENDING', { payment_mode: 'card' }), rider, { type: 'pay', payment_mode: 'card' }, ctx).ok).toBe(true);
    expect(planTransition(booking('REACHED', { payment_mode: 'card' }), rider, { type: 'pay', payment_mode: 'wallet' }, ctx).ok).toBe(true);
    expect(planTransition(booking('PENDING'), rider, { type: 'pay', payment_mode: 'cash' }, ctx)).toEqual({ ok: false, key: 'payment_mode_invalid' });
    expect(planTransition(booking('REACHED', { prepaid: true }), rider, { type: 'pay', payment_mode: 'card' }, ctx)).toEqual({
      ok: false,
      key: 'invalid_transition',
    });
  });

  it('PAYMENT_PENDING paid ahead by the rider becomes NEW and prepaid', () => {
    const result = planTransition(booking('PAYMENT_PENDING'), rider, { type: 'pay', payment_mode: 'card' }, ctx);
    expect(result.ok && result.value).toMatchObject({ from: 'PAYMENT_PENDING', to: 'NEW', set: { prepaid: true, payment_mode: 'card' } });
  });

  it('COMPLETE by the rider, with an optional whole-star rating that notifies the driver', () => {
    expect(planTransition(booking('PAID'), rider, { type: 'complete' }, ctx)).toEqual({
      ok: true,
      value: { from: 'PAID', to: 'COMPLETE', set: {}, notices: [] },
    });
    const rated = planTransition(booking('PAID'), rider, { type: 'complete', rating: 5 }, ctx);
    expect(rated.ok && rated.value).toMatchObject({ set: { rating: 5 }, notices: [{ to: 'driver', key: 'notice_rating_received' }] });
    for (const rating of [0, 6, 4.5, '5', Number.NaN]) {
      expect(planTransition(booking('PAID'), rider, { type: 'complete', rating }, ctx)).toEqual({ ok: false, key: 'rating_invalid' });
    }
  });
});

describe('section 4 cancel: status CANCELLED with reason and cancelledBy', () => {
  it('from ACCEPTED frees the driver and tells both parties', () => {
    const result = planTransition(booking('ACCEPTED'), rider, { type: 'cancel', reason: ' Changed my mind ' }, ctx);
    expect(result).toEqual({
      ok: true,
      value: {
        from: 'ACCEPTED',
        to: 'CANCELLED',
        set: { reason: 'Changed my mind', cancelledBy: 'rider' },
        driverQueue: false,
        notices: [
          { to: 'customer', key: 'notice_booking_cancelled', screen: 'BookedCab' },
          { to: 'driver', key: 'notice_booking_cancelled', screen: 'DriverTrips' },
        ],
      },
    });
  });

  it('from NEW removes the requested-drivers list', () => {
    const result = planTransition(booking('NEW'), admin, { type: 'cancel', reason: 'Duplicate' }, ctx);
    expect(result.ok && result.value).toMatchObject({ requestedDrivers: { clear: true }, set: { cancelledBy: 'admin' } });
    expect(result.ok && result.value.driverQueue).toBeUndefined();
  });

  it('from ARRIVED only by an admin; the system cancels only unaccepted bookings', () => {
    expect(planTransition(booking('ARRIVED'), rider, { type: 'cancel', reason: 'x' }, ctx)).toEqual({ ok: false, key: 'invalid_transition' });
    expect(planTransition(booking('ARRIVED'), admin, { type: 'cancel', reason: 'x' }, ctx).ok).toBe(true);
    expect(planTransition(booking('NEW'), system, { type: 'cancel', reason: 'No driver' }, ctx).ok).toBe(true);
    expect(planTransition(booking('ACCEPTED'), system, { type: 'cancel', reason: 'x' }, ctx)).toEqual({ ok: false, key: 'invalid_transition' });
  });

  it('section 6: only the rider (own) or an admin may cancel', () => {
    for (const actor of [driver, fleet, otherRider]) {
      expect(planTransition(booking('NEW'), actor, { type: 'cancel', reason: 'x' }, ctx)).toEqual({ ok: false, key: 'forbidden' });
    }
  });

  it('needs a reason (select_proper)', () => {
    for (const reason of ['', '   ', undefined, 42, 'x'.repeat(501)]) {
      expect(planTransition(booking('NEW'), rider, { type: 'cancel', reason }, ctx)).toEqual({ ok: false, key: 'select_proper', field: 'reason' });
    }
  });
});

describe('section 4 assign driver: NEW, admin, autoDispatch off, same car type', () => {
  const candidate = { uid: 'driver-9', usertype: 'driver', approved: true, carType: 'Sedan' };
  it('records the driver in requestedDrivers and pushes DriverTrips', () => {
    const result = planTransition(booking('NEW', { requestedDrivers: null }), admin, { type: 'assign', driver: candidate }, ctx);
    expect(result.ok && result.value).toMatchObject({
      to: 'NEW',
      requestedDrivers: { add: 'driver-9' },
      notices: [{ to: 'driver', key: 'notice_trip_assigned', screen: 'DriverTrips' }],
    });
  });
  it('is refused with autoDispatch on, another car type, a non-driver, or by a non-admin', () => {
    expect(planTransition(booking('NEW'), admin, { type: 'assign', driver: candidate }, { ...ctx, autoDispatch: true })).toEqual({ ok: false, key: 'auto_dispatch_on' });
    expect(planTransition(booking('NEW'), admin, { type: 'assign', driver: { ...candidate, carType: 'Van' } }, ctx)).toEqual({ ok: false, key: 'driver_car_type_mismatch' });
    expect(planTransition(booking('NEW'), admin, { type: 'assign', driver: { ...candidate, usertype: 'rider' } }, ctx)).toEqual({ ok: false, key: 'not_found', field: 'driver' });
    expect(planTransition(booking('NEW'), admin, { type: 'assign', driver: { ...candidate, approved: false } }, ctx)).toEqual({ ok: false, key: 'not_found', field: 'driver' });
    expect(planTransition(booking('NEW'), fleet, { type: 'assign', driver: candidate }, ctx)).toEqual({ ok: false, key: 'forbidden' });
  });
});

describe('section 4: every action from every status by every actor is allowed exactly where the table says', () => {
  const actions: Record<string, BookingAction> = {
    accept: { type: 'accept', driver: acceptingDriver },
    arrive: { type: 'arrive' },
    start: { type: 'start' },
    reach: { type: 'reach' },
    awaitPayment: { type: 'awaitPayment' },
    payCash: { type: 'pay', payment_mode: 'cash' },
    payCard: { type: 'pay', payment_mode: 'card' },
    complete: { type: 'complete' },
    cancel: { type: 'cancel', reason: 'r' },
    assign: { type: 'assign', driver: { uid: 'driver-9', usertype: 'driver', approved: true, carType: 'Sedan' } },
  };
  const actors: Record<string, Actor> = { rider, otherRider, driver, otherDriver, admin, fleet, system };
  // [action, actor] -> statuses it may start from (taxi booking, cash, not prepaid).
  const allowed: Record<string, BookingStatus[]> = {
    'accept/driver': ['NEW'],
    'arrive/driver': ['ACCEPTED'],
    'start/driver': ['ARRIVED'],
    'reach/driver': ['STARTED'],
    'awaitPayment/driver': ['REACHED'],
    'payCash/driver': ['REACHED', 'PENDING'],
    'payCard/rider': ['PAYMENT_PENDING', 'REACHED', 'PENDING'],
    'complete/rider': ['PAID'],
    'cancel/rider': ['PAYMENT_PENDING', 'NEW', 'ACCEPTED'],
    'cancel/admin': ['PAYMENT_PENDING', 'NEW', 'ACCEPTED', 'ARRIVED'],
    'cancel/system': ['PAYMENT_PENDING', 'NEW'],
    'assign/admin': ['NEW'],
  };
  for (const [actionName, action] of Object.entries(actions)) {
    for (const [actorName, actor] of Object.entries(actors)) {
      const key = `${actionName}/${actorName}`;
      const expected = allowed[key] ?? [];
      it(`${key}: ${expected.join(', ') || 'never'}`, () => {
        for (const status of BOOKING_STATUSES) {
          const result = planTransition(booking(status), actor, action, ctx);
          expect({ status, ok: result.ok }).toEqual({ status, ok: expected.includes(status) });
          if (result.ok) expect(result.value.from).toBe(status);
        }
      });
    }
  }
});
