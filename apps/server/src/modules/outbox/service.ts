import type { MailPayload, OutboxMessage, OutboxQuery, PushPayload, SmsPayload } from '@rideway/contract';
import { and, desc, eq, ne } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { outbox } from '../../db/schema';
import { emit } from '../../realtime/events';

/** The messages' shapes are the contract's, so the admins' listing describes what was written. */
type MailMessage = MailPayload;
type SmsMessage = SmsPayload;
type PushMessage = PushPayload;

/**
 * Writes a message to the outbox in the caller's transaction: it leaves only if the change that
 * caused it commits. With no provider configured the outbox is where it stays, readable by admins.
 */
export async function enqueue(
  tx: Db | Tx,
  message:
    | { channel: 'mail'; recipient: string; payload: MailMessage }
    | { channel: 'sms'; recipient: string; payload: SmsMessage }
    | { channel: 'push'; recipient: string; payload: PushMessage },
  now: number,
): Promise<void> {
  await tx.insert(outbox).values({ channel: message.channel, recipient: message.recipient, payload: message.payload, createdAt: now });
  // A push notice also reaches the user's open app at once, on its user topic.
  if (message.channel === 'push') await emit(tx, `user:${message.recipient}`, 'notice', message.payload, now);
}

// The payload's shape per channel is the one `enqueue` was typed with.
const toMessage = (row: typeof outbox.$inferSelect): OutboxMessage =>
  ({
    id: row.id,
    channel: row.channel,
    recipient: row.recipient,
    payload: row.payload,
    createdAt: row.createdAt,
    deliveredAt: row.deliveredAt,
    attempts: row.attempts,
    lastError: row.lastError,
    failedAt: row.failedAt,
  }) as OutboxMessage;

/** The latest 200 messages people receive, by channel and recipient when asked. */
export async function listOutbox(db: Db, filter: OutboxQuery): Promise<OutboxMessage[]> {
  const conditions = [
    // Live events have their own log; the listing is the messages people receive.
    filter.channel ? eq(outbox.channel, filter.channel) : ne(outbox.channel, 'event'),
    filter.recipient ? eq(outbox.recipient, filter.recipient) : undefined,
  ].filter((condition) => condition !== undefined);
  const rows = await db
    .select()
    .from(outbox)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(outbox.id))
    .limit(200);
  return rows.map(toMessage);
}

