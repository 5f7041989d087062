import type { ErrorKey } from '@rideway/domain';
import type { z } from 'zod';
import { MapsProviderError, type MapsPort } from './port';

/**
 * The plumbing every real maps adapter shares (osm, google): one HTTP call to a provider with a
 * timeout, its failures sorted into MapsProviderError's reasons, and the answer's shape checked.
 * A provider that times out, refuses, fails or answers something unreadable is never turned into
 * a guess: the caller gets the error, carrying the spec key of the call it was answering.
 */

/** The maps port's calls. */
export type MapsCall = Exclude<keyof MapsPort, 'provider' | 'placeSessions'>;

/** The spec key (section 8) each call answers with when its provider fails. */
export const FAILURE_KEY = {
  autocomplete: 'google_places_error',
  placeById: 'google_places_error',
  reverseGeocode: 'place_to_coords_error',
  route: 'no_route_found',
  table: 'no_route_found',
  // A trace that cannot be matched is a route that cannot be found.
  matchTrace: 'no_route_found',
  // Never answered to anyone: without the provider's tiles the maps draw MAP_TILE_URL's.
  mapTiles: 'internal_error',
} as const satisfies Record<MapsCall, ErrorKey>;

/** A provider's answer larger than this is not what a maps call asks for. */
const MAX_ANSWER_CHARS = 8_000_000;

export type ProviderRequest = {
  /** The provider's name, for the error and the logs (`osrm`, `nominatim`, `photon`, `google`). */
  provider: string;
  call: MapsCall;
  url: URL;
  timeoutMs: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** A JSON body (POST). */
  body?: unknown;
  /** Statuses besides 2xx whose body is still the provider's answer (OSRM answers "no route" with a 400). */
  answerStatuses?: readonly number[];
};

export type ProviderAnswer = { status: number; body: unknown };

/** The error of a call: its provider, why, and the spec key the call answers with. */
export const providerError = (request: Pick<ProviderRequest, 'provider' | 'call'>, reason: MapsProviderError['reason'], detail: string): MapsProviderError =>
  new MapsProviderError(request.provider, reason, FAILURE_KEY[request.call], `${request.provider} ${request.call}: ${detail}`);

/** Why fetch threw: the timeout fired, nobody listens there, or the connection broke. */
function networkError(request: ProviderRequest, error: unknown): MapsProviderError {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return providerError(request, 'timeout', `no answer within ${request.timeoutMs} ms`);
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === 'string' ? cause.code : '';
  if (['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'].includes(code)) return providerError(request, 'refused', `cannot connect (${code})`);
  return providerError(request, 'failed', `connection failed${code ? ` (${code})` : ''}`);
}

/**
 * One call to a provider, within `timeoutMs` (headers and body both). The URL is never put in the
 * error: it may carry a key. A 5xx is `failed`, another status outside 2xx and `answerStatuses`
 * is `refused` (a quota, a bad key, a policy block), an answer that is not JSON is `malformed`.
 */
export async function callProvider(request: ProviderRequest): Promise<ProviderAnswer> {
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  let status: number;
  let text: string;
  try {
    const response = await fetch(request.url, {
      method: request.method ?? 'GET',
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: AbortSignal.timeout(request.timeoutMs),
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    throw networkError(request, error);
  }
  const answers = (status >= 200 && status < 300) || (request.answerStatuses ?? []).includes(status);
  if (!answers) throw providerError(request, status >= 500 ? 'failed' : 'refused', `HTTP ${status}`);
  if (text.length > MAX_ANSWER_CHARS) throw providerError(request, 'malformed', 'answer too large');
  try {
    return { status, body: JSON.parse(text) as unknown };
  } catch {
    throw providerError(request, 'malformed', `HTTP ${status} answer is not JSON`);
  }
}

/** The answer read with the provider's documented shape, or `malformed`. */
export function readAnswer<T extends z.ZodType>(request: Pick<ProviderRequest, 'provider' | 'call'>, schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw providerError(request, 'malformed', `unexpected answer${issue ? ` at ${issue.path.join('.') || '(root)'}: ${issue.message}` : ''}`);
  }
  return parsed.data;
}

/** A base URL from the configuration and a path: `http://host/prefix/` + `/route` keeps the prefix. */
export const joinUrl = (base: string, path: string): URL => new URL(`${base.replace(/\/+$/, '')}${path}`);
