import { errorBody, type MyDocuments, type ReviewVehicle, type Vehicle } from '@rideway/contract';
import { MAX_VEHICLES_PER_DRIVER } from '@rideway/domain';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { driverDocuments, outbox, users, vehicles } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/accounts/accounts';
import { availableDriversNear } from '../../src/modules/dispatch/service';
import { DEFAULT_SETTINGS } from '../../src/modules/settings/defaults';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';
import { pickup, sedan } from '../fixtures';

/**
 * Issue 20 point 3: a driver's several vehicles (car type, make, model, number, photo), one active
 * at a time, each approved or rejected with a reason by an admin or the driver's own fleet admin.
 * The user's carType, vehicleMake, vehicleModel and vehicleNumber (section 3) mirror the active
 * vehicle, and dispatch matches its car type ("The admin picks a driver of the same car type",
 * section 4's booking rules match drivers by car type).
 */

let png = '';
let bigPng = '';

beforeAll(async () => {
  png = `data:image/png;base64,${(await sharp({ create: { width: 40, height: 30, channels: 3, background: '#aa3366' } }).png().toBuffer()).toString('base64')}`;
  // Random pixels do not compress: over 5 MiB as a PNG.
  const noise = Buffer.alloc(1400 * 1400 * 3);
  for (let i = 0; i < noise.length; i += 1) noise[i] = (i * 2654435761) >>> 24;
  bigPng = `data:image/png;base64,${(await sharp(noise, { raw: { width: 1400, height: 1400, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer()).toString('base64')}`;
});

const car = (extra: Record<string, unknown> = {}) => ({ carType: 'SUV', vehicleMake: 'Toyota', vehicleModel: 'RAV4', vehicleNumber: 'SUV 123', image: png, ...extra });

