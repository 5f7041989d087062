/**
 * Security-critical: 10 failed sign-ins within 15 minutes, for one account or from one address,
 * lock further attempts with 429 and Retry-After until the oldest of those failures ages out.
 */
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { loginFailures } from '../../db/schema';
import { AppError } from '../../http/app-error';

export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
export const THROTTLE_MAX_FAILURES = 10;

export async function assertNotThrottled(db: Db, key: { account: string; address: string }, now: number): Promise<void> {
  const since = now - THROTTLE_WINDOW_MS;
  for (const [column, value] of [
    [loginFailures.accountKey, key.account],
    [loginFailures.address, key.address],
  ] as const) {
    const rows = await db
      .select({ count: sql<string>`count(*)`, oldest: sql<string | null>`min(${loginFailures.at})` })
      .from(loginFailures)
      .where(and(eq(column, value), gt(loginFailures.at, since)));
    const count = Number(rows[0]?.count ?? 0);
    if (count >= THROTTLE_MAX_FAILURES) {
      const oldest = Number(rows[0]?.oldest ?? now);
      const retryAfter = Math.max(1, Math.ceil((oldest + THROTTLE_WINDOW_MS - now) / 1000));
      throw new AppError('too_many_requests', undefined, { 'retry-after': String(retryAfter) });
    }
  }
}

export async function recordFailure(db: Db, key: { account: string; address: string }, now: number): Promise<void> {
  await db.insert(loginFailures).values({ accountKey: key.account, address: key.address, at: now });
  // Old rows are never read again; trimming them here keeps the table small without a job.
  await db.delete(loginFailures).where(lt(loginFailures.at, now - 2 * THROTTLE_WINDOW_MS));
}

export const clearFailures = (db: Db, account: string) =>
  db.delete(loginFailures).where(eq(loginFailures.accountKey, account));
