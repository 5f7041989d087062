import { fail, ok, type Result } from '../result';
import { fieldOf, isNonBlank } from './fields';

/** Section 3: notification targets. */
export const NOTIFICATION_USER_TYPES = ['All', 'rider', 'driver'] as const;
export const NOTIFICATION_DEVICE_TYPES = ['All', 'ANDROID', 'IOS'] as const;
export type NotificationUserType = (typeof NOTIFICATION_USER_TYPES)[number];
export type NotificationDeviceType = (typeof NOTIFICATION_DEVICE_TYPES)[number];

export type NotificationDraft = {
  usertype: NotificationUserType;
  devicetype: NotificationDeviceType;
  title: string;
  body: string;
};

type PushRecipient = { usertype: string; userPlatform?: string | null; pushToken?: string | null };

const MAX_TITLE = 100;
const MAX_BODY = 1000;

/** A notification to send: both targets from their lists, a title and a body (notification_blank). */
export function validateNotificationDraft(input: unknown): Result<NotificationDraft> {
  const usertype = fieldOf(input, 'usertype');
  const devicetype = fieldOf(input, 'devicetype');
  const title = fieldOf(input, 'title');
  const body = fieldOf(input, 'body');
  if (!(NOTIFICATION_USER_TYPES as readonly unknown[]).includes(usertype)) return fail('select_proper', 'usertype');
  if (!(NOTIFICATION_DEVICE_TYPES as readonly unknown[]).includes(devicetype)) return fail('select_proper', 'devicetype');
  if (!isNonBlank(title, MAX_TITLE)) return fail('notification_blank', 'title');
  if (!isNonBlank(body, MAX_BODY)) return fail('notification_blank', 'body');
  return ok({
    usertype: usertype as NotificationUserType,
    devicetype: devicetype as NotificationDeviceType,
    title: title.trim(),
    body: body.trim(),
  });
}

/** Section 5: a user matches a usertype (All or that type) and a devicetype (All or that platform) and has a push token. */
export const matchesNotificationTarget = (
  user: PushRecipient,
  target: { usertype: NotificationUserType; devicetype: NotificationDeviceType },
): boolean =>
  Boolean(user.pushToken) &&
  (target.usertype === 'All' ? user.usertype === 'rider' || user.usertype === 'driver' : user.usertype === target.usertype) &&
  (target.devicetype === 'All' || user.userPlatform?.toUpperCase() === target.devicetype);

/** Section 5: the matching users, or no_user_match when there are none. */
export function notificationRecipients<T extends PushRecipient>(
  users: readonly T[],
  target: { usertype: NotificationUserType; devicetype: NotificationDeviceType },
): Result<T[]> {
  const matched = users.filter((user) => matchesNotificationTarget(user, target));
  return matched.length > 0 ? ok(matched) : fail('no_user_match');
}

/** Issue 19: the ways a push leaves, by device: a browser (Web Push), a phone by FCM, an Expo app. */
export const PUSH_DEVICE_CHANNELS = ['webpush', 'fcm', 'expo'] as const;
export type PushDeviceChannel = (typeof PUSH_DEVICE_CHANNELS)[number];
export type PushDevice = { uid: string; usertype: string; channel: PushDeviceChannel; platform?: string | null };

/**
 * Issue 19: an admin's notification goes to every device of the matching users. A usertype
 * matches as in section 5; devicetype All takes every device (browsers too), ANDROID or IOS only
 * the phones of that platform. The devices, the users they belong to, and how many of each
 * channel; no_user_match when no device matches.
 */
export function notificationAudience<T extends PushDevice>(
  devices: readonly T[],
  target: { usertype: NotificationUserType; devicetype: NotificationDeviceType },
): Result<{ devices: T[]; users: string[]; counts: Record<PushDeviceChannel, number> }> {
  const matched = devices.filter(
    (device) =>
      (target.usertype === 'All' ? device.usertype === 'rider' || device.usertype === 'driver' : device.usertype === target.usertype) &&
      (target.devicetype === 'All' || (device.channel !== 'webpush' && device.platform?.toUpperCase() === target.devicetype)),
  );
  if (matched.length === 0) return fail('no_user_match');
  const counts: Record<PushDeviceChannel, number> = { webpush: 0, fcm: 0, expo: 0 };
  for (const device of matched) counts[device.channel] += 1;
  return ok({ devices: matched, users: [...new Set(matched.map((device) => device.uid))], counts });
}
