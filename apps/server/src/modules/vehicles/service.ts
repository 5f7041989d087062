import type { ReviewVehicle, Vehicle, VehicleAdd } from '@rideway/contract';
import { activationRefusal, deletionRefusal, maskContactForDemo, mayAddVehicle, mayReview, todayIn, vehicleName, type VehicleStatus } from '@rideway/domain';
import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, ne, type SQL } from 'drizzle-orm';
import { recordAudit } from '../../audit/record';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { isUniqueViolation } from '../../db/unique-violation';
import { carTypes, driverDocuments, users, vehicles } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import { deleteStoredFileOf, fileUrl, withStoredFile } from '../../providers/storage';
import { checkedImage, DOCUMENT_FOLDER, tellDriver } from '../documents/service';
import { driverProblems } from '../presence/online-rule';
import { syncDriver } from '../presence/service';
import { getSettings } from '../settings/service';
import { numberKeyOf } from '../accounts/first-vehicle';

/**
 * Issue 20 point 3: a driver's vehicles. The user's carType, vehicleMake, vehicleModel and
 * vehicleNumber (section 3, read by dispatch, the views and the bookings) mirror the active
 * vehicle: whatever makes a vehicle active, or changes or withdraws the active one, writes them in
 * the same transaction.
 */

type VehicleRow = typeof vehicles.$inferSelect;

const viewOf = (row: VehicleRow): Vehicle => ({
  id: row.id,
  uid: row.uid,
  carType: row.carType,
  vehicleMake: row.vehicleMake,
  vehicleModel: row.vehicleModel,
  vehicleNumber: row.vehicleNumber,
  image: row.image,
  status: row.status as VehicleStatus,
  reason: row.reason,
  reviewedBy: row.reviewedBy,
  reviewedAt: row.reviewedAt,
  active: row.active,
  createdAt: row.createdAt,
});

/** The user's fields that mirror the active vehicle. */
const mirrorOf = (row: Pick<VehicleRow, 'carType' | 'vehicleMake' | 'vehicleModel' | 'vehicleNumber'> | null) => ({
  carType: row?.carType ?? null,
  vehicleMake: row?.vehicleMake ?? null,
  vehicleModel: row?.vehicleModel ?? null,
  vehicleNumber: row?.vehicleNumber ?? null,
});


/** A unique index broken by a write: the number another of the driver's vehicles has. */
const numberTaken = (error: unknown): never => {
  if (isUniqueViolation(error)) throw new AppError('vehicle_number_taken', 'vehicleNumber');
  throw error;
};

/** Serialises every change to one driver's vehicles (adding, switching, reviewing) on its user row. */
const lockDriver = async (tx: Tx, uid: string) => (await tx.select({ id: users.id, queue: users.queue, fleetadmin: users.fleetadmin, online: users.driverActiveStatus }).from(users).where(eq(users.id, uid)).for('update'))[0];

/** A driver's vehicles, oldest first: the driver's own list, and the admin's user page. */
export async function listDriverVehicles(db: Db | Tx, uid: string): Promise<Vehicle[]> {
  const rows = await db.select().from(vehicles).where(eq(vehicles.uid, uid)).orderBy(asc(vehicles.createdAt), asc(vehicles.id));
  return rows.map(viewOf);
}

/**
 * For the lead's PATCH /api/users/:id (users/service.ts editUser): after an admin or fleet admin
 * changes a driver's carType, vehicleMake, vehicleModel or vehicleNumber, call this in the same
 * transaction, after the user row is updated. The active vehicle takes the user's fields; a
 * driver with a car type and no active vehicle gets one, approved when an admin typed it in (it
 * has checked it) and pending when a fleet admin did: else a fleet admin could bring back, as
 * approved, a car an admin had just rejected (issue 20 review). Refuses a number another of the
 * driver's vehicles has.
 */
export async function syncActiveVehicle(tx: Tx, uid: string, { now, by, byAdmin }: { now: number; by: string; byAdmin: boolean }): Promise<void> {
  const user = (await tx.select({ usertype: users.usertype, carType: users.carType, vehicleMake: users.vehicleMake, vehicleModel: users.vehicleModel, vehicleNumber: users.vehicleNumber }).from(users).where(eq(users.id, uid)).limit(1))[0];
  if (user?.usertype !== 'driver' || !user.carType) return;
  const fields = { carType: user.carType, vehicleMake: user.vehicleMake, vehicleModel: user.vehicleModel, vehicleNumber: user.vehicleNumber, numberKey: numberKeyOf(user.vehicleNumber) };
  const updated = await tx.update(vehicles).set(fields).where(and(eq(vehicles.uid, uid), eq(vehicles.active, true))).returning({ id: vehicles.id }).catch(numberTaken);
  if (updated.length > 0) return;
  const review = byAdmin ? { status: 'approved', reviewedBy: by, reviewedAt: now } : { status: 'pending' };
  await tx.insert(vehicles).values({ id: randomUUID(), uid, ...fields, ...review, active: true, createdAt: now }).catch(numberTaken);
}