describe.each(ENGINES)('driver vehicles on %s (issue 20 point 3)', (engine) => {
  let t: TestApp;
  let admin: UserRow;
  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.makeUser('admin');
    for (const name of ['Sedan', 'SUV']) expect((await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: { ...sedan, name } })).statusCode).toBe(201);
  });
  afterAll(() => t.close());

  const add = (driver: UserRow, body: Record<string, unknown> = car()) => t.request({ method: 'POST', url: '/api/driver/vehicles', as: driver, payload: body });
  const mine = async (driver: UserRow) => (await t.request({ method: 'GET', url: '/api/driver/vehicles', as: driver })).json<{ vehicles: Vehicle[] }>().vehicles;
  const approve = (as: UserRow, id: string) => t.request({ method: 'POST', url: `/api/vehicles/${id}/approve`, as, payload: {} });
  const reject = (as: UserRow, id: string, reason = 'Plate unreadable') => t.request({ method: 'POST', url: `/api/vehicles/${id}/reject`, as, payload: { reason } });
  const activate = (driver: UserRow, id: string) => t.request({ method: 'POST', url: `/api/driver/vehicles/${id}/activate`, as: driver });
  /** Approved papers for a car, as if sent and reviewed (issue 20 point 3: only the active car's count). */
  const papersFor = (driver: UserRow, vehicleId: string) =>
    t.db.insert(driverDocuments).values((['registration', 'insurance'] as const).map((kind) => ({ id: randomUUID(), uid: driver.id, kind, vehicleId, image: `/api/files/documents/${randomUUID()}.png`, expiresOn: '2036-12-31', status: 'approved', reviewedBy: admin.id, reviewedAt: t.clock.now, createdAt: t.clock.now })));
  const userRow = async (driver: UserRow) => (await t.db.select().from(users).where(eq(users.id, driver.id)))[0];
  const added = async (driver: UserRow, body?: Record<string, unknown>) => {
    const sent = await add(driver, body);
    expect(sent.statusCode).toBe(201);
    return sent.json<{ vehicle: Vehicle }>().vehicle;
  };
  const sedanDriver = () => t.makeUser('driver', { carType: 'Sedan', vehicleMake: 'Ford', vehicleModel: 'Focus', vehicleNumber: 'SED 1' });

  it('gives a driver made with a car its first vehicle, approved and active', async () => {
    const driver = await sedanDriver();
    expect(await mine(driver)).toEqual([expect.objectContaining({ carType: 'Sedan', vehicleMake: 'Ford', vehicleModel: 'Focus', vehicleNumber: 'SED 1', status: 'approved', active: true, image: null })]);
  });

  it("stores a photo upright and without its metadata: a phone's GPS position and camera never reach the reviewer", async () => {
    const driver = await sedanDriver();
    // A phone's photo: taken sideways (EXIF orientation 6) with its place and camera in EXIF.
    const original = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#3366aa' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Make: 'PhoneCo', Model: 'Phone 9' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
      .toBuffer();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const response = await add(driver, car({ image: `data:image/jpeg;base64,${original.toString('base64')}` }));
    expect(response.statusCode, response.body).toBe(201);
    const stored = await t.request({ method: 'GET', url: response.json<{ vehicle: Vehicle }>().vehicle.image ?? '', as: driver });
    expect(stored.statusCode).toBe(200);
    const meta = await sharp(stored.rawPayload).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(stored.rawPayload.includes(Buffer.from('PhoneCo'))).toBe(false);
    // Turned as the phone meant it: 20 wide, 40 high.
    expect([meta.width, meta.height]).toEqual([20, 40]);
  });

  it('adds a vehicle for review, approves it, makes it active, and dispatch matches its car type', async () => {
    const driver = await sedanDriver();
    const suv = await added(driver);
    expect(suv).toMatchObject({ carType: 'SUV', status: 'pending', active: false, reason: null });
    expect(suv.image).toMatch(/^\/api\/files\/documents\//);
    // Only an approved vehicle is made active.
    expect(codeOf(await activate(driver, suv.id))).toBe('vehicle_not_approved');
    const listed = (await t.request({ method: 'GET', url: '/api/vehicles?status=pending', as: admin })).json<{ vehicles: ReviewVehicle[] }>().vehicles;
    expect(listed.find((row) => row.id === suv.id)).toMatchObject({ driverName: `${driver.firstName} Test`, image: suv.image });
    // The admin sees the photo.
    expect((await t.request({ method: 'GET', url: suv.image ?? '', as: admin })).statusCode).toBe(200);
    const approved = await approve(admin, suv.id);
    expect(approved.json<{ vehicle: Vehicle }>().vehicle).toMatchObject({ status: 'approved', reviewedBy: admin.id, active: false });
    expect(codeOf(await approve(admin, suv.id))).toBe('vehicle_already_reviewed');
    const told = await t.db.select().from(outbox).where(eq(outbox.recipient, driver.id));
    expect(told.map((row) => (row.payload as { msg: string }).msg)).toContain('Your vehicle Toyota RAV4 (SUV 123) was approved. You can make it active in the app.');

    await t.goOnline(driver);
    const settings = { driverRadius: DEFAULT_SETTINGS.driverRadius, convert_to_mile: false };
    const near = async (carType: string) => (await availableDriversNear(t.app.ctx, t.db, pickup, carType, settings, { limit: 50, byRoad: false })).map((found) => found.uid);
    expect(await near('Sedan')).toContain(driver.id);
    expect(await near('SUV')).not.toContain(driver.id);

    // Online, the driver switches only to a car whose registration and insurance are in order.
    expect(codeOf(await activate(driver, suv.id))).toBe('vehicle_documents_required');
    await papersFor(driver, suv.id);
    const switched = await activate(driver, suv.id);
    expect(switched.json<{ vehicle: Vehicle }>().vehicle).toMatchObject({ id: suv.id, active: true });
    expect((await mine(driver)).filter((row) => row.active).map((row) => row.id)).toEqual([suv.id]);
    expect(await userRow(driver)).toMatchObject({ carType: 'SUV', vehicleMake: 'Toyota', vehicleModel: 'RAV4', vehicleNumber: 'SUV 123', driverActiveStatus: true });
    expect(await near('SUV')).toContain(driver.id);
    expect(await near('Sedan')).not.toContain(driver.id);
  });

  it('refuses wrong, big or foreign uploads and bad details, storing nothing', async () => {
    const driver = await sedanDriver();
    const put = vi.spyOn(t.app.ctx.storage, 'put');
    try {
      const gif = `data:image/png;base64,${Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;').toString('base64')}`;
      const fake = `data:image/png;base64,${Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.from('not really an image at all')]).toString('base64')}`;
      expect(codeOf(await add(driver, car({ image: gif })))).toBe('proper_document_image');
      expect(codeOf(await add(driver, car({ image: fake })))).toBe('proper_document_image');
      expect(codeOf(await add(driver, car({ image: 'data:text/html;base64,PGgxPg==' })))).toBe('proper_document_image');
      expect(codeOf(await add(driver, car({ image: bigPng })))).toBe('proper_document_image');
      expect(codeOf(await add(driver, car({ carType: 'Spaceship' })))).toBe('select_proper');
      expect(codeOf(await add(driver, car({ vehicleNumber: '  ' })))).toBe('vehicle_details_required');
      expect(codeOf(await add(driver, car({ vehicleMake: undefined })))).toBe('vehicle_details_required');
      expect(put).not.toHaveBeenCalled();
      // Another driver's vehicle is not found, whatever is tried with it.
      const other = await sedanDriver();
      const theirs = await added(other);
      put.mockClear();
      expect(codeOf(await activate(driver, theirs.id))).toBe('not_found');
      expect(codeOf(await t.request({ method: 'DELETE', url: `/api/driver/vehicles/${theirs.id}`, as: driver }))).toBe('not_found');
      expect((await t.request({ method: 'GET', url: theirs.image ?? '', as: driver })).statusCode).toBe(404);
      expect(await t.db.select({ id: vehicles.id }).from(vehicles).where(eq(vehicles.id, theirs.id))).toHaveLength(1);
      // A number the driver already has (case and spaces aside) is refused, and its photo removed again.
      const deleteFile = vi.spyOn(t.app.ctx.storage, 'delete');
      expect(codeOf(await add(driver, car({ vehicleNumber: 'sed1' })))).toBe('vehicle_number_taken');
      expect(put).toHaveBeenCalledTimes(1);
      expect(deleteFile).toHaveBeenCalledTimes(1);
      deleteFile.mockRestore();
      expect((await mine(driver)).map((row) => row.vehicleNumber)).toEqual(['SED 1']);
      // Another driver may have the same number (a shared car).
      expect((await add(driver, car({ vehicleNumber: 'SUV 123' }))).statusCode).toBe(201);
    } finally {
      put.mockRestore();
    }
  });

  it('keeps at most the allowed number of vehicles; deletes neither the active nor the only one', async () => {
    const driver = await sedanDriver();
    const active = (await mine(driver))[0];
    expect(codeOf(await t.request({ method: 'DELETE', url: `/api/driver/vehicles/${active?.id ?? ''}`, as: driver }))).toBe('vehicle_active_delete');
    const extra: Vehicle[] = [];
    for (let i = 1; i < MAX_VEHICLES_PER_DRIVER; i += 1) extra.push(await added(driver, car({ vehicleNumber: `N ${i}` })));
    expect(codeOf(await add(driver, car({ vehicleNumber: 'ONE MORE' })))).toBe('vehicle_limit');
    const gone = extra[0];
    expect((await t.request({ method: 'DELETE', url: `/api/driver/vehicles/${gone?.id ?? ''}`, as: driver })).statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: gone?.image ?? '', as: driver })).statusCode).toBe(404);
    expect((await add(driver, car({ vehicleNumber: 'ONE MORE' }))).statusCode).toBe(201);
  });

  it('keeps one active vehicle when two switches race', async () => {
    const driver = await sedanDriver();
    const a = await added(driver, car({ vehicleNumber: 'RACE A' }));
    const b = await added(driver, car({ vehicleNumber: 'RACE B', carType: 'Sedan' }));
    for (const id of [a.id, b.id]) expect((await approve(admin, id)).statusCode).toBe(200);
    const [first, second] = await Promise.all([activate(driver, a.id), activate(driver, b.id)]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    const actives = (await mine(driver)).filter((row) => row.active);
    expect(actives).toHaveLength(1);
    // The user's fields mirror whichever switch came last.
    expect((await userRow(driver))?.vehicleNumber).toBe(actives[0]?.vehicleNumber);
  });

  it('keeps the car of a trip in progress', async () => {
    const driver = await sedanDriver();
    const suv = await added(driver);
    await approve(admin, suv.id);
    await t.db.update(users).set({ queue: true }).where(eq(users.id, driver.id));
    expect(codeOf(await activate(driver, suv.id))).toBe('vehicle_switch_on_trip');
    expect((await userRow(driver))?.carType).toBe('Sedan');
  });

  it('rejects with a reason; rejecting the active vehicle takes the driver offline and the go-online check says why', async () => {
    const driver = await sedanDriver();
    const suv = await added(driver);
    expect(codeOf(await t.request({ method: 'POST', url: `/api/vehicles/${suv.id}/reject`, as: admin, payload: { reason: '  ' } }))).toBe('no_details_error');
    expect((await reject(admin, suv.id)).json<{ vehicle: Vehicle }>().vehicle).toMatchObject({ status: 'rejected', reason: 'Plate unreadable', reviewedBy: admin.id });
    expect(codeOf(await activate(driver, suv.id))).toBe('vehicle_not_approved');

    await t.goOnline(driver);
    const active = (await mine(driver)).find((row) => row.active);
    expect((await reject(admin, active?.id ?? '', 'Insurance lapsed')).statusCode).toBe(200);
    expect(await userRow(driver)).toMatchObject({ driverActiveStatus: false, carType: null, vehicleNumber: null });
    expect(await t.app.ctx.live.geo.get(driver.id)).toBeUndefined();
    const told = await t.db.select().from(outbox).where(eq(outbox.recipient, driver.id));
    expect(told.map((row) => (row.payload as { msg: string }).msg)).toContain('Your vehicle Ford Focus (SED 1) was rejected: Insurance lapsed. You are offline until you make an approved vehicle active.');
    const refused = await t.request({ method: 'PATCH', url: '/api/driver/status', as: driver, payload: { driverActiveStatus: true } });
    expect(refused.json()).toEqual(errorBody('documents_required', { details: { problems: [{ kind: 'vehicle', problem: 'missing' }] } }));
    expect((await t.request({ method: 'GET', url: '/api/driver/documents', as: driver })).json<MyDocuments>().problems).toEqual([{ kind: 'vehicle', problem: 'missing' }]);
    // A new approved vehicle made active lets it drive again.
    const next = await added(driver, car({ vehicleNumber: 'NEXT 1' }));
    await approve(admin, next.id);
    expect((await activate(driver, next.id)).statusCode).toBe(200);
    await papersFor(driver, next.id);
    await t.goOnline(driver);
  });

  it('keeps a signed-up driver with a pending first vehicle offline until it is approved', async () => {
    const driver = await t.makeUser('driver', { approved: false, carType: 'Sedan', vehicleNumber: 'NEW 1' });
    // As a sign-up leaves it (the harness approves its drivers' cars): the first vehicle waits.
    await t.db.update(vehicles).set({ status: 'pending', reviewedBy: null, reviewedAt: null }).where(eq(vehicles.uid, driver.id));
    // The account's own approval is another matter (section 5): approved here, the vehicle still waits.
    await t.db.update(users).set({ approved: true }).where(eq(users.id, driver.id));
    const first = (await mine(driver))[0];
    expect(first).toMatchObject({ status: 'pending', active: true });
    const refused = await t.request({ method: 'PATCH', url: '/api/driver/status', as: driver, payload: { driverActiveStatus: true } });
    expect(refused.json<{ error: { details: { problems: unknown[] } } }>().error.details.problems).toEqual([{ kind: 'vehicle', problem: 'pending' }]);
    await approve(admin, first?.id ?? '');
    await t.goOnline(driver);
  });

  it('a fleet admin reviews only its own drivers', async () => {
    const fleet = await t.makeUser('fleetadmin');
    const own = await t.makeUser('driver', { fleetadmin: fleet.id, carType: 'Sedan', vehicleNumber: 'F 1' });
    const stranger = await sedanDriver();
    const ownCar = await added(own);
    const strangerCar = await added(stranger);
    const listed = (await t.request({ method: 'GET', url: '/api/vehicles', as: fleet })).json<{ vehicles: ReviewVehicle[] }>().vehicles;
    expect(listed.map((row) => row.uid).every((uid) => uid === own.id)).toBe(true);
    expect(listed.map((row) => row.id)).toContain(ownCar.id);
    expect(codeOf(await approve(fleet, strangerCar.id))).toBe('not_found');
    expect(codeOf(await reject(fleet, strangerCar.id))).toBe('not_found');
    expect((await t.request({ method: 'GET', url: strangerCar.image ?? '', as: fleet })).statusCode).toBe(404);
    expect((await t.db.select().from(vehicles).where(eq(vehicles.id, strangerCar.id)))[0]?.status).toBe('pending');
    expect((await t.request({ method: 'GET', url: ownCar.image ?? '', as: fleet })).statusCode).toBe(200);
    expect((await approve(fleet, ownCar.id)).statusCode).toBe(200);
  });

  it("a fleet admin typing a driver's car back in after an admin rejected it makes a pending vehicle, not an approved one", async () => {
    const fleet = await t.makeUser('fleetadmin');
    const own = await t.makeUser('driver', { fleetadmin: fleet.id, carType: 'Sedan', vehicleNumber: 'F 2' });
    const active = (await mine(own)).find((vehicle) => vehicle.active);
    expect((await reject(admin, active?.id ?? '')).statusCode).toBe(200);
    const edited = await t.request({ method: 'PATCH', url: `/api/users/${own.id}`, as: fleet, payload: { carType: 'SUV' } });
    expect(edited.statusCode, edited.body).toBe(200);
    const now = (await mine(own)).find((vehicle) => vehicle.active);
    expect(now).toMatchObject({ carType: 'SUV', status: 'pending', reviewedBy: null });
    // An admin's own edit is its check: approved at once.
    const other = await t.makeUser('driver', { carType: 'Sedan', vehicleNumber: 'F 3' });
    const otherActive = (await mine(other)).find((vehicle) => vehicle.active);
    expect((await reject(admin, otherActive?.id ?? '')).statusCode).toBe(200);
    expect((await t.request({ method: 'PATCH', url: `/api/users/${other.id}`, as: admin, payload: { carType: 'SUV' } })).statusCode).toBe(200);
    expect((await mine(other)).find((vehicle) => vehicle.active)).toMatchObject({ carType: 'SUV', status: 'approved', reviewedBy: admin.id });
  });

  it("deleting a driver's account erases its vehicles and its documents, rows and photos", async () => {
    const driver = await sedanDriver();
    const car = await added(driver);
    expect((await t.request({ method: 'GET', url: car.image ?? '', as: admin })).statusCode).toBe(200);
    expect((await t.db.select().from(driverDocuments).where(eq(driverDocuments.uid, driver.id))).length).toBeGreaterThan(0);
    expect((await t.request({ method: 'DELETE', url: `/api/users/${driver.id}`, as: admin })).statusCode).toBe(204);
    expect(await t.db.select().from(vehicles).where(eq(vehicles.uid, driver.id))).toEqual([]);
    expect(await t.db.select().from(driverDocuments).where(eq(driverDocuments.uid, driver.id))).toEqual([]);
    expect((await t.request({ method: 'GET', url: car.image ?? '', as: admin })).statusCode).toBe(404);
  });

  it("in demo mode the review lists hide the drivers' emails, as the users list does", async () => {
    const driver = await sedanDriver();
    await added(driver);
    await t.request({ method: 'PUT', url: '/api/driver/documents/licence_front', as: driver, payload: { image: png, expiresOn: '2031-01-31' } });
    const emails = async () => ({
      vehicles: (await t.request({ method: 'GET', url: '/api/vehicles?status=pending', as: admin })).json<{ vehicles: ReviewVehicle[] }>().vehicles.filter((row) => row.uid === driver.id).map((row) => row.driverEmail),
      documents: (await t.request({ method: 'GET', url: '/api/documents?status=pending', as: admin })).json<{ documents: { uid: string; driverEmail: string | null }[] }>().documents.filter((row) => row.uid === driver.id).map((row) => row.driverEmail),
    });
    expect(await emails()).toEqual({ vehicles: [driver.email], documents: [driver.email] });
    await t.setSettings({ AllowCriticalEditsAdmin: false });
    try {
      expect(await emails()).toEqual({ vehicles: ['Hidden for Demo'], documents: ['Hidden for Demo'] });
    } finally {
      await t.setSettings({ AllowCriticalEditsAdmin: true });
    }
  });

  it('refuses riders, other roles and the signed out', async () => {
    const rider = await t.makeUser('rider');
    const driver = await sedanDriver();
    const suv = await added(driver);
    expect((await t.request({ method: 'GET', url: '/api/driver/vehicles', as: rider })).statusCode).toBe(403);
    expect((await add(rider)).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/driver/vehicles' })).statusCode).toBe(401);
    for (const as of [rider, driver]) {
      expect((await t.request({ method: 'GET', url: '/api/vehicles', as })).statusCode).toBe(403);
      expect((await approve(as, suv.id)).statusCode).toBe(403);
    }
    expect((await t.request({ method: 'GET', url: suv.image ?? '', as: rider })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: suv.image ?? '' })).statusCode).toBe(404);
    expect((await t.db.select().from(vehicles).where(eq(vehicles.id, suv.id)))[0]?.status).toBe('pending');
  });
});

