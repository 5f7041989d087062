import { errorBody, type DriverDocument, type MyDocuments, type ReviewDocument } from '@rideway/contract';
import { DOCUMENT_KINDS, isVehicleDocumentKind, type DocumentKind } from '@rideway/domain';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { driverDocuments, outbox, users, vehicles } from '../../src/db/schema';
import { createSession } from '../../src/modules/accounts/sessions';
import { checkDocumentExpiry } from '../../src/modules/documents/expiry';
import type { UserRow } from '../../src/modules/accounts/accounts';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';

/**
 * Issue 20 point 3: a driver's documents. Going online needs every required one approved and in
 * date (when RequireDriverDocuments is on); uploads are checked by their bytes and store nothing
 * when refused; an admin, or the driver's own fleet admin, reviews them; reminders go out before
 * expiry once each, and at expiry the driver is taken offline and told why.
 * The test clock reads 2026-11-22, UTC.
 */

const DAY = 24 * 60 * 60 * 1000;
/** The car a driver made here drives: its registration and insurance are this vehicle's. */
const SEDAN = { carType: 'Sedan', vehicleMake: 'Ford', vehicleModel: 'Focus', vehicleNumber: 'DOC 1' };
const SEDAN_NAME = 'Ford Focus (DOC 1)';
let png = '';
let bigPng = '';

beforeAll(async () => {
  png = `data:image/png;base64,${(await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366aa' } }).png().toBuffer()).toString('base64')}`;
  // Random pixels do not compress: over 5 MiB as a PNG.
  const noise = Buffer.alloc(1400 * 1400 * 3);
  for (let i = 0; i < noise.length; i += 1) noise[i] = (i * 2654435761) >>> 24;
  bigPng = `data:image/png;base64,${(await sharp(noise, { raw: { width: 1400, height: 1400, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer()).toString('base64')}`;
});

