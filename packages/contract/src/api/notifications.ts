import { NOTIFICATION_DEVICE_TYPES, NOTIFICATION_USER_TYPES, type NotificationDraft } from '@rideway/domain';
import { z } from 'zod';
import { notificationSchema } from '../catalogue';
import { keyedString } from '../http';

/** Push notifications composed by an admin (section 5: both targets chosen, a title and a body). */

export const notificationDraftSchema = z.object({
  usertype: z.enum(NOTIFICATION_USER_TYPES, { error: 'select_proper' }),
  devicetype: z.enum(NOTIFICATION_DEVICE_TYPES, { error: 'select_proper' }),
  title: keyedString('notification_blank', 100).trim().min(1),
  body: keyedString('notification_blank', 1000).trim().min(1),
}) satisfies z.ZodType<NotificationDraft>;

/** A sent notification and how many users it reached. */
export const sentNotificationSchema = notificationSchema.extend({ recipients: z.number().int().nonnegative() });
export type SentNotification = z.infer<typeof sentNotificationSchema>;

export const notificationListResponse = z.object({ notifications: z.array(sentNotificationSchema) });
export const notificationResponse = z.object({ notification: sentNotificationSchema });
