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

const perChannel = z.object({ webpush: z.number().int().nonnegative(), fcm: z.number().int().nonnegative(), expo: z.number().int().nonnegative() });

/**
 * A sent notification: how many users it went to, how many devices of each kind (browsers by Web
 * Push, phones by FCM, Expo apps) it was addressed to, and how many of those have had it so far.
 */
export const sentNotificationSchema = notificationSchema.extend({
  recipients: z.number().int().nonnegative(),
  devices: perChannel,
  delivered: perChannel,
});
export type SentNotification = z.infer<typeof sentNotificationSchema>;

export const notificationListResponse = z.object({ notifications: z.array(sentNotificationSchema) });
export const notificationResponse = z.object({ notification: sentNotificationSchema });

/** Issue 19: the user's own notification choices. Promotions are the admin's notifications; trip notices always go. */
export const notificationPreferencesSchema = z.object({ promotions: z.boolean() });
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;
export const notificationPreferencesResponse = z.object({ preferences: notificationPreferencesSchema });
