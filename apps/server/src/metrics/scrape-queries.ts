/**
 * The database's numbers a metrics scrape reads (issue 23 point 2). Every query is cheap and
 * bounded whatever the tables hold: each walks an index, and a backlog is counted up to
 * BACKLOG_CAP rows, so a scrape during an outage of the relays costs the same as any other.
 */
import { ACTIVE_BOOKING_STATUSES, MAX_DELIVERY_ATTEMPTS, MESSAGE_CHANNELS } from '@rideway/domain';
import { count, inArray, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/client';
import { bookings } from '../db/schema';
import { MAX_JOB_ATTEMPTS } from '../jobs/runner';

/** A backlog is counted up to this many rows: at the cap it reads "at least", and its alarm has fired long before. */
export const BACKLOG_CAP = 10_000;

/** The outbox's channels: the messages people receive, and the live events the relay publishes. */
export const OUTBOX_CHANNELS = [...MESSAGE_CHANNELS, 'event'] as const;

/**
 * Active bookings by status, every active status present (0 when none). Finished ones (COMPLETE,
 * CANCELLED) are history that only grows: counting them would scan it at every scrape.
 */
export async function activeBookingsByStatus(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .select({ status: bookings.status, count: count() })
    .from(bookings)
    .where(inArray(bookings.status, [...ACTIVE_BOOKING_STATUSES]))
    .groupBy(bookings.status);
  const counts = new Map<string, number>(ACTIVE_BOOKING_STATUSES.map((status) => [status, 0]));
  for (const row of rows) counts.set(row.status, row.count);
  return counts;
}

export type JobQueueRow = { kind: string; dead: boolean; count: number; oldestRunAt: number };

/**
 * Jobs due and not done, by kind: those still to be tried, and the dead ones (out of attempts,
 * never run again by the runner). The oldest due first, along the jobs_due index (done_at, run_at).
 */
export async function dueJobs(db: Db, now: number): Promise<JobQueueRow[]> {
  const rows = rowsOf<{ kind: string; dead: boolean; n: number | string; oldest: number | string }>(
    await db.execute(sql`
      select kind, attempts >= ${MAX_JOB_ATTEMPTS} as dead, count(*) as n, min(run_at) as oldest
      from (select kind, attempts, run_at from jobs where done_at is null and run_at <= ${now} order by run_at limit ${BACKLOG_CAP}) due
      group by 1, 2`),
  );
  return rows.map((row) => ({ kind: row.kind, dead: row.dead, count: Number(row.n), oldestRunAt: Number(row.oldest) }));
}

export type OutboxBacklogRow = { channel: string; count: number; oldestCreatedAt: number | null };

/**
 * Messages waiting in the outbox, by channel: not delivered, not given up (the admins' "waiting",
 * domain outboxState), each channel counted up to BACKLOG_CAP along outbox_pending_idx.
 */
export async function outboxBacklog(db: Db): Promise<OutboxBacklogRow[]> {
  const perChannel = OUTBOX_CHANNELS.map(
    (channel) => sql`(select ${channel}::text as channel, count(*) as n, min(created_at) as oldest
      from (select created_at from outbox
            where channel = ${channel} and delivered_at is null and failed_at is null and attempts < ${MAX_DELIVERY_ATTEMPTS}
            limit ${BACKLOG_CAP}) waiting)`,
  );
  const rows = rowsOf<{ channel: string; n: number | string; oldest: number | string | null }>(await db.execute(sql.join(perChannel, sql` union all `)));
  return rows.map((row) => ({ channel: row.channel, count: Number(row.n), oldestCreatedAt: row.oldest === null ? null : Number(row.oldest) }));
}
