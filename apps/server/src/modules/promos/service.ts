import { randomUUID } from 'node:crypto';
import type { Promo, PromoCreate, PromoUpdate } from '@rideway/contract';
import { fromMinor, toMinor } from '@rideway/domain';
import { desc, eq } from 'drizzle-orm';
import { recordAudit } from '../../audit/record';
import type { AppContext } from '../../context';
import { promos } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import { assertNotDemoMode } from '../settings/service';

type PromoRow = typeof promos.$inferSelect;

const toApiPromo = (row: PromoRow): Promo => ({
  id: row.id,
  promo_name: row.promoName,
  promo_description: row.promoDescription,
  promo_discount_type: row.promoDiscountType as Promo['promo_discount_type'],
  promo_discount_value: fromMinor(row.promoDiscountValueHundredths),
  max_promo_discount_value: fromMinor(row.maxPromoDiscountValueMinor),
  min_order: fromMinor(row.minOrderMinor),
  promo_validity: row.promoValidity,
  promo_usage_limit: row.promoUsageLimit,
  user_avail: row.userAvail,
  createdAt: row.createdAt,
});

function toColumns(input: PromoUpdate): Partial<typeof promos.$inferInsert> {
  const columns: Partial<typeof promos.$inferInsert> = {};
  if (input.promo_name !== undefined) columns.promoName = input.promo_name;
  if (input.promo_description !== undefined) columns.promoDescription = input.promo_description;
  if (input.promo_discount_type !== undefined) columns.promoDiscountType = input.promo_discount_type;
  if (input.promo_discount_value !== undefined) columns.promoDiscountValueHundredths = toMinor(input.promo_discount_value);
  if (input.max_promo_discount_value !== undefined) columns.maxPromoDiscountValueMinor = toMinor(input.max_promo_discount_value);
  if (input.min_order !== undefined) columns.minOrderMinor = toMinor(input.min_order);
  if (input.promo_validity !== undefined) columns.promoValidity = input.promo_validity;
  if (input.promo_usage_limit !== undefined) columns.promoUsageLimit = input.promo_usage_limit;
  return columns;
}

function assertPercentage(type: string, valueHundredths: number): void {
  if (type === 'percentage' && valueHundredths > 10_000) throw new AppError('validation_error', 'promo_discount_value');
}

async function assertNameFree(ctx: AppContext, name: string | undefined, exceptId?: string): Promise<void> {
  if (name === undefined) return;
  const rows = await ctx.db.select({ id: promos.id }).from(promos).where(eq(promos.promoName, name)).limit(1);
  if (rows[0] && rows[0].id !== exceptId) throw new AppError('validation_error', 'promo_name');
}

export const listPromos = async (ctx: AppContext) => (await ctx.db.select().from(promos).orderBy(desc(promos.createdAt))).map(toApiPromo);

/** Section 6: adding a promo stays allowed in demo mode. */
export async function createPromo(ctx: AppContext, actor: Actor, body: PromoCreate): Promise<Promo> {
  assertPercentage(body.promo_discount_type, toMinor(body.promo_discount_value));
  await assertNameFree(ctx, body.promo_name);
  return ctx.db.transaction(async (tx) => {
    const rows = await tx
      .insert(promos)
      .values({
        id: randomUUID(),
        createdAt: ctx.now(),
        promoName: body.promo_name,
        promoDescription: body.promo_description,
        promoDiscountType: body.promo_discount_type,
        promoDiscountValueHundredths: toMinor(body.promo_discount_value),
        maxPromoDiscountValueMinor: toMinor(body.max_promo_discount_value),
        minOrderMinor: toMinor(body.min_order),
        promoValidity: body.promo_validity,
        promoUsageLimit: body.promo_usage_limit,
      })
      .returning();
    const promo = toApiPromo(rows[0] as PromoRow);
    await recordAudit(tx, { actor, action: 'promo.create', entityId: promo.id, before: null, after: promo, at: ctx.now() });
    return promo;
  });
}

export async function updatePromo(ctx: AppContext, actor: Actor, id: string, input: PromoUpdate): Promise<Promo> {
  await assertNotDemoMode(ctx.db, 'promo:update');
  const columns = toColumns(input);
  await assertNameFree(ctx, columns.promoName, id);
  return ctx.db.transaction(async (tx) => {
    const current = (await tx.select().from(promos).where(eq(promos.id, id)).for('update'))[0];
    if (!current) throw new AppError('not_found');
    assertPercentage(columns.promoDiscountType ?? current.promoDiscountType, columns.promoDiscountValueHundredths ?? current.promoDiscountValueHundredths);
    const rows = Object.keys(columns).length ? await tx.update(promos).set(columns).where(eq(promos.id, id)).returning() : [current];
    const promo = toApiPromo(rows[0] as PromoRow);
    await recordAudit(tx, { actor, action: 'promo.update', entityId: id, before: toApiPromo(current), after: promo, at: ctx.now() });
    return promo;
  });
}

export async function deletePromo(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  await assertNotDemoMode(ctx.db, 'promo:delete');
  await ctx.db.transaction(async (tx) => {
    const deleted = (await tx.delete(promos).where(eq(promos.id, id)).returning())[0];
    if (!deleted) throw new AppError('not_found');
    await recordAudit(tx, { actor, action: 'promo.delete', entityId: id, before: toApiPromo(deleted), after: null, at: ctx.now() });
  });
}
