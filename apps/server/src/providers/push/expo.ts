import type { Expo, ExpoPushMessage } from 'expo-server-sdk';
import type { PhoneMessage, PhoneOutcome } from './fcm';

/** What Expo's receipt says of one ticket: delivered, the device gone, another error, or not ready yet. */
export type ReceiptOutcome = { outcome: 'ok' } | { outcome: 'gone'; reason: string } | { outcome: 'error'; error: string } | { outcome: 'pending' };

export type ExpoSender = {
  /** One message to several Expo tokens in one request: an outcome per token, in order. */
  send: (tokens: readonly string[], message: PhoneMessage & { extra?: Record<string, unknown> }) => Promise<PhoneOutcome[]>;
  /** The receipts of earlier tickets; an outcome per ticket id. */
  receipts: (ticketIds: readonly string[]) => Promise<Map<string, ReceiptOutcome>>;
};

/** An `ExponentPushToken[...]` (or `ExpoPushToken[...]`), what Expo's phone apps register. */
export const EXPO_TOKEN = /^Expo(nent)?PushToken\[[\w-]{1,200}\]$/;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

let loaded: { base: string | undefined; Expo: typeof Expo } | undefined;

/**
 * The SDK reads its service address from the EXPO_BASE_URL environment variable once, when it is
 * first imported (ExpoClientValues.js; it has no constructor option for it). EXPO_PUSH_URL is
 * copied there before that first import, so the SDK itself talks to the configured address; a
 * process keeps one address for its life.
 */
async function loadSdk(base: string | undefined): Promise<typeof Expo> {
  if (loaded) {
    if (loaded.base !== base) throw new Error('expo-server-sdk was already loaded with another EXPO_PUSH_URL in this process');
    return loaded.Expo;
  }
  if (base) process.env.EXPO_BASE_URL = base.replace(/\/$/, '');
  const sdk = await import('expo-server-sdk');
  loaded = { base, Expo: sdk.Expo };
  return sdk.Expo;
}

const withTimeout = async <T>(work: Promise<T>, ms: number, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => { reject(new Error(`Expo did not answer ${what} within ${String(ms)} ms`)); }, ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Expo's push service through the official SDK (expo-server-sdk): POST /--/api/v2/push/send
 * answers one ticket per message (`{status: 'ok', id}` or `{status: 'error', message, details:
 * {error}}`), and POST /--/api/v2/push/getReceipts later answers a receipt per ticket id
 * (https://docs.expo.dev/push-notifications/sending-notifications/). DeviceNotRegistered, in a
 * ticket or a receipt, means the app is gone from that phone. The SDK retries a 429 itself; any
 * other failure, a timeout, or tickets of the wrong shape or number count as temporary.
 */
export async function expoSender({ accessToken, baseUrl, timeoutMs }: { accessToken?: string; baseUrl?: string; timeoutMs: number }): Promise<ExpoSender> {
  const ExpoClient = await loadSdk(baseUrl);
  const client = new ExpoClient(accessToken ? { accessToken } : {});
  return {
    async send(tokens, { title, body, extra }) {
      const messages: ExpoPushMessage[] = tokens.map((to) => ({ to, title, body, data: extra ?? {}, sound: 'default', priority: 'high' }));
      let tickets: unknown[];
      try {
        tickets = await withTimeout(client.sendPushNotificationsAsync(messages), timeoutMs, 'the send');
      } catch (error) {
        const message = error instanceof Error ? error.message.slice(0, 400) : 'Expo send failed';
        const status = typeof error === 'object' && error !== null && typeof (error as { statusCode?: unknown }).statusCode === 'number' ? `HTTP ${String((error as { statusCode: number }).statusCode)}: ` : '';
        return tokens.map(() => ({ outcome: 'retry', error: `expo: ${status}${message}` }));
      }
      return tokens.map((_token, index): PhoneOutcome => {
        const ticket = tickets[index];
        if (isRecord(ticket) && ticket.status === 'ok' && typeof ticket.id === 'string' && ticket.id !== '') return { outcome: 'sent', ticket: ticket.id };
        if (isRecord(ticket) && ticket.status === 'error') {
          const code = isRecord(ticket.details) && typeof ticket.details.error === 'string' ? ticket.details.error : 'error';
          if (code === 'DeviceNotRegistered') return { outcome: 'gone', reason: code };
          return { outcome: 'retry', error: `expo: ${code}: ${typeof ticket.message === 'string' ? ticket.message.slice(0, 300) : ''}` };
        }
        return { outcome: 'retry', error: 'expo: a ticket of an unknown shape' };
      });
    },
    async receipts(ticketIds) {
      const answer: unknown = await withTimeout(client.getPushNotificationReceiptsAsync([...ticketIds]), timeoutMs, 'the receipts');
      const outcomes = new Map<string, ReceiptOutcome>();
      for (const id of ticketIds) {
        const receipt = isRecord(answer) ? answer[id] : undefined;
        if (!isRecord(receipt)) outcomes.set(id, { outcome: 'pending' });
        else if (receipt.status === 'ok') outcomes.set(id, { outcome: 'ok' });
        else {
          const code = isRecord(receipt.details) && typeof receipt.details.error === 'string' ? receipt.details.error : 'error';
          outcomes.set(id, code === 'DeviceNotRegistered' ? { outcome: 'gone', reason: code } : { outcome: 'error', error: `${code}: ${typeof receipt.message === 'string' ? receipt.message.slice(0, 300) : ''}` });
        }
      }
      return outcomes;
    },
  };
}
