import type { LiveClientMessage, LiveEventMessage, LiveServerMessage } from '@rideway/contract';
import { useEffect, useRef } from 'react';

/** A server event on a topic: the contract's event messages (packages/contract/src/live.ts, docs/realtime.md). */
export type LiveEvent = LiveEventMessage;
type Listener = (event: LiveEvent) => void;

const RETRY_MS = [500, 1000, 2000, 5000, 10_000];
/** The server closes a socket whose session ended with this code (apps/server/src/realtime/session-end.ts). */
const SESSION_ENDED_CLOSE_CODE = 4401;

/**
 * One WebSocket per tab, shared by every screen that follows a topic. Each topic keeps the
 * newest cursor it saw, so after a drop the socket reconnects and resubscribes with `since`, and
 * the server replays what was missed, once.
 */
class LiveConnection {
  private socket: WebSocket | null = null;
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly cursors = new Map<string, number>();
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  readonly sessionEndedListeners = new Set<() => void>();
  /** This tab is signing itself out: the 4401 that follows is its own doing, and the logout lands the page. */
  ownSignOut = false;

  follow(topic: string, listener: Listener): () => void {
    let set = this.listeners.get(topic);
    if (!set) {
      set = new Set();
      this.listeners.set(topic, set);
      this.send({ type: 'subscribe', topic, ...this.since(topic) });
    }
    set.add(listener);
    this.open();
    return () => {
      set.delete(listener);
      if (set.size > 0) return;
      this.listeners.delete(topic);
      this.cursors.delete(topic);
      this.send({ type: 'unsubscribe', topic });
      if (this.listeners.size === 0) this.close();
    };
  }

  private since(topic: string): { since?: number } {
    const cursor = this.cursors.get(topic);
    return cursor === undefined ? {} : { since: cursor };
  }

  private open(): void {
    if (this.socket || this.retryTimer !== undefined) return;
    const socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/ws`);
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      for (const topic of this.listeners.keys()) this.send({ type: 'subscribe', topic, ...this.since(topic) });
    };
    socket.onmessage = (message) => { this.receive(JSON.parse(String(message.data)) as LiveServerMessage); };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      // A signed-out session (logout elsewhere, a password reset) would be refused again: no
      // retry; the app signs out, and the next screen that follows a topic opens a new socket.
      if (event.code === SESSION_ENDED_CLOSE_CODE) {
        this.attempt = 0;
        if (!this.ownSignOut) for (const listener of this.sessionEndedListeners) listener();
        return;
      }
      if (this.listeners.size === 0) return;
      const delay = RETRY_MS[Math.min(this.attempt++, RETRY_MS.length - 1)];
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        this.open();
      }, delay);
    };
  }

  private receive(message: LiveServerMessage): void {
    if (message.type === 'subscribed' && !this.cursors.has(message.topic)) this.cursors.set(message.topic, message.seq);
    if (message.type !== 'event') return;
    if (message.seq !== undefined) this.cursors.set(message.topic, Math.max(message.seq, this.cursors.get(message.topic) ?? 0));
    for (const listener of this.listeners.get(message.topic) ?? []) listener(message);
  }

  private send(message: LiveClientMessage): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private close(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.socket?.close();
    this.socket = null;
  }
}

const connection = new LiveConnection();

/** Calls back when the server ends the socket's session; returns the unsubscribe. */
export function onLiveSessionEnded(listener: () => void): () => void {
  connection.sessionEndedListeners.add(listener);
  return () => { connection.sessionEndedListeners.delete(listener); };
}

/**
 * Marks this tab's own logout while it runs. The server closes the tab's socket (4401) as it ends
 * the session, often before the logout's own answer arrives; the sign-out listeners would then
 * drop the user first, and the page left behind would send itself to /login?next=<itself>.
 */
export function expectLiveSessionEnd(expected: boolean): void {
  connection.ownSignOut = expected;
}

/** Follows a topic while the component is mounted (null: none); the newest handler gets each event. */
export function useLiveTopic(topic: string | null, onEvent: Listener): void {
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  });
  useEffect(() => {
    if (!topic) return undefined;
    return connection.follow(topic, (event) => { handler.current(event); });
  }, [topic]);
}
