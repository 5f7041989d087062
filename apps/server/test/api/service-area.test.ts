import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bookings } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { drop, pickup, sedan } from '../fixtures';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';

/** A box around King's Cross (the fixtures' pickup), leaving out the Tower of London (the drop). */
const kingsCross = [
  { lat: 51.52, lng: -0.14 },
  { lat: 51.52, lng: -0.11 },
  { lat: 51.54, lng: -0.11 },
  { lat: 51.54, lng: -0.14 },
];
/** A box around Manchester: a second area, far from the pickup. */
const manchester = [
  { lat: 53.4, lng: -2.3 },
  { lat: 53.4, lng: -2.2 },
  { lat: 53.5, lng: -2.2 },
  { lat: 53.5, lng: -2.3 },
];
/** Outside both areas, with a route to the drop. */
const westminster = { lat: 51.4995, lng: -0.1248, add: 'Westminster, London' };
const ring = (count: number, lat = 51.5, lng = -0.1) => Array.from({ length: count }, (_, index) => ({ lat: lat + 0.01 * Math.sin((index / count) * 2 * Math.PI), lng: lng + 0.01 * Math.cos((index / count) * 2 * Math.PI) }));

describe.each(ENGINES)('issue 16 point 6: the service area on %s', (engine) => {
  let t: TestApp;
  let admin: UserRow;
  let rider: UserRow;

  const stored = async () => (await t.request({ method: 'GET', url: '/api/settings', as: admin })).json().settings as Record<string, unknown>;
  const saveArea = (serviceArea: unknown, as: UserRow | null = admin) => t.request({ method: 'PATCH', url: '/api/settings', as, payload: { serviceArea } });
  const bookingCount = async () => (await t.db.select({ count: sql<number>`count(*)::int` }).from(bookings))[0]?.count ?? 0;

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.makeUser('admin');
    rider = await t.makeUser('rider');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
    const driver = await t.makeUser('driver', { carType: 'Sedan', vehicleNumber: 'AB12 CDE' });
    await t.goOnline(driver);
  });
  afterAll(() => t.close());

  it('serves everywhere by default, and shows the area to everyone once an admin has drawn it', async () => {
    expect((await t.request({ method: 'GET', url: '/api/settings' })).json().settings.serviceArea).toEqual([]);
    const saved = await saveArea([kingsCross, manchester]);
    expect(saved.statusCode).toBe(200);
    expect(saved.json().settings.serviceArea).toEqual([kingsCross, manchester]);
    // Public: the booking form warns before Book, before sign-in too.
    expect((await t.request({ method: 'GET', url: '/api/settings' })).json().settings.serviceArea).toEqual([kingsCross, manchester]);
    // Saving another setting keeps the area (a left-out setting is not reset to its default).
    await t.request({ method: 'PATCH', url: '/api/settings', as: admin, payload: { topupMaxPerDay: 40 } });
    expect((await t.request({ method: 'PATCH', url: '/api/settings', as: admin, payload: { bonus: 3 } })).json().settings).toMatchObject({ serviceArea: [kingsCross, manchester], topupMaxPerDay: 40 });
    await t.setSettings({});
  });

  it('refuses areas past the limits and malformed coordinates with proper_service_area, storing nothing', async () => {
    await saveArea([kingsCross]);
    const attacks: unknown[] = [
      Array.from({ length: 21 }, () => kingsCross),
      [ring(501)],
      [ring(500), ring(500), ring(500), ring(500), ring(3)],
      [kingsCross.slice(0, 2)],
      [[{ lat: 91, lng: 0 }, { lat: 0, lng: 1 }, { lat: 1, lng: 0 }]],
      [[{ lat: 0, lng: 181 }, { lat: 0, lng: 1 }, { lat: 1, lng: 0 }]],
      [[{ lat: '51.5', lng: '-0.1' }, { lat: 0, lng: 1 }, { lat: 1, lng: 0 }]],
      [[{ lat: null, lng: 0 }, { lat: 0, lng: 1 }, { lat: 1, lng: 0 }]],
      [[{ lat: 0 }, { lat: 0, lng: 1 }, { lat: 1, lng: 0 }]],
      [[[0, 0], [0, 1], [1, 0]]],
      [[{ lat: 1, lng: 1 }, { lat: 1, lng: 1 }, { lat: 1, lng: 1 }]],
      [kingsCross, 'everywhere'],
      'everywhere',
      { type: 'Polygon', coordinates: [] },
      null,
    ];
    for (const serviceArea of attacks) {
      const refused = await saveArea(serviceArea);
      expect([refused.statusCode, codeOf(refused)], JSON.stringify(serviceArea).slice(0, 80)).toEqual([400, 'proper_service_area']);
    }
    // A body far past the limits (about 2 MB) is refused as fast, and nothing of it is kept.
    const huge = await saveArea(Array.from({ length: 100 }, () => ring(1000)));
    expect([huge.statusCode, codeOf(huge)]).toEqual([400, 'proper_service_area']);
    // A request that also carries a good setting stores none of it.
    const mixed = await t.request({ method: 'PATCH', url: '/api/settings', as: admin, payload: { appName: 'Changed', serviceArea: [ring(501)] } });
    expect(codeOf(mixed)).toBe('proper_service_area');
    expect(await stored()).toMatchObject({ appName: 'Rideway', serviceArea: [kingsCross] });
    await t.setSettings({});
  });

  it('lets only an admin set the area', async () => {
    for (const usertype of ['rider', 'driver', 'fleetadmin'] as const) {
      const refused = await saveArea([kingsCross], await t.makeUser(usertype));
      expect([refused.statusCode, codeOf(refused)]).toEqual([403, 'forbidden']);
    }
    expect((await saveArea([kingsCross], null)).statusCode).toBe(401);
    expect((await stored()).serviceArea).toEqual([]);
  });

  it('refuses an estimate for a pickup outside (outside_service_area) before asking the maps provider; the drop may be outside', async () => {
    await t.setSettings({ serviceArea: [kingsCross, manchester] });
    const route = vi.spyOn(t.app.ctx.maps, 'route');
    const refused = await t.request({ method: 'POST', url: '/api/estimates', as: rider, payload: { pickup: westminster, drop, carType: 'Sedan' } });
    expect([refused.statusCode, refused.json().error]).toEqual([422, { code: 'outside_service_area', message: expect.stringMatching(/service area/), field: 'pickup' }]);
    expect(route).not.toHaveBeenCalled();
    route.mockRestore();
    // Pickup at King's Cross (inside), drop at the Tower (outside): fine.
    expect((await t.request({ method: 'POST', url: '/api/estimates', as: rider, payload: { pickup, drop, carType: 'Sedan' } })).statusCode).toBe(200);
    // An edge counts as inside.
    expect((await t.request({ method: 'POST', url: '/api/estimates', as: rider, payload: { pickup: { lat: 51.53, lng: -0.14, add: 'Edge' }, drop, carType: 'Sedan' } })).statusCode).toBe(200);
    await t.setSettings({});
  });

  it("refuses a rider's and an admin's booking with a pickup outside, storing nothing, and books one inside", async () => {
    await t.setSettings({ serviceArea: [kingsCross] });
    const before = await bookingCount();
    const byRider = await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup: westminster, drop, carType: 'Sedan' } });
    expect([byRider.statusCode, codeOf(byRider)]).toEqual([422, 'outside_service_area']);
    const later = await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup: westminster, drop, carType: 'Sedan', bookLater: true, tripdate: t.clock.now + 3600_000 } });
    expect(codeOf(later)).toBe('outside_service_area');
    const byAdmin = await t.request({ method: 'POST', url: '/api/bookings', as: admin, payload: { pickup: westminster, drop, carType: 'Sedan', customer: rider.id } });
    expect([byAdmin.statusCode, codeOf(byAdmin)]).toEqual([422, 'outside_service_area']);
    // A replay with an Idempotency-Key is refused the same way, never stored.
    const headers = { 'idempotency-key': 'outside-1' };
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect(codeOf(await t.request({ method: 'POST', url: '/api/bookings', as: rider, headers, payload: { pickup: westminster, drop, carType: 'Sedan' } }))).toBe('outside_service_area');
    }
    expect(await bookingCount()).toBe(before);

    const inside = await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan' } });
    expect(inside.statusCode).toBe(201);
    expect(await bookingCount()).toBe(before + 1);
    // Clearing the area serves everywhere again.
    await saveArea([]);
    expect((await t.request({ method: 'POST', url: '/api/estimates', as: rider, payload: { pickup: westminster, drop, carType: 'Sedan' } })).statusCode).toBe(200);
  });
});
