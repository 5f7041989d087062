import type { PushSubscriptionRequest, PushUnsubscribeRequest } from '@rideway/contract';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { pushSubscriptions, serverSecrets, users } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { Actor } from '../../http/actor';
import { checkPushEndpoint } from '../../providers/push/endpoint-guard';
import { newVapidKeys, webPushSender, type PushSender, type PushSenderOptions, type VapidKeys } from '../../providers/push/webpush';

/** The VAPID key pair: from the configuration, or made once and kept in the database for every process. */
export async function vapidKeys(ctx: AppContext): Promise<VapidKeys> {
  const { VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT } = ctx.config;
  if (VAPID_PUBLIC_KEY && VAPID_PRIVATE_KEY) return { publicKey: VAPID_PUBLIC_KEY, privateKey: VAPID_PRIVATE_KEY, subject: VAPID_SUBJECT };
  await ctx.db.insert(serverSecrets).values({ name: 'vapid', value: await newVapidKeys() }).onConflictDoNothing();
  const stored = (await ctx.db.select().from(serverSecrets).where(eq(serverSecrets.name, 'vapid')))[0]?.value;
  if (!stored?.publicKey || !stored.privateKey) throw new Error('VAPID keys missing');
  return { publicKey: stored.publicKey, privateKey: stored.privateKey, subject: VAPID_SUBJECT };
}

/**
 * The sender the outbox relay uses, under the configured endpoint policy (https to public
 * addresses only, unless the test-only switch is on).
 */
export async function pushSender(ctx: AppContext, log?: PushSenderOptions['log']): Promise<PushSender> {
  return webPushSender(await vapidKeys(ctx), { allowPrivate: ctx.config.PUSH_ALLOW_PRIVATE_ENDPOINTS_FOR_TESTS, log });
}

/**
 * POST /api/push/subscriptions: a browser's Web Push subscription or a phone's token, kept for the
 * signed-in user. A device moves to whoever subscribes on it last. A Web Push endpoint must be
 * https at a host whose every address is public (no blind SSRF): otherwise validation_error on
 * subscription.endpoint and nothing is stored.
 */
export async function subscribePush(ctx: AppContext, actor: Actor, input: PushSubscriptionRequest): Promise<{ kind: PushSubscriptionRequest['kind'] }> {
  const now = ctx.now();
  if (input.kind === 'webpush') {
    const { endpoint, keys } = input.subscription;
    try {
      await checkPushEndpoint(endpoint, { allowPrivate: ctx.config.PUSH_ALLOW_PRIVATE_ENDPOINTS_FOR_TESTS });
    } catch {
      // Refused by policy, or a host that does not resolve: no push service lives there either way.
      throw new AppError('validation_error', 'subscription.endpoint');
    }
    await ctx.db
      .insert(pushSubscriptions)
      .values({ uid: actor.uid, kind: input.kind, endpoint, keys, createdAt: now })
      .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { uid: actor.uid, keys, createdAt: now } });
    return { kind: input.kind };
  }
  const { kind, token } = input;
  const platform = kind === 'expo' ? (input.platform ?? null) : kind === 'apns' ? 'IOS' : 'ANDROID';
  // Sent through FCM or Expo (jobs/push-relay.ts); section 3's pushToken and userPlatform follow the newest phone.
  await ctx.db.transaction(async (tx) => {
    await tx
      .insert(pushSubscriptions)
      .values({ uid: actor.uid, kind, endpoint: token, platform, createdAt: now })
      .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { uid: actor.uid, platform, createdAt: now } });
    await tx.update(users).set({ pushToken: token, userPlatform: platform }).where(eq(users.id, actor.uid));
  });
  return { kind };
}

/** DELETE /api/push/subscriptions: the caller's device stops taking push messages. */
export async function unsubscribePush(ctx: AppContext, actor: Actor, { endpoint, token }: PushUnsubscribeRequest): Promise<void> {
  const device = endpoint ?? token ?? '';
  await ctx.db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.uid, actor.uid), eq(pushSubscriptions.endpoint, device)));
}

export const webPushSubscriptionsOf = (db: Db, uid: string) =>
  db.select().from(pushSubscriptions).where(and(eq(pushSubscriptions.uid, uid), eq(pushSubscriptions.kind, 'webpush')));
