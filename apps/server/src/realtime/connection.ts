import type { WebSocket } from '@fastify/websocket';
import type { LiveServerMessage } from '@rideway/contract';
import type { Actor } from '../http/actor';

/** A live frame held back while its topic's missed events are replayed. */
export type HeldFrame = { frame: string; seq?: number };

/** One client's socket: who it is, what it follows, and whether it answered the last heartbeat. */
export type Connection = {
  socket: WebSocket;
  actor: Actor;
  /** Internal topic to the name the client used. */
  topics: Map<string, string>;
  /** Live frames held back while a topic's missed events are replayed. */
  replaying: Map<string, HeldFrame[]>;
  alive: boolean;
};

export const openConnection = (socket: WebSocket, actor: Actor): Connection => ({ socket, actor, topics: new Map(), replaying: new Map(), alive: true });

/** Sends a frame already serialized (events are serialized once for every subscriber). */
export function sendFrame(connection: Connection, frame: string): void {
  if (connection.socket.readyState === connection.socket.OPEN) connection.socket.send(frame);
}

/** Sends one of the contract's server messages. */
export const sendMessage = (connection: Connection, message: LiveServerMessage): void => {
  sendFrame(connection, JSON.stringify(message));
};
