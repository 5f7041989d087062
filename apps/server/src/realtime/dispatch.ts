import { liveClientMessageSchema, type LiveClientMessage, type LiveServerMessage } from '@rideway/contract';
import { parseTopic } from '@rideway/domain';
import type { AppContext } from '../context';
import type { Actor } from '../http/actor';
import { reportLocation } from '../modules/presence/service';
import { sendMessage, type Connection } from './connection';
import { internalTopic, subscribe } from './subscribe';
import type { Subscriptions } from './subscriptions';

const valueAt = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null && key in value ? (value as Record<string, unknown>)[key] : undefined;

/**
 * The answer to a message the contract refuses, as clients have always had it: a subscribe names
 * the topic it refused; an unsubscribe of what is no topic is a no-op, acknowledged; a position
 * from anyone but a driver is forbidden whatever it holds.
 */
function refusal(actor: Actor, json: unknown): LiveServerMessage {
  switch (valueAt(json, 'type')) {
    case 'subscribe':
      return { type: 'error', code: 'validation_error', topic: valueAt(json, 'topic') };
    case 'unsubscribe':
      return { type: 'unsubscribed', topic: valueAt(json, 'topic') };
    case 'location':
      return { type: 'error', code: actor.usertype === 'driver' ? 'validation_error' : 'forbidden' };
    default:
      return { type: 'error', code: 'validation_error' };
  }
}

/** A text frame as a client message of the contract, or the answer that refuses it. */
function parseMessage(actor: Actor, raw: string): LiveClientMessage | { refused: LiveServerMessage } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { refused: { type: 'error', code: 'validation_error' } };
  }
  const parsed = liveClientMessageSchema.safeParse(json);
  return parsed.success ? parsed.data : { refused: refusal(actor, json) };
}

/** Handles one message from a client. */
export async function dispatch(ctx: AppContext, subscriptions: Subscriptions, connection: Connection, raw: string): Promise<void> {
  const message = parseMessage(connection.actor, raw);
  if ('refused' in message) {
    sendMessage(connection, message.refused);
    return;
  }
  switch (message.type) {
    case 'subscribe':
      return subscribe(ctx, subscriptions, connection, message);
    case 'unsubscribe': {
      const topic = parseTopic(message.topic, connection.actor.uid);
      if (topic) subscriptions.unfollow(connection, internalTopic(topic, connection.actor));
      sendMessage(connection, { type: 'unsubscribed', topic: message.topic });
      return;
    }
    case 'location':
      if (connection.actor.usertype !== 'driver') {
        sendMessage(connection, { type: 'error', code: 'forbidden' });
        return;
      }
      // One count with the positions sent by HTTP: over it, the error frame says too_many_requests.
      await connection.limits?.countLocation();
      await reportLocation(ctx, connection.actor, message);
      return;
    case 'ping':
      sendMessage(connection, { type: 'pong' });
      return;
  }
}
