import type { Redis } from 'ioredis';
import { closeRedis } from '../providers/close-redis';
import { isConnectionError } from './redis-link';

/**
 * Who may receive a booking's events beyond the subscription check: its parties at the time of
 * the event. A driver whose offer was withdrawn stops receiving the booking's events.
 */
export type Audience = { uids: string[]; fleetadmin: string | null; admins: boolean };

/** One event on its way to the sockets: the frame is serialized once, for every subscriber. */
export type LiveMessage = { topics: string[]; frame: string; seq?: number; audience?: Audience };

/**
 * Sessions of one user that ended (logout, password reset, deletion, approval withdrawn, a new
 * email or mobile): every process closes the sockets opened with them. A session is named by the
 * SHA-256 of its token, never the token. `only`: that one session; `except`: all but that one
 * (the user's own, current); neither: all of them.
 */
export type SessionsEnded = { uid: string; only?: string; except?: string };

/** Carries events from the process that relays them to every process holding sockets. */
export interface EventBus {
  readonly kind: 'memory' | 'redis';
  publish(message: LiveMessage): Promise<void>;
  /**
   * `interested`: whether the handler has anyone to deliver to now (a socket follows a topic). A
   * bus that replays missed events from the database (catch-up.ts) reads nothing for a process
   * nobody listens to.
   */
  subscribe(handler: (message: LiveMessage) => void, interested?: () => boolean): void;
  /**
   * A socket follows a topic from this cursor on (its `subscribed` message's). A bus that stopped
   * reading what it missed while nobody listened starts again from the oldest such cursor.
   */
  followedFrom?(seq: number): void;
  /**
   * Tells every process, this one included, that sessions ended. Never throws: when Redis cannot
   * carry it, this process's handlers run all the same, and the other processes' sweeps catch up.
   */
  endSessions(ended: SessionsEnded): Promise<void>;
  onSessionsEnded(handler: (ended: SessionsEnded) => void): void;
  /**
   * Tells every process that read-mostly data changed (db/read-cache.ts): this process's handlers
   * run at once, the others' when the event arrives. Rejects when it could not be sent.
   */
  announceChanges(data: string[]): Promise<void>;
  onChangesAnnounced(handler: (data: string[]) => void): void;
  /**
   * Whether every event published by another process reaches this one now: false while Redis is
   * unreachable or the subscription is being restored. Caches that rely on the bus's
   * announcements are off while it is false.
   */
  healthy(): boolean;
  /** Called at each change of `healthy()`; a cache forgets everything when the bus comes back (it may have missed events). */
  onHealthChange(handler: (healthy: boolean) => void): void;
  close(): Promise<void>;
}

export function memoryBus(): EventBus {
  const handlers: ((message: LiveMessage) => void)[] = [];
  const endedHandlers: ((ended: SessionsEnded) => void)[] = [];
  const changeHandlers: ((data: string[]) => void)[] = [];
  return {
    kind: 'memory',
    publish(message) {
      for (const handler of handlers) handler(message);
      return Promise.resolve();
    },
    subscribe(handler) {
      handlers.push(handler);
    },
    endSessions(ended) {
      for (const handler of endedHandlers) handler(ended);
      return Promise.resolve();
    },
    onSessionsEnded(handler) {
      endedHandlers.push(handler);
    },
    announceChanges(data) {
      for (const handler of changeHandlers) handler(data);
      return Promise.resolve();
    },
    onChangesAnnounced(handler) {
      changeHandlers.push(handler);
    },
    // One process, nothing to miss.
    healthy: () => true,
    onHealthChange() {},
    close() {
      handlers.length = 0;
      endedHandlers.length = 0;
      changeHandlers.length = 0;
      return Promise.resolve();
    },
  };
}

const isLiveMessage = (value: unknown): value is LiveMessage =>
  typeof value === 'object' && value !== null && 'topics' in value && Array.isArray(value.topics) && 'frame' in value && typeof value.frame === 'string';

const isSessionsEnded = (value: unknown): value is SessionsEnded =>
  typeof value === 'object' &&
  value !== null &&
  'uid' in value &&
  typeof value.uid === 'string' &&
  (!('only' in value) || typeof value.only === 'string') &&
  (!('except' in value) || typeof value.except === 'string');

