import fastifyWebsocket, { type WebSocket } from '@fastify/websocket';
import { canSubscribe, parseTopic, topicName, type BookingStatus, type Topic } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { bookings } from '../db/schema';
import type { Actor } from '../http/actor';
import { AppError } from '../http/app-error';
import { liveDrivers, reportLocation } from '../modules/presence/service';
import type { Audience, LiveMessage } from './bus';
import { eventFrame, eventsSince, latestSeq } from './events';

/** A client may follow this many topics on one connection. */
export const MAX_TOPICS_PER_CONNECTION = 200;
const MAX_MESSAGE_BYTES = 16 * 1024;

type Connection = {
  socket: WebSocket;
  actor: Actor;
  /** Internal topic to the name the client used. */
  topics: Map<string, string>;
  /** Live frames held back while a topic's missed events are replayed. */
  replaying: Map<string, { frame: string; seq?: number }[]>;
  alive: boolean;
};

/** Whether a subscriber is still among the people an event is for (an offer withdrawn, say). */
export const admits = (actor: Actor, audience: Audience): boolean =>
  actor.usertype === 'admin' ? audience.admins : audience.uids.includes(actor.uid) || (actor.usertype === 'fleetadmin' && audience.fleetadmin === actor.uid);

async function bookingOwnership(ctx: AppContext, id: string) {
  const row = (
    await ctx.db
      .select({ status: bookings.status, customer: bookings.customer, driver: bookings.driver, fleetadmin: bookings.fleetadmin, requestedDrivers: bookings.requestedDrivers })
      .from(bookings)
      .where(eq(bookings.id, id))
      .limit(1)
  )[0];
  return row ? { ...row, status: row.status as BookingStatus } : undefined;
}

/** Where a topic's events are published: a fleet admin's live map is the map of its own drivers. */
const internalTopic = (topic: Topic, actor: Actor): string =>
  topic.kind === 'drivers:live' && actor.usertype === 'fleetadmin' ? `drivers:live:${actor.uid}` : topicName(topic);

/**
 * The WebSocket gateway at /api/ws (issue 5, API.md "Realtime"): authenticated by the session on
 * upgrade, each topic authorized on subscribe, events delivered from the bus as frames serialized
 * once, missed events replayed from a cursor, dead connections dropped by heartbeat.
 */
/**
 * The WebSocket plugin, registered before the session hook: its own hooks then see every upgrade,
 * and close the socket of one the session hook refuses.
 */
export async function registerWebSocket(app: FastifyInstance): Promise<void> {
  await app.register(fastifyWebsocket, { options: { maxPayload: MAX_MESSAGE_BYTES } });
}

/**
 * A client hears of a topic by the name it subscribed with (`user:me`), whatever the topic is
 * called inside (`user:<uid>`). Frames are built once for every subscriber, so only a renamed
 * topic costs a rewrite of the frame's leading topic field.
 */
function asSubscribed(frame: string, internal: string, name: string | undefined): string {
  if (name === undefined || name === internal) return frame;
  return frame.replace(`"topic":${JSON.stringify(internal)}`, `"topic":${JSON.stringify(name)}`);
}

