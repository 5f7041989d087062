/**
 * Security-critical: one WebSocket's own limits (issue 15; the numbers are http/rate-limits.ts's).
 * One socket with 20,000 refused subscribes, each a database read, once held the embedded
 * database for half a minute. A socket lives in one process, so its counts live there too:
 * - messages: over the limit in a window a message is not handled but answered
 *   too_many_requests; one that goes on to twice the limit is closed with 4429;
 * - refused subscriptions: over the budget in a window a subscribe is answered
 *   too_many_requests before any database read, whether or not it would have been granted.
 * Windows run on the real clock, as @fastify/rate-limit's do: the test clock moves trips, not floods.
 */
import type { Allowance } from '../http/rate-limits';

/** How the server closes a socket that floods it; the client may reconnect later. */
export const FLOODED_CLOSE = { code: 4429, reason: 'too_many_requests' } as const;

/** The limits a socket is opened with; null when RATE_LIMITS=off. */
export type SocketLimits = {
  messages: Allowance;
  refusals: Allowance;
  /** Counts a driver's position against the `location` limit that HTTP positions count against too. */
  countLocation: () => Promise<void>;
};

/** A count in a fixed window. */
type Counter = { start: number; count: number };

/** A socket's counts so far. */
export type SocketCounters = { messages: Counter; refusals: Counter };

export const newCounters = (): SocketCounters => ({ messages: { start: 0, count: 0 }, refusals: { start: 0, count: 0 } });

/** The count in the window of `now`, a new window starting when the last one ended. */
function current(counter: Counter, allowance: Allowance, now: number): Counter {
  if (now - counter.start >= allowance.windowMs) {
    counter.start = now;
    counter.count = 0;
  }
  return counter;
}

/** What becomes of a message that just arrived: handled, refused, or the socket closed. */
export function admitMessage(limits: SocketLimits | null, counters: SocketCounters, now = Date.now()): 'handle' | 'refuse' | 'close' {
  if (!limits) return 'handle';
  const counter = current(counters.messages, limits.messages, now);
  counter.count += 1;
  if (counter.count <= limits.messages.max) return 'handle';
  return counter.count <= 2 * limits.messages.max ? 'refuse' : 'close';
}

/** Whether the socket used up its refused subscriptions for now: the next subscribe is not even looked up. */
export const refusalsSpent = (limits: SocketLimits | null, counters: SocketCounters, now = Date.now()): boolean =>
  limits !== null && current(counters.refusals, limits.refusals, now).count >= limits.refusals.max;

/** Counts a refused subscription. */
export function countRefusal(limits: SocketLimits | null, counters: SocketCounters, now = Date.now()): void {
  if (limits) current(counters.refusals, limits.refusals, now).count += 1;
}
