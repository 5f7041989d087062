import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { drop, pickup, PNG, sedan } from '../fixtures';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';

describe.each(ENGINES)("a parcel's photos and a driver's own earnings on %s (issue 8, section 3 pickup_image and deliver_image)", (engine) => {
  let t: TestApp;
  let admin: UserRow;

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
  });
  afterAll(() => t.close());

  /** A booking accepted by a fresh driver, in the app category asked for. */
  const acceptedTrip = async (appcat: 'taxi' | 'delivery') => {
    await t.setSettings({ appcat });
    const driver = await t.makeUser('driver', { carType: 'Sedan', vehicleNumber: 'PH0 TOS' });
    await t.goOnline(driver);
    const rider = await t.makeUser('rider');
    const delivery = appcat === 'delivery' ? { deliveryPerson: 'Sam', deliveryPersonPhone: '555 0100' } : {};
    const booked = await t.request({ method: 'POST', url: '/api/bookings', as: admin, payload: { pickup, drop, carType: 'Sedan', customer: rider.id, ...delivery } });
    expect(booked.statusCode).toBe(201);
    const id = booked.json().id as string;
    await t.db.update(bookings).set({ requestedDrivers: { [driver.id]: true } }).where(eq(bookings.id, id));
    expect((await t.request({ method: 'POST', url: `/api/bookings/${id}/accept`, as: driver })).statusCode).toBe(200);
    return { id, driver, rider };
  };
  const post = (as: UserRow, id: string, path: string, payload: Record<string, unknown> = {}) => t.request({ method: 'POST', url: `/api/bookings/${id}/${path}`, as, payload });

  it('a delivery starts only after the pickup photo and reaches the drop only after the delivery photo; the rider sees both', async () => {
    const { id, driver, rider } = await acceptedTrip('delivery');
    expect((await post(driver, id, 'arrive')).statusCode).toBe(200);
    const refused = await post(driver, id, 'start');
    expect([refused.statusCode, codeOf(refused), refused.json().error.field]).toEqual([409, 'photo_required', 'pickup_image']);
    // The deliver photo belongs to the drop: not before the trip starts.
    expect(codeOf(await post(driver, id, 'photos', { kind: 'deliver', image: PNG }))).toBe('invalid_transition');
    const picked = await post(driver, id, 'photos', { kind: 'pickup', image: PNG });
    expect(picked.statusCode).toBe(200);
    expect(picked.json().pickup_image).toMatch(/^\/api\/files\/trips\/.+\.png$/);
    const served = await t.request({ method: 'GET', url: picked.json().pickup_image });
    expect([served.statusCode, served.headers['content-type']]).toEqual([200, 'image/png']);
    expect((await post(driver, id, 'start')).statusCode).toBe(200);
    expect(codeOf(await post(driver, id, 'photos', { kind: 'pickup', image: PNG }))).toBe('invalid_transition');
    expect(codeOf(await post(driver, id, 'reach'))).toBe('photo_required');
    expect((await post(driver, id, 'photos', { kind: 'deliver', image: PNG })).statusCode).toBe(200);
    expect((await post(driver, id, 'reach')).json().status).toBe('REACHED');
    const seen = (await t.request({ method: 'GET', url: `/api/bookings/${id}`, as: rider })).json();
    expect(seen.pickup_image).toMatch(/^\/api\/files\/trips\//);
    expect(seen.deliver_image).toMatch(/^\/api\/files\/trips\//);
    expect(seen.deliver_image).not.toBe(seen.pickup_image);
  });

  it('refuses photos from anyone but the trip driver, of another kind, that are not images, or on a taxi trip, and keeps what is stored', async () => {
    const { id, driver, rider } = await acceptedTrip('delivery');
    const other = await t.makeUser('driver', { carType: 'Sedan' });
    expect(codeOf(await post(other, id, 'photos', { kind: 'pickup', image: PNG }))).toBe('not_found');
    expect((await post(rider, id, 'photos', { kind: 'pickup', image: PNG })).statusCode).toBe(403);
    expect(codeOf(await post(driver, id, 'photos', { kind: 'front', image: PNG }))).toBe('validation_error');
    for (const image of [undefined, '', 'data:image/png;base64,aGVsbG8=', 'data:text/html;base64,PGgxPg==', { toString: PNG }]) {
      const response = await post(driver, id, 'photos', { kind: 'pickup', image });
      expect([response.statusCode, codeOf(response)]).toEqual([400, 'validation_error']);
    }
    expect((await post(driver, id, 'photos', { kind: 'pickup', image: `data:image/png;base64,${'A'.repeat(10_000_000)}` })).statusCode).toBe(413);
    expect((await t.db.select({ pickupImage: bookings.pickupImage }).from(bookings).where(eq(bookings.id, id)))[0]?.pickupImage).toBeNull();
    const taxi = await acceptedTrip('taxi');
    expect(codeOf(await post(taxi.driver, taxi.id, 'photos', { kind: 'pickup', image: PNG }))).toBe('validation_error');
    // A taxi trip needs no photo to start.
    expect((await post(taxi.driver, taxi.id, 'arrive')).statusCode).toBe(200);
    expect((await post(taxi.driver, taxi.id, 'start')).statusCode).toBe(200);
  });

  it("a driver's earnings report holds only its own trips", async () => {
    const me = await t.makeUser('driver', { carType: 'Sedan' });
    const other = await t.makeUser('driver', { carType: 'Sedan' });
    const rider = await t.makeUser('rider');
    const now = Date.now();
    const trip = (driver: UserRow, driverShareMinor: number) => ({
      id: crypto.randomUUID(), reference: crypto.randomUUID().slice(0, 7), status: 'COMPLETE', carType: 'Sedan', customer: rider.id, customerName: 'R', pickup, drop, tripdate: now, bookingDate: now, estimateMinor: driverShareMinor + 100, estimateDistance: 5, distance: 5, estimateTime: 600,
      tripCostMinor: driverShareMinor + 100, currency: 'USD', convenienceFeesMinor: 100, driverShareMinor, customerPaidMinor: driverShareMinor + 100, driver: driver.id, driverName: `${driver.firstName} ${driver.lastName}`, updatedAt: now,
    });
    await t.db.insert(bookings).values([trip(me, 1234), trip(me, 766), trip(other, 5000)]);
    const rows = (await t.request({ method: 'GET', url: '/api/reports/driver-earnings', as: me })).json().rows as { driver: string; driverShare: number; bookings: number }[];
    expect(rows).toEqual([expect.objectContaining({ driver: me.id, driverShare: 20, bookings: 2 })]);
    expect((await t.request({ method: 'GET', url: '/api/reports/earnings', as: me })).statusCode).toBe(403);
  });
});
