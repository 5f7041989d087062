import { randomUUID } from 'node:crypto';
import type { Withdraw, WithdrawRequest } from '@rideway/contract';
import { fromMinor, toMinor } from '@rideway/domain';
import { and, desc, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { users, withdraws } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import { enqueue } from '../outbox/service';
import { getSettings } from '../settings/service';
import { takeFromWallet } from '../wallet/ledger';

const view = (row: typeof withdraws.$inferSelect): Withdraw => ({
  id: row.id,
  uid: row.uid,
  date: row.date,
  name: row.name,
  amount: fromMinor(row.amountMinor),
  processed: row.processed,
  procesDate: row.procesDate,
  bankName: row.bankName,
  bankCode: row.bankCode,
  bankAccount: row.bankAccount,
});

/** Admins see every request; a driver sees its own. */
export async function listWithdraws(ctx: AppContext, actor: Actor): Promise<Withdraw[]> {
  const rows = await ctx.db
    .select()
    .from(withdraws)
    .where(actor.usertype === 'admin' ? undefined : eq(withdraws.uid, actor.uid))
    .orderBy(desc(withdraws.date))
    .limit(1000);
  return rows.map(view);
}

/**
 * A driver asks to withdraw part of its balance: never more than the balance (the ledger entry
 * and the request are written in one transaction with the wallet locked), and with bank details
 * when bank_fields is on (from the body, else the profile).
 */
export async function requestWithdraw(ctx: AppContext, actor: Actor, input: WithdrawRequest): Promise<Withdraw> {
  const { amount } = input;
  const settings = await getSettings(ctx.db);
  const bank = {
    bankName: input.bankName?.trim() || actor.user.bankName,
    bankCode: input.bankCode?.trim() || actor.user.bankCode,
    bankAccount: input.bankAccount?.trim() || actor.user.bankAccount,
  };
  if (settings.bank_fields && (!bank.bankName || !bank.bankCode || !bank.bankAccount)) throw new AppError('no_details_error', 'bankAccount');
  return ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    const id = randomUUID();
    await takeFromWallet(tx, { uid: actor.uid, type: 'Withdraw', amountMinor: toMinor(amount), txRef: id, at: now });
    const rows = await tx
      .insert(withdraws)
      .values({ id, uid: actor.uid, date: now, name: `${actor.user.firstName} ${actor.user.lastName}`, amountMinor: toMinor(amount), ...bank })
      .returning();
    if (settings.bank_fields) await tx.update(users).set(bank).where(eq(users.id, actor.uid));
    return view(rows[0] as typeof withdraws.$inferSelect);
  });
}

/** Section 4: completion sets processed and the process date, once; a processed request is refused. */
export async function completeWithdraw(ctx: AppContext, id: string): Promise<Withdraw> {
  return ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    const rows = await tx
      .update(withdraws)
      .set({ processed: true, procesDate: now })
      .where(and(eq(withdraws.id, id), eq(withdraws.processed, false)))
      .returning();
    const row = rows[0];
    if (!row) {
      const exists = await tx.select({ id: withdraws.id }).from(withdraws).where(eq(withdraws.id, id)).limit(1);
      throw new AppError(exists.length ? 'invalid_transition' : 'not_found');
    }
    await enqueue(tx, { channel: 'push', recipient: row.uid, payload: { title: 'Withdrawal', msg: `Your withdrawal of ${fromMinor(row.amountMinor).toFixed(2)} has been paid.`, screen: 'wallet' } }, now);
    return view(row);
  });
}
