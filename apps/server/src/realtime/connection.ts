import type { WebSocket } from '@fastify/websocket';
import type { LiveServerMessage } from '@rideway/contract';
import type { Actor } from '../http/actor';
import { newCounters, type SocketCounters, type SocketLimits } from './socket-limits';

/** A live frame held back while its topic's missed events are replayed. */
export type HeldFrame = { frame: string; seq?: number };

/** One client's socket: who it is, what it follows, and whether it answered the last heartbeat. */
export type Connection = {
  socket: WebSocket;
  actor: Actor;
  /** The SHA-256 of the session token it was opened with: the socket closes when that session ends. */
  session: string;
  /** Internal topic to the name the client used. */
  topics: Map<string, string>;
  /** Live frames held back while a topic's missed events are replayed. */
  replaying: Map<string, HeldFrame[]>;
  /** Internal topic to the cursor its replay reached: events up to it were sent, and are not sent again. */
  resumedTo: Map<string, number>;
  alive: boolean;
  /** Its limits (socket-limits.ts), null when RATE_LIMITS=off, and its counts against them. */
  limits: SocketLimits | null;
  counters: SocketCounters;
};

export const openConnection = (socket: WebSocket, actor: Actor, session: string, limits: SocketLimits | null): Connection => ({
  socket,
  actor,
  session,
  topics: new Map(),
  replaying: new Map(),
  resumedTo: new Map(),
  alive: true,
  limits,
  counters: newCounters(),
});

/** Whether the socket still serves its client: not once its session ended or it started closing. */
export const isOpen = (connection: Connection): boolean => connection.socket.readyState === connection.socket.OPEN;

/** Sends a frame already serialized (events are serialized once for every subscriber). */
export function sendFrame(connection: Connection, frame: string): void {
  if (isOpen(connection)) connection.socket.send(frame);
}

/** Sends one of the contract's server messages. */
export const sendMessage = (connection: Connection, message: LiveServerMessage): void => {
  sendFrame(connection, JSON.stringify(message));
};
