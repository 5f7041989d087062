import { asRecord, asString, RestRefusal, RestUnavailable } from './rest-client';

/**
 * A small typed client for SecurePay's REST API (Australia Post Online Payments, v2), written from
 * its public documentation (https://auspost.com.au/payments/docs/securepay/). SecurePay has no
 * maintained official Node SDK (the npm package `securepay` is an unmaintained 0.0.5), so this is
 * JSON over `fetch`:
 *
 * - Authentication (https://auspost.com.au/payments/docs/securepay/#authentication): an OAuth 2
 *   client-credentials token, `POST <token URL>` with `Authorization: Basic base64(clientId:clientSecret)`
 *   and the form body `grant_type=client_credentials&audience=https://api.payments.auspost.com.au`,
 *   answered `{access_token, token_type, expires_in}`. Every API call carries it as a Bearer token.
 * - Hosts: live API https://payments.auspost.net.au with the token from
 *   https://welcome.api2.auspost.com.au/oauth/token; the sandbox's API
 *   https://payments-stest.npe.auspost.zone with https://welcome.api2.sandbox.auspost.com.au/oauth/token.
 * - Errors come as `{errors: [{code, detail, source: {pointer}}]}` (the Errors section of the same
 *   page).
 *
 * The token is kept and renewed a minute before `expires_in` (one token for many calls, as the
 * docs ask); a 401 drops it and the call is asked once more with a new one, which is safe: the
 * refused call did nothing, and every call that creates something carries its `Idempotency-Key`.
 * Answers are sorted as rest-client.ts does: `RestUnavailable` when the outcome is unknown (no
 * answer in time, the network, 408, 429, 5xx, a 2xx that is not a JSON object), `RestRefusal` for
 * any other 4xx. No error's text holds the secret, the token or a request body.
 */

export const SECUREPAY_LIVE = { api: 'https://payments.auspost.net.au', auth: 'https://welcome.api2.auspost.com.au/oauth/token' } as const;
export const SECUREPAY_SANDBOX = { api: 'https://payments-stest.npe.auspost.zone', auth: 'https://welcome.api2.sandbox.auspost.com.au/oauth/token' } as const;
/** The token's audience, as the authentication section documents it. */
export const SECUREPAY_AUDIENCE = 'https://api.payments.auspost.com.au';

export type SecurePaySettings = {
  /** The API base (no trailing slash): paths are `/v2/...` under it. */
  apiBase: string;
  authUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
};

type Json = Record<string, unknown>;

export type SecurePayClient = {
  /** One API call: `body` sent as JSON, `idempotencyKey` as the `Idempotency-Key` header. The JSON object of a 2xx answer. */
  call: (what: string, method: 'GET' | 'POST', path: string, options?: { body?: unknown; idempotencyKey?: string }) => Promise<Json>;
};

const PROVIDER = 'securepay';
/** Renew this long before the token's own expiry, so a call never carries one that lapses on the way. */
const RENEW_AHEAD_MS = 60_000;

const transient = (status: number): boolean => status === 408 || status === 429 || status >= 500;

/** SecurePay's first error as one short line (`code: detail`), for logs and refusals; never a request's content. */
function errorMessage(body: Json | undefined): string | undefined {
  const first = Array.isArray(body?.errors) ? asRecord(body.errors[0]) : undefined;
  const code = asString(first?.code);
  const detail = asString(first?.detail) ?? asString(body?.error_description) ?? asString(body?.error);
  return code && detail ? `${code}: ${detail}` : (code ?? detail);
}

async function send(what: string, url: string, init: RequestInit, timeoutMs: number): Promise<{ status: number; ok: boolean; body: Json | undefined }> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
    text = await response.text();
  } catch (error) {
    const timeout = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new RestUnavailable(PROVIDER, what, timeout ? 'no answer in time' : 'no answer (network)');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, ok: response.ok, body: asRecord(parsed) };
}

export function securePayClient(settings: SecurePaySettings): SecurePayClient {
  let token: { value: string; renewAt: number } | undefined;
  let pending: Promise<string> | undefined;

  async function fetchToken(): Promise<string> {
    const basic = Buffer.from(`${settings.clientId}:${settings.clientSecret}`).toString('base64');
    const answer = await send(
      'the OAuth token',
      settings.authUrl,
      {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ grant_type: 'client_credentials', audience: SECUREPAY_AUDIENCE }).toString(),
      },
      settings.timeoutMs,
    );
    if (transient(answer.status)) throw new RestUnavailable(PROVIDER, 'the OAuth token', `HTTP ${String(answer.status)}`);
    if (!answer.ok) throw new RestRefusal(PROVIDER, 'the OAuth token', answer.status, errorMessage(answer.body), undefined);
    const value = asString(answer.body?.access_token);
    const lifetime = answer.body?.expires_in;
    if (!value || typeof lifetime !== 'number' || !Number.isFinite(lifetime) || lifetime <= 0) throw new RestUnavailable(PROVIDER, 'the OAuth token', 'a malformed answer');
    token = { value, renewAt: Date.now() + Math.max(0, lifetime * 1000 - RENEW_AHEAD_MS) };
    return value;
  }

  /** The kept token, or one new one shared by every call waiting for it; a failed renewal is forgotten, so the next call asks again. */
  function currentToken(): Promise<string> {
    if (token && Date.now() < token.renewAt) return Promise.resolve(token.value);
    pending ??= fetchToken().finally(() => {
      pending = undefined;
    });
    return pending;
  }

  async function once(what: string, method: 'GET' | 'POST', path: string, options: { body?: unknown; idempotencyKey?: string }, bearer: string) {
    return send(
      what,
      `${settings.apiBase}${path}`,
      {
        method,
        headers: {
          authorization: `Bearer ${bearer}`,
          accept: 'application/json',
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
        },
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      },
      settings.timeoutMs,
    );
  }

  return {
    async call(what, method, path, options = {}) {
      let answer = await once(what, method, path, options, await currentToken());
      if (answer.status === 401) {
        // The token was refused (revoked, or expired early): one more try with a new one.
        token = undefined;
        answer = await once(what, method, path, options, await currentToken());
      }
      if (transient(answer.status)) throw new RestUnavailable(PROVIDER, what, `HTTP ${String(answer.status)}`);
      if (!answer.ok) throw new RestRefusal(PROVIDER, what, answer.status, errorMessage(answer.body), answer.body);
      if (!answer.body) throw new RestUnavailable(PROVIDER, what, 'a malformed answer');
      return answer.body;
    },
  };
}
