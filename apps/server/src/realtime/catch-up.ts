import { and, asc, eq, gt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { outbox } from '../db/schema';
import type { EventBus, LiveMessage } from './bus';
import { eventMessage, latestSeq, type EventPayload } from './events';

/** How long a missing cursor may stay missing (another process's publish still on its way) before it is read from the database. */
const GAP_WAIT_MS = 1000;
/** While the bus is down, how often new events are read from the database; while it is up, how often the cursor is checked for lag. */
const OUTAGE_POLL_MS = 1000;
const LAG_CHECK_MS = 5000;
/** Events read from the database per query. */
const BATCH = 500;
/** Events held above a gap before it is filled from the database without waiting. */
const MAX_AHEAD = 10_000;

/** The bus's Redis connection as the catch-up sees it (realtime/redis-link.ts). */
export type BusUpstream = {
  isUp(): boolean;
  fellBack(operation: 'bus_publish', error?: unknown): void;
};

export type CatchingUpBus = EventBus & {
  /** Events this process delivered from the database rather than from Redis, since start. */
  replayed(): number;
  /** Reads what this process missed now (tests; the bus does it by itself). */
  catchUp(): Promise<void>;
};

type Numbered = LiveMessage & { seq: number };

/**
 * Issue 23 point 4: no open socket misses an event for good when Redis is lost. Every event the
 * relay publishes carries its cursor (`seq`, gap-free, in commit order: relay.ts), and the outbox
 * keeps it, so each process holds the cursor up to which it has delivered every event, and reads
 * whatever it misses from the database:
 *
 * - when its bus is back after an outage (the events published meanwhile never reached it), and
 *   every second while the bus is down, so its sockets keep receiving, a little late;
 * - when a cursor is missing for a second (another process published it while this one's Redis was
 *   away, or crashed between numbering and publishing), and when its cursor lags the database's.
 *
 * Each event reaches the handlers once and in cursor order, whichever way it came (deduplicated
 * by its cursor; one that arrives beyond a gap waits for the gap to be filled). A
 * publish that Redis refuses is delivered to this process's own handlers at once and resolves, so
 * a request or the relay never fails for Redis; the other processes read it from the database.
 * Nothing is read while no socket follows a topic here: the process then forgets what it missed
 * (nobody was owed it) and starts again from the cursor the next socket to follow a topic is given
 * (its `subscribed` message's), as that client would resume from it.
 */
export async function catchingUpBus(inner: EventBus, options: { db: Db; upstream: BusUpstream; onError: (error: unknown) => void }): Promise<CatchingUpBus> {
  const { db, upstream, onError } = options;
  const handlers: { deliver: (message: LiveMessage) => void; interested?: () => boolean }[] = [];
  /** Every event up to here was delivered, or was numbered before this process listened. */
  let cursor = await latestSeq(db);
  /**
   * Events that arrived beyond a gap (another process's publish of the missing one still on its
   * way), held until it is filled: every socket receives the numbered events in cursor order,
   * because a client resumes from the highest cursor it received (apps/web/src/api/live.ts) and
   * would never get one delivered after a higher one if its socket dropped between the two.
   */
  const held = new Map<number, Numbered>();
  /**
   * A catch-up was skipped (nobody listened): what was missed then is owed to nobody, and the next
   * one starts from the cursor the first socket to follow a topic since was given.
   */
  let resync = false;
  let resyncFrom: number | undefined;
  let replayed = 0;
  let closed = false;

  const interested = () => handlers.some((handler) => handler.interested?.() ?? true);
  const deliver = (message: LiveMessage) => {
    for (const handler of handlers) handler.deliver(message);
  };
  /** Delivers the held events that follow the cursor without a gap, in order. */
  const flush = () => {
    for (let next = held.get(cursor + 1); next; next = held.get(cursor + 1)) {
      held.delete(next.seq);
      cursor = next.seq;
      deliver(next);
    }
  };
  /** Takes a numbered event unless it was taken already (delivered, or held above a gap); answers whether it was new. */
  const once = (message: Numbered): boolean => {
    if (message.seq <= cursor || held.has(message.seq)) return false;
    held.set(message.seq, message);
    flush();
    if (held.size > MAX_AHEAD) void catchUp();
    else if (held.size > 0) watchGap();
    return true;
  };
  const receive = (message: LiveMessage) => {
    if (message.seq === undefined) deliver(message);
    else once(message as Numbered);
  };

  let gapTimer: NodeJS.Timeout | undefined;
  const watchGap = () => {
    gapTimer ??= setTimeout(() => {
      gapTimer = undefined;
      if (held.size > 0) void catchUp();
    }, GAP_WAIT_MS);
    gapTimer.unref();
  };

  /** One read of what this process missed, batch after batch. */
  const pass = async () => {
    if (!interested()) {
      resync = true;
      resyncFrom = undefined;
      cursor = Math.max(cursor, ...held.keys());
      held.clear();
      return;
    }
    if (resync) {
      // Followed before its `subscribed` cursor reached this bus (a few milliseconds): the newest is as good.
      const from = resyncFrom ?? (await latestSeq(db));
      resync = false;
      resyncFrom = undefined;
      cursor = Math.max(cursor, from);
      for (const seq of held.keys()) if (seq <= cursor) held.delete(seq);
      flush();
    }
    for (;;) {
      const rows = await db
        .select({ seq: outbox.seq, recipient: outbox.recipient, payload: outbox.payload })
        .from(outbox)
        .where(and(eq(outbox.channel, 'event'), gt(outbox.seq, cursor)))
        .orderBy(asc(outbox.seq))
        .limit(BATCH);
      // Numbering is gap-free in commit order: cursors below the oldest one read were pruned, and
      // will never come; those held below it go now, in order.
      const oldest = rows[0]?.seq;
      if (oldest != null && oldest > cursor + 1) {
        for (const seq of [...held.keys()].filter((one) => one < oldest).sort((a, b) => a - b)) {
          const message = held.get(seq);
          held.delete(seq);
          cursor = seq;
          if (message) deliver(message);
        }
        cursor = oldest - 1;
      }
      for (const row of rows) {
        if (row.seq != null && once(eventMessage(row.seq, row.recipient, row.payload as EventPayload))) replayed += 1;
      }
      if (rows.length < BATCH) return;
    }
  };

  let running: Promise<void> | undefined;
  let again = false;
  // Read through a call: it changes across the awaits of a pass.
  const askedAgain = (): boolean => again;
  /** A failure is reported once until a read succeeds again (the database may be the one that is down). */
  let failing = false;
  const catchUp = (): Promise<void> => {
    if (closed) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await pass();
          failing = false;
        } catch (error) {
          if (!failing) onError(error);
          failing = true;
          return;
        }
      } while (askedAgain());
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  // Back after an outage: what was published meanwhile never arrived.
  inner.onHealthChange((healthy) => {
    if (healthy) void catchUp();
  });
  inner.subscribe(receive);

  let ticks = 0;
  let lagging = cursor;
  const timer = setInterval(() => {
    ticks += 1;
    // Down, or silent: a connection that stopped answering still looks subscribed.
    if (!inner.healthy() || !upstream.isUp()) {
      void catchUp();
      return;
    }
    if (ticks % (LAG_CHECK_MS / OUTAGE_POLL_MS) !== 0 || !interested()) return;
    // Behind what the database held a check ago: published while this process could not hear it.
    if (cursor < lagging) void catchUp();
    latestSeq(db).then(
      (newest) => {
        lagging = newest;
      },
      () => undefined,
    );
  }, OUTAGE_POLL_MS);
  timer.unref();

  const local = (message: LiveMessage) => {
    receive(message);
  };

  return {
    kind: inner.kind,
    async publish(message) {
      if (upstream.isUp()) {
        try {
          await inner.publish(message);
          // Its copy comes back through Redis, unless this process's subscription is down.
          if (!inner.healthy()) local(message);
          return;
        } catch (error) {
          upstream.fellBack('bus_publish', error);
        }
      } else upstream.fellBack('bus_publish');
      local(message);
    },
    followedFrom(seq) {
      if (resync) resyncFrom = Math.min(resyncFrom ?? seq, seq);
    },
    subscribe(handler, isInterested) {
      handlers.push(isInterested ? { deliver: handler, interested: isInterested } : { deliver: handler });
    },
    async announceChanges(data) {
      // Run here whatever happens; the other processes' caches are off while their bus is down
      // and start empty when it is back, and the backstop age bounds the rest (db/read-cache.ts).
      try {
        await inner.announceChanges(data);
      } catch (error) {
        upstream.fellBack('bus_publish', error);
      }
    },
    healthy: () => inner.healthy(),
    onHealthChange: (handler) => {
      inner.onHealthChange(handler);
    },
    endSessions: (ended) => inner.endSessions(ended),
    onSessionsEnded: (handler) => {
      inner.onSessionsEnded(handler);
    },
    onChangesAnnounced: (handler) => {
      inner.onChangesAnnounced(handler);
    },
    replayed: () => replayed,
    catchUp,
    async close() {
      closed = true;
      clearInterval(timer);
      clearTimeout(gapTimer);
      await running;
      handlers.length = 0;
      await inner.close();
    },
  };
}
