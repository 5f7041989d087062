import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, chats, tracking } from '../../src/db/schema';
import { pruneTripHistory } from '../../src/modules/tracking/retention';
import type { UserRow } from '../../src/modules/users/accounts';
import { drop, pickup, sedan } from '../fixtures';
import { codeOf, createTestApp, driveTrip, ENGINES, type TestApp } from '../harness';

const DAY = 24 * 60 * 60 * 1000;

describe.each(ENGINES)('location history kept no longer than needed on %s (issue 20 point 4)', (engine) => {
  let t: TestApp;
  let admin: UserRow;

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
  });
  afterAll(() => t.close());

  /** A cash trip driven along a few points and paid, with a chat; then `extra` more tracking points and chat lines stored. */
  const finishedTrip = async (extra: number) => {
    const driver = await t.makeUser('driver', { carType: 'Sedan', vehicleNumber: 'RET 001' });
    await t.goOnline(driver);
    const rider = await t.makeUser('rider');
    const booked = await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', payment_mode: 'cash' } });
    expect(booked.statusCode).toBe(201);
    const id = booked.json<{ id: string }>().id;
    await t.db.update(bookings).set({ requestedDrivers: { [driver.id]: true } }).where(eq(bookings.id, id));
    expect((await t.request({ method: 'POST', url: `/api/bookings/${id}/accept`, as: driver })).statusCode).toBe(200);
    expect((await t.request({ method: 'POST', url: `/api/bookings/${id}/chat`, as: rider, payload: { message: 'At the north door' } })).statusCode).toBeLessThan(300);
    await driveTrip(t, driver, id, [{ lat: 51.525, lng: -0.11 }, { lat: 51.515, lng: -0.09 }]);
    expect((await t.request({ method: 'POST', url: `/api/bookings/${id}/pay`, as: driver, payload: { payment_mode: 'cash' } })).statusCode).toBe(200);
    const base = t.clock.now;
    if (extra > 0) {
      await t.db.insert(tracking).values(Array.from({ length: extra }, (_, i) => ({ bookingId: id, at: base + 1000 + i, status: 'REACHED', lat: 51.51 + i / 1e5, lng: -0.08 + i / 1e5 })));
      await t.db.insert(chats).values(Array.from({ length: 3 }, (_, i) => ({ bookingId: id, from: driver.id, source: 'driver', message: `line ${String(i)}`, at: base + i })));
    }
    return { id, rider, driver };
  };
  const endedDaysAgo = (id: string, days: number) => t.db.update(bookings).set({ tripEndTime: t.clock.now - days * DAY }).where(eq(bookings.id, id));
  const pointsOf = async (id: string) => (await t.db.select().from(tracking).where(eq(tracking.bookingId, id)).orderBy(tracking.at, tracking.id)).map((p) => p.id);
  const chatCount = async (id: string) => (await t.db.select({ n: sql<number>`count(*)::int` }).from(chats).where(eq(chats.bookingId, id)))[0]?.n;
  const bookingRow = async (id: string) => (await t.db.select().from(bookings).where(eq(bookings.id, id)))[0];

  it("thins an old finished trip's points to its route's shape and removes its chat; its fare, distance and receipt stay", async () => {
    const old = await finishedTrip(400);
    const recent = await finishedTrip(400);
    await endedDaysAgo(old.id, 731);
    await endedDaysAgo(recent.id, 729);
    const before = { old: await pointsOf(old.id), recent: await pointsOf(recent.id), booking: await bookingRow(old.id) };
    const receipt = (await t.request({ method: 'GET', url: `/api/bookings/${old.id}/receipt`, as: old.rider })).body;
    expect(before.old.length).toBeGreaterThan(400);

    const pruned = await pruneTripHistory(t.db, t.clock.now);
    expect(pruned.trips).toBeGreaterThanOrEqual(1);
    const kept = await pointsOf(old.id);
    // The first and last points, and at most 25 between: the route drawn on the trip page keeps its ends.
    expect(kept.length).toBeLessThanOrEqual(27);
    expect(kept.length).toBeGreaterThan(10);
    expect(kept[0]).toBe(before.old[0]);
    expect(kept.at(-1)).toBe(before.old.at(-1));
    expect(await chatCount(old.id)).toBe(0);
    const after = await bookingRow(old.id);
    expect(after?.historyPrunedAt).toBe(t.clock.now);
    expect({ ...after, historyPrunedAt: null }).toEqual({ ...before.booking, historyPrunedAt: null });
    expect((await t.request({ method: 'GET', url: `/api/bookings/${old.id}/receipt`, as: old.rider })).body).toBe(receipt);
    // The trip page still gets its (thinned) route.
    const listed = await t.request({ method: 'GET', url: `/api/bookings/${old.id}/tracking`, as: old.rider });
    expect(listed.json<{ tracking: unknown[] }>().tracking).toHaveLength(kept.length);

    // A trip that ended a day short of the period keeps everything.
    expect(await pointsOf(recent.id)).toEqual(before.recent);
    expect(await chatCount(recent.id)).toBe(4);
    expect((await bookingRow(recent.id))?.historyPrunedAt).toBeNull();

    // Once only: a second run finds nothing due.
    expect(await pruneTripHistory(t.db, t.clock.now + 1000)).toEqual({ trips: 0, points: 0, messages: 0 });
    expect((await bookingRow(old.id))?.historyPrunedAt).toBe(t.clock.now);
  });

  it('an active trip keeps its history however old; a longer period set by the admin keeps more', async () => {
    const driver = await t.makeUser('driver', { carType: 'Sedan', vehicleNumber: 'RET 002' });
    await t.goOnline(driver);
    const rider = await t.makeUser('rider');
    const booked = await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', payment_mode: 'cash' } });
    const id = booked.json<{ id: string }>().id;
    await t.db.update(bookings).set({ requestedDrivers: { [driver.id]: true } }).where(eq(bookings.id, id));
    expect((await t.request({ method: 'POST', url: `/api/bookings/${id}/accept`, as: driver })).statusCode).toBe(200);
    await driveTrip(t, driver, id, [{ lat: 51.525, lng: -0.11 }]);
    // REACHED and never paid: still active, whatever its dates say.
    await t.db.update(bookings).set({ tripEndTime: t.clock.now - 5000 * DAY, tripdate: t.clock.now - 5000 * DAY }).where(eq(bookings.id, id));
    const points = await pointsOf(id);
    await pruneTripHistory(t.db, t.clock.now);
    expect(await pointsOf(id)).toEqual(points);

    const old = await finishedTrip(100);
    await endedDaysAgo(old.id, 1000);
    const saved = await t.request({ method: 'PATCH', url: '/api/settings', as: admin, payload: { locationHistoryDays: 1095 } });
    expect(saved.statusCode).toBe(200);
    try {
      await pruneTripHistory(t.db, t.clock.now);
      expect((await pointsOf(old.id)).length).toBeGreaterThan(100);
      expect(await chatCount(old.id)).toBe(4);
    } finally {
      await t.setSettings({});
    }
    await pruneTripHistory(t.db, t.clock.now);
    expect(await chatCount(old.id)).toBe(0);
  });

  it('the period is an admin setting between 30 days and 10 years, and only an admin sets it', async () => {
    for (const locationHistoryDays of [0, 29, 3651, 1.5, '730']) {
      const refused = await t.request({ method: 'PATCH', url: '/api/settings', as: admin, payload: { locationHistoryDays } });
      expect(refused.statusCode, String(locationHistoryDays)).toBe(400);
      expect(codeOf(refused)).toBe('proper_history_days');
    }
    const rider = await t.makeUser('rider');
    expect((await t.request({ method: 'PATCH', url: '/api/settings', as: rider, payload: { locationHistoryDays: 30 } })).statusCode).toBe(403);
    const settings = await t.request({ method: 'GET', url: '/api/settings', as: admin });
    expect(settings.json<{ settings: { locationHistoryDays: number } }>().settings.locationHistoryDays).toBe(730);
  });

  it('prunes a backlog in batches, each its own transaction, and a run cut short is finished by the next', async () => {
    // Trips already due (earlier tests' trips are pruned once and stay pruned) are taken first, so
    // this test counts only its own five.
    await pruneTripHistory(t.db, t.clock.now);
    const trips = [];
    for (let i = 0; i < 5; i += 1) trips.push(await finishedTrip(30));
    for (const trip of trips) await endedDaysAgo(trip.id, 800);

    // Two batches of two: four trips pruned, the fifth left for the next run.
    const first = await pruneTripHistory(t.db, t.clock.now, { batchSize: 2, maxBatches: 2 });
    expect(first.trips).toBe(4);
    const pruned = await Promise.all(trips.map(async (trip) => (await bookingRow(trip.id))?.historyPrunedAt ?? null));
    expect(pruned.filter((at) => at === t.clock.now)).toHaveLength(4);
    const left = trips.filter((_, i) => pruned[i] === null);
    expect(left).toHaveLength(1);
    expect(await chatCount(left[0]!.id)).toBe(4);

    // The next run takes the one left and stops at the first short batch.
    const second = await pruneTripHistory(t.db, t.clock.now, { batchSize: 2, maxBatches: 10 });
    expect(second.trips).toBe(1);
    expect(await chatCount(left[0]!.id)).toBe(0);
    expect(await pruneTripHistory(t.db, t.clock.now, { batchSize: 2 })).toEqual({ trips: 0, points: 0, messages: 0 });
  });
});
