import { liveServerMessageSchema } from '@rideway/contract';
import { WebSocket } from 'ws';

/** Waits before reconnecting a closed socket, as the web app's live client (apps/web/src/api/live.ts). */
const RETRY_MS = [500, 1000, 2000, 5000, 10_000, 10_000];

export type ReceivedEvent = {
  topic: string;
  event: string;
  seq?: number;
  /** Sent by the resume of a subscription, before its `subscribed` answer. */
  replayed: boolean;
  /** When it arrived (epoch ms). */
  at: number;
};

/**
 * A WebSocket client that behaves as the web app's: it follows its topics, keeps each topic's
 * newest cursor, and when its socket closes (its server killed) opens another and subscribes again
 * with `since`, so the server replays what it missed. It records every event it is sent.
 */
export type ResumingClient = {
  name: string;
  events: ReceivedEvent[];
  /** The cursor of each topic's first `subscribed` answer: the events after it are owed to this client. */
  firstCursors: Map<string, number>;
  /** Sockets opened: 1, plus one per reconnection. */
  sockets: () => number;
  isOpen: () => boolean;
  /** Keeps a socket that closes from reconnecting until the returned release is called, like a phone out of network for a while. */
  holdReconnection: () => () => void;
  /** Messages the server refused, and messages outside the contract. */
  problems: string[];
  close: () => Promise<void>;
};

export async function openResumingClient(name: string, url: string, token: string, topics: readonly string[]): Promise<ResumingClient> {
  const events: ReceivedEvent[] = [];
  const firstCursors = new Map<string, number>();
  const cursors = new Map<string, number>();
  const problems: string[] = [];
  let socket: WebSocket | undefined;
  let opened = 0;
  let closing = false;
  let held: Promise<void> | undefined;

  const open = () =>
    new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` }, perMessageDeflate: false });
      // Topics resumed on this socket whose `subscribed` answer has not come: what comes first is their replay.
      const resuming = new Set<string>();
      ws.once('error', reject);
      ws.on('error', () => undefined);
      ws.once('open', () => {
        opened += 1;
        socket = ws;
        for (const topic of topics) {
          const since = cursors.get(topic);
          if (since !== undefined) resuming.add(topic);
          ws.send(JSON.stringify(since === undefined ? { type: 'subscribe', topic } : { type: 'subscribe', topic, since }));
        }
        resolve();
      });
      ws.on('message', (data: Buffer) => {
        const parsed = liveServerMessageSchema.safeParse(JSON.parse(data.toString('utf8')));
        if (!parsed.success) {
          problems.push(`outside the contract: ${data.toString('utf8').slice(0, 200)}`);
          return;
        }
        const message = parsed.data;
        if (message.type === 'subscribed') {
          resuming.delete(message.topic);
          if (!firstCursors.has(message.topic)) firstCursors.set(message.topic, message.seq);
          if (!cursors.has(message.topic)) cursors.set(message.topic, message.seq);
        } else if (message.type === 'event') {
          events.push({ topic: message.topic, event: message.event, ...(message.seq === undefined ? {} : { seq: message.seq }), replayed: resuming.has(message.topic), at: Date.now() });
          if (message.seq !== undefined) cursors.set(message.topic, Math.max(message.seq, cursors.get(message.topic) ?? 0));
        } else if (message.type === 'error') problems.push(JSON.stringify(message));
      });
      ws.on('close', () => {
        if (!closing && socket === ws) void reconnect();
      });
    });

  const reconnect = async () => {
    socket = undefined;
    await held;
    for (const delay of RETRY_MS) {
      await new Promise((resolve) => setTimeout(resolve, delay));
      if (closing) return;
      try {
        await open();
        return;
      } catch {
        // Refused for now: the next wait is longer.
      }
    }
    problems.push('could not reconnect');
  };

  await open();
  return {
    name,
    events,
    firstCursors,
    sockets: () => opened,
    isOpen: () => socket?.readyState === WebSocket.OPEN,
    holdReconnection() {
      let release: (() => void) | undefined;
      held = new Promise<void>((resolve) => { release = resolve; });
      return () => {
        held = undefined;
        release?.();
      };
    },
    problems,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        if (!socket || socket.readyState === WebSocket.CLOSED) { resolve(); return; }
        socket.once('close', () => { resolve(); });
        socket.terminate();
      }),
  };
}
