import type * as PaypalSdk from '@paypal/paypal-server-sdk';
import type { ApiError, Client, Configuration, OAuthToken } from '@paypal/paypal-server-sdk';
import type { Config } from '../../config';

/**
 * How the PayPal adapter reaches PayPal: the official `@paypal/paypal-server-sdk` (Orders v2,
 * Payments v2 and the OAuth 2 token), plus one plain `fetch` for the webhook check the SDK does
 * not wrap (paypal-notifications.ts).
 *
 * The SDK's `Client` takes an `environment` (Sandbox or Production) and nothing else for its base:
 * its URLs are fixed to https://api-m.sandbox.paypal.com and https://api-m.paypal.com. With
 * `PAYPAL_API_URL` set (tests' stand-in, a proxy) its calls are routed there through the SDK's
 * own HTTP client option, `unstable_httpClientOptions` (the axios request config it builds its
 * client from): axios's built-in `fetch` adapter with a custom `env.fetch` (axios 1.12+, PR
 * axios/axios#7003) that swaps PayPal's origin for PAYPAL_API_URL's and keeps path, query,
 * method, headers and body. Without it nothing is changed: the SDK's default axios client talks to
 * PayPal. No interceptor library, no global dispatcher.
 *
 * Tokens: the SDK's own token manager asks `/v1/oauth2/token`, but the adapter keeps the token
 * (`TokenKeeper`) and builds a short-lived `Client` per call around it. The SDK's built-in token
 * cache keeps the promise of the last refresh: one failed refresh (a network blip) would leave it
 * rejected, failing every later call until a restart. A fresh Client per call costs an axios
 * instance; the token is asked once per its lifetime and shared with the webhook check.
 */

export const PAYPAL_API = { sandbox: 'https://api-m.sandbox.paypal.com', live: 'https://api-m.paypal.com' } as const;

/** A token is renewed this long before PayPal says it expires. */
const TOKEN_MARGIN_S = 60n;

export type PaypalSettings = {
  clientId: string;
  clientSecret: string;
  webhookId: string;
  live: boolean;
  /** Where PayPal's REST API is asked: PAYPAL_API_URL, or PayPal's own for the environment. */
  apiBase: string;
  /** Each call gives up after this long (PAYMENT_TIMEOUT_MS); its outcome is then unknown. */
  timeoutMs: number;
};

export function paypalSettings(config: Config): PaypalSettings {
  const { PAYPAL_CLIENT_ID: clientId, PAYPAL_CLIENT_SECRET: clientSecret, PAYPAL_WEBHOOK_ID: webhookId } = config;
  if (!clientId || !clientSecret || !webhookId) throw new Error('paypal: PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET and PAYPAL_WEBHOOK_ID are required');
  const live = config.PAYPAL_ENVIRONMENT === 'live';
  const apiBase = (config.PAYPAL_API_URL ?? (live ? PAYPAL_API.live : PAYPAL_API.sandbox)).replace(/\/+$/, '');
  return { clientId, clientSecret, webhookId, live, apiBase, timeoutMs: config.PAYMENT_TIMEOUT_MS };
}

type Sdk = typeof PaypalSdk;
let sdkModule: Promise<Sdk> | undefined;
/** Set once loaded: every error the adapter sorts comes from a call made after loading. */
let loadedSdk: Sdk | undefined;
/** The SDK (and axios under it) is loaded on the first PayPal call, so a server without PayPal never loads it. */
export const loadSdk = (): Promise<Sdk> =>
  (sdkModule ??= import('@paypal/paypal-server-sdk').then((sdk) => {
    loadedSdk = sdk;
    return sdk;
  }));

/**
 * A `fetch` for axios's fetch adapter that sends the SDK's request to `apiBase` instead of
 * PayPal's `origin`: same path (after apiBase's own path, if any), query, method, headers, body
 * and abort signal (the SDK's timeout).
 */
export function rebasedFetch(origin: string, apiBase: string): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== origin) return fetch(request);
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
    // The caller's own signal, not this copy's: a Request follows its source's signal only while
    // it lives (undici links them weakly), and this one may be collected as soon as fetch has
    // started, after which the SDK's timeout would never abort the call (a flaky hang, seen under load).
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    return fetch(`${apiBase}${url.pathname}${url.search}`, { method: request.method, headers: request.headers, body, signal, redirect: 'manual' });
  };
}

