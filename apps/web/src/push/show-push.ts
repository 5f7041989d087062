import { pushTargetPath, readPushPayload } from './push-target';

/** The part of a ServiceWorkerRegistration used here. */
export type NotifierLike = { showNotification: (title: string, options: NotificationOptions) => Promise<void> };

/** What a shown notification carries for its click: the path it opens. */
export type NotificationData = { path: string };

/** Shown when a push carries no readable message: every push must show something (userVisibleOnly). */
const FALLBACK_TITLE = 'Rideway';

/**
 * Issue 19: a push message from the server shown as a notification: its title and text, the
 * app's icon, and the path of its target screen for the click. The data is the outbox row's
 * payload as JSON (push-relay.ts); a push that is not JSON of that shape still shows the app's name.
 */
export async function showPush(registration: NotifierLike, json: () => unknown): Promise<void> {
  let data: unknown = null;
  try {
    data = json();
  } catch {
    // Not JSON: the fallback below.
  }
  const payload = readPushPayload(data);
  const notificationData: NotificationData = { path: pushTargetPath(payload ?? {}) };
  await registration.showNotification(payload?.title ?? FALLBACK_TITLE, {
    body: payload?.msg ?? '',
    icon: '/icons/icon-192.png',
    badge: '/icons/icon-192.png',
    data: notificationData,
    // A booking's newer notice replaces its older one; other messages stack.
    ...(payload?.params?.bookingId ? { tag: `${payload.screen ?? 'booking'}:${payload.params.bookingId}` } : {}),
  });
}

/** The path a clicked notification opens (a notification of an older build may carry none). */
export const pathOfNotification = (data: unknown): string =>
  typeof data === 'object' && data !== null && typeof (data as Partial<NotificationData>).path === 'string' ? (data as NotificationData).path : '/bookings';
