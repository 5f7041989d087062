import { vi } from 'vitest';

/** One recorded call to the fake API: its method, path and parsed JSON body. */
type ApiCall = { method: string; path: string; body: unknown };

/** An answer: a status and a JSON body, or a promise of one (never settling keeps a query pending). */
export type ApiAnswer = { status: number; body?: unknown } | Promise<{ status: number; body?: unknown }>;
type Route = (call: ApiCall) => ApiAnswer | undefined;

/**
 * Replaces `fetch` with the server's answers, keyed by "METHOD /path"; a call nobody answers is a
 * 404 with the spec's error shape. Returns the calls made, in order.
 */
export function fakeApi(routes: Record<string, Route | ApiAnswer>): ApiCall[] {
  const calls: ApiCall[] = [];
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const call = { method, path: input, body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined };
    calls.push(call);
    const route = routes[`${method} ${input}`];
    const answer = (typeof route === 'function' ? route(call) : route) ?? { status: 404, body: { error: { code: 'not_found', message: 'Not found' } } };
    const { status, body } = await answer;
    return new Response(status === 204 ? null : JSON.stringify(body ?? {}), { status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

/** An error answer as the server sends it: the spec's key, its message and the field at fault. */
export const refusal = (status: number, code: string, field?: string): ApiAnswer => ({ status, body: { error: { code, message: code, ...(field ? { field } : {}) } } });
