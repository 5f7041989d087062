import { randomUUID } from 'node:crypto';
import { renumberCancelReasons } from '@rideway/domain';
import { asc, eq } from 'drizzle-orm';
import type { CancelReasonInput } from '@rideway/contract';
import { recordAudit } from '../../audit/record';
import type { AppContext } from '../../context';
import { cancelReasons } from '../../db/schema';
import { dataChanged, readThrough } from '../../db/read-cache';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';

const view = (row: typeof cancelReasons.$inferSelect) => ({ id: row.id, label: row.label, value: row.value });

/** The cancel reasons in their order; held in the process until one changes (db/read-cache.ts). */
export const listCancelReasons = async (ctx: AppContext) =>
  (await readThrough(ctx.db, 'cancelReasons', async () => (await ctx.db.select().from(cancelReasons).orderBy(asc(cancelReasons.value))).map(view))).map((reason) => ({ ...reason }));

export async function addCancelReason(ctx: AppContext, actor: Actor, { label }: CancelReasonInput) {
  const added = await ctx.db.transaction(async (tx) => {
    const existing = await tx.select({ id: cancelReasons.id }).from(cancelReasons).for('update');
    const rows = await tx.insert(cancelReasons).values({ id: randomUUID(), label, value: existing.length }).returning();
    const reason = view(rows[0] as typeof cancelReasons.$inferSelect);
    await recordAudit(tx, { actor, action: 'cancelreason.create', entityId: reason.id, before: null, after: reason, at: ctx.now() });
    return reason;
  });
  await dataChanged('cancelReasons');
  return added;
}

export async function editCancelReason(ctx: AppContext, actor: Actor, id: string, { label }: CancelReasonInput) {
  const edited = await ctx.db.transaction(async (tx) => {
    const current = (await tx.select().from(cancelReasons).where(eq(cancelReasons.id, id)).for('update'))[0];
    if (!current) throw new AppError('not_found');
    const rows = await tx.update(cancelReasons).set({ label }).where(eq(cancelReasons.id, id)).returning();
    const reason = view(rows[0] ?? current);
    await recordAudit(tx, { actor, action: 'cancelreason.update', entityId: id, before: view(current), after: reason, at: ctx.now() });
    return reason;
  });
  await dataChanged('cancelReasons');
  return edited;
}

/** Section 9: after a delete the value indices are renumbered from 0, in their order. */
export async function deleteCancelReason(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const deleted = (await tx.delete(cancelReasons).where(eq(cancelReasons.id, id)).returning())[0];
    if (!deleted) throw new AppError('not_found');
    // The others' renumbering follows from it (section 9) and is not an entry of its own.
    await recordAudit(tx, { actor, action: 'cancelreason.delete', entityId: id, before: view(deleted), after: null, at: ctx.now() });
    const remaining = await tx.select().from(cancelReasons).orderBy(asc(cancelReasons.value)).for('update');
    const renumbered = renumberCancelReasons(remaining);
    for (const [index, row] of remaining.entries()) {
      const value = renumbered[index]?.value ?? index;
      if (row.value !== value) await tx.update(cancelReasons).set({ value }).where(eq(cancelReasons.id, row.id));
    }
  });
  await dataChanged('cancelReasons');
}