const isChanges = (value: unknown): value is { data: string[] } =>
  typeof value === 'object' && value !== null && 'data' in value && Array.isArray(value.data) && value.data.every((item) => typeof item === 'string');

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/**
 * Redis pub/sub: every process publishes to one channel and delivers what arrives to its sockets;
 * ended sessions go on a second channel of the same connection, so they arrive in order with the
 * events published after them.
 */
export async function redisBus(publisher: Redis, prefix: string, onError: (error: Error) => void): Promise<EventBus> {
  const channel = `${prefix}:events`;
  const sessionsChannel = `${prefix}:sessions`;
  const changesChannel = `${prefix}:changes`;
  const subscriber = publisher.duplicate();
  const handlers: ((message: LiveMessage) => void)[] = [];
  const endedHandlers: ((ended: SessionsEnded) => void)[] = [];
  const changeHandlers: ((data: string[]) => void)[] = [];
  const healthHandlers: ((healthy: boolean) => void)[] = [];
  subscriber.on('message', (from: string, raw: string) => {
    try {
      const message: unknown = JSON.parse(raw);
      if (from === sessionsChannel) {
        if (isSessionsEnded(message)) for (const handler of endedHandlers) handler(message);
      } else if (from === changesChannel) {
        if (isChanges(message)) for (const handler of changeHandlers) handler(message.data);
      } else if (isLiveMessage(message)) for (const handler of handlers) handler(message);
    } catch (error) {
      onError(asError(error));
    }
  });
  // Healthy once the subscription is confirmed on a connected subscriber and the publisher is
  // connected too; any drop of either connection makes it unhealthy until both are back and the
  // channels are subscribed again (events published meanwhile were lost to this process).
  let subscribed = false;
  let closing = false;
  let lastHealthy = false;
  const healthy = () => subscribed && !closing && subscriber.status === 'ready' && publisher.status === 'ready';
  const checkHealth = () => {
    const now = healthy();
    if (now === lastHealthy) return;
    lastHealthy = now;
    for (const handler of healthHandlers) handler(now);
  };
  const lost = () => {
    subscribed = false;
    checkHealth();
  };
  const channels = [channel, sessionsChannel, changesChannel];
  const resubscribe = () => {
    if (closing) return;
    subscriber.subscribe(...channels).then(() => {
      subscribed = true;
      checkHealth();
    }, (error: unknown) => { onError(asError(error)); });
  };
  subscriber.on('error', (error: Error) => { onError(error); });
  for (const event of ['close', 'reconnecting', 'end']) subscriber.on(event, lost);
  for (const event of ['close', 'reconnecting', 'end', 'ready']) publisher.on(event, checkHealth);
  // The connection's options are the publisher's (lazy, no offline queue): it connects before its
  // first command. A Redis out of reach at start is a state like a Redis lost later: the process
  // starts unhealthy, and the client's reconnection subscribes once Redis answers (issue 23 point 4).
  try {
    if (subscriber.status === 'wait') await subscriber.connect();
    await subscriber.subscribe(...channels);
    subscribed = true;
  } catch (error) {
    if (!isConnectionError(error)) throw error;
  }
  lastHealthy = healthy();
  // After a reconnection (or the first connection, when Redis was out of reach at start): subscribe
  // again ourselves and be healthy only once Redis confirmed it. Registered after the first
  // subscription, which the client's own retries come after.
  subscriber.on('ready', resubscribe);
  return {
    kind: 'redis',
    async publish(message) {
      await publisher.publish(channel, JSON.stringify(message));
    },
    subscribe(handler) {
      handlers.push(handler);
    },
    async endSessions(ended) {
      try {
        await publisher.publish(sessionsChannel, JSON.stringify(ended));
      } catch (error) {
        // This process's sockets close now; the other processes' sweeps close theirs.
        for (const handler of endedHandlers) handler(ended);
        onError(asError(error));
      }
    },
    onSessionsEnded(handler) {
      endedHandlers.push(handler);
    },
    async announceChanges(data) {
      // Here at once; the echo from Redis runs the handlers again, which only forgets again.
      for (const handler of changeHandlers) handler(data);
      await publisher.publish(changesChannel, JSON.stringify({ data }));
    },
    onChangesAnnounced(handler) {
      changeHandlers.push(handler);
    },
    healthy,
    onHealthChange(handler) {
      healthHandlers.push(handler);
    },
    async close() {
      closing = true;
      checkHealth();
      handlers.length = 0;
      endedHandlers.length = 0;
      changeHandlers.length = 0;
      healthHandlers.length = 0;
      await closeRedis(subscriber);
    },
  };
}
