import { liveServerMessageSchema } from '@rideway/contract';
import { WebSocket } from 'ws';

export type LiveMessage = { type: string; topic?: string; event?: string; data?: unknown; seq?: number; code?: string };

/** A WebSocket client for tests: collects what the server sends, and waits for what it expects. */
export type LiveClient = {
  messages: LiveMessage[];
  send: (message: Record<string, unknown>) => void;
  /** The first message (already received or still to come) that matches, consumed. */
  next: (match: (message: LiveMessage) => boolean, timeoutMs?: number) => Promise<LiveMessage>;
  /** Subscribes and waits for the answer: `subscribed`, or the error. */
  subscribe: (topic: string, since?: number) => Promise<LiveMessage>;
  /** Whether a matching message arrives within the time (for what must not arrive). */
  receives: (match: (message: LiveMessage) => boolean, withinMs?: number) => Promise<boolean>;
  close: () => Promise<void>;
};

export async function openLive(url: string, token: string): Promise<LiveClient> {
  const socket = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
  const messages: LiveMessage[] = [];
  const waiters = new Set<() => void>();
  // Every message the server sends is one of the contract's (packages/contract/src/live.ts); the first that is not fails the wait.
  let outsideContract: Error | undefined;
  socket.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString('utf8')) as LiveMessage;
    const checked = liveServerMessageSchema.safeParse(message);
    if (!checked.success) outsideContract ??= new Error(`a message outside the contract: ${JSON.stringify(message)}: ${checked.error.message}`);
    messages.push(message);
    for (const wake of waiters) wake();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => { resolve(); });
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) => { reject(new Error(`upgrade refused: ${String(response.statusCode)}`)); });
  });

  const next = (match: (message: LiveMessage) => boolean, timeoutMs = 5000) =>
    new Promise<LiveMessage>((resolve, reject) => {
      const look = () => {
        if (outsideContract) {
          waiters.delete(look);
          clearTimeout(timer);
          reject(outsideContract);
          return true;
        }
        const index = messages.findIndex(match);
        if (index < 0) return false;
        const [found] = messages.splice(index, 1);
        waiters.delete(look);
        clearTimeout(timer);
        resolve(found as LiveMessage);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(look);
        reject(new Error(`no matching message in ${String(timeoutMs)} ms; got ${JSON.stringify(messages)}`));
      }, timeoutMs);
      if (!look()) waiters.add(look);
    });

  return {
    messages,
    send: (message) => { socket.send(JSON.stringify(message)); },
    next,
    async subscribe(topic, since) {
      socket.send(JSON.stringify(since === undefined ? { type: 'subscribe', topic } : { type: 'subscribe', topic, since }));
      return next((m) => (m.type === 'subscribed' || m.type === 'error') && m.topic === topic);
    },
    async receives(match, withinMs = 400) {
      try {
        await next(match, withinMs);
        return true;
      } catch (error) {
        if (error === outsideContract) throw error;
        return false;
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (socket.readyState === socket.CLOSED) { resolve(); return; }
        const timer = setTimeout(() => { socket.terminate(); }, 1000);
        socket.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
        socket.close();
      }),
  };
}
