import { and, asc, eq, inArray, isNull, lt, lte, or } from 'drizzle-orm';
import type { Db } from '../db/client';
import { outbox, pushSubscriptions } from '../db/schema';
import { webPushSubscriptionsOf } from '../modules/push/service';
import { PushEndpointRefused } from '../providers/push/endpoint-guard';
import type { PushSender } from '../providers/push/webpush';
import { retryDelayMs } from './mail-relay';

export const MAX_PUSH_ATTEMPTS = 6;

/**
 * Delivers pending push messages from the outbox to every browser the recipient subscribed,
 * claimed with SKIP LOCKED like the mail relay. A subscription the push service says is gone
 * (404, 410) is forgotten, and so is one whose endpoint no longer passes the endpoint check (its
 * host now resolves to a private address: nothing is posted to it, the sender logs it); any other
 * failure, a redirect included, retries the message later with a growing delay.
 * A recipient with no subscribed browser has nothing to send: the message stays readable in the
 * outbox (phone tokens wait for the FCM adapter).
 */
export async function relayPush(db: Db, send: PushSender, now: number, batch = 50): Promise<{ sent: number; failed: number }> {
  let sent = 0;
  let failed = 0;
  const waiting = await db.select({ id: outbox.id }).from(outbox).where(and(eq(outbox.channel, 'push'), isNull(outbox.deliveredAt))).limit(1);
  if (waiting.length === 0) return { sent, failed };
  await db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(outbox)
      .where(and(eq(outbox.channel, 'push'), isNull(outbox.deliveredAt), lt(outbox.attempts, MAX_PUSH_ATTEMPTS), or(isNull(outbox.nextAttemptAt), lte(outbox.nextAttemptAt, now))))
      .orderBy(asc(outbox.id))
      .limit(batch)
      .for('update', { skipLocked: true });
    for (const row of due) {
      const subscriptions = await webPushSubscriptionsOf(tx, row.recipient);
      const gone: number[] = [];
      let error: string | undefined;
      let refused: string | undefined;
      for (const subscription of subscriptions) {
        if (!subscription.keys) continue;
        try {
          const status = await send({ endpoint: subscription.endpoint, keys: subscription.keys }, JSON.stringify(row.payload));
          if (status === 404 || status === 410) gone.push(subscription.id);
          else if (status < 200 || status >= 300) error = `push service answered ${String(status)}`;
          else sent += 1;
        } catch (cause) {
          if (cause instanceof PushEndpointRefused) {
            gone.push(subscription.id);
            refused = cause.message.slice(0, 500);
          } else {
            error = cause instanceof Error ? cause.message.slice(0, 500) : 'push failed';
          }
        }
      }
      if (gone.length) await tx.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, gone));
      const attempts = row.attempts + 1;
      if (error) {
        failed += 1;
        await tx.update(outbox).set({ attempts, lastError: error, nextAttemptAt: now + retryDelayMs(attempts) }).where(eq(outbox.id, row.id));
      } else {
        await tx.update(outbox).set({ attempts, deliveredAt: now, lastError: refused ?? (subscriptions.length ? null : 'no subscribed browser') }).where(eq(outbox.id, row.id));
      }
    }
  });
  return { sent, failed };
}