/**
 * For the lead's account deletion (users/service.ts deleteUser, anonymising): removes the
 * driver's vehicles (numbers and photos are personal) and answers the photos' URLs, to delete
 * after the commit with deleteStoredFileOf.
 */
export async function eraseVehicles(tx: Tx, uid: string): Promise<string[]> {
  const removed = await tx.delete(vehicles).where(eq(vehicles.uid, uid)).returning({ image: vehicles.image });
  return removed.flatMap((row) => (row.image ? [row.image] : []));
}

async function assertCarType(db: Db | Tx, name: string): Promise<void> {
  const found = await db.select({ name: carTypes.name }).from(carTypes).where(eq(carTypes.name, name)).limit(1);
  if (found.length === 0) throw new AppError('select_proper', 'carType');
}

/**
 * POST /api/driver/vehicles: a vehicle waits for review. Every check runs before the photo is
 * stored, and a refused write removes it again.
 */
export async function addVehicle(ctx: AppContext, actor: Actor, body: VehicleAdd): Promise<Vehicle> {
  await assertCarType(ctx.db, body.carType);
  const image = await checkedImage(body.image);
  const counted = (await ctx.db.select({ n: count() }).from(vehicles).where(eq(vehicles.uid, actor.uid)))[0]?.n ?? 0;
  if (!mayAddVehicle(counted)) throw new AppError('vehicle_limit');
  return withStoredFile(ctx.storage, { folder: DOCUMENT_FOLDER, ...image }, (key) =>
    ctx.db.transaction(async (tx) => {
      await lockDriver(tx, actor.uid);
      // Counted again under the lock: two adds at once cannot pass the limit together.
      const held = (await tx.select({ n: count() }).from(vehicles).where(eq(vehicles.uid, actor.uid)))[0]?.n ?? 0;
      if (!mayAddVehicle(held)) throw new AppError('vehicle_limit');
      const inserted = await tx
        .insert(vehicles)
        .values({
          id: randomUUID(),
          uid: actor.uid,
          carType: body.carType,
          vehicleMake: body.vehicleMake,
          vehicleModel: body.vehicleModel,
          vehicleNumber: body.vehicleNumber,
          numberKey: numberKeyOf(body.vehicleNumber),
          image: fileUrl(key),
          status: 'pending',
          active: false,
          createdAt: ctx.now(),
        })
        .returning()
        .catch(numberTaken);
      return viewOf(inserted[0] as VehicleRow);
    }),
  );
}

/** The actor's own vehicle, or 404: another driver's vehicle looks missing. */
async function ownVehicle(db: Db | Tx, actor: Actor, id: string): Promise<VehicleRow> {
  const row = (await db.select().from(vehicles).where(and(eq(vehicles.id, id), eq(vehicles.uid, actor.uid))).limit(1))[0];
  if (!row) throw new AppError('not_found');
  return row;
}

/**
 * DELETE /api/driver/vehicles/:id: neither the active vehicle nor the last one; its photo, and
 * its registration and insurance (rows and files), go after the commit.
 */
export async function deleteVehicle(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  const images = await ctx.db.transaction(async (tx) => {
    await lockDriver(tx, actor.uid);
    const row = await ownVehicle(tx, actor, id);
    const held = (await tx.select({ n: count() }).from(vehicles).where(eq(vehicles.uid, actor.uid)))[0]?.n ?? 0;
    const refusal = deletionRefusal({ ...row, status: row.status as VehicleStatus }, held);
    if (refusal) throw new AppError(refusal);
    const papers = await tx.delete(driverDocuments).where(eq(driverDocuments.vehicleId, id)).returning({ image: driverDocuments.image });
    await tx.delete(vehicles).where(eq(vehicles.id, id));
    return [row.image, ...papers.map((paper) => paper.image)];
  });
  for (const image of images) await deleteStoredFileOf(ctx.storage, image);
}

/**
 * What would keep the driver offline in this vehicle on account of its registration and
 * insurance; none while documents are not required.
 */
async function papersOf(ctx: AppContext, tx: Tx, uid: string, vehicleId: string) {
  const settings = await getSettings(tx);
  if (!settings.RequireDriverDocuments) return [];
  const problems = await driverProblems(tx, uid, todayIn(ctx.now(), settings.timezone), { activeVehicleId: vehicleId });
  return problems.filter((problem) => problem.vehicleId === vehicleId);
}

/**
 * POST /api/driver/vehicles/:id/activate: the driver drives this approved vehicle from now on.
 * Under the driver's row lock, so two switches at once end with one active vehicle, the user's
 * fields mirroring it; dispatch then matches its car type. An online driver switches only to a
 * vehicle whose registration and insurance are approved and in date (vehicle_documents_required,
 * with what is wrong); an offline one may switch anyway and stays offline until they are
 * (docs/decisions.md).
 */
