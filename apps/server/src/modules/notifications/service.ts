import { randomUUID } from 'node:crypto';
import type { SentNotification } from '@rideway/contract';
import { notificationRecipients, type NotificationDraft } from '@rideway/domain';
import { desc, eq, inArray, isNotNull, and } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { notifications, users } from '../../db/schema';
import { AppError, unwrap } from '../../http/app-error';
import { enqueue } from '../outbox/service';
import { assertNotDemoMode } from '../settings/service';

const view = (row: typeof notifications.$inferSelect): SentNotification => ({
  id: row.id,
  devicetype: row.devicetype as SentNotification['devicetype'],
  usertype: row.usertype as SentNotification['usertype'],
  title: row.title,
  body: row.body,
  createdAt: row.createdAt,
  recipients: row.recipients,
});

export const listNotifications = async (ctx: AppContext) =>
  (await ctx.db.select().from(notifications).orderBy(desc(notifications.createdAt))).map(view);

/**
 * Section 5: a notification goes to the riders and drivers who match its usertype and
 * devicetype and have a push token ('no user match' otherwise); one push per recipient leaves
 * through the outbox in the same transaction. Blocked in demo mode.
 */
export async function sendNotification(ctx: AppContext, draft: NotificationDraft): Promise<SentNotification> {
  await assertNotDemoMode(ctx.db, 'notification:send');
  return ctx.db.transaction(async (tx) => {
    const candidates = await tx
      .select({ id: users.id, usertype: users.usertype, userPlatform: users.userPlatform, pushToken: users.pushToken })
      .from(users)
      .where(and(inArray(users.usertype, ['rider', 'driver']), isNotNull(users.pushToken)));
    const recipients = unwrap(notificationRecipients(candidates, draft));
    const now = ctx.now();
    const rows = await tx.insert(notifications).values({ id: randomUUID(), ...draft, createdAt: now, recipients: recipients.length }).returning();
    for (const recipient of recipients) {
      await enqueue(tx, { channel: 'push', recipient: recipient.id, payload: { title: draft.title, msg: draft.body } }, now);
    }
    return view(rows[0] as typeof notifications.$inferSelect);
  });
}

export async function deleteNotification(ctx: AppContext, id: string): Promise<void> {
  const rows = await ctx.db.delete(notifications).where(eq(notifications.id, id)).returning({ id: notifications.id });
  if (rows.length === 0) throw new AppError('not_found');
}
