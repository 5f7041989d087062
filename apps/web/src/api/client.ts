import { IDEMPOTENT_RETRY_DELAYS_MS } from '../config/ui-constants';

/** An error answer of the API: the spec's key, its English message and the field at fault. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

type ErrorBody = { error?: { code?: string; message?: string; field?: string } };

type CallInit = {
  method?: string;
  body?: unknown;
  signal?: AbortSignal;
  /** The user action's key (`newIdempotencyKey()`): the write is sent again with it when no answer came back. */
  idempotencyKey?: string;
};

/** A fresh `Idempotency-Key` for one user action. `crypto.randomUUID` needs a secure context, which a LAN address over http is not. */
export function newIdempotencyKey(): string {
  if (window.isSecureContext) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A try worth repeating with the same key: no answer, a gateway's fault, or the first try still running. */
const isRetriable = (error: unknown): boolean =>
  error instanceof ApiError ? error.status === 502 || error.status === 503 || error.status === 504 || error.code === 'idempotency_key_in_use' : error instanceof TypeError;

/**
 * Calls the API with the session cookie; a 4xx/5xx answer becomes an ApiError with its key. With
 * an idempotency key, a try that got no answer is repeated with the same key (the server answers
 * the first result, so nothing is done twice).
 */
export async function api<T>(path: string, init: CallInit = {}): Promise<T> {
  if (init.idempotencyKey === undefined) return call<T>(path, init);
  for (const delay of IDEMPOTENT_RETRY_DELAYS_MS) {
    try {
      return await call<T>(path, init);
    } catch (error) {
      if (!isRetriable(error) || init.signal?.aborted === true) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
  return call<T>(path, init);
}

async function call<T>(path: string, init: CallInit): Promise<T> {
  const response = await fetch(path, {
    method: init.method ?? 'GET',
    credentials: 'same-origin',
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...(init.idempotencyKey === undefined ? {} : { 'idempotency-key': init.idempotencyKey }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: init.signal,
  });
  if (response.status === 204) return undefined as T;
  const body = (await response.json().catch(() => ({}))) as unknown;
  if (!response.ok) {
    const error = (body as ErrorBody).error;
    throw new ApiError(response.status, error?.code ?? 'fetch_call_error', error?.message ?? response.statusText, error?.field);
  }
  return body as T;
}

/** The message key to show for a failed call: the spec's key, or fetch_call_error when the call never answered. */
export const errorKey = (error: unknown): string => (error instanceof ApiError ? error.code : 'fetch_call_error');
