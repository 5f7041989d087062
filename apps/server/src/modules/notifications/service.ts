import { randomUUID } from 'node:crypto';
import type { NotificationPreferences, SentNotification } from '@rideway/contract';
import { notificationAudience, type NotificationDraft } from '@rideway/domain';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { recordAudit } from '../../audit/record';
import type { AppContext } from '../../context';
import { notifications, pushDeliveries, pushSubscriptions, users } from '../../db/schema';
import { AppError, unwrap } from '../../http/app-error';
import type { Actor } from '../../http/actor';
import { channelOfDevice, PUSH_CHANNELS, type PushChannel } from '../../providers/push/channels';
import { enqueue } from '../outbox/service';
import { assertNotDemoMode } from '../settings/service';

type PerChannel = SentNotification['devices'];
const NONE: PerChannel = { webpush: 0, fcm: 0, expo: 0 };

const view = (row: typeof notifications.$inferSelect, delivered: PerChannel = NONE): SentNotification => ({
  id: row.id,
  devicetype: row.devicetype as SentNotification['devicetype'],
  usertype: row.usertype as SentNotification['usertype'],
  title: row.title,
  body: row.body,
  createdAt: row.createdAt,
  recipients: row.recipients,
  devices: { ...NONE, ...row.devices },
  delivered,
});

/** The sent notifications, newest first, each with how many devices of each kind have had it so far. */
export async function listNotifications(ctx: AppContext): Promise<SentNotification[]> {
  const rows = await ctx.db.select().from(notifications).orderBy(desc(notifications.createdAt));
  if (rows.length === 0) return [];
  const served = await ctx.db
    .select({ id: pushDeliveries.notificationId, kind: pushDeliveries.kind, devices: count() })
    .from(pushDeliveries)
    .where(inArray(pushDeliveries.notificationId, rows.map((row) => row.id)))
    .groupBy(pushDeliveries.notificationId, pushDeliveries.kind);
  const delivered = new Map<string, PerChannel>();
  for (const { id, kind, devices } of served) {
    if (!id || !(PUSH_CHANNELS as readonly string[]).includes(kind)) continue;
    delivered.set(id, { ...(delivered.get(id) ?? NONE), [kind as PushChannel]: devices });
  }
  return rows.map((row) => view(row, delivered.get(row.id)));
}

/**
 * Section 5 with issue 19: a notification goes to every device (browser, FCM phone, Expo app) of
 * the riders and drivers who match its usertype and devicetype and have not turned promotions off
 * (an admin's notification is promotional); 'no user match' when no device matches. One push per
 * user leaves through the outbox in the same transaction, carrying the notification's id so its
 * deliveries are counted. Blocked in demo mode.
 */
export async function sendNotification(ctx: AppContext, actor: Actor, draft: NotificationDraft): Promise<SentNotification> {
  await assertNotDemoMode(ctx.db, 'notification:send');
  return ctx.db.transaction(async (tx) => {
    const devices = await tx
      .select({ uid: pushSubscriptions.uid, kind: pushSubscriptions.kind, platform: pushSubscriptions.platform, usertype: users.usertype })
      .from(pushSubscriptions)
      .innerJoin(users, eq(users.id, pushSubscriptions.uid))
      .where(and(inArray(users.usertype, ['rider', 'driver']), eq(users.promoNotifications, true)));
    const audience = unwrap(notificationAudience(devices.map((device) => ({ ...device, channel: channelOfDevice(device.kind) })), draft));
    const now = ctx.now();
    const id = randomUUID();
    const rows = await tx.insert(notifications).values({ id, ...draft, createdAt: now, recipients: audience.users.length, devices: audience.counts }).returning();
    for (const uid of audience.users) {
      await enqueue(tx, { channel: 'push', recipient: uid, payload: { title: draft.title, msg: draft.body, notification: id } }, now);
    }
    const sent = view(rows[0] as typeof notifications.$inferSelect);
    await recordAudit(tx, { actor, action: 'notification.send', entityId: id, before: null, after: sent, at: now });
    return sent;
  });
}

export async function deleteNotification(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const deleted = (await tx.delete(notifications).where(eq(notifications.id, id)).returning())[0];
    if (!deleted) throw new AppError('not_found');
    await recordAudit(tx, { actor, action: 'notification.delete', entityId: id, before: view(deleted), after: null, at: ctx.now() });
  });
}

/** GET /api/me/notification-preferences: the caller's choices. */
export async function notificationPreferences(ctx: AppContext, actor: Actor): Promise<NotificationPreferences> {
  const row = (await ctx.db.select({ promotions: users.promoNotifications }).from(users).where(eq(users.id, actor.uid)))[0];
  if (!row) throw new AppError('not_found');
  return row;
}

/** PUT /api/me/notification-preferences: promotions on or off for the caller; trip notices are not a choice. */
export async function setNotificationPreferences(ctx: AppContext, actor: Actor, { promotions }: NotificationPreferences): Promise<NotificationPreferences> {
  const rows = await ctx.db.update(users).set({ promoNotifications: promotions }).where(eq(users.id, actor.uid)).returning({ promotions: users.promoNotifications });
  const row = rows[0];
  if (!row) throw new AppError('not_found');
  return row;
}
