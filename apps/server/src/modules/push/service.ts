import { fieldOf } from '@rideway/domain';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { pushSubscriptions, serverSecrets, users } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import { newVapidKeys, type VapidKeys } from '../../providers/push/webpush';

const PHONE_KINDS = ['fcm', 'apns'] as const;

/** The VAPID key pair: from the configuration, or made once and kept in the database for every process. */
export async function vapidKeys(ctx: AppContext): Promise<VapidKeys> {
  const { VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT } = ctx.config;
  if (VAPID_PUBLIC_KEY && VAPID_PRIVATE_KEY) return { publicKey: VAPID_PUBLIC_KEY, privateKey: VAPID_PRIVATE_KEY, subject: VAPID_SUBJECT };
  await ctx.db.insert(serverSecrets).values({ name: 'vapid', value: newVapidKeys() }).onConflictDoNothing();
  const stored = (await ctx.db.select().from(serverSecrets).where(eq(serverSecrets.name, 'vapid')))[0]?.value;
  if (!stored?.publicKey || !stored.privateKey) throw new Error('VAPID keys missing');
  return { publicKey: stored.publicKey, privateKey: stored.privateKey, subject: VAPID_SUBJECT };
}

const isPushEndpoint = (value: unknown): value is string => {
  if (typeof value !== 'string' || value.length > 2000) return false;
  try {
    const url = new URL(value);
    // Push services are https; plain http only to this machine (a local push service in tests).
    return url.protocol === 'https:' || (url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === 'localhost'));
  } catch {
    return false;
  }
};
const isKey = (value: unknown): value is string => typeof value === 'string' && /^[A-Za-z0-9_-]{8,200}={0,2}$/.test(value);

/**
 * POST /api/push/subscriptions: a browser's Web Push subscription ({kind: 'webpush',
 * subscription: {endpoint, keys: {p256dh, auth}}}) or a phone's token ({kind: 'fcm' | 'apns',
 * token}), kept for the signed-in user. A device moves to whoever subscribes on it last.
 */
export async function subscribePush(ctx: AppContext, actor: Actor, input: unknown): Promise<{ kind: string }> {
  const kind = fieldOf(input, 'kind');
  const now = ctx.now();
  if (kind === 'webpush') {
    const subscription = fieldOf(input, 'subscription');
    const endpoint = fieldOf(subscription, 'endpoint');
    const keys = fieldOf(subscription, 'keys');
    const p256dh = fieldOf(keys, 'p256dh');
    const auth = fieldOf(keys, 'auth');
    if (!isPushEndpoint(endpoint)) throw new AppError('validation_error', 'endpoint');
    if (!isKey(p256dh) || !isKey(auth)) throw new AppError('validation_error', 'keys');
    await ctx.db
      .insert(pushSubscriptions)
      .values({ uid: actor.uid, kind, endpoint, keys: { p256dh, auth }, createdAt: now })
      .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { uid: actor.uid, keys: { p256dh, auth }, createdAt: now } });
    return { kind };
  }
  if ((PHONE_KINDS as readonly unknown[]).includes(kind)) {
    const token = fieldOf(input, 'token');
    if (typeof token !== 'string' || !/^[\w:.-]{16,4096}$/.test(token)) throw new AppError('validation_error', 'token');
    const platform = kind === 'apns' ? 'IOS' : 'ANDROID';
    // Kept for a later FCM/APNs adapter; section 3's pushToken and userPlatform follow the newest phone.
    await ctx.db.transaction(async (tx) => {
      await tx
        .insert(pushSubscriptions)
        .values({ uid: actor.uid, kind: String(kind), endpoint: token, platform, createdAt: now })
        .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { uid: actor.uid, platform, createdAt: now } });
      await tx.update(users).set({ pushToken: token, userPlatform: platform }).where(eq(users.id, actor.uid));
    });
    return { kind: String(kind) };
  }
  throw new AppError('validation_error', 'kind');
}

/** DELETE /api/push/subscriptions: the caller's device stops taking push messages. */
export async function unsubscribePush(ctx: AppContext, actor: Actor, input: unknown): Promise<void> {
  const endpoint = fieldOf(input, 'endpoint') ?? fieldOf(input, 'token');
  if (typeof endpoint !== 'string' || endpoint.length > 4096) throw new AppError('validation_error', 'endpoint');
  await ctx.db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.uid, actor.uid), eq(pushSubscriptions.endpoint, endpoint)));
}

export const webPushSubscriptionsOf = (db: Db, uid: string) =>
  db.select().from(pushSubscriptions).where(and(eq(pushSubscriptions.uid, uid), eq(pushSubscriptions.kind, 'webpush')));
