import { NO_TAKER_REASON } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, outbox, users } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { syncDriver } from '../../src/modules/presence/service';
import { drop, pickup, sedan } from '../fixtures';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';

// Degrees of latitude per km, near London.
const northOfPickup = (km: number) => ({ lat: pickup.lat + km / 111.195, lng: pickup.lng });

describe.each(ENGINES)('dispatch on %s (issue 5; spec sections 4, 5 and 6)', (engine) => {
  let t: TestApp;
  let admin: UserRow;
  const drivers: UserRow[] = [];

  const driver = async (extra: Parameters<TestApp['makeUser']>[1] = {}) => {
    const made = await t.makeUser('driver', { carType: 'Sedan', ...extra });
    drivers.push(made);
    return made;
  };
  const tasksOf = async (user: UserRow) => ((await t.request({ method: 'GET', url: '/api/driver/tasks', as: user })).json().tasks as { id: string }[]).map((task) => task.id);
  const book = async (rider: UserRow, extra: Record<string, unknown> = {}) => t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', ...extra } });
  const row = async (id: string) => (await t.db.select().from(bookings).where(eq(bookings.id, id)))[0];
  /** Every driver of earlier tests goes offline and their open bookings end, so each test sets its own scene. */
  const clearScene = async () => {
    await t.db.update(bookings).set({ status: 'CANCELLED', requestedDrivers: {} }).where(eq(bookings.status, 'NEW'));
    for (const d of drivers.splice(0)) {
      await t.db.update(users).set({ driverActiveStatus: false }).where(eq(users.id, d.id));
      await syncDriver(t.app.ctx, d.id);
    }
  };

  beforeAll(async () => {
    t = await createTestApp(engine, { OFFER_BATCH_SIZE: '2', OFFER_TIMEOUT_S: '20', NO_TAKER_CANCEL_S: '300', DRIVER_TIMEOUT_S: '120' });
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: { ...sedan, name: 'Van' } });
  });
  afterAll(() => t.close());

  it('offers only available drivers in range with the right car type (section 6 rule by rule)', async () => {
    await clearScene();
    const eligible = await driver();
    await t.goOnline(eligible, northOfPickup(1));
    const unapproved = await driver({ approved: false });
    await t.goOnline(unapproved, northOfPickup(0.1));
    const busy = await driver();
    await t.goOnline(busy, northOfPickup(0.1));
    await t.db.update(users).set({ queue: true }).where(eq(users.id, busy.id));
    await syncDriver(t.app.ctx, busy.id);
    const offline = await driver();
    await t.goOnline(offline, northOfPickup(0.1));
    await t.request({ method: 'PATCH', url: '/api/driver/status', as: offline, payload: { driverActiveStatus: false } });
    const unlocated = await driver();
    await t.request({ method: 'PATCH', url: '/api/driver/status', as: unlocated, payload: { driverActiveStatus: true } });
    const van = await driver({ carType: 'Van' });
    await t.goOnline(van, northOfPickup(0.1));
    const far = await driver();
    await t.goOnline(far, northOfPickup(12));
    const rider = await t.makeUser('rider');

    const created = await book(rider);
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    expect(Object.keys((await row(id))?.requestedDrivers ?? {})).toEqual([eligible.id]);
    expect(await tasksOf(eligible)).toEqual([id]);
    for (const other of [unapproved, busy, offline, unlocated, van, far]) expect(await tasksOf(other)).toEqual([]);
  });

  it('measures the radius in miles when convert_to_mile: 12 km is within 10 miles', async () => {
    await clearScene();
    const far = await driver();
    await t.goOnline(far, northOfPickup(12));
    const rider = await t.makeUser('rider');
    expect(codeOf(await book(rider))).toBe('no_driver_found_alert_messege');
    await t.setSettings({ convert_to_mile: true });
    const booked = await book(rider);
    expect(booked.statusCode).toBe(201);
    expect(await tasksOf(far)).toEqual([booked.json().id]);
    await t.setSettings({});
  });

  it('drops a driver silent for longer than DRIVER_TIMEOUT_S out of availability', async () => {
    await clearScene();
    const quiet = await driver();
    await t.goOnline(quiet, northOfPickup(1));
    t.advance(121_000);
    const rider = await t.makeUser('rider');
    expect(codeOf(await book(rider))).toBe('no_driver_found_alert_messege');
    await t.request({ method: 'POST', url: '/api/driver/location', as: quiet, payload: northOfPickup(1) });
    expect((await book(rider)).statusCode).toBe(201);
  });

  it('offers in batches of the nearest, widening after each timeout, and withdraws the earlier offers', async () => {
    await clearScene();
    const ranked = [];
    for (const km of [1, 2, 3, 4, 5]) {
      const d = await driver();
      await t.goOnline(d, northOfPickup(km));
      ranked.push(d);
    }
    const [first, second, third, fourth, fifth] = ranked as [UserRow, UserRow, UserRow, UserRow, UserRow];
    const firstLive = await t.live(first);
    await firstLive.subscribe('user:me');
    const rider = await t.makeUser('rider');
    const id = (await book(rider)).json().id as string;
    expect((await firstLive.next((m) => m.event === 'offer')).data).toMatchObject({ id, status: 'NEW', otp: false, requestedDrivers: {} });
    expect([await tasksOf(first), await tasksOf(second), await tasksOf(third)]).toEqual([[id], [id], []]);

    t.advance(20_000);
    await t.runJobs();
    expect(await firstLive.next((m) => m.event === 'offer_withdrawn')).toMatchObject({ data: { bookingId: id } });
    expect([await tasksOf(first), await tasksOf(second), await tasksOf(third), await tasksOf(fourth)]).toEqual([[], [], [id], [id]]);
    // A withdrawn offer can no longer be accepted.
    expect(codeOf(await t.request({ method: 'POST', url: `/api/bookings/${id}/accept`, as: first }))).toBe('not_found');

    t.advance(20_000);
    await t.runJobs();
    expect([await tasksOf(fourth), await tasksOf(fifth)]).toEqual([[], [id]]);
    // Everyone in range was asked: the search starts again from the nearest.
    t.advance(20_000);
    await t.runJobs();
    expect(Object.keys((await row(id))?.requestedDrivers ?? {}).sort()).toEqual([first.id, second.id].sort());
    const accepted = await t.request({ method: 'POST', url: `/api/bookings/${id}/accept`, as: second });
    expect(accepted.json()).toMatchObject({ status: 'ACCEPTED', driver: second.id });
    // The round timeout that was pending does nothing to a taken booking.
    t.advance(20_000);
    await t.runJobs();
    expect((await row(id))?.status).toBe('ACCEPTED');
  });

  it('cancels a booking nobody takes after NO_TAKER_CANCEL_S, with a reason, and tells the rider', async () => {
    await clearScene();
    const d = await driver();
    await t.goOnline(d, northOfPickup(1));
    const rider = await t.makeUser('rider');
    const riderLive = await t.live(rider);
    const id = (await book(rider)).json().id as string;
    await riderLive.subscribe(`booking:${id}`);
    for (let waited = 0; waited < 300_000; waited += 20_000) {
      t.advance(20_000);
      // The driver stays online and silent of nothing: it keeps reporting its position.
      await t.request({ method: 'POST', url: '/api/driver/location', as: d, payload: northOfPickup(1) });
      await t.runJobs();
    }
    expect(await row(id)).toMatchObject({ status: 'CANCELLED', reason: NO_TAKER_REASON, cancelledBy: 'system', requestedDrivers: {} });
    expect((await riderLive.next((m) => m.event === 'booking' && (m.data as { status: string }).status === 'CANCELLED')).topic).toBe(`booking:${id}`);
    const notices = await t.db.select().from(outbox).where(eq(outbox.recipient, rider.id));
    expect(notices.map((n) => n.payload.msg)).toContain('The booking was cancelled.');
    expect(await tasksOf(d)).toEqual([]);
  });

  it('with autoDispatch off offers nothing: the admin assigns, and the driver is told live', async () => {
    await clearScene();
    await t.setSettings({ autoDispatch: false });
    const d = await driver();
    await t.goOnline(d, northOfPickup(1));
    const driverLive = await t.live(d);
    await driverLive.subscribe('user:me');
    const rider = await t.makeUser('rider');
    const id = (await book(rider)).json().id as string;
    expect(await tasksOf(d)).toEqual([]);
    const assigned = await t.request({ method: 'POST', url: `/api/bookings/${id}/assign`, as: admin, payload: { driver: d.id } });
    expect(assigned.statusCode).toBe(200);
    expect((await driverLive.next((m) => m.event === 'offer')).data).toMatchObject({ id });
    expect(await tasksOf(d)).toEqual([id]);
    await t.setSettings({});
  });

  it('dispatches a book-later booking by a job ahead of its tripdate', async () => {
    await clearScene();
    const d = await driver();
    const rider = await t.makeUser('rider');
    const tripdate = t.clock.now + 60 * 60_000;
    const booked = await book(rider, { bookLater: true, tripdate });
    expect(booked.statusCode).toBe(201);
    const id = booked.json().id as string;
    await t.goOnline(d, northOfPickup(1));
    expect(await tasksOf(d)).toEqual([]);
    t.advance(49 * 60_000);
    await t.runJobs();
    expect(await tasksOf(d)).toEqual([]);
    t.advance(60_000);
    await t.request({ method: 'POST', url: '/api/driver/location', as: d, payload: northOfPickup(1) });
    await t.runJobs();
    expect(await tasksOf(d)).toEqual([id]);
  });
});
