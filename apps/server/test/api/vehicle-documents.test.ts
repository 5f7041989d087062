import { errorBody, type DriverDocument, type MyDocuments, type ReviewDocument, type Vehicle } from '@rideway/contract';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { driverDocuments, outbox, users, vehicles } from '../../src/db/schema';
import { checkDocumentExpiry } from '../../src/modules/documents/expiry';
import type { UserRow } from '../../src/modules/accounts/accounts';
import { sedan } from '../fixtures';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';

/**
 * Issue 20 point 3: a registration and an insurance belong to one of the driver's vehicles. Only
 * the active vehicle's count for going online; another driver's vehicle looks missing; switching
 * to a car whose papers are not in order is refused while online and keeps the driver offline
 * otherwise; the expiry job and reminders follow the same rule; migration 0026 attaches the
 * papers sent before to the active vehicle. The test clock reads 2026-11-22, UTC.
 */

const DAY = 24 * 60 * 60 * 1000;
let png = '';

beforeAll(async () => {
  png = `data:image/png;base64,${(await sharp({ create: { width: 40, height: 30, channels: 3, background: '#aa6633' } }).png().toBuffer()).toString('base64')}`;
});

const SEDAN = { carType: 'Sedan', vehicleMake: 'Ford', vehicleModel: 'Focus', vehicleNumber: 'VD 1' };

