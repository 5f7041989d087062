import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { checkPushEndpoint, pinnedLookup, PushEndpointRefused, type EndpointPolicy } from './endpoint-guard';

export type VapidKeys = { publicKey: string; privateKey: string; subject: string };
export type WebPushSubscription = { endpoint: string; keys: { p256dh: string; auth: string } };

/**
 * Sends one message to one browser; answers the push service's HTTP status. Throws
 * PushEndpointRefused when the endpoint is not a public https address (the subscription is to be
 * dropped), and any other error for a failure worth a retry.
 */
export type PushSender = (subscription: WebPushSubscription, payload: string) => Promise<number>;

export type PushSenderOptions = EndpointPolicy & {
  /** Where a refused endpoint is reported (the server's logger). */
  log?: { warn: (details: object, message: string) => void };
};

const SEND_TIMEOUT_MS = 10_000;

/** The web-push library, loaded with the first message or key pair rather than with the server (issue 21 point 4). */
const library = async () => (await import('web-push')).default;

/**
 * Web Push (RFC 8030) with VAPID (RFC 8292): the web-push library encrypts the payload
 * (aes128gcm) and signs the VAPID header. The POST goes out with node:https rather than fetch:
 * it connects only to the addresses the endpoint check approved (its `lookup` answers those),
 * and it never follows a redirect (fetch would, to any address), so a 3xx is just a status.
 */
export function webPushSender(vapid: VapidKeys, { log, ...policy }: PushSenderOptions = {}): PushSender {
  const agents = { https: new https.Agent({ keepAlive: true }), http: new http.Agent({ keepAlive: true }) };
  return async (subscription, payload) => {
    let addresses: LookupAddress[];
    try {
      addresses = await checkPushEndpoint(subscription.endpoint, policy);
    } catch (error) {
      if (error instanceof PushEndpointRefused) log?.warn({ host: error.host }, error.message);
      throw error;
    }
    const details = (await library()).generateRequestDetails(subscription, payload, {
      vapidDetails: { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
      TTL: 60 * 60,
      contentEncoding: 'aes128gcm',
    });
    const url = new URL(subscription.endpoint);
    const client = url.protocol === 'https:' ? { request: https.request, agent: agents.https } : { request: http.request, agent: agents.http };
    return new Promise<number>((resolve, reject) => {
      const request = client.request(
        url,
        { method: details.method, headers: details.headers, agent: client.agent, lookup: pinnedLookup(addresses), signal: AbortSignal.timeout(SEND_TIMEOUT_MS) },
        (response) => {
          response.on('error', reject);
          response.on('end', () => { resolve(response.statusCode ?? 0); });
          response.resume();
        },
      );
      request.on('error', reject);
      request.end(details.body);
    });
  };
}

export const newVapidKeys = async (): Promise<{ publicKey: string; privateKey: string }> => (await library()).generateVAPIDKeys();
