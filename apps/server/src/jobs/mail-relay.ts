import { and, asc, eq, isNull, lt, lte, or } from 'drizzle-orm';
import type { Db } from '../db/client';
import { outbox } from '../db/schema';
import type { MailTransport } from '../providers/mail';

export const MAX_MAIL_ATTEMPTS = 6;
/** Waits before retry n: 30 s, 2 min, 8 min, 32 min, about 2 h. */
export const retryDelayMs = (attempts: number): number => 30_000 * 4 ** Math.max(0, attempts - 1);

/**
 * Delivers pending mail from the outbox through the transport, a batch at a time. Rows are
 * claimed with SKIP LOCKED, so several server processes relay side by side without sending a
 * message twice; a failure is recorded and retried later with a growing delay.
 */
export async function relayMail(db: Db, transport: MailTransport, now: number, batch = 20): Promise<{ sent: number; failed: number }> {
  let sent = 0;
  let failed = 0;
  await db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(outbox)
      .where(
        and(
          eq(outbox.channel, 'mail'),
          isNull(outbox.deliveredAt),
          lt(outbox.attempts, MAX_MAIL_ATTEMPTS),
          or(isNull(outbox.nextAttemptAt), lte(outbox.nextAttemptAt, now)),
        ),
      )
      .orderBy(asc(outbox.id))
      .limit(batch)
      .for('update', { skipLocked: true });
    for (const row of due) {
      const { subject, text, html } = row.payload;
      try {
        await transport.send({ to: row.recipient, subject: typeof subject === 'string' ? subject : '', text: typeof text === 'string' ? text : '', ...(typeof html === 'string' ? { html } : {}) });
        await tx.update(outbox).set({ deliveredAt: now, attempts: row.attempts + 1, lastError: null }).where(eq(outbox.id, row.id));
        sent += 1;
      } catch (error) {
        const attempts = row.attempts + 1;
        await tx
          .update(outbox)
          .set({ attempts, lastError: error instanceof Error ? error.message.slice(0, 500) : 'delivery failed', nextAttemptAt: now + retryDelayMs(attempts) })
          .where(eq(outbox.id, row.id));
        failed += 1;
      }
    }
  });
  return { sent, failed };
}

