import fastifyWebsocket, { type WebSocket } from '@fastify/websocket';
import { noContent } from '@rideway/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Actor } from '../http/actor';
import { AppError } from '../http/app-error';
import { hashToken } from '../modules/accounts/sessions';
import { isOpen, openConnection, sendMessage, type Connection } from './connection';
import { dispatch } from './dispatch';
import { startHeartbeat } from './heartbeat';
import { connectionIndex, watchSessions } from './session-end';
import { admitMessage, FLOODED_CLOSE, type SocketLimits } from './socket-limits';
import { subscriptions as subscriptionsOf, type Subscriptions } from './subscriptions';

const MAX_MESSAGE_BYTES = 16 * 1024;

/** This process's WebSockets in numbers, read at a metrics scrape (metrics/endpoint.ts). */
export type LiveSocketStats = { connections: number; topicsByKind: Map<string, number>; subscriptions: number };

declare module 'fastify' {
  interface FastifyInstance {
    /** Read-only numbers of the gateway's open sockets and the topics they follow. */
    liveSocketStats: () => LiveSocketStats;
  }
}

/**
 * The WebSocket plugin, registered before the session hook: its own hooks then see every upgrade,
 * and close the socket of one the session hook refuses.
 */
export async function registerWebSocket(app: FastifyInstance): Promise<void> {
  await app.register(fastifyWebsocket, {
    options: { maxPayload: MAX_MESSAGE_BYTES },
    // On shutdown every client hears 1001 (going away), its cue to reconnect to another server,
    // where the plugin's own close would send no code at all.
    preClose(done) {
      for (const client of this.websocketServer.clients) client.close(1001, 'server shutting down');
      this.websocketServer.close();
      done();
    },
  });
}

/** The session hook refuses an upgrade without a session; a socket that got here without one is closed all the same. */
function authenticate(socket: WebSocket, request: FastifyRequest): { actor: Actor; session: string } | null {
  if (!request.actor || !request.sessionToken) {
    socket.close(4401, 'not_logged_in');
    return null;
  }
  return { actor: request.actor, session: hashToken(request.sessionToken) };
}

/**
 * Handles a connection's messages one at a time, in order, so a resume finishes before the next
 * subscribe. Once the socket is closing (its session ended) nothing it sent is handled any more.
 * Its message limit is applied as each message arrives, before it is queued: a flood is refused
 * (then closed) without growing the queue.
 */
function listen(ctx: AppContext, subscriptions: Subscriptions, connection: Connection, request: FastifyRequest): void {
  let queue = Promise.resolve();
  connection.socket.on('message', (data: Buffer, isBinary: boolean) => {
    if (!isOpen(connection)) return;
    const admitted = admitMessage(connection.limits, connection.counters);
    if (admitted === 'refuse') sendMessage(connection, { type: 'error', code: 'too_many_requests' });
    if (admitted === 'close') connection.socket.close(FLOODED_CLOSE.code, FLOODED_CLOSE.reason);
    if (admitted !== 'handle') return;
    const raw = isBinary ? '' : data.toString('utf8');
    queue = queue.then(async () => {
      if (!isOpen(connection)) return;
      await dispatch(ctx, subscriptions, connection, raw).catch((error: unknown) => {
        sendMessage(connection, { type: 'error', code: error instanceof AppError ? error.key : 'internal_error' });
        if (!(error instanceof AppError)) request.log.error({ err: error }, 'websocket message failed');
      });
    });
  });
  connection.socket.on('pong', () => {
    connection.alive = true;
  });
}

/**
 * The WebSocket gateway at /api/ws (issue 5, API.md "Realtime"; the messages are the contract's,
 * packages/contract/src/live.ts): authenticated by the session on upgrade, each topic authorized on
 * subscribe, events delivered from the bus as frames serialized once, missed events replayed from
 * a cursor, dead connections dropped by heartbeat, and every socket closed when its session ends
 * (session-end.ts).
 */
export function registerGateway(app: FastifyInstance, ctx: AppContext): { connections: () => number } {
  const subscriptions = subscriptionsOf(ctx.live.bus);
  const connections = connectionIndex(subscriptions);
  const { sockets } = app.rateLimits;
  const limitsOf = (request: FastifyRequest): SocketLimits | null =>
    sockets && { messages: sockets.messages, refusals: sockets.refusals, countLocation: () => app.rateLimits.count('location', request) };
  // Whether the user holds as many sockets on this process as one may (a dead one is dropped within a heartbeat).
  const isFull = (uid: string) => sockets !== null && connections.countOf(uid) >= sockets.openPerUser;

  app.route({
    method: 'GET',
    url: '/api/ws',
    config: { access: 'signedIn' },
    schema: { summary: 'WebSocket: subscribe to topics, receive events (API.md "Realtime"; messages: the contract\'s live.ts)', response: { 101: noContent } },
    // A user holding as many sockets as one may is refused another before the upgrade.
    preHandler: (request, _reply, done) => {
      done(request.actor && isFull(request.actor.uid) ? new AppError('too_many_requests', undefined, { 'retry-after': String(ctx.config.WS_HEARTBEAT_S) }) : undefined);
    },
    // A plain HTTP request here is a client that forgot to upgrade.
    handler: () => {
      throw new AppError('validation_error');
    },
    wsHandler: (socket, request) => {
      const signedIn = authenticate(socket, request);
      if (!signedIn) return;
      // Upgrades racing past the check above: the cap holds when the socket is counted.
      if (isFull(signedIn.actor.uid)) {
        socket.close(FLOODED_CLOSE.code, FLOODED_CLOSE.reason);
        return;
      }
      const connection = openConnection(socket, signedIn.actor, signedIn.session, limitsOf(request));
      connections.add(connection);
      listen(ctx, subscriptions, connection, request);
      socket.on('close', () => {
        connections.remove(connection);
        subscriptions.unfollowAll(connection);
      });
    },
  });

  app.decorate('liveSocketStats', () => ({ connections: connections.size, ...subscriptions.stats() }));
  startHeartbeat(app, () => connections.all(), ctx.config.WS_HEARTBEAT_S);
  watchSessions(app, ctx, connections, ctx.config.WS_HEARTBEAT_S);
  return { connections: () => connections.size };
}
