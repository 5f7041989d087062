import { randomUUID } from 'node:crypto';
import { BOOKING_STATUSES, planTransition, type Actor as DomainActor, type BookingAction, type BookingStatus, type PaymentMode } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, users } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { drop, pickup, sedan } from '../fixtures';
import { createTestApp, ENGINES, type TestApp } from '../harness';


type Call = { name: string; path: string; payload: (people: Record<string, UserRow>) => Record<string, unknown>; action: (driver: UserRow, people: Record<string, UserRow>) => BookingAction };
const CALLS: Call[] = [
  { name: 'accept', path: 'accept', payload: () => ({}), action: (driver) => ({ type: 'accept', driver: { uid: driver.id, queue: false, driver_name: '', driver_image: '', driver_contact: '', driver_token: '', vehicle_number: '', driverRating: 0, fleetadmin: null } }) },
  { name: 'arrive', path: 'arrive', payload: () => ({}), action: () => ({ type: 'arrive' }) },
  { name: 'start', path: 'start', payload: () => ({}), action: () => ({ type: 'start' }) },
  { name: 'reach', path: 'reach', payload: () => ({}), action: () => ({ type: 'reach' }) },
  { name: 'pay cash', path: 'pay', payload: () => ({ payment_mode: 'cash' }), action: () => ({ type: 'pay', payment_mode: 'cash' }) },
  { name: 'pay wallet', path: 'pay', payload: () => ({ payment_mode: 'wallet' }), action: () => ({ type: 'pay', payment_mode: 'wallet' }) },
  { name: 'complete', path: 'complete', payload: () => ({ rating: 5 }), action: () => ({ type: 'complete', rating: 5 }) },
  {
    name: 'assign',
    path: 'assign',
    payload: (people) => ({ driver: people.otherDriver?.id }),
    action: (_driver, people) => ({ type: 'assign', driver: { uid: people.otherDriver?.id ?? '', usertype: 'driver', approved: true, carType: 'Sedan' } }),
  },
  { name: 'cancel', path: 'cancel', payload: () => ({ reason: 'Changed plans' }), action: () => ({ type: 'cancel', reason: 'Changed plans' }) },
];

describe.each(ENGINES)('every step from every status by every role on %s (issue 4: allowed once, else 4xx and unchanged)', (engine) => {
  let t: TestApp;
  let template: typeof bookings.$inferSelect;
  let people: Record<string, UserRow>;

  beforeAll(async () => {
    t = await createTestApp(engine);
    // autoDispatch off, so that admin assignment is one of the steps under test.
    await t.setSettings({ autoDispatch: false });
    const admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
    const rider = await t.makeUser('rider');
    const driver = await t.makeUser('driver', { carType: 'Sedan' });
    await t.goOnline(driver);
    people = { rider, otherRider: await t.makeUser('rider'), driver, otherDriver: await t.makeUser('driver', { carType: 'Sedan' }), fleetadmin: await t.makeUser('fleetadmin'), admin };
    await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: rider.id, amount: 100_000 } });
    const id = (await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan' } })).json().id as string;
    template = (await t.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
    await t.db.delete(bookings).where(eq(bookings.id, id));
  });
  afterAll(() => t.close());

  /** A booking in the given status: offered to the driver while NEW, the driver's trip after. */
  async function bookingIn(status: BookingStatus) {
    const assigned = !['PAYMENT_PENDING', 'NEW'].includes(status) && !(status === 'CANCELLED');
    const row = {
      ...template,
      id: randomUUID(),
      reference: randomUUID().slice(0, 7).toUpperCase(),
      status,
      driver: assigned ? people.driver!.id : null,
      requestedDrivers: status === 'NEW' ? { [people.driver!.id]: true as const } : {},
      acceptedAt: assigned ? t.clock.now : null,
      tripStartTime: assigned ? t.clock.now - 600_000 : null,
    };
    await t.db.insert(bookings).values(row);
    await t.db.update(users).set({ queue: false }).where(eq(users.id, people.driver!.id));
    return row;
  }

  for (const status of BOOKING_STATUSES) {
    it(`from ${status}`, async () => {
      for (const call of CALLS) {
        for (const [who, person] of Object.entries(people)) {
          const booking = await bookingIn(status);
          const actor: DomainActor = { usertype: person.usertype as DomainActor['usertype'] & 'rider', uid: person.id };
          const expected = planTransition(
            { status, customer: booking.customer, driver: booking.driver, requestedDrivers: booking.requestedDrivers, carType: booking.carType, prepaid: false, payment_mode: booking.paymentMode as PaymentMode, otp: false, startTime: booking.tripStartTime },
            actor,
            call.action(people.driver!, people),
            { at: t.clock.now, autoDispatch: false },
          );
          const response = await t.request({ method: 'POST', url: `/api/bookings/${booking.id}/${call.path}`, as: person, payload: call.payload(people) });
          const after = (await t.db.select().from(bookings).where(eq(bookings.id, booking.id)))[0];
          const label = `${call.name} by ${who} from ${status}`;
          if (expected.ok) {
            expect(response.statusCode, label).toBe(200);
            expect(after?.status, label).toBe(expected.value.to);
          } else {
            expect(response.statusCode, label).toBeGreaterThanOrEqual(400);
            expect(response.statusCode, label).toBeLessThan(500);
            expect(after, label).toEqual(booking);
          }
          await t.db.delete(bookings).where(eq(bookings.id, booking.id));
        }
      }
    });
  }
});
