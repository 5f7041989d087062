import type { Actor } from '../http/actor';
import type { Audience, EventBus, LiveMessage } from './bus';
import { isOpen, sendFrame, sendMessage, type Connection } from './connection';

/** A client may follow this many topics on one connection. */
export const MAX_TOPICS_PER_CONNECTION = 200;

/** Whether a subscriber is still among the people an event is for (an offer withdrawn, say). */
export const admits = (actor: Actor, audience: Audience): boolean =>
  actor.usertype === 'admin' ? audience.admins : audience.uids.includes(actor.uid) || (actor.usertype === 'fleetadmin' && audience.fleetadmin === actor.uid);

/**
 * A client hears of a topic by the name it subscribed with (`user:me`), whatever the topic is
 * called inside (`user:<uid>`). Frames are built once for every subscriber, so only a renamed
 * topic costs a rewrite of the frame's leading topic field.
 */
function asSubscribed(frame: string, internal: string, name: string | undefined): string {
  if (name === undefined || name === internal) return frame;
  return frame.replace(`"topic":${JSON.stringify(internal)}`, `"topic":${JSON.stringify(name)}`);
}

/** Which connections follow which internal topic, and the delivery of the bus's events to them. */
export type Subscriptions = {
  /** False when the connection already follows as many topics as it may, or is closing. */
  follow(connection: Connection, internal: string, name: string): boolean;
  unfollow(connection: Connection, internal: string): void;
  unfollowAll(connection: Connection): void;
  /** Read-only, for the metrics scrape: topics followed on this process by kind, and connection-topic pairs. */
  stats(): { topicsByKind: Map<string, number>; subscriptions: number };
};

/** A topic's kind (`booking`, `user`, `drivers:live`...), never its id: a bounded label. */
const kindOf = (internal: string): string => (internal.startsWith('drivers:live') ? 'drivers:live' : internal.slice(0, internal.indexOf(':')));

export function subscriptions(bus: EventBus): Subscriptions {
  const byTopic = new Map<string, Set<Connection>>();

  const unfollow = (connection: Connection, internal: string) => {
    connection.topics.delete(internal);
    connection.replaying.delete(internal);
    connection.resumedTo.delete(internal);
    const subscribers = byTopic.get(internal);
    subscribers?.delete(connection);
    if (subscribers?.size === 0) byTopic.delete(internal);
  };

  const deliver = (connection: Connection, internal: string, message: LiveMessage) => {
    // Already sent by the replay of a client's own cursor (resume): a process catching up on what
    // its bus missed (catch-up.ts) may deliver it again.
    if (message.seq !== undefined && message.seq <= (connection.resumedTo.get(internal) ?? 0)) return;
    if (message.audience && !admits(connection.actor, message.audience)) {
      const name = connection.topics.get(internal);
      unfollow(connection, internal);
      sendMessage(connection, { type: 'error', code: 'forbidden', topic: name });
      return;
    }
    const frame = asSubscribed(message.frame, internal, connection.topics.get(internal));
    const held = connection.replaying.get(internal);
    if (held) held.push(message.seq === undefined ? { frame } : { frame, seq: message.seq });
    else sendFrame(connection, frame);
  };

  bus.subscribe(
    (message) => {
      for (const internal of message.topics) {
        for (const connection of byTopic.get(internal) ?? []) deliver(connection, internal, message);
      }
    },
    () => byTopic.size > 0,
  );

  return {
    follow(connection, internal, name) {
      // A subscribe still being authorized when the session ended follows nothing.
      if (!isOpen(connection)) return false;
      if (!connection.topics.has(internal) && connection.topics.size >= MAX_TOPICS_PER_CONNECTION) return false;
      connection.topics.set(internal, name);
      let subscribers = byTopic.get(internal);
      if (!subscribers) {
        subscribers = new Set();
        byTopic.set(internal, subscribers);
      }
      subscribers.add(connection);
      return true;
    },
    unfollow,
    unfollowAll(connection) {
      for (const internal of [...connection.topics.keys()]) unfollow(connection, internal);
    },
    stats() {
      const topicsByKind = new Map<string, number>();
      let pairs = 0;
      for (const [internal, subscribers] of byTopic) {
        const kind = kindOf(internal);
        topicsByKind.set(kind, (topicsByKind.get(kind) ?? 0) + 1);
        pairs += subscribers.size;
      }
      return { topicsByKind, subscriptions: pairs };
    },
  };
}
