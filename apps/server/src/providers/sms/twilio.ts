import twilio from 'twilio';
import type { SmsOutcome, SmsSender } from './port';

/**
 * Twilio's Messages API through the official SDK (`twilio`):
 * POST /2010-04-01/Accounts/{AccountSid}/Messages.json, a form body with To, Body and From or
 * MessagingServiceSid, HTTP Basic auth with the account SID and auth token, a JSON answer
 * (https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource).
 * A refusal is a 4xx whose JSON has Twilio's error `code`, `message`, `more_info` and `status`
 * (https://www.twilio.com/docs/usage/troubleshooting/debugging-your-application), e.g.
 * 21211 invalid To number (https://www.twilio.com/docs/errors/21211), 21610 the recipient
 * replied STOP (https://www.twilio.com/docs/api/errors/21610), 21614 not a mobile number
 * (https://www.twilio.com/docs/api/errors/21614), 21635 a landline
 * (https://www.twilio.com/docs/api/errors/21635).
 */

export type TwilioOptions = {
  accountSid: string;
  authToken: string;
  /** The sender: a Twilio number (E.164) or alphanumeric sender id. */
  from?: string;
  /** A Messaging Service that picks the sender; wins over `from`. */
  messagingServiceSid?: string;
  /** Twilio's API address instead of https://api.twilio.com (a test stand-in or a proxy). */
  apiUrl?: string;
  timeoutMs: number;
};

type RequestOptions = Parameters<InstanceType<typeof twilio.RequestClient>['request']>[0];

/**
 * The SDK's own HTTP client (the SDK's documented custom-client hook, `httpClient`), sending
 * each request to `apiUrl` instead of Twilio's host: the path, query, body and auth the SDK
 * built are unchanged.
 */
class RedirectingClient extends twilio.RequestClient {
  constructor(
    private readonly base: URL,
    timeoutMs: number,
  ) {
    super({ timeout: timeoutMs, keepAlive: false });
  }

  override request<TData>(opts: RequestOptions & { data?: TData }) {
    const original = new URL(opts.uri);
    const prefix = this.base.pathname.replace(/\/$/, '');
    return super.request<TData>({ ...opts, uri: `${this.base.origin}${prefix}${original.pathname}${original.search}` });
  }
}

/**
 * Twilio refuses a message it will never deliver (bad, unsubscribed or landline number, empty
 * body) with a 400: not retried. 401/403 is this server's credentials, 404 a wrong account SID,
 * 429 throttling, 5xx Twilio's side: an operator or time can fix those, so they are retried.
 */
const PERMANENT_STATUSES = new Set([400]);

/** What an error thrown by the SDK means for the message. */
export function twilioOutcome(error: unknown): SmsOutcome {
  if (error instanceof twilio.RestException) {
    const what = `twilio ${String(error.status)}${error.code === undefined ? '' : ` (code ${String(error.code)})`}: ${error.message}`.slice(0, 400);
    return PERMANENT_STATUSES.has(error.status) ? { outcome: 'failed', error: what } : { outcome: 'retry', error: what };
  }
  // The SDK parses a 2xx body with JSON.parse: an answer that is not JSON throws a SyntaxError.
  if (error instanceof SyntaxError) return { outcome: 'retry', error: 'twilio: malformed answer (not JSON)' };
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  if (code === 'ECONNABORTED' || code === 'ETIMEDOUT') return { outcome: 'retry', error: 'twilio: did not answer in time' };
  return { outcome: 'retry', error: `twilio: ${error instanceof Error ? error.message : 'request failed'}${code ? ` (${code})` : ''}`.slice(0, 400) };
}

export function twilioSender(options: TwilioOptions): SmsSender {
  const client = twilio(options.accountSid, options.authToken, {
    httpClient: options.apiUrl ? new RedirectingClient(new URL(options.apiUrl), options.timeoutMs) : new twilio.RequestClient({ timeout: options.timeoutMs }),
  });
  const sender = options.messagingServiceSid ? { messagingServiceSid: options.messagingServiceSid } : { from: options.from ?? '' };
  return {
    name: 'twilio',
    async send(to, text) {
      try {
        // Numbers are stored as digits with their dial code (the app picks it apart); Twilio takes E.164.
        const message = await client.messages.create({ to: /^\d+$/.test(to) ? `+${to}` : to, body: text, ...sender });
        // A 2xx without a message sid is not Twilio's documented answer: it may not have been taken.
        if (typeof message.sid !== 'string' || !/^(SM|MM)[0-9a-fA-F]{32}$/.test(message.sid)) return { outcome: 'retry', error: 'twilio: malformed answer (no message sid)' };
        if (message.status === 'failed' || message.status === 'undelivered') {
          return { outcome: 'failed', error: `twilio: message ${message.status}${message.errorCode ? ` (code ${String(message.errorCode)})` : ''}` };
        }
        return { outcome: 'sent', id: message.sid };
      } catch (error) {
        return twilioOutcome(error);
      }
    },
  };
}