describe.each(ENGINES)('driver documents on %s (issue 20 point 3)', (engine) => {
  let t: TestApp;
  let admin: UserRow;
  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.makeUser('admin');
  });
  afterAll(() => t.close());

  const activeCar = async (driver: UserRow) => (await t.db.select({ id: vehicles.id }).from(vehicles).where(and(eq(vehicles.uid, driver.id), eq(vehicles.active, true))))[0]?.id;
  /** A registration or insurance goes with the driver's active vehicle. */
  const upload = async (driver: UserRow, kind: string, expiresOn: string, image = png) => {
    const vehicleId = (DOCUMENT_KINDS as readonly string[]).includes(kind) && isVehicleDocumentKind(kind as DocumentKind) ? await activeCar(driver) : undefined;
    return t.request({ method: 'PUT', url: `/api/driver/documents/${kind}`, as: driver, payload: { image, expiresOn, ...(vehicleId ? { vehicleId } : {}) } });
  };
  const goOnline = (driver: UserRow, on = true) => t.request({ method: 'PATCH', url: '/api/driver/status', as: driver, payload: { driverActiveStatus: on } });
  const mine = async (driver: UserRow) => (await t.request({ method: 'GET', url: '/api/driver/documents', as: driver })).json<MyDocuments>();
  const approve = (as: UserRow, id: string) => t.request({ method: 'POST', url: `/api/documents/${id}/approve`, as, payload: {} });
  const sendAll = async (driver: UserRow, expiresOn = '2030-06-30', kinds: readonly string[] = DOCUMENT_KINDS): Promise<string[]> => {
    const ids: string[] = [];
    for (const kind of kinds) {
      const sent = await upload(driver, kind, expiresOn);
      expect(sent.statusCode).toBe(201);
      ids.push(sent.json<{ document: DriverDocument }>().document.id);
    }
    return ids;
  };

  it('refuses going online with every missing document listed, and allows it once all are approved', async () => {
    const driver = await t.makeUser('driver', { documentless: true, ...SEDAN });
    const refused = await goOnline(driver);
    expect(refused.statusCode).toBe(409);
    const car = await activeCar(driver);
    expect(refused.json()).toEqual(errorBody('documents_required', { details: { problems: DOCUMENT_KINDS.map((kind) => ({ kind, problem: 'missing', ...(isVehicleDocumentKind(kind) ? { vehicleId: car, vehicle: SEDAN_NAME } : {}) })) } }));
    const ids = await sendAll(driver);
    const pending = await goOnline(driver);
    expect(codeOf(pending)).toBe('documents_required');
    expect(pending.json<{ error: { details: { problems: { problem: string }[] } } }>().error.details.problems.map((p) => p.problem)).toEqual(['pending', 'pending', 'pending', 'pending', 'pending']);
    for (const id of ids.slice(0, 4)) expect((await approve(admin, id)).statusCode).toBe(200);
    const reject = await t.request({ method: 'POST', url: `/api/documents/${ids[4] ?? ''}/reject`, as: admin, payload: { reason: 'Blurred' } });
    expect(reject.json<{ document: DriverDocument }>().document).toMatchObject({ status: 'rejected', reason: 'Blurred', reviewedBy: admin.id });
    expect((await mine(driver)).problems).toEqual([{ kind: 'insurance', problem: 'rejected', vehicleId: car, vehicle: SEDAN_NAME }]);
    expect(codeOf(await goOnline(driver))).toBe('documents_required');
    // The driver was told, in its language, by push and mail.
    const told = await t.db.select().from(outbox).where(eq(outbox.recipient, driver.id));
    expect(told.map((row) => (row.payload as { msg: string }).msg)).toContain(`Your Vehicle insurance – ${SEDAN_NAME} was rejected: Blurred. Please send a new one.`);
    const again = await upload(driver, 'insurance', '2030-06-30');
    expect((await approve(admin, again.json<{ document: DriverDocument }>().document.id)).statusCode).toBe(200);
    expect((await goOnline(driver)).statusCode).toBe(200);
    expect((await mine(driver)).problems).toEqual([]);
    // Going offline is always allowed.
    expect((await goOnline(driver, false)).statusCode).toBe(200);
  });

  it('decides a document once', async () => {
    const driver = await t.makeUser('driver', { documentless: true, ...SEDAN });
    const id = (await upload(driver, 'id', '2030-01-01')).json<{ document: DriverDocument }>().document.id;
    expect((await approve(admin, id)).statusCode).toBe(200);
    expect(codeOf(await approve(admin, id))).toBe('document_already_reviewed');
    expect(codeOf(await t.request({ method: 'POST', url: `/api/documents/${id}/reject`, as: admin, payload: { reason: 'late' } }))).toBe('document_already_reviewed');
    expect(codeOf(await t.request({ method: 'POST', url: '/api/documents/nope/approve', as: admin, payload: {} }))).toBe('not_found');
  });

  it('lets a driver go online when documents are not required', async () => {
    const driver = await t.makeUser('driver', { documentless: true, ...SEDAN });
    await t.setSettings({ RequireDriverDocuments: false });
    try {
      expect((await goOnline(driver)).statusCode).toBe(200);
      expect((await mine(driver)).required).toBe(false);
    } finally {
      await t.setSettings({});
    }
  });

  it('a new upload replaces a pending one of its kind and its file', async () => {
    const driver = await t.makeUser('driver', { documentless: true, ...SEDAN });
    const first = (await upload(driver, 'registration', '2029-01-01')).json<{ document: DriverDocument }>().document;
    const second = (await upload(driver, 'registration', '2029-02-01')).json<{ document: DriverDocument }>().document;
    const rows = await t.db.select().from(driverDocuments).where(eq(driverDocuments.uid, driver.id));
    expect(rows.map((row) => row.id)).toEqual([second.id]);
    expect((await t.request({ method: 'GET', url: first.image, as: driver })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: second.image, as: driver })).statusCode).toBe(200);
  });

  it('refuses wrong images, big images, past or impossible dates and unknown kinds, storing nothing', async () => {
    const driver = await t.makeUser('driver', { documentless: true, ...SEDAN });
    const put = vi.spyOn(t.app.ctx.storage, 'put');
    try {
      const gif = `data:image/png;base64,${Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;').toString('base64')}`;
      // A PNG signature followed by garbage: the bytes, not the name, decide.
      const fake = `data:image/png;base64,${Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.from('not really an image at all')]).toString('base64')}`;
      expect(codeOf(await upload(driver, 'insurance', '2030-01-01', gif))).toBe('proper_document_image');
      expect(codeOf(await upload(driver, 'insurance', '2030-01-01', fake))).toBe('proper_document_image');
      expect(codeOf(await upload(driver, 'insurance', '2030-01-01', 'data:text/html;base64,PGgxPg=='))).toBe('proper_document_image');
      expect(codeOf(await upload(driver, 'insurance', '2030-01-01', bigPng))).toBe('proper_document_image');
      expect(codeOf(await upload(driver, 'insurance', '2026-11-21'))).toBe('proper_expiry_date');
      expect(codeOf(await upload(driver, 'insurance', '2027-02-30'))).toBe('proper_expiry_date');
      expect(codeOf(await upload(driver, 'insurance', 'tomorrow'))).toBe('proper_expiry_date');
      expect((await upload(driver, 'passport', '2030-01-01')).statusCode).toBe(400);
      expect(put).not.toHaveBeenCalled();
      expect(await t.db.select().from(driverDocuments).where(eq(driverDocuments.uid, driver.id))).toEqual([]);
      // Today is still accepted: valid through its expiry day.
      expect((await upload(driver, 'insurance', '2026-11-22')).statusCode).toBe(201);
    } finally {
      put.mockRestore();
    }
  });

  it("shows a document's image only to the driver, its fleet admin and admins", async () => {
    const fleet = await t.makeUser('fleetadmin');
    const otherFleet = await t.makeUser('fleetadmin');
    const driver = await t.makeUser('driver', { documentless: true, fleetadmin: fleet.id, ...SEDAN });
    const other = await t.makeUser('driver');
    const rider = await t.makeUser('rider');
    const { image } = (await upload(driver, 'id', '2030-01-01')).json<{ document: DriverDocument }>().document;
    for (const viewer of [driver, fleet, admin]) expect((await t.request({ method: 'GET', url: image, as: viewer })).statusCode).toBe(200);
    for (const viewer of [otherFleet, other, rider]) expect((await t.request({ method: 'GET', url: image, as: viewer })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: image })).statusCode).toBe(404);
  });

  it('a fleet admin reviews only its own drivers', async () => {
    const fleet = await t.makeUser('fleetadmin');
    const own = await t.makeUser('driver', { documentless: true, fleetadmin: fleet.id, ...SEDAN });
    const stranger = await t.makeUser('driver', { documentless: true, ...SEDAN });
    const ownDoc = (await upload(own, 'id', '2030-01-01')).json<{ document: DriverDocument }>().document;
    const strangerDoc = (await upload(stranger, 'id', '2030-01-01')).json<{ document: DriverDocument }>().document;
    const listed = (await t.request({ method: 'GET', url: '/api/documents?status=pending', as: fleet })).json<{ documents: ReviewDocument[] }>().documents;
    expect(listed.map((doc) => doc.id)).toEqual([ownDoc.id]);
    expect(codeOf(await approve(fleet, strangerDoc.id))).toBe('not_found');
    expect(codeOf(await t.request({ method: 'POST', url: `/api/documents/${strangerDoc.id}/reject`, as: fleet, payload: { reason: 'no' } }))).toBe('not_found');
    expect((await t.db.select().from(driverDocuments).where(eq(driverDocuments.id, strangerDoc.id)))[0]?.status).toBe('pending');
    expect((await approve(fleet, ownDoc.id)).statusCode).toBe(200);
    const all = (await t.request({ method: 'GET', url: '/api/documents?status=pending', as: admin })).json<{ documents: ReviewDocument[] }>().documents;
    expect(all.map((doc) => doc.id)).toContain(strangerDoc.id);
    expect(all.map((doc) => doc.id)).not.toContain(ownDoc.id);
  });

  it('refuses riders, other roles and the signed out', async () => {
    const rider = await t.makeUser('rider');
    const driver = await t.makeUser('driver');
    const id = (await t.db.select({ id: driverDocuments.id }).from(driverDocuments).where(eq(driverDocuments.uid, driver.id)).limit(1))[0]?.id ?? '';
    expect((await t.request({ method: 'GET', url: '/api/driver/documents' })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/documents' })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/driver/documents', as: rider })).statusCode).toBe(403);
    expect((await upload(rider, 'id', '2030-01-01')).statusCode).toBe(403);
    expect((await upload(admin, 'id', '2030-01-01')).statusCode).toBe(403);
    for (const as of [rider, driver]) {
      expect((await t.request({ method: 'GET', url: '/api/documents', as })).statusCode).toBe(403);
      expect((await approve(as, id)).statusCode).toBe(403);
      expect((await t.request({ method: 'POST', url: `/api/documents/${id}/reject`, as, payload: { reason: 'x' } })).statusCode).toBe(403);
    }
    expect(codeOf(await t.request({ method: 'POST', url: `/api/documents/${id}/reject`, as: admin, payload: { reason: '  ' } }))).toBe('no_details_error');
  });

  it('reminds 30 and 7 days before expiry once each, then takes the driver offline at expiry', async () => {
    const driver = await t.makeUser('driver', { documentless: true, ...SEDAN });
    for (const id of await sendAll(driver, '2027-06-30', DOCUMENT_KINDS.filter((kind) => kind !== 'insurance'))) await approve(admin, id);
    // The insurance ends sooner: 2026-12-22 is 30 days after the test clock's day.
    const insurance = (await upload(driver, 'insurance', '2026-12-22')).json<{ document: DriverDocument }>().document;
    await approve(admin, insurance.id);
    await t.goOnline(driver);
    const reminders = async () => (await t.db.select().from(outbox).where(eq(outbox.recipient, driver.id))).map((row) => (row.payload as { msg: string }).msg).filter((msg) => msg.includes('expires'));
    await checkDocumentExpiry(t.app.ctx);
    await checkDocumentExpiry(t.app.ctx);
    expect(await reminders()).toEqual([`Your Vehicle insurance – ${SEDAN_NAME} expires on 2026-12-22. Send a new one in the app so you can keep driving.`]);
    // The mail went to its address too.
    expect((await t.db.select().from(outbox).where(eq(outbox.recipient, driver.email ?? ''))).length).toBeGreaterThan(0);
    t.advance(24 * DAY);
    await checkDocumentExpiry(t.app.ctx);
    await checkDocumentExpiry(t.app.ctx);
    expect(await reminders()).toHaveLength(2);
    t.advance(6 * DAY);
    // On its last day the driver still drives.
    await checkDocumentExpiry(t.app.ctx);
    expect((await t.db.select().from(users).where(eq(users.id, driver.id)))[0]?.driverActiveStatus).toBe(true);
    t.advance(DAY);
    expect(await checkDocumentExpiry(t.app.ctx)).toMatchObject({ expired: 1 });
    expect(await checkDocumentExpiry(t.app.ctx)).toMatchObject({ expired: 0 });
    expect((await t.db.select().from(users).where(eq(users.id, driver.id)))[0]?.driverActiveStatus).toBe(false);
    const told = (await t.db.select().from(outbox).where(eq(outbox.recipient, driver.id))).map((row) => (row.payload as { msg: string }).msg);
    expect(told.filter((msg) => msg.includes('You are offline'))).toEqual([`Your Vehicle insurance – ${SEDAN_NAME} expired on 2026-12-22. You are offline until a new one is approved.`]);
    // A month on, the driver signs in again (sessions end) and is told why it cannot go online.
    const token = await createSession(t.db, driver.id, t.clock.now);
    const refused = await t.app.inject({ method: 'PATCH', url: '/api/driver/status', headers: { authorization: `Bearer ${token}` }, payload: { driverActiveStatus: true } });
    expect(refused.json<{ error: { details: unknown } }>().error.details).toEqual({ problems: [{ kind: 'insurance', problem: 'expired', vehicleId: await activeCar(driver), vehicle: SEDAN_NAME }] });
    t.advance(-31 * DAY);
  });

  it('keeps a driver online whose renewal was approved before expiry', async () => {
    const driver = await t.makeUser('driver', SEDAN);
    await t.goOnline(driver);
    const renewal = (await upload(driver, 'insurance', '2040-01-01')).json<{ document: DriverDocument }>().document;
    await approve(admin, renewal.id);
    // The seeded documents end 2036-12-31; jump past it.
    await t.db.update(driverDocuments).set({ expiresOn: '2026-11-01' }).where(eq(driverDocuments.uid, driver.id));
    await t.db.update(driverDocuments).set({ expiresOn: '2040-01-01' }).where(eq(driverDocuments.id, renewal.id));
    await checkDocumentExpiry(t.app.ctx);
    // Other kinds expired: now offline for those, but the insurance itself was renewed.
    const refused = await goOnline(driver);
    expect(refused.json<{ error: { details: { problems: { kind: string }[] } } }>().error.details.problems.map((p) => p.kind)).toEqual(['licence_front', 'licence_back', 'id', 'registration']);
  });
});