export function registerGateway(app: FastifyInstance, ctx: AppContext): { connections: () => number } {
  const byTopic = new Map<string, Set<Connection>>();
  const connections = new Set<Connection>();

  const send = (connection: Connection, frame: string) => {
    if (connection.socket.readyState === connection.socket.OPEN) connection.socket.send(frame);
  };
  const sendJson = (connection: Connection, message: Record<string, unknown>) => {
    send(connection, JSON.stringify(message));
  };
  const unsubscribe = (connection: Connection, internal: string) => {
    connection.topics.delete(internal);
    connection.replaying.delete(internal);
    const subscribers = byTopic.get(internal);
    subscribers?.delete(connection);
    if (subscribers?.size === 0) byTopic.delete(internal);
  };

  const deliver = (connection: Connection, internal: string, message: LiveMessage) => {
    if (message.audience && !admits(connection.actor, message.audience)) {
      const name = connection.topics.get(internal);
      unsubscribe(connection, internal);
      sendJson(connection, { type: 'error', code: 'forbidden', topic: name });
      return;
    }
    const frame = asSubscribed(message.frame, internal, connection.topics.get(internal));
    const held = connection.replaying.get(internal);
    if (held) held.push(message.seq === undefined ? { frame } : { frame, seq: message.seq });
    else send(connection, frame);
  };

  ctx.live.bus.subscribe((message) => {
    for (const internal of message.topics) {
      const subscribers = byTopic.get(internal);
      if (!subscribers) continue;
      for (const connection of subscribers) deliver(connection, internal, message);
    }
  });

  async function subscribe(connection: Connection, name: unknown, since: unknown): Promise<void> {
    const topic = parseTopic(name, connection.actor.uid);
    if (!topic) { sendJson(connection, { type: 'error', code: 'validation_error', topic: name }); return; }
    const booking = 'bookingId' in topic ? await bookingOwnership(ctx, topic.bookingId) : undefined;
    if (!canSubscribe(connection.actor, topic, booking)) { sendJson(connection, { type: 'error', code: 'forbidden', topic: name }); return; }
    const internal = internalTopic(topic, connection.actor);
    if (!connection.topics.has(internal) && connection.topics.size >= MAX_TOPICS_PER_CONNECTION) { sendJson(connection, { type: 'error', code: 'validation_error', topic: name }); return; }
    connection.topics.set(internal, String(name));
    let subscribers = byTopic.get(internal);
    if (!subscribers) {
      subscribers = new Set();
      byTopic.set(internal, subscribers);
    }
    subscribers.add(connection);

    let cursor = typeof since === 'number' && Number.isSafeInteger(since) && since >= 0 ? since : undefined;
    if (cursor !== undefined) {
      // Hold live frames, send what was missed, then what arrived meanwhile, each once.
      connection.replaying.set(internal, []);
      for (const missed of await eventsSince(ctx.db, topicName(topic), cursor)) {
        if (missed.audience && !admits(connection.actor, missed.audience)) continue;
        send(connection, eventFrame(String(name), missed.event, missed.data, missed.seq));
        cursor = missed.seq;
      }
      const held = connection.replaying.get(internal) ?? [];
      connection.replaying.delete(internal);
      for (const live of held) if (live.seq === undefined || live.seq > cursor) send(connection, live.frame);
    }
    sendJson(connection, { type: 'subscribed', topic: name, seq: await latestSeq(ctx.db) });
    if (topic.kind === 'drivers:live') send(connection, eventFrame('drivers:live', 'snapshot', { drivers: await liveDrivers(ctx, connection.actor) }));
  }

  async function handle(connection: Connection, raw: string): Promise<void> {
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch {
      sendJson(connection, { type: 'error', code: 'validation_error' }); return;
    }
    if (typeof message !== 'object' || message === null || !('type' in message)) { sendJson(connection, { type: 'error', code: 'validation_error' }); return; }
    const field = (key: string): unknown => (key in message ? (message as Record<string, unknown>)[key] : undefined);
    switch (message.type) {
      case 'subscribe':
        return subscribe(connection, field('topic'), field('since'));
      case 'unsubscribe': {
        const topic = parseTopic(field('topic'), connection.actor.uid);
        if (topic) unsubscribe(connection, internalTopic(topic, connection.actor));
        sendJson(connection, { type: 'unsubscribed', topic: field('topic') }); return;
      }
      case 'location':
        if (connection.actor.usertype !== 'driver') { sendJson(connection, { type: 'error', code: 'forbidden' }); return; }
        await reportLocation(ctx, connection.actor, message);
        return;
      case 'ping':
        { sendJson(connection, { type: 'pong' }); return; }
      default:
        { sendJson(connection, { type: 'error', code: 'validation_error' }); return; }
    }
  }

  app.route({
    method: 'GET',
    url: '/api/ws',
    schema: { summary: 'WebSocket: subscribe to topics, receive events (API.md "Realtime")' },
    // A plain HTTP request here is a client that forgot to upgrade.
    handler: () => {
      throw new AppError('validation_error');
    },
    wsHandler: (socket, request) => {
    const actor = request.actor;
    if (!actor) {
      socket.close(4401, 'not_logged_in');
      return;
    }
    const connection: Connection = { socket, actor, topics: new Map(), replaying: new Map(), alive: true };
    connections.add(connection);
    // Messages are handled one at a time, in order, so a resume finishes before the next subscribe.
    let queue = Promise.resolve();
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      const raw = isBinary ? '' : data.toString('utf8');
      queue = queue.then(() =>
        handle(connection, raw).catch((error: unknown) => {
          sendJson(connection, { type: 'error', code: error instanceof AppError ? error.key : 'internal_error' });
          if (!(error instanceof AppError)) request.log.error({ err: error }, 'websocket message failed');
        }),
      );
    });
    socket.on('pong', () => {
      connection.alive = true;
    });
    socket.on('close', () => {
      connections.delete(connection);
      for (const internal of [...connection.topics.keys()]) unsubscribe(connection, internal);
    });
    },
  });

  const heartbeat = setInterval(() => {
    for (const connection of connections) {
      if (!connection.alive) {
        connection.socket.terminate();
        continue;
      }
      connection.alive = false;
      connection.socket.ping();
    }
  }, ctx.config.WS_HEARTBEAT_S * 1000);
  heartbeat.unref();
  app.addHook('preClose', (done) => {
    clearInterval(heartbeat);
    for (const connection of connections) connection.socket.close(1001, 'server shutting down');
    done();
  });
  return { connections: () => connections.size };
}
