import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { answerJson, bodyOf, listenLocally } from './stand-in-server';

/**
 * A local stand-in for Expo's push service, written from
 * https://docs.expo.dev/push-notifications/sending-notifications/ ("HTTP/2 API", "Push tickets",
 * "Push receipts", "Individual errors"):
 * - POST /--/api/v2/push/send takes a message or an array of messages (JSON, gzip when the client
 *   says Content-Encoding: gzip) and answers `{data: [ticket...]}`, one ticket per message in
 *   order: `{status: 'ok', id}` or `{status: 'error', message, details: {error:
 *   'DeviceNotRegistered', expoPushToken}}`. A request that fails as a whole answers
 *   `{errors: [{code, message}]}` with a 4xx/5xx.
 * - POST /--/api/v2/push/getReceipts takes `{ids}` and answers `{data: {id: receipt}}`, a receipt
 *   being `{status: 'ok'}` or `{status: 'error', message, details: {error}}`; an id without a
 *   receipt yet is left out.
 * - `Authorization: Bearer <access token>` when push security is on.
 *
 * Tokens are scripted one mode per request (`script`), then `ok`; `requestMode` scripts whole requests.
 */
export type ExpoTicketMode = 'ok' | 'gone';
export type ExpoRequestMode = 'ok' | 'fail' | 'hang' | 'garbage' | 'fewerTickets';

export type ExpoStandIn = {
  url: string;
  /** Messages that got an ok ticket: token, message, ticket id. */
  accepted: { token: string; message: Record<string, unknown>; ticket: string }[];
  /** Every token a send request carried. */
  attempts: string[];
  authorizations: (string | undefined)[];
  script: Map<string, ExpoTicketMode[]>;
  requestMode: ExpoRequestMode[];
  /** What getReceipts answers per ticket id (none: no receipt yet). */
  receipts: Map<string, 'ok' | 'gone'>;
  receiptRequests: string[][];
  close: () => Promise<void>;
};

export async function startExpoStandIn(): Promise<ExpoStandIn> {
  const standIn: ExpoStandIn = { url: '', accepted: [], attempts: [], authorizations: [], script: new Map(), requestMode: [], receipts: new Map(), receiptRequests: [], close: () => Promise.resolve() };
  const server = createServer((request, response) => {
    void bodyOf(request).then((received) => {
      const answer = (status: number, json: unknown) => { answerJson(response, status, json); };
      let raw = received;
      if (request.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw);
      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        answer(400, { errors: [{ code: 'VALIDATION_ERROR', message: 'The request body is not JSON.' }] });
        return;
      }
      standIn.authorizations.push(request.headers.authorization);
      if (request.method === 'POST' && request.url === '/--/api/v2/push/getReceipts') {
        const ids = (body as { ids?: unknown }).ids;
        const list = Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
        standIn.receiptRequests.push(list);
        const data: Record<string, unknown> = {};
        for (const id of list) {
          const receipt = standIn.receipts.get(id);
          if (receipt === 'ok') data[id] = { status: 'ok' };
          else if (receipt === 'gone') data[id] = { status: 'error', message: 'The recipient device is not registered with FCM.', details: { error: 'DeviceNotRegistered' } };
        }
        answer(200, { data });
        return;
      }
      if (request.method !== 'POST' || request.url !== '/--/api/v2/push/send') {
        answer(404, { errors: [{ code: 'NOT_FOUND', message: 'Not found' }] });
        return;
      }
      const messages = (Array.isArray(body) ? body : [body]) as Record<string, unknown>[];
      for (const message of messages) standIn.attempts.push(String(message.to));
      const mode = standIn.requestMode.shift() ?? 'ok';
      if (mode === 'hang') return;
      if (mode === 'fail') {
        answer(503, { errors: [{ code: 'INTERNAL_SERVER_ERROR', message: 'An unknown error occurred.' }] });
        return;
      }
      if (mode === 'garbage') {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"data": [{"status": "ok", "id"');
        return;
      }
      const tickets = messages.map((message) => {
        const token = String(message.to);
        if ((standIn.script.get(token)?.shift() ?? 'ok') === 'gone') {
          return { status: 'error', message: `"${token}" is not a registered push notification recipient`, details: { error: 'DeviceNotRegistered', expoPushToken: token } };
        }
        const ticket = randomUUID();
        standIn.accepted.push({ token, message, ticket });
        return { status: 'ok', id: ticket };
      });
      answer(200, { data: mode === 'fewerTickets' ? tickets.slice(1) : tickets });
    });
  });
  Object.assign(standIn, await listenLocally(server));
  return standIn;
}
