import type { MailPayload, OutboxMessage, OutboxQuery, PushPayload, SmsPayload } from '@rideway/contract';
import { MAX_DELIVERY_ATTEMPTS, MESSAGE_CHANNELS, outboxState, type OutboxState } from '@rideway/domain';
import { and, desc, eq, gte, ilike, inArray, isNotNull, isNull, lt, ne, or, type SQL } from 'drizzle-orm';
import { recordAudit } from '../../audit/record';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { outbox } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import { eventRow, type OutboxRow } from '../../realtime/events';

/** The messages' shapes are the contract's, so the admins' listing describes what was written. */
type MailMessage = MailPayload;
type SmsMessage = SmsPayload;
type PushMessage = PushPayload;

/** A message for the outbox: mail, SMS or push, each with its contract's payload. */
export type OutgoingMessage =
  | { channel: 'mail'; recipient: string; payload: MailMessage }
  | { channel: 'sms'; recipient: string; payload: SmsMessage }
  | { channel: 'push'; recipient: string; payload: PushMessage };

/**
 * Writes a message to the outbox in the caller's transaction: it leaves only if the change that
 * caused it commits. With no provider configured the outbox is where it stays, readable by admins.
 */
export async function enqueue(tx: Db | Tx, message: OutgoingMessage, now: number): Promise<void> {
  await tx.insert(outbox).values(messageRows(message, now));
}

/**
 * A message's outbox rows, for a caller that writes several in one statement: the message, and
 * for a push its notice on the user's topic, which reaches the user's open app at once.
 */
export function messageRows(message: OutgoingMessage, now: number): OutboxRow[] {
  const row: OutboxRow = { channel: message.channel, recipient: message.recipient, payload: message.payload, createdAt: now };
  return message.channel === 'push' ? [row, eventRow(`user:${message.recipient}`, 'notice', message.payload, now)] : [row];
}

/** Rows made by messageRows and eventRow, in one statement; the outbox numbers them in this order. */
export async function writeOutbox(tx: Db | Tx, rows: readonly OutboxRow[]): Promise<void> {
  if (rows.length > 0) await tx.insert(outbox).values([...rows]);
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
    state: outboxState(row),
  }) as OutboxMessage;

/**
 * The domain's outboxState in SQL, so the filter runs in the database and the 200 newest of a
 * state are those listed. Failed: given up, refused for good (failedAt) or out of attempts (the
 * mail and push relays stop at their last attempt without marking it).
 */
const IN_STATE: Record<OutboxState, SQL> = {
  delivered: isNotNull(outbox.deliveredAt),
  failed: and(isNull(outbox.deliveredAt), or(isNotNull(outbox.failedAt), gte(outbox.attempts, MAX_DELIVERY_ATTEMPTS))) as SQL,
  waiting: and(isNull(outbox.deliveredAt), isNull(outbox.failedAt), lt(outbox.attempts, MAX_DELIVERY_ATTEMPTS)) as SQL,
};

/** A LIKE pattern that finds the text anywhere, its own % and _ taken literally. */
const containing = (text: string): string => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/** The latest 200 messages people receive, by channel, recipient, state and part of the recipient when asked. */
export async function listOutbox(db: Db, filter: OutboxQuery): Promise<OutboxMessage[]> {
  const conditions = [
    // Live events have their own log; the listing is the messages people receive.
    filter.channel ? eq(outbox.channel, filter.channel) : ne(outbox.channel, 'event'),
    filter.recipient ? eq(outbox.recipient, filter.recipient) : undefined,
    filter.state ? IN_STATE[filter.state] : undefined,
    // A mobile number is stored as digits with its dial code: one typed in E.164 (+44…) is found too.
    filter.search ? ilike(outbox.recipient, containing(filter.search.replace(/^\+/, ''))) : undefined,
  ].filter((condition) => condition !== undefined);
  const rows = await db
    .select()
    .from(outbox)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(outbox.id))
    .limit(200);
  return rows.map(toMessage);
}

/**
 * POST /api/outbox/:id/retry (issue 19): an admin sends a failed message again. It waits once
 * more, with its attempts from zero, no error and no due time, which is what each relay takes up
 * next. One conditional update: of two clicks, or a click racing a relay, only one resets it.
 * A live event is not a message (not_found, as in the listing); a delivered or waiting one is
 * refused with message_not_failed, so nobody gets a message twice.
 */
export async function retryMessage(ctx: AppContext, actor: Actor, id: number): Promise<OutboxMessage> {
  const message = and(eq(outbox.id, id), inArray(outbox.channel, [...MESSAGE_CHANNELS]));
  return ctx.db.transaction(async (tx) => {
    const [failed] = await tx.select().from(outbox).where(and(message, IN_STATE.failed)).for('update');
    const [retried] = failed
      ? await tx.update(outbox).set({ failedAt: null, lastError: null, attempts: 0, nextAttemptAt: null }).where(and(message, IN_STATE.failed)).returning()
      : [];
    if (!failed || !retried) {
      const [found] = await tx.select({ id: outbox.id }).from(outbox).where(message);
      throw new AppError(found ? 'message_not_failed' : 'not_found');
    }
    // Issue 23 point 8: what the retry reset (the message's text stays out: it is the recipient's).
    const delivery = (row: typeof outbox.$inferSelect) => ({ state: outboxState(row), attempts: row.attempts, lastError: row.lastError, failedAt: row.failedAt });
    await recordAudit(tx, { actor, action: 'message.retry', entityId: String(id), before: delivery(failed), after: delivery(retried), at: ctx.now() });
    return toMessage(retried);
  });
}
