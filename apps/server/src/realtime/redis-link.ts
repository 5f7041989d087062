import type { Redis } from 'ioredis';

/**
 * Bounds on every command of the live layer's Redis connections (issue 23 point 4): no queue while
 * disconnected (a command fails at once instead of waiting for a reconnection), one retry across a
 * reconnection, and a second at most for an answer, so a Redis that is gone or stops answering
 * never holds a request. Constants, not configuration: they bound a failure, nobody tunes them.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 1000;
export const REDIS_CLIENT_OPTIONS = { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: REDIS_COMMAND_TIMEOUT_MS } as const;

/** While Redis is held for down, how often a PING asks whether it answers again (a connection that stayed open but went silent). */
const PROBE_MS = 1000;

/** What fell back to this process's own means while Redis was out of reach: a metrics label. */
export type FallbackOperation = 'geo_write' | 'geo_read' | 'bus_publish';

/** Errors that say the connection is gone or silent, not that a command was wrong: they mark Redis down, silently. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
export const isConnectionError = (error: unknown): boolean => {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
  return /Connection is closed|Command timed out|Stream isn't writeable|Reached the max retries|connect ETIMEDOUT|Socket closed unexpectedly/i.test(error.message);
};

/**
 * Whether this process reaches Redis through its main connection (the geo index's and the bus's
 * publisher), told to listeners once per change. Down as soon as the connection closes or a
 * command fails; up again once the connection is ready and answers a PING.
 */
export type RedisLink = {
  isUp(): boolean;
  /**
   * An operation was served by this process's own means: with the error that made it so (the
   * link goes down), or without (the link was already down). Counted for the metrics.
   */
  fellBack(operation: FallbackOperation, error?: unknown): void;
  /** `cause`: what took it down, an error or a word on the connection. */
  onChange(handler: (up: boolean, cause?: unknown) => void): void;
  /** Operations served by the fallback since start, by operation. */
  fallbacks(): ReadonlyMap<FallbackOperation, number>;
  close(): void;
};

export function redisLink(client: Redis): RedisLink {
  let up = client.status === 'ready';
  let closed = false;
  let probing: NodeJS.Timeout | undefined;
  const handlers: ((up: boolean, error?: unknown) => void)[] = [];
  const counts = new Map<FallbackOperation, number>();

  const set = (now: boolean, error?: unknown) => {
    if (now === up || closed) return;
    up = now;
    if (now) {
      clearInterval(probing);
      probing = undefined;
    } else {
      probing ??= setInterval(probe, PROBE_MS);
      probing.unref();
    }
    for (const handler of handlers) handler(now, error);
  };
  const probe = () => {
    if (closed || up || client.status !== 'ready') return;
    client.ping().then(() => { set(true); }, () => undefined);
  };

  for (const event of ['close', 'reconnecting', 'end'] as const) client.on(event, () => { set(false, `connection ${event}`); });
  client.on('ready', probe);

  return {
    isUp: () => up,
    fellBack(operation, error) {
      counts.set(operation, (counts.get(operation) ?? 0) + 1);
      if (error !== undefined) set(false, error);
    },
    onChange(handler) {
      handlers.push(handler);
    },
    fallbacks: () => counts,
    close() {
      closed = true;
      clearInterval(probing);
      handlers.length = 0;
    },
  };
}