describe.each(ENGINES)('document floods on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT_OVERRIDES: 'document-upload.user=2/1h, document-review.user=2/1h, documents.user=3/1h' });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After past the limits', async () => {
    const driver = await t.makeUser('driver', { documentless: true, ...SEDAN });
    const admin = await t.makeUser('admin');
    const sent = [];
    for (let i = 0; i < 3; i += 1) sent.push(await t.request({ method: 'PUT', url: '/api/driver/documents/id', as: driver, payload: { image: png, expiresOn: '2030-01-01' }, remoteAddress: '198.51.90.1' }));
    expect(sent.map((r) => r.statusCode)).toEqual([201, 201, 429]);
    expect(Number(sent[2]?.headers['retry-after'])).toBeGreaterThan(0);
    expect(await t.db.select().from(driverDocuments).where(eq(driverDocuments.uid, driver.id))).toHaveLength(1);
    const reads = [];
    for (let i = 0; i < 4; i += 1) reads.push((await t.request({ method: 'GET', url: '/api/documents', as: admin, remoteAddress: '198.51.90.2' })).statusCode);
    expect(reads).toEqual([200, 200, 200, 429]);
    const decisions = [];
    for (let i = 0; i < 3; i += 1) decisions.push((await t.request({ method: 'POST', url: '/api/documents/x/approve', as: admin, payload: {}, remoteAddress: '198.51.90.2' })).statusCode);
    expect(decisions).toEqual([404, 404, 429]);
  });
});
