/**
 * Missed notifications (issue 18): each checkout is looked up at the provider a few minutes
 * after it starts, and again with growing waits while it stays open, outside any transaction;
 * what the provider answers goes through the shared confirmation path. After a day an attempt
 * still open is given up (expired): the booking stays payable.
 */
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { paymentAttempts } from '../../db/schema';
import type { JobHandler } from '../../jobs/runner';
import { schedule } from '../../jobs/runner';
import { refundingProvider } from '../../providers/payments/in-force';
import { applyPaymentEvent } from './confirm';

export const LOOKUP_JOB = 'payment.lookup';
/** An open checkout is given up this long after it started. */
export const CHECKOUT_GIVE_UP_MS = 24 * 3600_000;
const DELAYS_MS = [5 * 60_000, 15 * 60_000, 60 * 60_000, 3 * 3600_000, 6 * 3600_000];
/** The wait before lookup n: 5 and 15 minutes, 1, 3, then every 6 hours. */
export const lookupDelayMs = (round: number): number => DELAYS_MS[Math.min(round, DELAYS_MS.length - 1)] ?? 6 * 3600_000;

/** Asks the provider about one open attempt, and settles it the way a notification would. */
export async function lookUpAttempt(ctx: AppContext, attemptId: string, round: number): Promise<void> {
  const attempt = (await ctx.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, attemptId)).limit(1))[0];
  if (attempt?.status !== 'open') return;
  const provider = refundingProvider(ctx.config, attempt.provider);
  if (provider?.lookup && attempt.checkoutId) {
    try {
      const event = await provider.lookup(attempt.checkoutId);
      if (event) await applyPaymentEvent(ctx, provider.name, event, 'lookup');
    } catch {
      // Unknown for now: asked again at the next round.
    }
  }
  const now = ctx.now();
  const still = (await ctx.db.select({ status: paymentAttempts.status }).from(paymentAttempts).where(eq(paymentAttempts.id, attemptId)).limit(1))[0];
  if (still?.status !== 'open') return;
  if (now - attempt.createdAt >= CHECKOUT_GIVE_UP_MS) {
    await ctx.db.update(paymentAttempts).set({ status: 'expired', updatedAt: now }).where(and(eq(paymentAttempts.id, attemptId), eq(paymentAttempts.status, 'open')));
    return;
  }
  await schedule(ctx.db, LOOKUP_JOB, Math.min(now + lookupDelayMs(round + 1), attempt.createdAt + CHECKOUT_GIVE_UP_MS), { attemptId, round: round + 1 });
}

export function lookupJobs(ctx: AppContext): Record<string, JobHandler> {
  return {
    [LOOKUP_JOB]: async (payload) => {
      const { attemptId, round } = payload;
      if (typeof attemptId !== 'string') throw new Error('payment lookup without an attemptId');
      await lookUpAttempt(ctx, attemptId, typeof round === 'number' ? round : 0);
    },
  };
}
