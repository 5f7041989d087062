import { randomUUID } from 'node:crypto';
import type { Withdraw, WithdrawRequest } from '@rideway/contract';
import { checkWithdrawDecision, fromMinor, toMinor, withdrawRefundRef, type WithdrawDecision } from '@rideway/domain';
import { and, desc, eq } from 'drizzle-orm';
import { recordAudit } from '../../audit/record';
import type { AppContext } from '../../context';
import { users, withdraws } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError, unwrap } from '../../http/app-error';
import { enqueue } from '../outbox/service';
import { getSettings } from '../settings/service';
import { appendEntry, takeFromWallet } from '../wallet/ledger';
import { renderFor } from '../messages/render';

const view = (row: typeof withdraws.$inferSelect): Withdraw => ({
  id: row.id,
  uid: row.uid,
  date: row.date,
  name: row.name,
  amount: fromMinor(row.amountMinor),
  currency: row.currency,
  processed: row.processed,
  rejected: row.rejected,
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
    await takeFromWallet(tx, { uid: actor.uid, type: 'Withdraw', amountMinor: toMinor(amount), txRef: id, at: now, currency: settings.code });
    const rows = await tx
      .insert(withdraws)
      .values({ id, uid: actor.uid, date: now, name: `${actor.user.firstName} ${actor.user.lastName}`, amountMinor: toMinor(amount), currency: settings.code, ...bank })
      .returning();
    if (settings.bank_fields) await tx.update(users).set(bank).where(eq(users.id, actor.uid));
    return view(rows[0] as typeof withdraws.$inferSelect);
  });
}

/** Section 4: completion sets processed and the process date, once; the money leaves the platform. */
export const completeWithdraw = (ctx: AppContext, actor: Actor, id: string): Promise<Withdraw> => decideWithdraw(ctx, actor, id, 'process');

/** Issue 17: an admin refuses a request; its amount goes back to the driver's wallet. */
export const rejectWithdraw = (ctx: AppContext, actor: Actor, id: string): Promise<Withdraw> => decideWithdraw(ctx, actor, id, 'reject');

/** The driver's notice of the decision, in the driver's language (issue 19). */
const DECIDED = { process: 'push_withdraw_paid', reject: 'push_withdraw_declined' } as const;

/**
 * Security-critical: a withdraw request is decided once, either way, so money moves once. The
 * UPDATE guarded by "still undecided" is the lock: of two concurrent decisions (two admins, a
 * double click) only one gets the row back; the other answers withdraw_already_decided and
 * writes nothing. A rejection's refund (a Credit naming the request) is in the same
 * transaction, so it exists exactly when the rejection does.
 */
async function decideWithdraw(ctx: AppContext, actor: Actor, id: string, decision: WithdrawDecision): Promise<Withdraw> {
  return ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    const rows = await tx
      .update(withdraws)
      .set(decision === 'process' ? { processed: true, procesDate: now } : { rejected: true, procesDate: now })
      .where(and(eq(withdraws.id, id), eq(withdraws.processed, false), eq(withdraws.rejected, false)))
      .returning();
    const row = rows[0];
    if (!row) {
      const found = (await tx.select({ processed: withdraws.processed, rejected: withdraws.rejected }).from(withdraws).where(eq(withdraws.id, id)).limit(1))[0];
      if (!found) throw new AppError('not_found');
      unwrap(checkWithdrawDecision(found));
      throw new AppError('withdraw_already_decided');
    }
    // The refund is in the request's currency, whatever the setting is now.
    if (decision === 'reject') await appendEntry(tx, { uid: row.uid, type: 'Credit', amountMinor: row.amountMinor, currency: row.currency, txRef: withdrawRefundRef(row.id), at: now });
    // The guard above means it was undecided: that is the "before" of the audit entry (issue 23 point 8).
    const decided = view(row);
    await recordAudit(tx, { actor, action: decision === 'process' ? 'withdraw.complete' : 'withdraw.reject', entityId: row.id, before: { ...decided, processed: false, rejected: false, procesDate: null }, after: decided, at: now });
    const amount = fromMinor(row.amountMinor).toFixed(2);
    const render = await renderFor(tx, row.uid);
    await enqueue(tx, { channel: 'push', recipient: row.uid, payload: { title: render('push_withdraw_title'), msg: render(DECIDED[decision], { amount }), screen: 'wallet' } }, now);
    return decided;
  });
}
