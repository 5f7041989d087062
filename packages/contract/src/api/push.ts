import { z } from 'zod';

/** Push subscriptions: a browser's Web Push subscription or a phone's token. */

/** Push services are https; plain http only to this machine (a local push service in tests). */
const isPushEndpoint = (value: string): boolean => {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === 'localhost'));
  } catch {
    return false;
  }
};
const pushEndpoint = z.string().max(2000).refine(isPushEndpoint, { message: 'an https push service address' });
const subscriptionKey = z.string().regex(/^[A-Za-z0-9_-]{8,200}={0,2}$/);

const webPushSubscriptionSchema = z.object({
  kind: z.literal('webpush'),
  subscription: z.object({ endpoint: pushEndpoint, keys: z.object({ p256dh: subscriptionKey, auth: subscriptionKey }) }),
});
const phonePushSubscriptionSchema = z.object({
  kind: z.enum(['fcm', 'apns']),
  token: z.string().regex(/^[\w:.-]{16,4096}$/).meta({ description: 'The FCM or APNs device token' }),
});

/** Issue 19: an Expo app's token (`ExponentPushToken[...]`, what the seed product's phone apps register), and its phone's platform. */
const expoPushSubscriptionSchema = z.object({
  kind: z.literal('expo'),
  token: z.string().regex(/^Expo(nent)?PushToken\[[\w-]{1,200}\]$/).meta({ description: 'The Expo push token, ExponentPushToken[...]' }),
  platform: z.enum(['ANDROID', 'IOS']).optional(),
});

/** POST /api/push/subscriptions: `{kind: 'webpush', subscription}`, `{kind: 'fcm' | 'apns', token}` or `{kind: 'expo', token, platform?}`. */
export const pushSubscriptionSchema = z.discriminatedUnion('kind', [webPushSubscriptionSchema, phonePushSubscriptionSchema, expoPushSubscriptionSchema]);
export type PushSubscriptionRequest = z.output<typeof pushSubscriptionSchema>;
export const pushSubscriptionResponse = z.object({ kind: z.enum(['webpush', 'fcm', 'apns', 'expo']) });

/** DELETE /api/push/subscriptions: the endpoint of a browser, or the token of a phone. */
export const pushUnsubscribeSchema = z
  .object({ endpoint: z.string().max(4096).optional(), token: z.string().max(4096).optional() })
  .refine((body) => body.endpoint !== undefined || body.token !== undefined, { message: 'an endpoint or a token', path: ['endpoint'] });
export type PushUnsubscribeRequest = z.output<typeof pushUnsubscribeSchema>;

export const vapidPublicKeyResponse = z.object({ publicKey: z.string() });
