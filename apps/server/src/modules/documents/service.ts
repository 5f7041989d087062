import { MAX_DOCUMENT_BYTES, type DocumentUpload, type DriverDocument, type MyDocuments, type ReviewDocument } from '@rideway/contract';
import { isAcceptableExpiry, isVehicleDocumentKind, maskContactForDemo, todayIn, vehicleName, type DocumentKind, type DocumentStatus } from '@rideway/domain';
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, isNull, type SQL } from 'drizzle-orm';
import { recordAudit } from '../../audit/record';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { driverDocuments, users, vehicles } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import { imageLibrary } from '../../providers/images';
import { decodeImageDataUrl, deleteStoredFileOf, fileUrl, withStoredFile } from '../../providers/storage';
import { renderFor } from '../messages/render';
import { enqueue } from '../outbox/service';
import { driverProblems } from '../presence/online-rule';
import { getSettings } from '../settings/service';

/** The folder of drivers' documents: never public (files/routes.ts). */
export const DOCUMENT_FOLDER = 'documents';

type DocumentRow = typeof driverDocuments.$inferSelect;

/** A document row as every screen shows it (the driver's, the review's, an admin's user page). */
export const documentView = (row: DocumentRow): DriverDocument => ({
  id: row.id,
  uid: row.uid,
  kind: row.kind as DocumentKind,
  vehicleId: row.vehicleId,
  image: row.image,
  expiresOn: row.expiresOn,
  status: row.status as DocumentStatus,
  reason: row.reason,
  reviewedBy: row.reviewedBy,
  reviewedAt: row.reviewedAt,
  createdAt: row.createdAt,
});

/** Today in the operator's time zone: documents expire by its calendar. */
export const documentToday = async (ctx: AppContext, db: Db | Tx = ctx.db): Promise<string> => todayIn(ctx.now(), (await getSettings(db)).timezone);

const rowsOf = (db: Db | Tx, uid: string): Promise<DocumentRow[]> =>
  db.select().from(driverDocuments).where(eq(driverDocuments.uid, uid)).orderBy(asc(driverDocuments.createdAt));

/**
 * GET /api/driver/documents: the newest upload of each kind (of a registration and insurance, for
 * each vehicle), and what keeps the driver offline.
 */
export async function myDocuments(ctx: AppContext, actor: Actor): Promise<MyDocuments> {
  const rows = await rowsOf(ctx.db, actor.uid);
  const newest = new Map<string, DocumentRow>();
  for (const row of rows) newest.set(`${row.kind}:${row.vehicleId ?? ''}`, row);
  const settings = await getSettings(ctx.db);
  const problems = await driverProblems(ctx.db, actor.uid, todayIn(ctx.now(), settings.timezone));
  return { documents: [...newest.values()].map(documentView), problems, required: settings.RequireDriverDocuments };
}

const SHARP_FORMATS: Record<string, 'png' | 'jpeg' | 'webp'> = { png: 'png', jpg: 'jpeg', webp: 'webp' };

/**
 * The image a driver sends, checked by its bytes: a PNG, JPEG or WebP of at most 5 MiB that
 * sharp can read as the format its signature claims (a renamed file or a truncated one is refused).
 * Vehicle photos are checked the same way (modules/vehicles).
 */
export async function checkedImage(dataUrl: string): Promise<{ bytes: Uint8Array; extension: string }> {
  const decoded = decodeImageDataUrl(dataUrl, MAX_DOCUMENT_BYTES);
  if (!decoded) throw new AppError('proper_document_image', 'image');
  const sharp = await imageLibrary();
  try {
    const meta = await sharp(decoded.bytes, { limitInputPixels: 50_000_000 }).metadata();
    const format = SHARP_FORMATS[decoded.extension];
    if (format === undefined || meta.format !== format || !meta.width || !meta.height) throw new Error('format');
    // Stored re-encoded, turned upright and without the file's metadata: a phone's photo carries
    // where and when it was taken (EXIF GPS), which is the driver's, not the reviewer's, to know.
    // Decoding the whole image also proves it is one.
    const bytes = await sharp(decoded.bytes, { limitInputPixels: 50_000_000 }).rotate().toFormat(format, format === 'jpeg' ? { quality: 90 } : {}).toBuffer();
    return { bytes: new Uint8Array(bytes), extension: decoded.extension };
  } catch {
    throw new AppError('proper_document_image', 'image');
  }
}

