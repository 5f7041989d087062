import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepSilentDrivers } from '../../src/modules/presence/service';
import type { UserRow } from '../../src/modules/users/accounts';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';

describe.each(ENGINES)('the live driver map on %s (issue 5: drivers:live)', (engine) => {
  let t: TestApp;
  let admin: UserRow;
  let fleet: UserRow;
  let ownDriver: UserRow;
  let otherDriver: UserRow;
  const uidOf = (data: unknown) => (data as { uid: string }).uid;

  beforeAll(async () => {
    t = await createTestApp(engine, { DRIVER_TIMEOUT_S: '60' });
    admin = await t.makeUser('admin');
    fleet = await t.makeUser('fleetadmin');
    ownDriver = await t.makeUser('driver', { carType: 'Sedan', fleetadmin: fleet.id, vehicleNumber: 'FL33 OWN' });
    otherDriver = await t.makeUser('driver', { carType: 'Sedan' });
  });
  afterAll(() => t.close());

  it('shows a fleet admin only its own drivers, and an admin every driver, live', async () => {
    await t.goOnline(ownDriver, { lat: 51.5, lng: -0.1 });
    await t.goOnline(otherDriver, { lat: 51.51, lng: -0.11 });
    const fleetLive = await t.live(fleet);
    const adminLive = await t.live(admin);
    await fleetLive.subscribe('drivers:live');
    await adminLive.subscribe('drivers:live');
    const snapshotOf = async (client: typeof fleetLive) => ((await client.next((m) => m.event === 'snapshot')).data as { drivers: { uid: string }[] }).drivers.map((d) => d.uid).sort();
    expect(await snapshotOf(fleetLive)).toEqual([ownDriver.id]);
    expect(await snapshotOf(adminLive)).toEqual([ownDriver.id, otherDriver.id].sort());

    await t.request({ method: 'POST', url: '/api/driver/location', as: otherDriver, payload: { lat: 51.52, lng: -0.12 } });
    await t.request({ method: 'POST', url: '/api/driver/location', as: ownDriver, payload: { lat: 51.53, lng: -0.13 } });
    const seen = await fleetLive.next((m) => m.event === 'position');
    expect(seen.data).toMatchObject({ uid: ownDriver.id, vehicleNumber: 'FL33 OWN', location: { lat: 51.53, lng: -0.13 }, busy: false });
    expect(await fleetLive.receives((m) => m.event === 'position' && uidOf(m.data) === otherDriver.id)).toBe(false);
    expect(uidOf((await adminLive.next((m) => m.event === 'position' && uidOf(m.data) === otherDriver.id)).data)).toBe(otherDriver.id);

    const listed = (await t.request({ method: 'GET', url: '/api/drivers/live', as: fleet })).json().drivers as { uid: string }[];
    expect(listed.map((d) => d.uid)).toEqual([ownDriver.id]);
    expect(codeOf(await t.request({ method: 'GET', url: '/api/drivers/live', as: ownDriver }))).toBe('forbidden');
  });

  it('takes a driver off the map when it goes offline or falls silent', async () => {
    const adminLive = await t.live(admin);
    await adminLive.subscribe('drivers:live');
    await t.request({ method: 'PATCH', url: '/api/driver/status', as: otherDriver, payload: { driverActiveStatus: false } });
    expect((await adminLive.next((m) => m.event === 'offline')).data).toEqual({ uid: otherDriver.id });
    t.advance(61_000);
    expect(await sweepSilentDrivers(t.app.ctx)).toBe(1);
    expect((await adminLive.next((m) => m.event === 'offline')).data).toEqual({ uid: ownDriver.id });
    expect((await t.request({ method: 'GET', url: '/api/drivers/live', as: admin })).json().drivers).toEqual([]);
  });
});
