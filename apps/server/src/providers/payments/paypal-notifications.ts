import { describeFailure, isTransientStatus, type PaypalSettings, type TokenKeeper } from './paypal-client';
import { webhookOutcome } from './paypal-events';
import { NotificationSignatureError, ProviderUnavailableError, type PaymentEvent } from './port';

/**
 * A PayPal webhook, verified by PayPal itself: `POST /v1/notifications/verify-webhook-signature`
 * (https://developer.paypal.com/api/webhooks/v1/#verify-webhook-signature_post), which the server
 * SDK does not wrap, so it is one `fetch` to the same API base with the SDK's token. PayPal
 * answers `{verification_status: "SUCCESS" | "FAILURE"}`.
 *
 * The request carries the five `PAYPAL-*` transmission headers, our webhook id and the event. The
 * event goes in as the raw body's own text, not re-serialised: PayPal checks its signature (a
 * CRC32 of the body it sent) against what it receives, and JSON.stringify(JSON.parse(body)) is not
 * always that body (number formats, key order, escapes).
 *
 * Not verified (NotificationSignatureError, answered 400): a header missing, a body that is not a
 * JSON object, FAILURE, or PayPal refusing the request as malformed (4xx). Unknown
 * (ProviderUnavailableError, so the route answers 5xx and PayPal delivers again): the token or the
 * check did not answer, timed out, answered 401 twice (a new token is asked once), 429, 5xx or
 * an answer that is not `{verification_status}`.
 */

const TRANSMISSION_HEADERS = {
  auth_algo: 'paypal-auth-algo',
  cert_url: 'paypal-cert-url',
  transmission_id: 'paypal-transmission-id',
  transmission_sig: 'paypal-transmission-sig',
  transmission_time: 'paypal-transmission-time',
} as const;

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first.trim() === '' ? undefined : first.trim();
}

const unavailable = (why: string) => new ProviderUnavailableError('paypal', `paypal: the webhook could not be verified: ${why}`);

async function verifyCall(settings: PaypalSettings, tokens: TokenKeeper, body: string): Promise<Response> {
  let token: string;
  try {
    token = (await tokens.get()).accessToken;
  } catch (error) {
    throw unavailable(`no access token (${describeFailure(error)})`);
  }
  try {
    return await fetch(`${settings.apiBase}/v1/notifications/verify-webhook-signature`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
      body,
      signal: AbortSignal.timeout(settings.timeoutMs),
      redirect: 'manual',
    });
  } catch (error) {
    throw unavailable(error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError') ? 'no answer in time' : 'no answer (network)');
  }
}

export async function verifiedNotification(settings: PaypalSettings, tokens: TokenKeeper, rawBody: Buffer, headers: Headers): Promise<PaymentEvent> {
  const fields: string[] = [];
  for (const [field, name] of Object.entries(TRANSMISSION_HEADERS)) {
    const value = header(headers, name);
    if (value === undefined) throw new NotificationSignatureError('paypal');
    fields.push(`${JSON.stringify(field)}:${JSON.stringify(value)}`);
  }
  const text = rawBody.toString('utf8').trim();
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch {
    throw new NotificationSignatureError('paypal');
  }
  if (!event || typeof event !== 'object' || Array.isArray(event)) throw new NotificationSignatureError('paypal');

  // The event spliced in as received: `text` parsed as a JSON object above, so the request is valid JSON.
  const body = `{${fields.join(',')},"webhook_id":${JSON.stringify(settings.webhookId)},"webhook_event":${text}}`;
  // A 401 (a token PayPal no longer accepts) drops the token and asks once more with a new one.
  let response = await verifyCall(settings, tokens, body);
  if (response.status === 401) {
    tokens.forget();
    await response.body?.cancel();
    response = await verifyCall(settings, tokens, body);
    if (response.status === 401) tokens.forget();
  }
  if (response.status === 401 || isTransientStatus(response.status)) {
    await response.body?.cancel();
    throw unavailable(`HTTP ${response.status}`);
  }
  if (response.status < 200 || response.status >= 300) {
    await response.body?.cancel();
    throw new NotificationSignatureError('paypal');
  }
  let answer: unknown;
  try {
    answer = await response.json();
  } catch {
    throw unavailable('a malformed answer');
  }
  const status = answer && typeof answer === 'object' ? (answer as Record<string, unknown>).verification_status : undefined;
  if (status === 'FAILURE') throw new NotificationSignatureError('paypal');
  if (status !== 'SUCCESS') throw unavailable('a malformed answer');
  return webhookOutcome(event as Record<string, unknown>);
}