/**
 * The vehicle a registration or insurance is sent for: one of the sender's own (another driver's
 * looks missing, 404); a licence or ID names none. Read FOR SHARE inside the write, so the vehicle
 * cannot be deleted between the check and the insert.
 */
async function vehicleFor(db: Db | Tx, actor: Actor, kind: DocumentKind, vehicleId: string | undefined, lock = false): Promise<string | null> {
  if (!isVehicleDocumentKind(kind)) {
    if (vehicleId !== undefined) throw new AppError('document_vehicle_not_allowed', 'vehicleId');
    return null;
  }
  if (vehicleId === undefined) throw new AppError('document_vehicle_required', 'vehicleId');
  const query = db.select({ id: vehicles.id }).from(vehicles).where(and(eq(vehicles.id, vehicleId), eq(vehicles.uid, actor.uid))).limit(1);
  const found = (await (lock ? query.for('share') : query))[0];
  if (!found) throw new AppError('not_found');
  return found.id;
}

/**
 * PUT /api/driver/documents/:kind: a new document waits for review. It replaces a pending one of
 * its kind (for a registration or insurance, of the same vehicle; that one's file is removed);
 * reviewed ones stay as history. Every check runs before the image is stored, and a failed write
 * removes it again.
 */
export async function uploadDocument(ctx: AppContext, actor: Actor, kind: DocumentKind, body: DocumentUpload): Promise<DriverDocument> {
  await vehicleFor(ctx.db, actor, kind, body.vehicleId);
  if (!isAcceptableExpiry(body.expiresOn, await documentToday(ctx))) throw new AppError('proper_expiry_date', 'expiresOn');
  const image = await checkedImage(body.image);
  const { row, replaced } = await withStoredFile(ctx.storage, { folder: DOCUMENT_FOLDER, ...image }, (key) =>
    ctx.db.transaction(async (tx) => {
      const vehicleId = await vehicleFor(tx, actor, kind, body.vehicleId, true);
      const pending = and(eq(driverDocuments.uid, actor.uid), eq(driverDocuments.kind, kind), vehicleId === null ? isNull(driverDocuments.vehicleId) : eq(driverDocuments.vehicleId, vehicleId), eq(driverDocuments.status, 'pending'));
      const replaced = await tx.delete(driverDocuments).where(pending).returning({ image: driverDocuments.image });
      const inserted = await tx.insert(driverDocuments).values({ id: randomUUID(), uid: actor.uid, kind, vehicleId, image: fileUrl(key), expiresOn: body.expiresOn, status: 'pending', createdAt: ctx.now() }).returning();
      return { row: inserted[0] as DocumentRow, replaced };
    }),
  );
  for (const old of replaced) await deleteStoredFileOf(ctx.storage, old.image);
  return documentView(row);
}

/** GET /api/documents: documents to review, oldest first; a fleet admin sees its own drivers' only. In demo mode the drivers' emails are hidden, as in the users list. */
export async function listForReview(ctx: AppContext, actor: Actor, status: DocumentStatus | undefined): Promise<ReviewDocument[]> {
  const filters: SQL[] = [];
  if (status) filters.push(eq(driverDocuments.status, status));
  if (actor.usertype === 'fleetadmin') filters.push(eq(users.fleetadmin, actor.uid));
  const rows = await ctx.db
    .select({ document: driverDocuments, firstName: users.firstName, lastName: users.lastName, email: users.email, vehicle: vehicles })
    .from(driverDocuments)
    .innerJoin(users, eq(users.id, driverDocuments.uid))
    .leftJoin(vehicles, eq(vehicles.id, driverDocuments.vehicleId))
    .where(and(...filters))
    .orderBy(status === 'pending' ? asc(driverDocuments.createdAt) : desc(driverDocuments.createdAt))
    .limit(200);
  const settings = await getSettings(ctx.db);
  return rows.map((row) => ({ ...documentView(row.document), driverName: `${row.firstName} ${row.lastName}`.trim(), driverEmail: maskContactForDemo({ email: row.email }, settings).email, vehicle: row.vehicle ? vehicleName(row.vehicle) : null }));
}

/** The kind's name in the driver's language, for the texts sent. */
export const KIND_KEYS = {
  licence_front: 'document_kind_licence_front',
  licence_back: 'document_kind_licence_back',
  id: 'document_kind_id',
  registration: 'document_kind_registration',
  insurance: 'document_kind_insurance',
} as const satisfies Record<DocumentKind, string>;

