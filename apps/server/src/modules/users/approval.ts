import type { User, UserApprovalRequest } from '@rideway/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { recordAudit } from '../../audit/record';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { userStatusChanges, users } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import { announceSessionsEnded, revokeAllSessions } from '../accounts/sessions';
import { renderFor } from '../messages/render';
import { enqueue } from '../outbox/service';
import { syncDriver } from '../presence/service';
import { assertNotDemoMode } from '../settings/service';
import { managedUser } from './managed';
import { userView } from './view';

/** Writes one approval or suspension into the user's history (the detail page's). */
export async function recordStatusChange(tx: Tx, change: { uid: string; approved: boolean; reason: string | null; by: string; at: number }): Promise<void> {
  await tx.insert(userStatusChanges).values({ uid: change.uid, approved: change.approved, reason: change.reason, changedBy: change.by, changedAt: change.at });
}

/** Tells the user, by push and (when it has an email) by mail, in its language. */
async function tellUser(tx: Tx, target: { id: string; email: string | null }, approved: boolean, reason: string | null, now: number): Promise<void> {
  const render = await renderFor(tx, target.id);
  const title = render('push_account_title');
  const msg = approved ? render('push_account_approved') : render('push_account_suspended', { reason: reason ?? '' });
  await enqueue(tx, { channel: 'push', recipient: target.id, payload: { title, msg } }, now);
  if (target.email) await enqueue(tx, { channel: 'mail', recipient: target.email, payload: { subject: title, text: msg } }, now);
}

/**
 * Security-critical. POST /api/users/:id/approval (admins only; decisions.md, issue 20 point 6):
 * approve an account, or suspend it with the reason the user reads. An admin's own account and
 * any admin are refused; another fleet's driver, or a missing or deleted account, is not_found.
 *
 * One transaction, guarded by the current state: only a user whose `approved` differs changes,
 * so a repeat (or two admins at once) changes nothing, writes no history and sends no second
 * notice. A suspension also ends every session (section 5: an unapproved user cannot sign in)
 * and takes a driver offline; after the commit the user's sockets close and the live map drops it.
 */
export async function setApproval(ctx: AppContext, actor: Actor, id: string, body: UserApprovalRequest): Promise<{ user: User; changed: boolean }> {
  if (id === actor.uid) throw new AppError('approval_own_account');
  await assertNotDemoMode(ctx.db, 'user:approval');
  const reason = body.reason?.trim() || null;
  if (!body.approved && !reason) throw new AppError('suspend_reason_required', 'reason');
  const now = ctx.now();
  const { user, changed } = await ctx.db.transaction(async (tx) => {
    const target = await managedUser(tx, actor, id);
    const updated = (
      await tx
        .update(users)
        .set(body.approved ? { approved: true } : { approved: false, driverActiveStatus: false })
        .where(and(eq(users.id, target.id), eq(users.approved, !body.approved), isNull(users.deletedAt)))
        .returning()
    )[0];
    if (!updated) return { user: await userView(tx, target), changed: false };
    await recordStatusChange(tx, { uid: updated.id, approved: body.approved, reason, by: actor.uid, at: now });
    // Issue 23 point 8: the approval (and a suspended driver taken offline), with the reason.
    const before = { approved: target.approved, driverActiveStatus: target.driverActiveStatus, reason: null };
    const after = { approved: updated.approved, driverActiveStatus: updated.driverActiveStatus, reason };
    await recordAudit(tx, { actor, action: body.approved ? 'user.approve' : 'user.suspend', entityId: updated.id, before, after, at: now });
    if (!body.approved) await revokeAllSessions(tx, updated.id);
    await tellUser(tx, updated, body.approved, reason, now);
    return { user: await userView(tx, updated), changed: true };
  });
  if (changed && !body.approved) await announceSessionsEnded(ctx, { uid: id });
  if (changed) await syncDriver(ctx, id);
  return { user, changed };
}
