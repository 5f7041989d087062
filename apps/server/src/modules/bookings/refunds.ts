/**
 * Security-critical: money a rider paid ahead goes back on a cancel, once (decisions.md, refund on
 * cancel). Wallet money is credited back in the cancel's transaction; card money is asked back from
 * the provider that took it: the request is written in the cancel's transaction (with a job), the
 * provider is called after commit by the job, and the refund is recorded as succeeded when the
 * provider confirms. One cancel refund per booking (refunds_booking_cancel_key): a replay refunds nothing more.
 */
import { fromMinor } from '@rideway/domain';
import { and, desc, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { bookings, payments, refunds, users } from '../../db/schema';
import type { JobHandler } from '../../jobs/runner';
import { schedule } from '../../jobs/runner';
import { refundingProvider } from '../../providers/payments/in-force';
import type { RefundResult } from '../../providers/payments/port';
import type { BookingRow } from '../dispatch/booking-view';
import { enqueue } from '../outbox/service';
import { getSettings } from '../settings/service';
import { appendEntry } from '../wallet/ledger';
import { renderFor } from '../messages/render';

/** The job that asks the provider for a requested refund, and asks again until it answers. */
export const REFUND_JOB = 'refund.settle';
/** Waits before asking again after unknown answer n: 30 s, 1, 2, 4 ... minutes, at most an hour. */
export const refundRetryDelayMs = (attempts: number): number => Math.min(3_600_000, 30_000 * 2 ** Math.max(0, attempts - 1));

/** What the rider paid ahead for a booking, and how: the wallet, or a provider's transaction. */
export type PaidAhead = { provider: 'wallet'; amountMinor: number } | { provider: string; transactionId: string; amountMinor: number; currency: string };

/** A prepaid booking's payment: the wallet money taken, or the provider's confirmed payment. */
export async function paidAhead(tx: Tx, booking: BookingRow): Promise<PaidAhead | undefined> {
  if (!booking.prepaid) return undefined;
  if (booking.usedWalletMoneyMinor > 0) return { provider: 'wallet', amountMinor: booking.usedWalletMoneyMinor };
  const payment = (
    await tx
      .select()
      .from(payments)
      .where(and(eq(payments.bookingId, booking.id), eq(payments.outcome, 'succeeded')))
      .orderBy(desc(payments.id))
      .limit(1)
  )[0];
  return payment ? { provider: payment.provider, transactionId: payment.transactionId, amountMinor: payment.amountMinor, currency: payment.currency } : undefined;
}

/**
 * In the cancel's transaction: gives `amountMinor` of what was paid ahead back. The wallet is
 * credited at once (txRef Refund, with its live event); a card refund is requested and its job
 * scheduled. Answers false when the booking was already refunded (nothing is written).
 */
export async function refundPaidAhead(tx: Tx, input: { booking: BookingRow; paid: PaidAhead; amountMinor: number; currency: string; now: number }): Promise<boolean> {
  const { booking, paid, amountMinor, now } = input;
  if (amountMinor <= 0) return false;
  const toWallet = paid.provider === 'wallet';
  // A deleted account's wallet went with it (decisions.md, deleting a user): nothing to credit.
  if (toWallet && (await tx.select({ id: users.id }).from(users).where(eq(users.id, booking.customer)).limit(1)).length === 0) return false;
  const recorded = await tx
    .insert(refunds)
    .values({
      bookingId: booking.id,
      provider: paid.provider,
      transactionId: 'transactionId' in paid ? paid.transactionId : null,
      amountMinor,
      currency: 'currency' in paid ? paid.currency : input.currency,
      status: toWallet ? 'succeeded' : 'requested',
      createdAt: now,
      confirmedAt: toWallet ? now : null,
    })
    .onConflictDoNothing()
    .returning({ id: refunds.id });
  const refund = recorded[0];
  if (!refund) return false;
  if (toWallet) await appendEntry(tx, { uid: booking.customer, type: 'Credit', amountMinor, txRef: 'Refund', at: now, bookingId: booking.id });
  else await schedule(tx, REFUND_JOB, now, { refundId: refund.id });
  return true;
}

/** A refund's row, as stored. */
export type RefundRow = typeof refunds.$inferSelect;

/**
 * Security-critical: a refund confirmed, recorded once, in the caller's transaction: from `from`
 * (requested, when the provider's API answered; awaiting_dashboard, when an admin confirms a
 * refund made in the provider's dashboard) to succeeded with the provider's refund id, and the
 * rider told. The state is checked in the UPDATE itself, so of two confirmations at once only one
 * finds the row still in `from`; the other gets undefined and changes nothing. Card money leaves no
 * wallet entry: the refund's row is its record, whichever way it was confirmed (issue 22).
 */
export async function recordRefundConfirmed(
  tx: Tx,
  input: { refundId: number; from: 'requested' | 'awaiting_dashboard'; providerRefundId: string; now: number; attempts?: number; confirmedBy?: string },
): Promise<RefundRow | undefined> {
  const { refundId, from, providerRefundId, now } = input;
  const confirmed = { status: 'succeeded', providerRefundId, confirmedAt: now, lastError: null, confirmedBy: input.confirmedBy ?? null, ...(input.attempts === undefined ? {} : { attempts: input.attempts }) };
  const updated = (await tx.update(refunds).set(confirmed).where(and(eq(refunds.id, refundId), eq(refunds.status, from))).returning())[0];
  if (!updated) return undefined;
  const booking = (await tx.select({ customer: bookings.customer, reference: bookings.reference }).from(bookings).where(eq(bookings.id, updated.bookingId)).limit(1))[0];
  if (!booking) return updated;
  const amount = `${fromMinor(updated.amountMinor).toFixed(2)} ${updated.currency}`;
  const { appName } = await getSettings(tx);
  const msg = (await renderFor(tx, booking.customer))('push_refund_confirmed', { amount, reference: booking.reference });
  await enqueue(tx, { channel: 'push', recipient: booking.customer, payload: { title: appName, msg, screen: 'BookedCab', params: { bookingId: updated.bookingId } } }, now);
  return updated;
}

/**
 * Records the provider's answer on a refund still requested: a confirmation (the rider is told), a
 * refusal, or "refund it in my dashboard", which waits for an admin's confirmation (issue 22).
 */
async function recordAnswer(ctx: AppContext, refundId: number, result: RefundResult, attempts: number): Promise<void> {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    if (result.status === 'succeeded') {
      await recordRefundConfirmed(tx, { refundId, from: 'requested', providerRefundId: result.providerRefundId, now, attempts });
      return;
    }
    // The adapter's note is kept for operators; the admin's page shows its own text for the state.
    const answered = result.status === 'failed' ? { status: 'failed', attempts, lastError: result.reason.slice(0, 500) } : { status: 'awaiting_dashboard', attempts, lastError: result.note.slice(0, 500) };
    await tx.update(refunds).set(answered).where(and(eq(refunds.id, refundId), eq(refunds.status, 'requested')));
  });
}