describe.each(ENGINES)('vehicle floods on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT_OVERRIDES: 'vehicle-upload.user=2/1h, vehicle-review.user=2/1h, vehicles.user=3/1h, vehicle-edit.user=2/1h' });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After past the limits', async () => {
    const admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: { ...sedan, name: 'SUV' } });
    const driver = await t.makeUser('driver');
    const sent = [];
    for (let i = 0; i < 3; i += 1) sent.push(await t.request({ method: 'POST', url: '/api/driver/vehicles', as: driver, payload: car({ vehicleNumber: `F ${i}` }), remoteAddress: '198.51.91.1' }));
    expect(sent.map((r) => r.statusCode)).toEqual([201, 201, 429]);
    expect(Number(sent[2]?.headers['retry-after'])).toBeGreaterThan(0);
    expect(await t.db.select().from(vehicles).where(eq(vehicles.uid, driver.id))).toHaveLength(2);
    const reads = [];
    for (let i = 0; i < 4; i += 1) reads.push((await t.request({ method: 'GET', url: '/api/vehicles', as: admin, remoteAddress: '198.51.91.2' })).statusCode);
    expect(reads).toEqual([200, 200, 200, 429]);
    const decisions = [];
    for (let i = 0; i < 3; i += 1) decisions.push((await t.request({ method: 'POST', url: '/api/vehicles/x/approve', as: admin, payload: {}, remoteAddress: '198.51.91.2' })).statusCode);
    expect(decisions).toEqual([404, 404, 429]);
    const switches = [];
    for (let i = 0; i < 3; i += 1) switches.push((await t.request({ method: 'POST', url: '/api/driver/vehicles/x/activate', as: driver, remoteAddress: '198.51.91.1' })).statusCode);
    expect(switches).toEqual([404, 404, 429]);
  });
});

