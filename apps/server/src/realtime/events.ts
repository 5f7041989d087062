import type { LiveEventName } from '@rideway/contract';
import { and, asc, desc, eq, gt, isNotNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { outbox } from '../db/schema';
import type { Audience, LiveMessage } from './bus';

/** An event as the outbox keeps it; its data is the event's in packages/contract/src/live.ts. */
export type EventPayload = { event: LiveEventName; data: unknown; audience?: Audience };

/**
 * Writes a live event to the outbox in the caller's transaction (ARCHITECTURE rule 4): it is
 * delivered only if the change that caused it commits, and a crash between commit and delivery
 * loses nothing: the relay finds it on its next pass.
 */
export async function emit(tx: Db | Tx, topic: string, event: LiveEventName, data: unknown, now: number, audience?: Audience): Promise<void> {
  await tx.insert(outbox).values(eventRow(topic, event, data, now, audience));
}

/** A row of the outbox, as written. */
export type OutboxRow = typeof outbox.$inferInsert;

/**
 * A live event as its outbox row, for a caller that writes several rows in one statement (a
 * trip step's notices and announcement: one round trip inside the booking's lock, not one each).
 */
export function eventRow(topic: string, event: LiveEventName, data: unknown, now: number, audience?: Audience): OutboxRow {
  const payload: EventPayload = audience ? { event, data, audience } : { event, data };
  return { channel: 'event', recipient: topic, payload, createdAt: now };
}

/** The frame every subscriber of a topic receives, serialized once (an event message of the contract). */
export const eventFrame = (topic: string, event: LiveEventName, data: unknown, seq?: number): string =>
  JSON.stringify(seq === undefined ? { type: 'event', topic, event, data } : { type: 'event', topic, event, data, seq });

/** An event numbered by the relay, as the bus carries it: its frame serialized once, with its cursor. */
export const eventMessage = (seq: number, topic: string, payload: EventPayload): LiveMessage & { seq: number } => ({
  topics: [topic],
  frame: eventFrame(topic, payload.event, payload.data, seq),
  seq,
  ...(payload.audience ? { audience: payload.audience } : {}),
});

/** Events of a topic after a cursor, in order: what a reconnecting client missed. */
export async function eventsSince(db: Db, topic: string, since: number, limit = 500) {
  const rows = await db
    .select({ seq: outbox.seq, payload: outbox.payload })
    .from(outbox)
    .where(and(eq(outbox.channel, 'event'), eq(outbox.recipient, topic), gt(outbox.seq, since)))
    .orderBy(asc(outbox.seq))
    .limit(limit);
  return rows.map((row) => ({ seq: row.seq ?? 0, ...(row.payload as EventPayload) }));
}

/** The newest cursor: a client that subscribes now resumes from here. */
export async function latestSeq(db: Db): Promise<number> {
  const row = (await db.select({ seq: outbox.seq }).from(outbox).where(isNotNull(outbox.seq)).orderBy(desc(outbox.seq)).limit(1))[0];
  return row?.seq ?? 0;
}

/** Delivered events older than this are dropped; a client away longer reloads instead of resuming. */
export const EVENT_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * Drops delivered events past retention, all but the newest: the relay numbers on from the
 * highest cursor kept, so after a quiet day the numbering never starts again from 1 under the
 * cursors that clients and processes hold (realtime/catch-up.ts).
 */
export const pruneEvents = (db: Db, now: number) =>
  db
    .delete(outbox)
    .where(
      and(
        eq(outbox.channel, 'event'),
        isNotNull(outbox.seq),
        sql`${outbox.deliveredAt} < ${now - EVENT_RETENTION_MS}`,
        sql`${outbox.seq} < (select max(newest.seq) from ${outbox} as newest where newest.seq is not null)`,
      ),
    );
