import type { PushSubscriptionRequest } from '@rideway/contract';
import { api } from './client';

/**
 * Issue 19: this browser's Web Push subscription, kept on the server for the signed-in user, so
 * messages reach the service worker while no tab of the app is open.
 */

/** How it went: subscribed, or why not (no Web Push in this browser, permission refused, a failure). */
export type WebPushOutcome = 'subscribed' | 'unsupported' | 'denied' | 'failed';

/** How long to wait for the service worker the page registers (a development server has none). */
const WORKER_WAIT_MS = 10_000;

const supported = (): boolean => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/** The app's service worker registration, or null when none comes in time. */
async function registration(): Promise<ServiceWorkerRegistration | null> {
  const known = await navigator.serviceWorker.getRegistration();
  if (known) return known;
  return Promise.race([navigator.serviceWorker.ready, new Promise<null>((resolve) => setTimeout(() => { resolve(null); }, WORKER_WAIT_MS))]);
}

/** The VAPID public key (base64url) as the bytes PushManager.subscribe takes. */
export function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

const sameKey = (subscription: PushSubscription, key: Uint8Array): boolean => {
  const current = subscription.options.applicationServerKey;
  if (!current) return false;
  const bytes = new Uint8Array(current);
  return bytes.length === key.length && bytes.every((byte, index) => byte === key[index]);
};

/**
 * Subscribes this browser with the server's VAPID key and hands the subscription to the server.
 * With `ask`, a permission not yet decided is asked for first (call it from the user's action:
 * going online, a booking made); without, only an already granted permission is used. A
 * subscription made with another key (the server's keys changed) is replaced.
 */
export async function enableWebPush({ ask }: { ask: boolean }): Promise<WebPushOutcome> {
  if (!supported()) return 'unsupported';
  // Asked before anything is awaited, while the user's action still counts as one.
  const permission = ask && Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
  if (permission !== 'granted') return 'denied';
  try {
    const worker = await registration();
    if (!worker) return 'unsupported';
    const key = applicationServerKey((await api<{ publicKey: string }>('/api/push/vapid-public-key')).publicKey);
    let subscription = await worker.pushManager.getSubscription();
    if (subscription && !sameKey(subscription, key)) {
      await subscription.unsubscribe();
      subscription = null;
    }
    subscription ??= await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    const { endpoint, keys } = subscription.toJSON();
    if (!endpoint || !keys?.p256dh || !keys.auth) return 'failed';
    const body: PushSubscriptionRequest = { kind: 'webpush', subscription: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } } };
    await api('/api/push/subscriptions', { method: 'POST', body });
    return 'subscribed';
  } catch {
    // No push service reachable, or the server refused the endpoint: the in-app inbox still has every message.
    return 'failed';
  }
}

/**
 * Sign-out: the server forgets this browser (while the session still allows the call) and the
 * browser drops the subscription, so the next person on this device gets none of this user's
 * messages. Never throws: signing out goes on whatever happens here.
 */
export async function disableWebPush(): Promise<void> {
  if (!supported()) return;
  try {
    const subscription = await (await navigator.serviceWorker.getRegistration())?.pushManager.getSubscription();
    if (!subscription) return;
    await api('/api/push/subscriptions', { method: 'DELETE', body: { endpoint: subscription.endpoint } }).catch(() => undefined);
    await subscription.unsubscribe();
  } catch {
    // The browser's own state: nothing more to do.
  }
}
