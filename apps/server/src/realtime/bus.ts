import type { Redis } from 'ioredis';

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
  subscribe(handler: (message: LiveMessage) => void): void;
  /** Tells every process, this one included, that sessions ended. Never throws: a failure is reported and the sweep catches up. */
  endSessions(ended: SessionsEnded): Promise<void>;
  onSessionsEnded(handler: (ended: SessionsEnded) => void): void;
  close(): Promise<void>;
}

export function memoryBus(): EventBus {
  const handlers: ((message: LiveMessage) => void)[] = [];
  const endedHandlers: ((ended: SessionsEnded) => void)[] = [];
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
    close() {
      handlers.length = 0;
      endedHandlers.length = 0;
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

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/**
 * Redis pub/sub: every process publishes to one channel and delivers what arrives to its sockets;
 * ended sessions go on a second channel of the same connection, so they arrive in order with the
 * events published after them.
 */
export async function redisBus(publisher: Redis, prefix: string, onError: (error: Error) => void): Promise<EventBus> {
  const channel = `${prefix}:events`;
  const sessionsChannel = `${prefix}:sessions`;
  const subscriber = publisher.duplicate();
  const handlers: ((message: LiveMessage) => void)[] = [];
  const endedHandlers: ((ended: SessionsEnded) => void)[] = [];
  subscriber.on('message', (from: string, raw: string) => {
    try {
      const message: unknown = JSON.parse(raw);
      if (from === sessionsChannel) {
        if (isSessionsEnded(message)) for (const handler of endedHandlers) handler(message);
      } else if (isLiveMessage(message)) for (const handler of handlers) handler(message);
    } catch (error) {
      onError(asError(error));
    }
  });
  await subscriber.subscribe(channel, sessionsChannel);
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
        onError(asError(error));
      }
    },
    onSessionsEnded(handler) {
      endedHandlers.push(handler);
    },
    async close() {
      handlers.length = 0;
      endedHandlers.length = 0;
      await subscriber.quit();
    },
  };
}