describe.each(ENGINES)('the vehicles migration on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(() => t.close());

  it('gives every existing driver with a car one approved, active vehicle from its fields', async () => {
    const base = { lastName: 'Before', usertype: 'driver', createdAt: t.clock.now, referralId: '', approved: true };
    const withCar = { ...base, id: randomUUID(), firstName: 'Carla', referralId: `CARLA${randomUUID().slice(0, 6)}`, carType: 'Sedan', vehicleMake: 'Ford', vehicleModel: 'Focus', vehicleNumber: 'ab-12 cd' };
    const without = { ...base, id: randomUUID(), firstName: 'Nocar', referralId: `NOCAR${randomUUID().slice(0, 6)}` };
    // Rows as they stood before the migration: written straight to the table, without a vehicle.
    await t.db.insert(users).values([withCar, without]);
    const migration = readFileSync(new URL('../../src/db/migrations/0025_vehicles.sql', import.meta.url), 'utf8');
    const backfill = migration.slice(migration.indexOf('INSERT INTO "vehicles"'));
    await t.db.execute(sql.raw(backfill));
    const rows = await t.db.select().from(vehicles).where(eq(vehicles.uid, withCar.id));
    expect(rows).toEqual([expect.objectContaining({ carType: 'Sedan', vehicleMake: 'Ford', vehicleModel: 'Focus', vehicleNumber: 'ab-12 cd', numberKey: 'AB12CD', status: 'approved', active: true, image: null })]);
    expect(await t.db.select().from(vehicles).where(eq(vehicles.uid, without.id))).toEqual([]);
  });
});
