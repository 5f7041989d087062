import { NOTIFICATION_DEVICE_TYPES, NOTIFICATION_USER_TYPES } from '@rideway/domain';
import { z } from 'zod';

/** Push notifications composed by an admin. */

export const notificationDraftSchema = z.object({
  usertype: z.enum(NOTIFICATION_USER_TYPES),
  devicetype: z.enum(NOTIFICATION_DEVICE_TYPES),
  title: z.string(),
  body: z.string(),
});
