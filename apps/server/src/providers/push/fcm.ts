import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cert, deleteApp, initializeApp, type App } from 'firebase-admin/app';
import { getMessaging } from 'firebase-admin/messaging';

/** What a phone shows: a title, a text, and the data its app opens a screen with. */
export type PhoneMessage = { title: string; body: string; data: Record<string, string> };

/**
 * How one device's delivery went: `sent` (the provider took it; Expo's ticket id, when there is
 * one, is kept for its receipt), `gone` (the provider says the token is dead: it is forgotten and
 * not retried), or `retry` (anything else: a 5xx, a timeout, an answer of the wrong shape).
 */
export type PhoneOutcome = { outcome: 'sent'; ticket?: string } | { outcome: 'gone'; reason: string } | { outcome: 'retry'; error: string };

export type FcmSender = {
  send: (token: string, message: PhoneMessage) => Promise<PhoneOutcome>;
  close: () => Promise<void>;
};

type ServiceAccountJson = { project_id: string; client_email: string; private_key: string };

const isServiceAccount = (value: unknown): value is ServiceAccountJson =>
  typeof value === 'object' && value !== null &&
  ['project_id', 'client_email', 'private_key'].every((key) => typeof (value as Record<string, unknown>)[key] === 'string');

/**
 * FIREBASE_SERVICE_ACCOUNT is the service account's JSON (as downloaded from the Firebase
 * console) or the path of that file. Throws, without echoing the secret, when it is neither.
 */
export function parseServiceAccount(value: string): ServiceAccountJson {
  let text = value.trim();
  if (!text.startsWith('{')) {
    try {
      text = readFileSync(text, 'utf8');
    } catch {
      throw new Error('FIREBASE_SERVICE_ACCOUNT is neither JSON nor a readable file');
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('FIREBASE_SERVICE_ACCOUNT is not valid JSON');
  }
  if (!isServiceAccount(parsed)) throw new Error('FIREBASE_SERVICE_ACCOUNT lacks project_id, client_email or private_key');
  return parsed;
}

/**
 * FCM's answers that mean the token will never work again (firebase-admin's codes for FCM v1's
 * UNREGISTERED, INVALID_ARGUMENT and SENDER_ID_MISMATCH, see
 * https://firebase.google.com/docs/reference/fcm/rest/v1/ErrorCode). INVALID_ARGUMENT can also
 * mean a bad message, but ours is always the same well-formed shape, so it is the token.
 */
const TOKEN_GONE = new Set([
  'messaging/registration-token-not-registered',
  'messaging/invalid-registration-token',
  'messaging/invalid-argument',
  'messaging/mismatched-credential',
]);

const codeOf = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : undefined;

/** A message name as FCM v1 answers it: `projects/{project}/messages/{id}`. */
const MESSAGE_NAME = /^projects\/[^/]+\/messages\/[^/]+$/;

/**
 * FCM HTTP v1 through the official SDK (firebase-admin): it signs a JWT with the service
 * account's key, trades it at Google's OAuth token endpoint for a Bearer token, and POSTs each
 * message to https://fcm.googleapis.com/v1/projects/{project}/messages:send. Both hosts are fixed
 * in the SDK. Android and iOS tokens alike are FCM registration tokens (an iOS app using Firebase
 * Messaging registers one; FCM forwards to APNs).
 *
 * Each app instance has its own name, so several senders (tests, a restarted relay) live side by
 * side. A call that has not answered after `timeoutMs` counts as a temporary failure.
 */
export function fcmSender(serviceAccount: ServiceAccountJson, { timeoutMs }: { timeoutMs: number }): FcmSender {
  const app: App = initializeApp({ credential: cert({ projectId: serviceAccount.project_id, clientEmail: serviceAccount.client_email, privateKey: serviceAccount.private_key }), projectId: serviceAccount.project_id }, `rideway-fcm-${randomUUID()}`);
  const messaging = getMessaging(app);
  return {
    async send(token, { title, body, data }) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<PhoneOutcome>((resolve) => {
        timer = setTimeout(() => { resolve({ outcome: 'retry', error: `FCM did not answer within ${String(timeoutMs)} ms` }); }, timeoutMs);
      });
      const call = messaging
        .send({
          token,
          notification: { title, body },
          data,
          android: { priority: 'high', notification: { sound: 'default' } },
          apns: { payload: { aps: { sound: 'default' } } },
        })
        .then((name): PhoneOutcome => (typeof name === 'string' && MESSAGE_NAME.test(name) ? { outcome: 'sent' } : { outcome: 'retry', error: 'FCM answered without a message name' }))
        .catch((error: unknown): PhoneOutcome => {
          const code = codeOf(error);
          if (code && TOKEN_GONE.has(code)) return { outcome: 'gone', reason: code };
          const message = error instanceof Error ? error.message : 'FCM send failed';
          return { outcome: 'retry', error: `${code ?? 'fcm'}: ${message}`.slice(0, 500) };
        });
      try {
        return await Promise.race([call, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => deleteApp(app),
  };
}
