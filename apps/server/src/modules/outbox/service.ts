import { and, desc, eq, isNull, ne } from 'drizzle-orm';
import type { PushScreen } from '@rideway/domain';
import type { Db, Tx } from '../../db/client';
import { outbox } from '../../db/schema';
import { emit } from '../../realtime/events';

export type OutboxChannel = 'mail' | 'sms' | 'push' | 'event';

export type MailMessage = { subject: string; text: string };
export type SmsMessage = { text: string };
export type PushMessage = { title: string; msg: string; screen?: PushScreen; params?: Record<string, string> };

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

export async function listOutbox(db: Db, filter: { channel?: OutboxChannel; recipient?: string }) {
  const conditions = [
    // Live events have their own log; the listing is the messages people receive.
    filter.channel ? eq(outbox.channel, filter.channel) : ne(outbox.channel, 'event'),
    filter.recipient ? eq(outbox.recipient, filter.recipient) : undefined,
  ].filter((condition) => condition !== undefined);
  return db
    .select()
    .from(outbox)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(outbox.id))
    .limit(200);
}

export const pendingMail = (db: Db, limit: number) =>
  db.select().from(outbox).where(and(eq(outbox.channel, 'mail'), isNull(outbox.deliveredAt))).orderBy(outbox.id).limit(limit);
