import webpush from 'web-push';

export type VapidKeys = { publicKey: string; privateKey: string; subject: string };
export type WebPushSubscription = { endpoint: string; keys: { p256dh: string; auth: string } };

/** Sends one message to one browser; answers the push service's HTTP status. */
export type PushSender = (subscription: WebPushSubscription, payload: string) => Promise<number>;

/**
 * Web Push (RFC 8030) with VAPID (RFC 8292): the web-push library encrypts the payload
 * (aes128gcm) and signs the VAPID header; the request goes out with fetch.
 */
export function webPushSender(vapid: VapidKeys): PushSender {
  return async (subscription, payload) => {
    const request = webpush.generateRequestDetails(subscription, payload, {
      vapidDetails: { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
      TTL: 60 * 60,
      contentEncoding: 'aes128gcm',
    });
    const response = await fetch(request.endpoint, {
      method: request.method,
      headers: request.headers as Record<string, string>,
      body: new Uint8Array(request.body),
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    return response.status;
  };
}

export const newVapidKeys = (): { publicKey: string; privateKey: string } => webpush.generateVAPIDKeys();