/**
 * Asks the provider for a requested refund, outside any transaction (ARCHITECTURE rule 2), with
 * the refund's own idempotency key. A confirmation or a refusal is recorded; an unknown answer (the
 * adapter threw, or no adapter is configured for the provider) is asked again later.
 */
export async function settleRefund(ctx: AppContext, refundId: number): Promise<void> {
  const row = (await ctx.db.select().from(refunds).where(eq(refunds.id, refundId)).limit(1))[0];
  if (row?.status !== 'requested') return;
  const attempts = row.attempts + 1;
  let result: RefundResult;
  try {
    const provider = refundingProvider(ctx.config, row.provider);
    if (!provider || row.transactionId === null) throw new Error(`no refund adapter for the provider '${row.provider}'`);
    result = await provider.refund({ transactionId: row.transactionId, amountMinor: row.amountMinor, currency: row.currency, idempotencyKey: `refund-${String(row.id)}` });
  } catch (error) {
    const message = error instanceof Error ? error.message.slice(0, 500) : 'refund failed';
    await ctx.db.transaction(async (tx) => {
      await tx.update(refunds).set({ attempts, lastError: message }).where(and(eq(refunds.id, row.id), eq(refunds.status, 'requested')));
      await schedule(tx, REFUND_JOB, ctx.now() + refundRetryDelayMs(attempts), { refundId: row.id });
    });
    return;
  }
  await recordAnswer(ctx, row.id, result, attempts);
}

/** The durable jobs of refunds, by kind. */
export function refundJobs(ctx: AppContext): Record<string, JobHandler> {
  return {
    [REFUND_JOB]: async (payload) => {
      const id = payload.refundId;
      if (typeof id !== 'number') throw new Error('refund job without a refundId');
      await settleRefund(ctx, id);
    },
  };
}
