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

/** Calls the API with the session cookie; a 4xx/5xx answer becomes an ApiError with its key. */
export async function api<T>(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  const response = await fetch(path, {
    method: init.method ?? 'GET',
    credentials: 'same-origin',
    headers: init.body === undefined ? {} : { 'content-type': 'application/json' },
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
