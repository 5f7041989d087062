/**
 * The one HTTP call of the REST-only payment adapters (Paystack, Flutterwave: neither has a
 * maintained official Node SDK for these calls): JSON over `fetch`, with the adapter's timeout and
 * the provider's secret as a Bearer token. The answer is sorted the way the port needs it:
 * - `RestUnavailable`: the outcome is unknown (no answer in time, the network, 408, 429, 5xx, a
 *   2xx that is not JSON); the caller turns it into ProviderUnavailableError or RetryableRefundError;
 * - `RestRefusal`: the provider answered 4xx, with its message; nothing was done.
 * Neither error's text holds the secret or a request body.
 */

export type RestSettings = { provider: string; apiBase: string; secretKey: string; timeoutMs: number };

export class RestUnavailable extends Error {
  constructor(provider: string, what: string, why: string) {
    super(`${provider}: ${what}: ${why}`);
    this.name = 'RestUnavailable';
  }
}

export class RestRefusal extends Error {
  constructor(
    provider: string,
    what: string,
    readonly status: number,
    readonly providerMessage: string | undefined,
    readonly body: unknown,
  ) {
    super(`${provider}: ${what} refused: HTTP ${String(status)}${providerMessage ? ` ${providerMessage.slice(0, 200)}` : ''}`);
    this.name = 'RestRefusal';
  }
}

type Json = Record<string, unknown>;
export const asRecord = (value: unknown): Json | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
export const asString = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** True when the status means "try again later". */
const transient = (status: number): boolean => status === 408 || status === 429 || status >= 500;

/** One call: `path` under the API base, `query` appended, `body` sent as JSON. The parsed JSON object of a 2xx answer. */
export async function restCall(settings: RestSettings, what: string, method: 'GET' | 'POST', path: string, options: { body?: unknown; query?: Record<string, string> } = {}): Promise<Json> {
  const url = new URL(`${settings.apiBase}${path}`);
  for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, value);
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method,
      // An API that authenticates in the body (PayU) has no secret key here, and no Bearer header.
      headers: { ...(settings.secretKey ? { authorization: `Bearer ${settings.secretKey}` } : {}), accept: 'application/json', ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      signal: AbortSignal.timeout(settings.timeoutMs),
      redirect: 'error',
    });
    text = await response.text();
  } catch (error) {
    const timeout = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new RestUnavailable(settings.provider, what, timeout ? 'no answer in time' : 'no answer (network)');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const body = asRecord(parsed);
  if (transient(response.status)) throw new RestUnavailable(settings.provider, what, `HTTP ${String(response.status)}`);
  if (!response.ok) throw new RestRefusal(settings.provider, what, response.status, asString(body?.message), body);
  if (!body) throw new RestUnavailable(settings.provider, what, 'a malformed answer');
  return body;
}

/** A provider's 2xx answer without what its documentation puts in it: the outcome is unknown (retried, looked up later). */
export class MalformedAnswer extends Error {
  constructor(provider: string, what: string) {
    super(`${provider}: a malformed answer (${what})`);
    this.name = 'MalformedAnswer';
  }
}

/** A provider's own checkout origin and, with its *_API_URL override, that origin too (a stand-in's page): the security policy's form-action. */
export const checkoutOrigins = (own: string, override: string | undefined): string[] => [own, ...(override ? [new URL(override).origin] : [])];