export async function activateVehicle(ctx: AppContext, actor: Actor, id: string): Promise<Vehicle> {
  const view = await ctx.db.transaction(async (tx) => {
    const driver = await lockDriver(tx, actor.uid);
    const row = await ownVehicle(tx, actor, id);
    const online = driver?.online ?? false;
    const problems = online && !row.active ? await papersOf(ctx, tx, actor.uid, id) : [];
    const refusal = activationRefusal({ ...row, status: row.status as VehicleStatus }, { queue: driver?.queue ?? false, online, papersInOrder: problems.length === 0 });
    if (refusal) throw new AppError(refusal, undefined, {}, refusal === 'vehicle_documents_required' ? { problems } : undefined);
    await tx.update(vehicles).set({ active: false }).where(and(eq(vehicles.uid, actor.uid), eq(vehicles.active, true), ne(vehicles.id, id)));
    const activated = (await tx.update(vehicles).set({ active: true }).where(eq(vehicles.id, id)).returning())[0] as VehicleRow;
    await tx.update(users).set(mirrorOf(activated)).where(eq(users.id, actor.uid));
    return viewOf(activated);
  });
  // The live index keeps the car type an online driver is matched by.
  await syncDriver(ctx, actor.uid);
  return view;
}

/** GET /api/vehicles: vehicles to review, oldest first when pending; a fleet admin sees its own drivers' only. In demo mode the drivers' emails are hidden, as in the users list. */
export async function listVehiclesForReview(ctx: AppContext, actor: Actor, status: VehicleStatus | undefined): Promise<ReviewVehicle[]> {
  const filters: SQL[] = [];
  if (status) filters.push(eq(vehicles.status, status));
  if (actor.usertype === 'fleetadmin') filters.push(eq(users.fleetadmin, actor.uid));
  const rows = await ctx.db
    .select({ vehicle: vehicles, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(vehicles)
    .innerJoin(users, eq(users.id, vehicles.uid))
    .where(and(...filters))
    .orderBy(status === 'pending' ? asc(vehicles.createdAt) : desc(vehicles.createdAt))
    .limit(200);
  const settings = await getSettings(ctx.db);
  return rows.map((row) => ({ ...viewOf(row.vehicle), driverName: `${row.firstName} ${row.lastName}`.trim(), driverEmail: maskContactForDemo({ email: row.email }, settings).email }));
}

/**
 * POST /api/vehicles/:id/approve and /reject: an admin, or the driver's own fleet admin (anyone
 * else is told it does not exist), approves a pending vehicle or rejects a pending or approved
 * one with a reason. Rejecting the active vehicle withdraws it: the driver has no active vehicle,
 * goes offline, and its car fields are cleared until it makes an approved vehicle active (the
 * go-online check says so). The driver is told by push and mail in its language.
 */
export async function reviewVehicle(ctx: AppContext, actor: Actor, id: string, decision: { status: 'approved' } | { status: 'rejected'; reason: string }): Promise<Vehicle> {
  const { view, withdrawn } = await ctx.db.transaction(async (tx) => {
    const found = (await tx.select({ uid: vehicles.uid, fleetadmin: users.fleetadmin }).from(vehicles).innerJoin(users, eq(users.id, vehicles.uid)).where(eq(vehicles.id, id)).limit(1))[0];
    if (!found || (actor.usertype === 'fleetadmin' && found.fleetadmin !== actor.uid)) throw new AppError('not_found');
    await lockDriver(tx, found.uid);
    const current = (await tx.select().from(vehicles).where(eq(vehicles.id, id)).limit(1))[0];
    if (!current) throw new AppError('not_found');
    if (!mayReview(current.status as VehicleStatus, decision.status)) throw new AppError('vehicle_already_reviewed');
    const now = ctx.now();
    const reason = decision.status === 'rejected' ? decision.reason.trim() : null;
    const withdrawn = decision.status === 'rejected' && current.active;
    const updated = (await tx.update(vehicles).set({ status: decision.status, reason, reviewedBy: actor.uid, reviewedAt: now, active: withdrawn ? false : current.active }).where(eq(vehicles.id, id)).returning())[0] as VehicleRow;
    if (withdrawn) await tx.update(users).set({ ...mirrorOf(null), driverActiveStatus: false }).where(eq(users.id, updated.uid));
    await recordAudit(tx, { actor, action: decision.status === 'approved' ? 'vehicle.approve' : 'vehicle.reject', entityId: updated.id, before: viewOf(current), after: viewOf(updated), at: now });
    const vehicle = vehicleName(updated);
    await tellDriver(tx, updated.uid, (render) =>
      decision.status === 'approved'
        ? render('push_vehicle_approved', { vehicle })
        : render(withdrawn ? 'push_vehicle_withdrawn' : 'push_vehicle_rejected', { vehicle, reason: reason ?? '' }), now);
    return { view: viewOf(updated), withdrawn };
  });
  if (withdrawn) await syncDriver(ctx, view.uid);
  return view;
}
