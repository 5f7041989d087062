import { randomUUID } from 'node:crypto';
import type { CarType, CarTypeCreate, CarTypeUpdate } from '@rideway/contract';
import { fromMinor, toMinor } from '@rideway/domain';
import { asc, eq } from 'drizzle-orm';
import { recordAudit } from '../../audit/record';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { dataChanged, readThrough } from '../../db/read-cache';
import { carTypes } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import { decodeImageDataUrl, deleteStoredFileOf, fileUrl, withStoredFile } from '../../providers/storage';
import { assertNotDemoMode } from '../settings/service';

type CarTypeRow = typeof carTypes.$inferSelect;

export function toApiCarType(row: CarTypeRow): CarType {
  return {
    id: row.id,
    name: row.name,
    image: row.image,
    base_fare: fromMinor(row.baseFareMinor),
    rate_per_unit_distance: fromMinor(row.ratePerUnitDistanceMinor),
    rate_per_hour: fromMinor(row.ratePerHourMinor),
    min_fare: fromMinor(row.minFareMinor),
    convenience_fees: fromMinor(row.convenienceFeesHundredths),
    convenience_fee_type: row.convenienceFeeType as CarType['convenience_fee_type'],
    extra_info: row.extraInfo,
    createdAt: row.createdAt,
    parcelTypes: row.parcelTypes.map((p) => ({ description: p.description, amount: fromMinor(p.amount) })),
    options: row.options.map((p) => ({ description: p.description, amount: fromMinor(p.amount) })),
    cancelSlab: row.cancelSlab.map((s) => ({ minsDelayed: s.minsDelayed, amount: fromMinor(s.amount) })),
  };
}

const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

/**
 * Runs the write with the car type's image URL. A data URL is checked first and its bytes are
 * stored only around the write, so a refused or failed write leaves no file; a URL is kept as given.
 */
async function withImage<T>(ctx: AppContext, image: string | undefined, write: (url: string | undefined) => Promise<T>): Promise<T> {
  if (image === undefined || !image.startsWith('data:')) {
    if (image !== undefined && image.length > 2000) throw new AppError('validation_error', 'image');
    return write(image);
  }
  const decoded = decodeImageDataUrl(image, MAX_IMAGE_BYTES);
  if (!decoded) throw new AppError('validation_error', 'image');
  return withStoredFile(ctx.storage, { folder: 'cartypes', ...decoded }, (key) => write(fileUrl(key)));
}

function toColumns(input: CarTypeUpdate): Partial<typeof carTypes.$inferInsert> {
  const columns: Partial<typeof carTypes.$inferInsert> = {};
  if (input.name !== undefined) columns.name = input.name;
  if (input.base_fare !== undefined) columns.baseFareMinor = toMinor(input.base_fare);
  if (input.rate_per_unit_distance !== undefined) columns.ratePerUnitDistanceMinor = toMinor(input.rate_per_unit_distance);
  if (input.rate_per_hour !== undefined) columns.ratePerHourMinor = toMinor(input.rate_per_hour);
  if (input.min_fare !== undefined) columns.minFareMinor = toMinor(input.min_fare);
  if (input.convenience_fees !== undefined) columns.convenienceFeesHundredths = toMinor(input.convenience_fees);
  if (input.convenience_fee_type !== undefined) columns.convenienceFeeType = input.convenience_fee_type;
  if (input.extra_info !== undefined) columns.extraInfo = input.extra_info;
  if (input.parcelTypes !== undefined) columns.parcelTypes = input.parcelTypes.map((p) => ({ description: p.description, amount: toMinor(p.amount) }));
  if (input.options !== undefined) columns.options = input.options.map((p) => ({ description: p.description, amount: toMinor(p.amount) }));
  if (input.cancelSlab !== undefined) columns.cancelSlab = input.cancelSlab.map((s) => ({ minsDelayed: s.minsDelayed, amount: toMinor(s.amount) }));
  return columns;
}

function assertFeeInRange(type: string, feesHundredths: number): void {
  if (type === 'percentage' && feesHundredths > 10_000) throw new AppError('validation_error', 'convenience_fees');
}

async function assertNameFree(ctx: AppContext, name: string | undefined, exceptId?: string): Promise<void> {
  if (name === undefined) return;
  const rows = await ctx.db.select({ id: carTypes.id }).from(carTypes).where(eq(carTypes.name, name)).limit(1);
  if (rows[0] && rows[0].id !== exceptId) throw new AppError('validation_error', 'name');
}