/** The SDK client for one call, carrying the kept token (or none: the token call itself). */
export async function sdkClient(settings: PaypalSettings, token?: OAuthToken): Promise<Client> {
  const sdk = await loadSdk();
  const origin = settings.live ? PAYPAL_API.live : PAYPAL_API.sandbox;
  const configuration: Partial<Configuration> = {
    environment: settings.live ? sdk.Environment.Production : sdk.Environment.Sandbox,
    timeout: settings.timeoutMs,
    clientCredentialsAuthCredentials: { oAuthClientId: settings.clientId, oAuthClientSecret: settings.clientSecret, ...(token ? { oAuthToken: token } : {}) },
    // No retries inside the SDK: an unknown outcome goes back to the caller, which records it and asks later.
    httpClientOptions: { timeout: settings.timeoutMs, retryConfig: { maxNumberOfRetries: 0 } },
  };
  if (settings.apiBase !== origin) {
    configuration.unstable_httpClientOptions = { adapter: 'fetch', env: { fetch: rebasedFetch(origin, settings.apiBase) } };
  }
  return new sdk.Client(configuration);
}

/** Thrown by the token call when PayPal refuses the app's credentials (401 invalid_client): a configuration problem, not an outage. */
export class PaypalCredentialsError extends Error {
  constructor() {
    super("paypal: PayPal refused the app's client id and secret (invalid_client); check PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET and PAYPAL_ENVIRONMENT");
    this.name = 'PaypalCredentialsError';
  }
}

/** Keeps one OAuth 2 access token (client_credentials) and renews it before it expires; one request at a time. */
export class TokenKeeper {
  private token: OAuthToken | undefined;
  private pending: Promise<OAuthToken> | undefined;

  constructor(private readonly settings: PaypalSettings) {}

  async get(): Promise<OAuthToken> {
    const now = BigInt(Math.floor(Date.now() / 1000));
    if (this.token && (this.token.expiry === undefined || this.token.expiry - TOKEN_MARGIN_S > now)) return this.token;
    this.pending ??= this.fetch().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** Forgets the token (PayPal answered 401 to it): the next call asks for a new one. */
  forget(): void {
    this.token = undefined;
  }

  private async fetch(): Promise<OAuthToken> {
    const client = await sdkClient(this.settings);
    try {
      this.token = await client.clientCredentialsAuthManager.fetchToken();
    } catch (error) {
      if (isApiError(error) && (error.statusCode === 401 || error.statusCode === 400)) throw new PaypalCredentialsError();
      throw error;
    }
    return this.token;
  }
}

/** An HTTP answer other than 2xx, as the SDK reports it (CustomError, OAuthProviderError: subclasses of ApiError). */
export function isApiError(error: unknown): error is ApiError {
  return loadedSdk !== undefined && error instanceof loadedSdk.ApiError;
}

/** A 2xx answer the SDK could not read: not JSON, or JSON of another shape than PayPal documents. */
export function isMalformedAnswer(error: unknown): boolean {
  if (loadedSdk !== undefined && error instanceof loadedSdk.ResponseValidationError) return true;
  return error instanceof Error && error.message.startsWith('Could not parse body as JSON');
}

/** PayPal's error body: `{name, message, debug_id, details: [{issue, description}]}`. */
export type PaypalErrorBody = { name?: string; message?: string; debug_id?: string; details?: { issue?: string; description?: string }[] };

/** The first `details[].issue` of PayPal's error answer (INSTRUMENT_DECLINED, ORDER_NOT_APPROVED, ...), else its `name`. */
export function paypalIssue(error: ApiError): string | undefined {
  const body = parsedErrorBody(error);
  return body?.details?.find((detail) => typeof detail.issue === 'string')?.issue ?? (typeof body?.name === 'string' ? body.name : undefined);
}

function parsedErrorBody(error: ApiError): PaypalErrorBody | undefined {
  const result: unknown = error.result;
  if (result && typeof result === 'object') return result;
  if (typeof error.body !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(error.body);
    return parsed && typeof parsed === 'object' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** True when the answer means "try again later": a timeout, the network, 408, 429 or 5xx. */
export const isTransientStatus = (status: number): boolean => status === 408 || status === 429 || status >= 500;

/**
 * What a failed SDK call was, in words safe to log: the HTTP status and PayPal's issue, or the
 * kind of failure. Never the SDK error's own text or request (its headers hold the token, and the
 * token call's the Basic credentials).
 */
export function describeFailure(error: unknown): string {
  if (isApiError(error)) {
    const issue = paypalIssue(error);
    return `HTTP ${error.statusCode}${issue ? ` ${issue}` : ''}`;
  }
  if (error instanceof PaypalCredentialsError) return 'invalid_client';
  if (isMalformedAnswer(error)) return 'a malformed answer';
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || error.name === 'AbortError' || /timeout|aborted/i.test(error.message)) return 'no answer in time';
    return 'no answer (network)';
  }
  return 'no answer';
}
