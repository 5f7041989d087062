import { and, asc, eq, inArray, isNull, lt, lte, or } from 'drizzle-orm';
import type { Db } from '../db/client';
import { outbox } from '../db/schema';
import type { SmsSender } from '../providers/sms/port';

export const MAX_SMS_ATTEMPTS = 6;
/** Waits before retry n: 10 s, 30 s, 90 s, 4.5 min, 13.5 min (a login code is short-lived: early retries are quick). */
export const smsRetryDelayMs = (attempts: number): number => 10_000 * 3 ** Math.max(0, attempts - 1);
/**
 * A claimed SMS belongs to the process that claimed it for this long (several times the
 * provider's timeout). A process that dies while sending writes nothing, and the message is
 * claimed again once the lease is over: no message is lost; at worst a phone gets it twice.
 */
export const SMS_LEASE_MS = 2 * 60_000;

type Row = typeof outbox.$inferSelect;

/** Claims due SMS in a short transaction (SKIP LOCKED: side-by-side processes take different rows), leasing them. */
async function claim(db: Db, now: number, batch: number): Promise<Row[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(outbox)
      .where(
        and(
          eq(outbox.channel, 'sms'),
          isNull(outbox.deliveredAt),
          isNull(outbox.failedAt),
          lt(outbox.attempts, MAX_SMS_ATTEMPTS),
          or(isNull(outbox.nextAttemptAt), lte(outbox.nextAttemptAt, now)),
        ),
      )
      .orderBy(asc(outbox.id))
      .limit(batch)
      .for('update', { skipLocked: true });
    if (due.length > 0) await tx.update(outbox).set({ nextAttemptAt: now + SMS_LEASE_MS }).where(inArray(outbox.id, due.map((row) => row.id)));
    return due;
  });
}

/**
 * Issue 19: delivers pending SMS from the outbox through the configured provider. The outbox row
 * is the durable record: it is claimed with SKIP LOCKED and a lease, sent outside any
 * transaction (a slow provider holds no lock), and its outcome written after. A refusal for good
 * (an invalid or unsubscribed number) marks it failed at once; a temporary failure is retried
 * with a growing delay, and marked failed when the last attempt fails too. Admins see both in
 * the outbox listing (GET /api/outbox: status, attempts, lastError).
 */
export async function relaySms(db: Db, sender: SmsSender, now: number, batch = 20): Promise<{ sent: number; failed: number }> {
  let sent = 0;
  let failed = 0;
  const waiting = await db.select({ id: outbox.id }).from(outbox).where(and(eq(outbox.channel, 'sms'), isNull(outbox.deliveredAt), isNull(outbox.failedAt))).limit(1);
  if (waiting.length === 0) return { sent, failed };
  for (const row of await claim(db, now, batch)) {
    const text = typeof row.payload.text === 'string' ? row.payload.text : '';
    const result = await sender.send(row.recipient, text);
    const attempts = row.attempts + 1;
    // Written only while this process still holds the lease it took: a relay that took over an expired lease wins.
    const stillOurs = and(eq(outbox.id, row.id), isNull(outbox.deliveredAt), eq(outbox.attempts, row.attempts));
    if (result.outcome === 'sent') {
      await db.update(outbox).set({ deliveredAt: now, attempts, lastError: null, nextAttemptAt: null }).where(stillOurs);
      sent += 1;
      continue;
    }
    failed += 1;
    const givenUp = result.outcome === 'failed' || attempts >= MAX_SMS_ATTEMPTS;
    await db
      .update(outbox)
      .set({ attempts, lastError: result.error.slice(0, 500), nextAttemptAt: givenUp ? null : now + smsRetryDelayMs(attempts), failedAt: givenUp ? now : null })
      .where(stillOurs);
  }
  return { sent, failed };
}
