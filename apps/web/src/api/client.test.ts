import { afterEach, describe, expect, it, vi } from 'vitest';
import { IDEMPOTENT_RETRY_DELAYS_MS } from '../config/ui-constants';
import { api, ApiError, newIdempotencyKey } from './client';

type Sent = { key: string | null };

/** Replaces fetch with answers given in turn: a status and body, or a failure (no answer came back). */
function answers(...steps: ({ status: number; body: unknown } | 'no answer')[]): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal('fetch', (_path: string, init: RequestInit = {}) => {
    sent.push({ key: new Headers(init.headers).get('idempotency-key') });
    const step = steps[sent.length - 1] ?? 'no answer';
    if (step === 'no answer') return Promise.reject(new TypeError('Failed to fetch'));
    return Promise.resolve(new Response(JSON.stringify(step.body), { status: step.status, headers: { 'content-type': 'application/json' } }));
  });
  return sent;
}

const inUse = { status: 409, body: { error: { code: 'idempotency_key_in_use', message: 'in use' } } };

describe('the API client and Idempotency-Key (issue 15, point 11)', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('makes a fresh key per action', () => {
    const keys = new Set(Array.from({ length: 50 }, () => newIdempotencyKey()));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(key).toMatch(/^[\x21-\x7e]{16,255}$/);
  });

  it('sends the key, and sends it again when no answer came back or the first try was still running', async () => {
    vi.useFakeTimers();
    const sent = answers('no answer', inUse, { status: 201, body: { id: 'b1' } });
    const booked = api<{ id: string }>('/api/bookings', { method: 'POST', body: {}, idempotencyKey: 'action-1' });
    await vi.advanceTimersByTimeAsync(IDEMPOTENT_RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0));
    await expect(booked).resolves.toEqual({ id: 'b1' });
    expect(sent).toEqual([{ key: 'action-1' }, { key: 'action-1' }, { key: 'action-1' }]);
  });

  it("answers the server's refusal at once, and gives up after its retries", async () => {
    vi.useFakeTimers();
    const refused = answers({ status: 409, body: { error: { code: 'insufficient_balance', message: 'low' } } });
    await expect(api('/api/withdraws', { method: 'POST', body: {}, idempotencyKey: 'action-2' })).rejects.toMatchObject({ status: 409, code: 'insufficient_balance' });
    expect(refused).toHaveLength(1);

    const lost = answers();
    const gone = api('/api/withdraws', { method: 'POST', body: {}, idempotencyKey: 'action-3' }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(IDEMPOTENT_RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0));
    expect(await gone).toBeInstanceOf(TypeError);
    expect(lost).toHaveLength(IDEMPOTENT_RETRY_DELAYS_MS.length + 1);
  });

  it('without a key sends no header and tries once', async () => {
    const sent = answers('no answer');
    await expect(api('/api/bookings', { method: 'POST', body: {} })).rejects.toBeInstanceOf(TypeError);
    expect(sent).toEqual([{ key: null }]);
    answers(inUse);
    await expect(api('/api/bookings', { method: 'POST', body: {} })).rejects.toBeInstanceOf(ApiError);
  });
});
