import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { answerJson, bodyOf, listenLocally } from './stand-in-server';

/**
 * A local stand-in for Twilio's Messages API, written from Twilio's documentation:
 * - POST /2010-04-01/Accounts/{AccountSid}/Messages.json with a form body: To, Body, and From or
 *   MessagingServiceSid; HTTP Basic auth with the account SID and auth token
 *   (https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource).
 *   It answers 201 with the Message resource as JSON: sid (SM + 32 hex), account_sid, to, from,
 *   messaging_service_sid, body, status "queued" (or "accepted" with a Messaging Service).
 * - Refusals are JSON `{code, message, more_info, status}` with the HTTP status
 *   (https://www.twilio.com/docs/usage/troubleshooting/debugging-your-application): 401 with code
 *   20003 for bad credentials (https://www.twilio.com/docs/errors/20003), 400 with 21211 for an
 *   invalid To number (https://www.twilio.com/docs/errors/21211), 400 with 21610 for a
 *   recipient who replied STOP (https://www.twilio.com/docs/api/errors/21610), 400 with 21604
 *   when To is missing (https://www.twilio.com/docs/errors/21604).
 *
 * Each number is scripted one mode per request (`script`), then `ok`: `invalid`, `unsubscribed`,
 * `fail` (a 503 HTML page, as a load balancer sends), `hang` (never answers: the client's timeout
 * fires), `garbage` (a 201 whose body is not JSON).
 */
export type TwilioMode = 'ok' | 'invalid' | 'unsubscribed' | 'fail' | 'hang' | 'garbage';

export type TwilioMessage = { sid: string; to: string; from: string | null; messagingServiceSid: string | null; body: string };

export type TwilioStandIn = {
  url: string;
  accountSid: string;
  authToken: string;
  /** Messages Twilio accepted, oldest first. */
  accepted: TwilioMessage[];
  /** Every To a create request carried, whatever became of it. */
  attempts: string[];
  script: Map<string, TwilioMode[]>;
  close: () => Promise<void>;
};

const hex = (bytes: number): string => randomBytes(bytes).toString('hex');

export async function startTwilioStandIn(): Promise<TwilioStandIn> {
  const standIn: TwilioStandIn = {
    url: '',
    accountSid: `AC${hex(16)}`,
    authToken: hex(16),
    accepted: [],
    attempts: [],
    script: new Map(),
    close: () => Promise.resolve(),
  };
  const server = createServer((request, response) => {
    void bodyOf(request).then((received) => {
      const answer = (status: number, json: unknown) => { answerJson(response, status, json); };
      const refuse = (status: number, code: number, message: string) => {
        answer(status, { code, message, more_info: `https://www.twilio.com/docs/errors/${String(code)}`, status });
      };
      const path = new URL(request.url ?? '/', 'http://twilio').pathname;
      const match = /^\/2010-04-01\/Accounts\/(AC[0-9a-f]{32})\/Messages\.json$/.exec(path);
      if (request.method !== 'POST' || !match) {
        refuse(404, 20404, `The requested resource ${path} was not found`);
        return;
      }
      const expected = `Basic ${Buffer.from(`${standIn.accountSid}:${standIn.authToken}`).toString('base64')}`;
      if (request.headers.authorization !== expected || match[1] !== standIn.accountSid) {
        refuse(401, 20003, 'Authenticate');
        return;
      }
      if (!(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
        refuse(400, 21604, "A 'To' phone number is required.");
        return;
      }
      const form = new URLSearchParams(received.toString('utf8'));
      const to = form.get('To');
      if (!to) {
        refuse(400, 21604, "A 'To' phone number is required.");
        return;
      }
      standIn.attempts.push(to);
      const mode = standIn.script.get(to)?.shift() ?? 'ok';
      if (mode === 'hang') return;
      if (mode === 'fail') {
        response.writeHead(503, { 'content-type': 'text/html' }).end('<html><body>503 Service Unavailable</body></html>');
        return;
      }
      if (mode === 'garbage') {
        response.writeHead(201, { 'content-type': 'application/json' }).end('{"sid":"SM');
        return;
      }
      if (mode === 'invalid') {
        refuse(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
        return;
      }
      if (mode === 'unsubscribed') {
        refuse(400, 21610, 'Attempt to send to unsubscribed recipient');
        return;
      }
      const from = form.get('From');
      const messagingServiceSid = form.get('MessagingServiceSid');
      const body = form.get('Body') ?? '';
      if (!from && !messagingServiceSid) {
        refuse(400, 21603, "A 'From' phone number is required.");
        return;
      }
      const message: TwilioMessage = { sid: `SM${hex(16)}`, to, from, messagingServiceSid, body };
      standIn.accepted.push(message);
      const now = new Date().toUTCString();
      answer(201, {
        sid: message.sid,
        account_sid: standIn.accountSid,
        api_version: '2010-04-01',
        body,
        date_created: now,
        date_updated: now,
        date_sent: null,
        direction: 'outbound-api',
        error_code: null,
        error_message: null,
        from,
        messaging_service_sid: messagingServiceSid,
        num_media: '0',
        num_segments: '1',
        price: null,
        price_unit: 'USD',
        status: messagingServiceSid ? 'accepted' : 'queued',
        subresource_uris: { media: `/2010-04-01/Accounts/${standIn.accountSid}/Messages/${message.sid}/Media.json` },
        to,
        uri: `/2010-04-01/Accounts/${standIn.accountSid}/Messages/${message.sid}.json`,
      });
    });
  });
  Object.assign(standIn, await listenLocally(server));
  return standIn;
}
