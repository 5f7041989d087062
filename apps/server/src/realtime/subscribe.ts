/**
 * Security-critical: a topic is followed only after the same ownership rules as the HTTP API
 * allow it (packages/domain/src/topics.ts).
 */
import type { SubscribeMessage } from '@rideway/contract';
import { canSubscribe, parseTopic, topicName, type BookingStatus, type Topic } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../context';
import { bookings } from '../db/schema';
import type { Actor } from '../http/actor';
import { liveDrivers } from '../modules/presence/service';
import { sendFrame, sendMessage, type Connection } from './connection';
import { eventFrame, eventsSince, latestSeq } from './events';
import { countRefusal, refusalsSpent } from './socket-limits';
import { admits, type Subscriptions } from './subscriptions';

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

/** The topic a client names, if it may follow it; the refusal's code otherwise. */
async function authorize(ctx: AppContext, actor: Actor, name: string): Promise<Topic | 'validation_error' | 'forbidden'> {
  const topic = parseTopic(name, actor.uid);
  if (!topic) return 'validation_error';
  const booking = 'bookingId' in topic ? await bookingOwnership(ctx, topic.bookingId) : undefined;
  return canSubscribe(actor, topic, booking) ? topic : 'forbidden';
}

/** Where a topic's events are published: a fleet admin's live map is the map of its own drivers. */
export const internalTopic = (topic: Topic, actor: Actor): string =>
  topic.kind === 'drivers:live' && actor.usertype === 'fleetadmin' ? `drivers:live:${actor.uid}` : topicName(topic);

/**
 * Replays what a reconnecting client missed after its cursor. Live frames of the topic are held
 * meanwhile, then sent unless already replayed, so each event arrives once and in order.
 */
async function resume(ctx: AppContext, connection: Connection, topic: Topic, internal: string, name: string, since: number): Promise<void> {
  let cursor = since;
  connection.replaying.set(internal, []);
  for (const missed of await eventsSince(ctx.db, topicName(topic), since)) {
    if (missed.audience && !admits(connection.actor, missed.audience)) continue;
    sendFrame(connection, eventFrame(name, missed.event, missed.data, missed.seq));
    cursor = missed.seq;
  }
  const held = connection.replaying.get(internal) ?? [];
  connection.replaying.delete(internal);
  connection.resumedTo.set(internal, cursor);
  for (const live of held) if (live.seq === undefined || live.seq > cursor) sendFrame(connection, live.frame);
}

/**
 * Follows a topic: authorized, then resumed from the client's cursor, acknowledged, and for the
 * live map a snapshot. A socket past its budget of refusals is answered too_many_requests before
 * the topic is looked up: a flood of refused subscribes costs no database read.
 */
export async function subscribe(ctx: AppContext, subscriptions: Subscriptions, connection: Connection, message: SubscribeMessage): Promise<void> {
  const { topic: name, since } = message;
  if (refusalsSpent(connection.limits, connection.counters)) {
    sendMessage(connection, { type: 'error', code: 'too_many_requests', topic: name });
    return;
  }
  const topic = await authorize(ctx, connection.actor, name);
  if (typeof topic === 'string') {
    countRefusal(connection.limits, connection.counters);
    sendMessage(connection, { type: 'error', code: topic, topic: name });
    return;
  }
  const internal = internalTopic(topic, connection.actor);
  if (!subscriptions.follow(connection, internal, name)) {
    countRefusal(connection.limits, connection.counters);
    sendMessage(connection, { type: 'error', code: 'validation_error', topic: name });
    return;
  }
  if (since !== undefined) await resume(ctx, connection, topic, internal, name, since);
  const seq = await latestSeq(ctx.db);
  ctx.live.bus.followedFrom?.(seq);
  sendMessage(connection, { type: 'subscribed', topic: name, seq });
  if (topic.kind === 'drivers:live') {
    sendMessage(connection, { type: 'event', topic: 'drivers:live', event: 'snapshot', data: { drivers: await liveDrivers(ctx, connection.actor) } });
  }
}
