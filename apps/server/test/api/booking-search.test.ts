/**
 * Issue 17: the booking history is searched by reference or by the rider's or driver's name and
 * filtered by status and trip date, on the server (the list holds the newest 500), always inside
 * the caller's scope.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { drop, pickup, sedan } from '../fixtures';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

describe.each(ENGINES)('searching and filtering the booking history on %s (issue 17)', (engine) => {
  let t: TestApp;
  let admin: UserRow;
  let fleet: UserRow;
  let ana: UserRow;
  let ben: UserRow;
  const booked: Record<'near' | 'far' | 'fleet', { id: string; booking_id: string; tripdate: number }> = {} as never;

  const book = async (rider: UserRow, tripdate: number) => {
    const response = await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', bookLater: true, tripdate } });
    expect(response.statusCode).toBe(201);
    return response.json<{ id: string; booking_id: string; tripdate: number }>();
  };
  const list = async (as: UserRow, query: string) => {
    const response = await t.request({ method: 'GET', url: `/api/bookings${query}`, as });
    expect(response.statusCode, query).toBe(200);
    return response.json<{ bookings: { id: string }[] }>().bookings.map((booking) => booking.id).sort();
  };
  const ids = (...keys: (keyof typeof booked)[]) => keys.map((key) => booked[key].id).sort();

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.makeUser('admin');
    fleet = await t.makeUser('fleetadmin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
    ana = await t.makeUser('rider', { firstName: 'Anabel', lastName: 'Quist' });
    ben = await t.makeUser('rider', { firstName: 'Ben', lastName: 'Oduya' });
    booked.near = await book(ana, t.clock.now + 2 * HOUR);
    booked.far = await book(ben, t.clock.now + 3 * DAY);
    booked.fleet = await book(ana, t.clock.now + 5 * DAY);
    // One of them was run by a fleet's driver and cancelled.
    await t.db.update(bookings).set({ status: 'CANCELLED', driverName: 'Dora Wheeler', fleetadmin: fleet.id }).where(eq(bookings.id, booked.fleet.id));
  });
  afterAll(() => t.close());

  it('finds by any part of the reference or of a name, in any case', async () => {
    expect(await list(admin, '?q=anabel')).toEqual(ids('near', 'fleet'));
    expect(await list(admin, '?q=QUIST')).toEqual(ids('near', 'fleet'));
    expect(await list(admin, `?q=${booked.far.booking_id.toLowerCase()}`)).toEqual(ids('far'));
    expect(await list(admin, `?q=${booked.far.booking_id.slice(1, -1)}`)).toContain(booked.far.id);
    expect(await list(admin, '?q=wheel')).toEqual(ids('fleet'));
    expect(await list(admin, '?q=nobody%20here')).toEqual([]);
    // A blank search is no search.
    expect(await list(admin, '?q=%20%20')).toEqual(ids('near', 'far', 'fleet'));
  });

  it('treats %, _ and \\ as the characters they are, not as wildcards', async () => {
    for (const typed of ['%25', '_', '%5C', 'A%25Q']) expect(await list(admin, `?q=${typed}`), typed).toEqual([]);
  });

  it('filters by status and by trip date (both ends included), together with the search', async () => {
    expect(await list(admin, '?status=CANCELLED')).toEqual(ids('fleet'));
    expect(await list(admin, '?status=NEW')).toEqual(ids('near', 'far'));
    expect(await list(admin, `?from=${booked.far.tripdate}`)).toEqual(ids('far', 'fleet'));
    expect(await list(admin, `?to=${booked.far.tripdate}`)).toEqual(ids('near', 'far'));
    expect(await list(admin, `?from=${booked.far.tripdate}&to=${booked.far.tripdate}`)).toEqual(ids('far'));
    expect(await list(admin, `?q=anabel&status=NEW&from=${t.clock.now}&to=${t.clock.now + DAY}`)).toEqual(ids('near'));
  });

  it('never leaves the caller\'s scope: a fleet admin finds only its bookings, a rider only its own', async () => {
    expect(await list(fleet, '')).toEqual(ids('fleet'));
    expect(await list(fleet, '?q=anabel')).toEqual(ids('fleet'));
    expect(await list(fleet, '?q=ben')).toEqual([]);
    expect(await list(fleet, `?q=${booked.near.booking_id}`)).toEqual([]);
    expect(await list(ben, '?q=anabel')).toEqual([]);
    expect(await list(ben, '?status=NEW')).toEqual(ids('far'));
  });

  it('refuses a malformed filter with validation_error', async () => {
    for (const query of ['?status=LOST', '?from=yesterday', '?to=-5', `?q=${'x'.repeat(101)}`]) {
      const response = await t.request({ method: 'GET', url: `/api/bookings${query}`, as: admin });
      expect([response.statusCode, codeOf(response)], query).toEqual([400, 'validation_error']);
    }
  });
});