describe.each(ENGINES)('vehicle documents on %s (issue 20 point 3)', (engine) => {
  let t: TestApp;
  let admin: UserRow;
  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.makeUser('admin');
    for (const name of ['Sedan', 'SUV']) expect((await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: { ...sedan, name } })).statusCode).toBe(201);
  });
  afterAll(() => t.close());

  const upload = (driver: UserRow, kind: string, expiresOn: string, vehicleId?: string) =>
    t.request({ method: 'PUT', url: `/api/driver/documents/${kind}`, as: driver, payload: { image: png, expiresOn, ...(vehicleId === undefined ? {} : { vehicleId }) } });
  const sent = async (driver: UserRow, kind: string, expiresOn: string, vehicleId?: string): Promise<DriverDocument> => {
    const response = await upload(driver, kind, expiresOn, vehicleId);
    expect(response.statusCode).toBe(201);
    return response.json<{ document: DriverDocument }>().document;
  };
  const approve = async (id: string) => { expect((await t.request({ method: 'POST', url: `/api/documents/${id}/approve`, as: admin, payload: {} })).statusCode).toBe(200); };
  const goOnline = (driver: UserRow, on = true) => t.request({ method: 'PATCH', url: '/api/driver/status', as: driver, payload: { driverActiveStatus: on } });
  const mine = async (driver: UserRow) => (await t.request({ method: 'GET', url: '/api/driver/documents', as: driver })).json<MyDocuments>();
  const activate = (driver: UserRow, id: string) => t.request({ method: 'POST', url: `/api/driver/vehicles/${id}/activate`, as: driver, payload: {} });
  const activeCar = async (driver: UserRow) => (await t.db.select({ id: vehicles.id }).from(vehicles).where(and(eq(vehicles.uid, driver.id), eq(vehicles.active, true))))[0]?.id ?? '';
  const online = async (driver: UserRow) => (await t.db.select({ on: users.driverActiveStatus }).from(users).where(eq(users.id, driver.id)))[0]?.on;
  /** A second approved car, not active, with no papers yet. */
  const secondCar = async (driver: UserRow, number = 'VD 2'): Promise<string> => {
    const added = await t.request({ method: 'POST', url: '/api/driver/vehicles', as: driver, payload: { carType: 'SUV', vehicleMake: 'Kia', vehicleModel: 'Ceed', vehicleNumber: number, image: png } });
    expect(added.statusCode, added.body).toBe(201);
    const id = added.json<{ vehicle: Vehicle }>().vehicle.id;
    expect((await t.request({ method: 'POST', url: `/api/vehicles/${id}/approve`, as: admin, payload: {} })).statusCode).toBe(200);
    return id;
  };

  it("stores a registration and an insurance with the driver's own vehicle, and shows the reviewer which", async () => {
    const driver = await t.makeUser('driver', SEDAN);
    const other = await secondCar(driver);
    const insurance = await sent(driver, 'insurance', '2031-01-01', other);
    expect(insurance).toMatchObject({ kind: 'insurance', vehicleId: other, status: 'pending' });
    // Each vehicle keeps its own newest paper of a kind: the active car's seeded one stays listed.
    const listed = (await mine(driver)).documents.filter((doc) => doc.kind === 'insurance');
    expect(listed.map((doc) => doc.vehicleId).sort()).toEqual([await activeCar(driver), other].sort());
    const review = (await t.request({ method: 'GET', url: '/api/documents?status=pending', as: admin })).json<{ documents: ReviewDocument[] }>().documents;
    expect(review.find((doc) => doc.id === insurance.id)).toMatchObject({ vehicleId: other, vehicle: 'Kia Ceed (VD 2)' });
    // A licence is the driver's own: no vehicle.
    expect(await sent(driver, 'licence_front', '2031-01-01')).toMatchObject({ vehicleId: null });
    // A second upload for the other car replaces its pending one, not the active car's papers.
    const again = await sent(driver, 'insurance', '2031-02-01', other);
    const rows = await t.db.select().from(driverDocuments).where(and(eq(driverDocuments.uid, driver.id), eq(driverDocuments.kind, 'insurance')));
    expect(rows.map((row) => row.id)).toContain(again.id);
    expect(rows.map((row) => row.id)).not.toContain(insurance.id);
    expect(rows).toHaveLength(2);
  });

  it("refuses another driver's vehicle, a licence with a vehicle and an insurance without one, storing nothing", async () => {
    const driver = await t.makeUser('driver', { documentless: true, ...SEDAN });
    const stranger = await t.makeUser('driver', SEDAN);
    const theirs = await activeCar(stranger);
    const put = vi.spyOn(t.app.ctx.storage, 'put');
    try {
      const refused = await upload(driver, 'insurance', '2031-01-01', theirs);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual(errorBody('not_found'));
      expect(codeOf(await upload(driver, 'registration', '2031-01-01', 'no-such-vehicle'))).toBe('not_found');
      const licence = await upload(driver, 'licence_front', '2031-01-01', await activeCar(driver));
      expect(licence.statusCode).toBe(400);
      expect(codeOf(licence)).toBe('document_vehicle_not_allowed');
      const bare = await upload(driver, 'insurance', '2031-01-01');
      expect(bare.statusCode).toBe(400);
      expect(codeOf(bare)).toBe('document_vehicle_required');
      expect(put).not.toHaveBeenCalled();
      expect(await t.db.select().from(driverDocuments).where(eq(driverDocuments.uid, driver.id))).toEqual([]);
      expect(await t.db.select().from(driverDocuments).where(eq(driverDocuments.vehicleId, theirs))).toHaveLength(2);
    } finally {
      put.mockRestore();
    }
  });

  it("keeps the driver offline when the active vehicle's insurance expired, though another vehicle's is valid", async () => {
    const driver = await t.makeUser('driver', SEDAN);
    const active = await activeCar(driver);
    const other = await secondCar(driver);
    await approve((await sent(driver, 'insurance', '2031-01-01', other)).id);
    await approve((await sent(driver, 'registration', '2031-01-01', other)).id);
    await t.db.update(driverDocuments).set({ expiresOn: '2026-11-21' }).where(and(eq(driverDocuments.vehicleId, active), eq(driverDocuments.kind, 'insurance')));
    const refused = await goOnline(driver);
    expect(refused.json()).toEqual(errorBody('documents_required', { details: { problems: [{ kind: 'insurance', problem: 'expired', vehicleId: active, vehicle: 'Ford Focus (VD 1)' }] } }));
    // Offline, the driver may switch to the car whose papers are in order, and go online in it.
    expect((await activate(driver, other)).statusCode).toBe(200);
    expect((await mine(driver)).problems).toEqual([]);
    expect((await goOnline(driver)).statusCode).toBe(200);
  });

  it('refuses an online switch to a car whose papers are missing; offline, the switch keeps the driver offline until they are approved', async () => {
    const driver = await t.makeUser('driver', SEDAN);
    const first = await activeCar(driver);
    const other = await secondCar(driver);
    await t.goOnline(driver);
    const refused = await activate(driver, other);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual(errorBody('vehicle_documents_required', {
      details: { problems: [{ kind: 'registration', problem: 'missing', vehicleId: other, vehicle: 'Kia Ceed (VD 2)' }, { kind: 'insurance', problem: 'missing', vehicleId: other, vehicle: 'Kia Ceed (VD 2)' }] },
    }));
    expect(await activeCar(driver)).toBe(first);
    expect(await online(driver)).toBe(true);
    // Going offline first, the driver may switch, and is then told which car's papers are missing.
    expect((await goOnline(driver, false)).statusCode).toBe(200);
    expect((await activate(driver, other)).statusCode).toBe(200);
    const missing = await goOnline(driver);
    expect(codeOf(missing)).toBe('documents_required');
    expect(missing.json<{ error: { details: { problems: { kind: string; vehicle?: string }[] } } }>().error.details.problems).toEqual([
      expect.objectContaining({ kind: 'registration', vehicle: 'Kia Ceed (VD 2)' }),
      expect.objectContaining({ kind: 'insurance', vehicle: 'Kia Ceed (VD 2)' }),
    ]);
    await approve((await sent(driver, 'registration', '2031-01-01', other)).id);
    await approve((await sent(driver, 'insurance', '2031-01-01', other)).id);
    expect((await goOnline(driver)).statusCode).toBe(200);
    // Online, back to the first car: its papers are in order, so the switch is allowed.
    expect((await activate(driver, first)).statusCode).toBe(200);
    expect(await online(driver)).toBe(true);
  });

  it('lets an online driver switch freely while documents are not required', async () => {
    const driver = await t.makeUser('driver', SEDAN);
    const other = await secondCar(driver);
    await t.goOnline(driver);
    await t.setSettings({ RequireDriverDocuments: false });
    try {
      expect((await activate(driver, other)).statusCode).toBe(200);
    } finally {
      await t.setSettings({});
    }
  });

  it("reminds about and suspends at the active vehicle's papers only", async () => {
    const driver = await t.makeUser('driver', SEDAN);
    const active = await activeCar(driver);
    const other = await secondCar(driver);
    // Both cars' insurance ends 2026-11-25, three days after the test clock's day.
    await approve((await sent(driver, 'insurance', '2026-11-25', other)).id);
    await approve((await sent(driver, 'registration', '2031-01-01', other)).id);
    await t.db.update(driverDocuments).set({ expiresOn: '2026-11-25' }).where(and(eq(driverDocuments.vehicleId, active), eq(driverDocuments.kind, 'insurance')));
    await t.goOnline(driver);
    const texts = async () => (await t.db.select().from(outbox).where(eq(outbox.recipient, driver.id))).map((row) => (row.payload as { msg: string }).msg);
    await checkDocumentExpiry(t.app.ctx);
    const reminders = (await texts()).filter((msg) => msg.includes('expires on'));
    expect(reminders).toEqual(['Your Vehicle insurance – Ford Focus (VD 1) expires on 2026-11-25. Send a new one in the app so you can keep driving.']);
    t.advance(4 * DAY);
    try {
      await checkDocumentExpiry(t.app.ctx);
      expect(await online(driver)).toBe(false);
      const expired = (await texts()).filter((msg) => msg.includes('expired on'));
      expect(expired).toEqual(['Your Vehicle insurance – Ford Focus (VD 1) expired on 2026-11-25. You are offline until a new one is approved.']);
      // Both papers were dealt with once: a second run sends nothing.
      expect(await checkDocumentExpiry(t.app.ctx)).toEqual({ reminded: 0, expired: 0 });
    } finally {
      t.advance(-4 * DAY);
    }
  });

  it("deletes a vehicle's papers, rows and files, with the vehicle", async () => {
    const driver = await t.makeUser('driver', SEDAN);
    const other = await secondCar(driver);
    const paper = await sent(driver, 'insurance', '2031-01-01', other);
    expect((await t.request({ method: 'GET', url: paper.image, as: driver })).statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url: `/api/driver/vehicles/${other}`, as: driver })).statusCode).toBe(204);
    expect(await t.db.select().from(driverDocuments).where(eq(driverDocuments.id, paper.id))).toEqual([]);
    expect((await t.request({ method: 'GET', url: paper.image, as: admin })).statusCode).toBe(404);
  });

  it('attaches the registration and insurance sent before to the active vehicle (migration 0026)', async () => {
    const driver = await t.makeUser('driver', { documentless: true, ...SEDAN });
    const active = await activeCar(driver);
    const spare = await secondCar(driver, 'VD 9');
    // A driver whose active car was rejected: its newest vehicle takes the papers.
    const withdrawn = await t.makeUser('driver', { documentless: true, ...SEDAN });
    const withdrawnCar = await activeCar(withdrawn);
    await t.db.update(vehicles).set({ active: false, status: 'rejected' }).where(eq(vehicles.id, withdrawnCar));
    const nocar = await t.makeUser('driver', { documentless: true });
    const row = (uid: string, kind: string) => ({ id: randomUUID(), uid, kind, image: `/api/files/documents/${randomUUID()}.png`, expiresOn: '2030-01-01', status: 'approved', createdAt: t.clock.now });
    // Rows as they stood before the migration: no vehicle.
    const before = [row(driver.id, 'registration'), row(driver.id, 'insurance'), row(driver.id, 'id'), row(withdrawn.id, 'insurance'), row(nocar.id, 'insurance')];
    await t.db.insert(driverDocuments).values(before);
    const migration = readFileSync(new URL('../../src/db/migrations/0026_vehicle_documents.sql', import.meta.url), 'utf8');
    const start = migration.indexOf('UPDATE "driver_documents"');
    await t.db.execute(sql.raw(migration.slice(start, migration.indexOf('--> statement-breakpoint', start))));
    const vehicleOf = async (id: string | undefined) => (await t.db.select({ vehicleId: driverDocuments.vehicleId }).from(driverDocuments).where(eq(driverDocuments.id, id ?? '')))[0]?.vehicleId;
    expect(await vehicleOf(before[0]?.id)).toBe(active);
    expect(await vehicleOf(before[1]?.id)).toBe(active);
    expect(await vehicleOf(before[2]?.id)).toBeNull();
    expect(await vehicleOf(before[3]?.id)).toBe(withdrawnCar);
    expect(await vehicleOf(before[4]?.id)).toBeNull();
    expect(spare).not.toBe(active);
    // The database itself refuses a licence or ID tied to a vehicle.
    await expect(t.db.insert(driverDocuments).values({ ...row(driver.id, 'id'), vehicleId: active })).rejects.toThrow();
  });
});
