import { historyCutoff, HISTORY_SETTLED_STATUSES, retainedRoute } from '@rideway/domain';
import { and, asc, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { bookings, chats, tracking } from '../../db/schema';
import { getSettings } from '../settings/service';

/** Trips pruned per transaction: a short lock on each batch, however long the backlog. */
export const HISTORY_BATCH = 100;

/**
 * Issue 20 point 4: the location history of trips that ended more than `locationHistoryDays` ago
 * (decisions.md, location history): their tracking points are thinned to the route's shape
 * (`retainedRoute`) and their chat removed; the booking's distance, fare and addresses, which the
 * receipt reads, are untouched. Each trip is pruned once (`history_pruned_at`), in batches, each
 * its own transaction; a row another process is pruning is skipped (SKIP LOCKED), so the job may
 * run in every process. Runs until no trip is due, or `maxBatches` have run; the next run goes on
 * where this one stopped, since pruned trips are marked in their own batch's transaction.
 */
export async function pruneTripHistory(db: Db, now: number, { maxBatches = 50, batchSize = HISTORY_BATCH }: { maxBatches?: number; batchSize?: number } = {}): Promise<{ trips: number; points: number; messages: number }> {
  const { locationHistoryDays } = await getSettings(db);
  const cutoff = historyCutoff(now, locationHistoryDays);
  const total = { trips: 0, points: 0, messages: 0 };
  for (let batch = 0; batch < maxBatches; batch += 1) {
    const done = await db.transaction(async (tx) => {
      const due = await tx
        .select({ id: bookings.id })
        .from(bookings)
        .where(and(isNull(bookings.historyPrunedAt), sql`coalesce(${bookings.tripEndTime}, ${bookings.tripdate}) < ${cutoff}`, inArray(bookings.status, [...HISTORY_SETTLED_STATUSES])))
        .orderBy(sql`coalesce(${bookings.tripEndTime}, ${bookings.tripdate})`)
        .limit(batchSize)
        .for('update', { skipLocked: true });
      if (due.length === 0) return 0;
      const ids = due.map((row) => row.id);
      const points = await tx.select({ id: tracking.id, bookingId: tracking.bookingId }).from(tracking).where(inArray(tracking.bookingId, ids)).orderBy(asc(tracking.bookingId), asc(tracking.at), asc(tracking.id));
      const byTrip = new Map<string, number[]>();
      for (const point of points) byTrip.set(point.bookingId, [...(byTrip.get(point.bookingId) ?? []), point.id]);
      const kept = [...byTrip.values()].flatMap((trip) => retainedRoute(trip));
      const removed = await tx.delete(tracking).where(and(inArray(tracking.bookingId, ids), kept.length ? notInArray(tracking.id, kept) : undefined)).returning({ id: tracking.id });
      const messages = await tx.delete(chats).where(inArray(chats.bookingId, ids)).returning({ id: chats.id });
      await tx.update(bookings).set({ historyPrunedAt: now }).where(inArray(bookings.id, ids));
      total.points += removed.length;
      total.messages += messages.length;
      return ids.length;
    });
    total.trips += done;
    if (done < batchSize) break;
  }
  return total;
}

