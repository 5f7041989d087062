import { PUSH_SCREENS } from '@rideway/domain';
import { z } from 'zod';
import { epochMs } from '../primitives';

/**
 * Issue 19: the signed-in user's own inbox, the push messages of the outbox addressed to them
 * (the admin's sent notifications are /api/notifications).
 */

/** How many of the newest messages the inbox answers. */
export const INBOX_SIZE = 50;

export const inboxNotificationSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  msg: z.string(),
  screen: z.enum(PUSH_SCREENS).optional(),
  params: z.record(z.string(), z.string()).optional(),
  createdAt: epochMs,
  readAt: epochMs.nullable(),
});
export type InboxNotification = z.output<typeof inboxNotificationSchema>;

/** GET /api/me/notifications: the newest INBOX_SIZE, newest first, and how many of all are unread. */
export const inboxResponse = z.object({ notifications: z.array(inboxNotificationSchema), unread: z.number().int().nonnegative() });
export type InboxResponse = z.output<typeof inboxResponse>;

/** POST /api/me/notifications/:id/read: a bad or foreign id is not_found, as a missing one. */
export const inboxIdParams = z.object({ id: z.coerce.number({ error: 'not_found' }).int().positive().max(Number.MAX_SAFE_INTEGER) });

/** After a mark: what is still unread. */
export const inboxUnreadResponse = z.object({ unread: z.number().int().nonnegative() });
