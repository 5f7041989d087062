import type { Redis } from 'ioredis';

/**
 * Who may receive a booking's events beyond the subscription check: its parties at the time of
 * the event. A driver whose offer was withdrawn stops receiving the booking's events.
 */
export type Audience = { uids: string[]; fleetadmin: string | null; admins: boolean };

/** One event on its way to the sockets: the frame is serialized once, for every subscriber. */
export type LiveMessage = { topics: string[]; frame: string; seq?: number; audience?: Audience };

/** Carries events from the process that relays them to every process holding sockets. */
export interface EventBus {
  readonly kind: 'memory' | 'redis';
  publish(message: LiveMessage): Promise<void>;
  subscribe(handler: (message: LiveMessage) => void): void;
  close(): Promise<void>;
}

export function memoryBus(): EventBus {
  const handlers: ((message: LiveMessage) => void)[] = [];
  return {
    kind: 'memory',
    publish(message) {
      for (const handler of handlers) handler(message);
      return Promise.resolve();
    },
    subscribe(handler) {
      handlers.push(handler);
    },
    close() {
      handlers.length = 0;
      return Promise.resolve();
    },
  };
}

const isLiveMessage = (value: unknown): value is LiveMessage =>
  typeof value === 'object' && value !== null && 'topics' in value && Array.isArray(value.topics) && 'frame' in value && typeof value.frame === 'string';

/** Redis pub/sub: every process publishes to one channel and delivers what arrives to its sockets. */
export async function redisBus(publisher: Redis, prefix: string, onError: (error: Error) => void): Promise<EventBus> {
  const channel = `${prefix}:events`;
  const subscriber = publisher.duplicate();
  const handlers: ((message: LiveMessage) => void)[] = [];
  subscriber.on('message', (_channel: string, raw: string) => {
    try {
      const message: unknown = JSON.parse(raw);
      if (isLiveMessage(message)) for (const handler of handlers) handler(message);
    } catch (error) {
      onError(error instanceof Error ? error : new Error(String(error)));
    }
  });
  await subscriber.subscribe(channel);
  return {
    kind: 'redis',
    async publish(message) {
      await publisher.publish(channel, JSON.stringify(message));
    },
    subscribe(handler) {
      handlers.push(handler);
    },
    async close() {
      handlers.length = 0;
      await subscriber.quit();
    },
  };
}
