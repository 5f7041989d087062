import { and, asc, eq, inArray, isNull, lt, lte, or } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { jobs } from '../db/schema';

/** A job's handler; it runs once per claim and may throw to be retried. */
export type JobHandler = (payload: Record<string, unknown>) => Promise<void>;

export const MAX_JOB_ATTEMPTS = 5;
/** How long a claimed job is held before another process may take it over (its runner died). */
const CLAIM_MS = 60_000;
const retryDelayMs = (attempts: number): number => 5_000 * 2 ** Math.max(0, attempts - 1);

/** Schedules durable work in the caller's transaction: it exists only if the cause commits. */
export async function schedule(tx: Db | Tx, kind: string, runAt: number, payload: Record<string, unknown>): Promise<void> {
  await tx.insert(jobs).values({ kind, runAt, payload });
}

/**
 * Runs the jobs that are due: each is claimed with SKIP LOCKED and a lease, so several processes
 * share the work and a job held by a crashed process is taken over when its lease ends. Jobs
 * live in the database, so a restart loses none.
 */
export async function runDueJobs(db: Db, handlers: Readonly<Record<string, JobHandler>>, now: number, batch = 20): Promise<{ done: number; failed: number }> {
  const anyDue = await db.select({ id: jobs.id }).from(jobs).where(and(isNull(jobs.doneAt), lte(jobs.runAt, now))).limit(1);
  if (anyDue.length === 0) return { done: 0, failed: 0 };
  const claimed = await db.transaction(async (tx) => {
    const due = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(isNull(jobs.doneAt), lte(jobs.runAt, now), lt(jobs.attempts, MAX_JOB_ATTEMPTS), or(isNull(jobs.lockedUntil), lt(jobs.lockedUntil, now)), inArray(jobs.kind, Object.keys(handlers))))
      .orderBy(asc(jobs.runAt))
      .limit(batch)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(jobs)
      .set({ lockedUntil: now + CLAIM_MS })
      .where(inArray(jobs.id, due.map((job) => job.id)))
      .returning();
  });
  let done = 0;
  let failed = 0;
  for (const job of claimed.sort((a, b) => a.runAt - b.runAt)) {
    const handler = handlers[job.kind];
    try {
      if (handler) await handler(job.payload);
      await db.update(jobs).set({ doneAt: now, attempts: job.attempts + 1, lockedUntil: null, lastError: null }).where(eq(jobs.id, job.id));
      done += 1;
    } catch (error) {
      const attempts = job.attempts + 1;
      const message = error instanceof Error ? error.message.slice(0, 500) : 'job failed';
      await db.update(jobs).set({ attempts, lockedUntil: now + retryDelayMs(attempts), lastError: message }).where(eq(jobs.id, job.id));
      failed += 1;
    }
  }
  return { done, failed };
}
