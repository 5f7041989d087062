import type { SmsOutcome, SmsSender } from './port';

/**
 * Issue 19: a generic HTTP SMS gateway, for the many local providers with a simple HTTP API.
 * The operator describes the request: the URL, the method, the headers (JSON) and a body
 * template; `{to}` and `{text}` are replaced in the URL (URL-encoded) and in the body, escaped
 * for the body's content type: JSON-escaped in a JSON body, URL-encoded in a form body,
 * XML-escaped in an XML body (docs/sms.md). A 2xx answer is a sent message; 401, 403, 408, 425, 429 and
 * 5xx, a timeout or a broken answer are retried; any other 4xx is a refusal, not retried.
 */

export type GatewayOptions = {
  url: string;
  method: 'GET' | 'POST' | 'PUT';
  headers: Record<string, string>;
  /** The body template; none for a GET gateway that takes everything in the URL. */
  body?: string;
  timeoutMs: number;
};

type BodyKind = 'json' | 'form' | 'xml' | 'text';

/** Credentials (401, 403) an operator can fix, a timeout or throttling: retried, like 5xx. */
const RETRIED_STATUSES = new Set([401, 403, 408, 425, 429]);

/** The body's kind: from the Content-Type header when the operator set one, else from the template. */
export function bodyKind(headers: Record<string, string>, template: string): BodyKind {
  const declared = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1].toLowerCase();
  if (declared) {
    if (declared.includes('json')) return 'json';
    if (declared.includes('x-www-form-urlencoded')) return 'form';
    if (declared.includes('xml')) return 'xml';
    return 'text';
  }
  const start = template.trimStart()[0];
  if (start === '{' || start === '[') return 'json';
  if (start === '<') return 'xml';
  return 'form';
}

const CONTENT_TYPES: Record<BodyKind, string> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  xml: 'application/xml',
  text: 'text/plain; charset=utf-8',
};

const escapeXml = (value: string): string =>
  value.replace(/[<>&'"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[char] ?? char);

/** A value as it may stand inside the template, for the body's kind (a JSON template quotes `"{text}"` itself). */
function escapeFor(kind: BodyKind, value: string): string {
  if (kind === 'json') return JSON.stringify(value).slice(1, -1);
  if (kind === 'form') return encodeURIComponent(value);
  if (kind === 'xml') return escapeXml(value);
  return value;
}

/** Replaces {to} and {text} in one pass, so a text that contains "{to}" is not substituted again. */
export function fillTemplate(template: string, values: { to: string; text: string }, escape: (value: string) => string): string {
  return template.replace(/\{(to|text)\}/g, (_, name: 'to' | 'text') => escape(values[name]));
}

export function gatewaySender(options: GatewayOptions): SmsSender {
  const template = options.body;
  const kind = template === undefined ? undefined : bodyKind(options.headers, template);
  const hasContentType = Object.keys(options.headers).some((name) => name.toLowerCase() === 'content-type');
  return {
    name: 'gateway',
    async send(to, text): Promise<SmsOutcome> {
      const url = fillTemplate(options.url, { to, text }, encodeURIComponent);
      const body = template === undefined || kind === undefined || options.method === 'GET' ? undefined : fillTemplate(template, { to, text }, (value) => escapeFor(kind, value));
      const headers = { ...(body !== undefined && kind && !hasContentType ? { 'content-type': CONTENT_TYPES[kind] } : {}), ...options.headers };
      let response: Response;
      try {
        response = await fetch(url, { method: options.method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(options.timeoutMs) });
      } catch (error) {
        const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
        // Never the URL or headers: they may carry the gateway's key.
        return { outcome: 'retry', error: timedOut ? 'gateway: did not answer in time' : `gateway: request failed (${error instanceof Error ? error.message : 'network'})`.slice(0, 300) };
      }
      let answer: string;
      try {
        answer = await response.text();
      } catch {
        return { outcome: 'retry', error: `gateway ${String(response.status)}: the answer broke off` };
      }
      const excerpt = answer.replace(/\s+/g, ' ').trim().slice(0, 200);
      if (response.status >= 200 && response.status < 300) {
        // A gateway that says its answer is JSON and sends something else was not understood: it may not have taken the message.
        if ((response.headers.get('content-type') ?? '').includes('json') && answer.trim() !== '') {
          try {
            JSON.parse(answer);
          } catch {
            return { outcome: 'retry', error: `gateway ${String(response.status)}: malformed answer (not JSON)` };
          }
        }
        return { outcome: 'sent' };
      }
      const what = `gateway ${String(response.status)}${excerpt ? `: ${excerpt}` : ''}`;
      if (response.status >= 500 || RETRIED_STATUSES.has(response.status) || response.status < 200 || (response.status >= 300 && response.status < 400)) return { outcome: 'retry', error: what };
      return { outcome: 'failed', error: what };
    },
  };
}