/**
 * Every car type in the API's shape, oldest first; held in the process until one changes
 * (db/read-cache.ts). Read-only: callers copy what they hand out for changing.
 */
export const carTypeList = (db: Db | Tx): Promise<readonly CarType[]> =>
  readThrough(db, 'carTypes', async () => (await db.select().from(carTypes).orderBy(asc(carTypes.createdAt), asc(carTypes.name))).map(toApiCarType));

/** A car type by its name (names are unique), from the cached list. */
export const carTypeByName = async (db: Db | Tx, name: string): Promise<CarType | undefined> => (await carTypeList(db)).find((carType) => carType.name === name);

export const listCarTypes = async (ctx: AppContext): Promise<CarType[]> => (await carTypeList(ctx.db)).map((carType) => ({ ...carType }));

export async function createCarType(ctx: AppContext, actor: Actor, body: CarTypeCreate): Promise<CarType> {
  await assertNotDemoMode(ctx.db, 'cartype:add');
  const columns = toColumns(body);
  assertFeeInRange(body.convenience_fee_type, columns.convenienceFeesHundredths ?? 0);
  await assertNameFree(ctx, body.name);
  const created = await withImage(ctx, body.image, (image) =>
    ctx.db.transaction(async (tx) => {
      const row = (await tx
        .insert(carTypes)
        .values({
          id: randomUUID(),
          createdAt: ctx.now(),
          image: image ?? '',
          name: body.name,
          baseFareMinor: toMinor(body.base_fare),
          ratePerUnitDistanceMinor: toMinor(body.rate_per_unit_distance),
          ratePerHourMinor: toMinor(body.rate_per_hour),
          minFareMinor: toMinor(body.min_fare),
          convenienceFeesHundredths: toMinor(body.convenience_fees),
          convenienceFeeType: body.convenience_fee_type,
          ...columns,
        })
        .returning())[0] as CarTypeRow;
      await recordAudit(tx, { actor, action: 'cartype.create', entityId: row.id, before: null, after: toApiCarType(row), at: ctx.now() });
      return row;
    }),
  );
  await dataChanged('carTypes');
  return toApiCarType(created);
}

export async function updateCarType(ctx: AppContext, actor: Actor, id: string, body: CarTypeUpdate): Promise<CarType> {
  await assertNotDemoMode(ctx.db, 'cartype:update');
  const columns = toColumns(body);
  await assertNameFree(ctx, body.name, id);
  // Checked on a read before the image is stored, and again on the locked row.
  const existing = (await ctx.db.select().from(carTypes).where(eq(carTypes.id, id)).limit(1))[0];
  if (!existing) throw new AppError('not_found');
  assertFeeInRange(columns.convenienceFeeType ?? existing.convenienceFeeType, columns.convenienceFeesHundredths ?? existing.convenienceFeesHundredths);
  const { before, after } = await withImage(ctx, body.image, (image) =>
    ctx.db.transaction(async (tx) => {
      const current = (await tx.select().from(carTypes).where(eq(carTypes.id, id)).for('update'))[0];
      if (!current) throw new AppError('not_found');
      if (image !== undefined) columns.image = image;
      assertFeeInRange(columns.convenienceFeeType ?? current.convenienceFeeType, columns.convenienceFeesHundredths ?? current.convenienceFeesHundredths);
      const rows = Object.keys(columns).length ? await tx.update(carTypes).set(columns).where(eq(carTypes.id, id)).returning() : [current];
      const updated = rows[0] as CarTypeRow;
      await recordAudit(tx, { actor, action: 'cartype.update', entityId: id, before: toApiCarType(current), after: toApiCarType(updated), at: ctx.now() });
      return { before: current, after: updated };
    }),
  );
  // Committed: forgotten here and in the other processes.
  await dataChanged('carTypes');
  if (before.image !== after.image) await deleteStoredFileOf(ctx.storage, before.image);
  return toApiCarType(after);
}

export async function deleteCarType(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  await assertNotDemoMode(ctx.db, 'cartype:delete');
  const deleted = await ctx.db.transaction(async (tx) => {
    const row = (await tx.delete(carTypes).where(eq(carTypes.id, id)).returning())[0];
    if (!row) throw new AppError('not_found');
    await recordAudit(tx, { actor, action: 'cartype.delete', entityId: id, before: toApiCarType(row), after: null, at: ctx.now() });
    return row;
  });
  await dataChanged('carTypes');
  await deleteStoredFileOf(ctx.storage, deleted.image);
}
