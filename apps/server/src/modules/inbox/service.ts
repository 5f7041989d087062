import { pushPayloadSchema, INBOX_SIZE, type InboxNotification, type InboxResponse } from '@rideway/contract';
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { outbox } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { Actor } from '../../http/actor';

/**
 * Security-critical: the inbox is the caller's own push messages of the outbox. Every query is
 * bound to `recipient = actor.uid` and `channel = 'push'`, so another user's message (or a mail,
 * SMS or event row) is not found, the same as a missing one.
 */
const ownPush = (uid: string) => and(eq(outbox.channel, 'push'), eq(outbox.recipient, uid));

const unreadOf = async (db: Db, uid: string): Promise<number> =>
  (await db.select({ unread: count() }).from(outbox).where(and(ownPush(uid), isNull(outbox.readAt))))[0]?.unread ?? 0;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A stored payload read back through the contract's schema: a row of another shape shows its text only. */
function toNotification(row: { id: number; payload: Record<string, unknown>; createdAt: number; readAt: number | null }): InboxNotification {
  const parsed = pushPayloadSchema.safeParse(row.payload);
  const payload = parsed.success ? parsed.data : { title: text(row.payload.title), msg: text(row.payload.msg) };
  return { id: row.id, ...payload, createdAt: row.createdAt, readAt: row.readAt };
}

/** GET /api/me/notifications: the caller's newest push messages and the unread count of all. */
export async function listInbox(ctx: AppContext, actor: Actor): Promise<InboxResponse> {
  const rows = await ctx.db
    .select({ id: outbox.id, payload: outbox.payload, createdAt: outbox.createdAt, readAt: outbox.readAt })
    .from(outbox)
    .where(ownPush(actor.uid))
    .orderBy(desc(outbox.id))
    .limit(INBOX_SIZE);
  return { notifications: rows.map(toNotification), unread: await unreadOf(ctx.db, actor.uid) };
}

/**
 * POST /api/me/notifications/:id/read: marks one own message read. Marking it again keeps the
 * first time (a replay changes nothing). Not the caller's, or not a push message: not_found.
 */
export async function markInboxRead(ctx: AppContext, actor: Actor, id: number): Promise<{ unread: number }> {
  const now = ctx.now();
  const own = await ctx.db.select({ readAt: outbox.readAt }).from(outbox).where(and(ownPush(actor.uid), eq(outbox.id, id)));
  if (own.length === 0) throw new AppError('not_found');
  await ctx.db.update(outbox).set({ readAt: now }).where(and(ownPush(actor.uid), eq(outbox.id, id), isNull(outbox.readAt)));
  return { unread: await unreadOf(ctx.db, actor.uid) };
}

/** POST /api/me/notifications/read-all: every own unread message read now. */
export async function markInboxAllRead(ctx: AppContext, actor: Actor): Promise<{ unread: number }> {
  await ctx.db.update(outbox).set({ readAt: ctx.now() }).where(and(ownPush(actor.uid), isNull(outbox.readAt)));
  return { unread: await unreadOf(ctx.db, actor.uid) };
}
