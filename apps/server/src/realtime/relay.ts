import { and, eq, isNull, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/client';
import { outbox } from '../db/schema';
import type { EventBus } from './bus';
import { eventMessage, type EventPayload } from './events';

/** Any fixed number: the advisory lock that lets one relay at a time number events. */
const RELAY_LOCK = 7_105_001;

type Claimed = { seq: number; recipient: string; payload: EventPayload };

/**
 * Moves committed events from the outbox to the bus. Under one advisory lock it numbers them in
 * commit order with a gap-free cursor (seq), marks them delivered and, after commit, publishes
 * them. Several processes can relay side by side; one at a time does the numbering.
 */
/** Events numbered in one pass at most. */
const RELAY_BATCH = 500;

export async function relayEventsOnce(db: Db, bus: EventBus, now: number, batch = RELAY_BATCH, { look = true }: { look?: boolean } = {}): Promise<number> {
  // Most passes find nothing: a cheap look first, the lock and the numbering only when needed
  // (not when the caller knows events are waiting: a step that just committed its own).
  if (look) {
    const waiting = await db.select({ id: outbox.id }).from(outbox).where(and(eq(outbox.channel, 'event'), isNull(outbox.deliveredAt))).limit(1);
    if (waiting.length === 0) return 0;
  }
  const claimed = await db.transaction(async (tx) => {
    const lock = rowsOf<{ locked: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(${RELAY_LOCK}) as locked`));
    if (lock[0]?.locked !== true) return [];
    const result = rowsOf<{ seq: string | number; recipient: string; payload: EventPayload }>(await tx.execute(sql`
      with last as (select coalesce(max(seq), 0) as seq from outbox where seq is not null),
      due as (
        select id, row_number() over (order by id) as n from outbox
        where channel = 'event' and delivered_at is null
        order by id limit ${batch}
      )
      update outbox set seq = (select seq from last) + due.n, delivered_at = ${now}
      from due where outbox.id = due.id
      returning outbox.seq, outbox.recipient, outbox.payload`));
    return result.map((row): Claimed => ({ seq: Number(row.seq), recipient: row.recipient, payload: row.payload }));
  });
  claimed.sort((a, b) => a.seq - b.seq);
  for (const row of claimed) await bus.publish(eventMessage(row.seq, row.recipient, row.payload));
  return claimed.length;
}

export type EventRelay = {
  /** Relay soon: a change with events just committed (`written`: the caller knows it wrote some, so the pass need not look first). */
  kick(written?: boolean): void;
  /** Relay now and wait (tests and shutdown). */
  drain(): Promise<void>;
};

/** Runs the relay on demand, one pass at a time, with another pass when kicked during one. */
export function eventRelay(db: Db, bus: EventBus, now: () => number, onError: (error: unknown) => void): EventRelay {
  let running: Promise<void> | undefined;
  const pending = { again: false, written: false };
  // A kick during a pass asks for one more pass; read through a call, since it changes across awaits.
  const kickedMeanwhile = (): boolean => pending.again;
  const run = (written: boolean): Promise<void> => {
    if (running) {
      pending.again = true;
      pending.written ||= written;
      return running;
    }
    pending.written = written;
    running = (async () => {
      do {
        const look = !pending.written;
        pending.again = false;
        pending.written = false;
        try {
          // Keep going while a pass took a whole batch: a backlog. A pass that took less found
          // every event committed before it began; one committed since kicked again (pending),
          // and one from another process is found by the background's poll.
          let taken = await relayEventsOnce(db, bus, now(), RELAY_BATCH, { look });
          while (taken >= RELAY_BATCH) taken = await relayEventsOnce(db, bus, now());
        } catch (error) {
          onError(error);
        }
      } while (kickedMeanwhile());
    })().finally(() => {
      running = undefined;
    });
    return running;
  };
  return {
    kick(written = false) {
      void run(written);
    },
    async drain() {
      await run(false);
      if (running) await running;
    },
  };
}