/**
 * How the driver's texts name a document: its kind in the driver's language and, for a
 * registration or insurance, the vehicle it belongs to (the driver may have several).
 */
export async function documentNameOf(db: Db | Tx, kind: DocumentKind, vehicleId: string | null): Promise<(render: Awaited<ReturnType<typeof renderFor>>) => string> {
  const vehicle = vehicleId === null ? undefined : (await db.select().from(vehicles).where(eq(vehicles.id, vehicleId)).limit(1))[0];
  return (render) => (vehicle ? `${render(KIND_KEYS[kind])} – ${vehicleName(vehicle)}` : render(KIND_KEYS[kind]));
}

/** A push and, when the driver has an email, a mail with the same words. */
export async function tellDriver(tx: Tx, uid: string, text: (render: Awaited<ReturnType<typeof renderFor>>) => string, now: number): Promise<void> {
  const render = await renderFor(tx, uid);
  const title = render('push_document_title');
  const msg = text(render);
  await enqueue(tx, { channel: 'push', recipient: uid, payload: { title, msg } }, now);
  const email = (await tx.select({ email: users.email }).from(users).where(eq(users.id, uid)).limit(1))[0]?.email;
  if (email) await enqueue(tx, { channel: 'mail', recipient: email, payload: { subject: title, text: msg } }, now);
}

/**
 * POST /api/documents/:id/approve and /reject: an admin, or the driver's own fleet admin (anyone
 * else is told it does not exist), decides a pending document once; the driver is told.
 */
export async function reviewDocument(ctx: AppContext, actor: Actor, id: string, decision: { status: 'approved' } | { status: 'rejected'; reason: string }): Promise<DriverDocument> {
  return ctx.db.transaction(async (tx) => {
    const found = (await tx.select({ document: driverDocuments, fleetadmin: users.fleetadmin }).from(driverDocuments).innerJoin(users, eq(users.id, driverDocuments.uid)).where(eq(driverDocuments.id, id)).limit(1))[0];
    if (!found || (actor.usertype === 'fleetadmin' && found.fleetadmin !== actor.uid)) throw new AppError('not_found');
    const now = ctx.now();
    const reason = decision.status === 'rejected' ? decision.reason.trim() : null;
    // Decided once, whoever clicks at the same time: only a pending row changes.
    const updated = (await tx.update(driverDocuments).set({ status: decision.status, reason, reviewedBy: actor.uid, reviewedAt: now }).where(and(eq(driverDocuments.id, id), eq(driverDocuments.status, 'pending'))).returning())[0];
    if (!updated) throw new AppError('document_already_reviewed');
    await recordAudit(tx, { actor, action: decision.status === 'approved' ? 'document.approve' : 'document.reject', entityId: updated.id, before: documentView(found.document), after: documentView(updated), at: now });
    const document = await documentNameOf(tx, updated.kind as DocumentKind, updated.vehicleId);
    await tellDriver(tx, updated.uid, (render) =>
      decision.status === 'approved'
        ? render('push_document_approved', { document: document(render) })
        : render('push_document_rejected', { document: document(render), reason: reason ?? '' }), now);
    return documentView(updated);
  });
}

/** Security-critical: who may see a document image or a vehicle photo: admins, the driver's own fleet admin, and the driver. */
export async function mayReadDocument(db: Db, actor: Actor | null, key: string): Promise<boolean> {
  if (!actor) return false;
  if (actor.usertype === 'admin') return true;
  if (actor.usertype !== 'driver' && actor.usertype !== 'fleetadmin') return false;
  const owner =
    (await db.select({ id: users.id, fleetadmin: users.fleetadmin }).from(driverDocuments).innerJoin(users, eq(users.id, driverDocuments.uid)).where(eq(driverDocuments.image, fileUrl(key))).limit(1))[0] ??
    // Vehicle photos (modules/vehicles) are kept in the documents' folder and read the same way.
    (await db.select({ id: users.id, fleetadmin: users.fleetadmin }).from(vehicles).innerJoin(users, eq(users.id, vehicles.uid)).where(eq(vehicles.image, fileUrl(key))).limit(1))[0];
  if (!owner) return false;
  return owner.id === actor.uid || (actor.usertype === 'fleetadmin' && owner.fleetadmin === actor.uid);
}
