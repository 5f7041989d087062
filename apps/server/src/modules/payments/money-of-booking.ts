import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { payments, refunds, walletEntries } from '../../db/schema';

/**
 * What a booking's rider paid and had back, as the records show it (issue 18): card money is the
 * provider payments that paid the booking; wallet money is the ledger's trip payments of the
 * booking (TripPayment debits). Refunds are the cancel's and the admins' that were not refused;
 * a payment that came too late (unapplied) and its full refund are outside both.
 */
export type BookingMoney = { card: { provider: string; transactionId: string; currency: string } | undefined; paidMinor: number; refundedMinor: number; via: 'card' | 'wallet' | 'none' };

export async function moneyOfBooking(db: Db | Tx, bookingId: string, customer: string): Promise<BookingMoney> {
  const card = await db.select().from(payments).where(and(eq(payments.bookingId, bookingId), eq(payments.outcome, 'succeeded')));
  const wallet = await db
    .select({ total: sql<string>`coalesce(sum(${walletEntries.amountMinor}), 0)` })
    .from(walletEntries)
    .where(and(eq(walletEntries.bookingId, bookingId), eq(walletEntries.uid, customer), eq(walletEntries.txRef, 'TripPayment')));
  const refunded = await db
    .select({ total: sql<string>`coalesce(sum(${refunds.amountMinor}), 0)` })
    .from(refunds)
    .where(and(eq(refunds.bookingId, bookingId), inArray(refunds.kind, ['cancel', 'admin']), ne(refunds.status, 'failed')));
  const cardMinor = card.reduce((total, row) => total + row.amountMinor, 0);
  const walletMinor = -Number(wallet[0]?.total ?? 0);
  const first = card[0];
  return {
    card: first ? { provider: first.provider, transactionId: first.transactionId, currency: first.currency } : undefined,
    paidMinor: cardMinor + walletMinor,
    refundedMinor: Number(refunded[0]?.total ?? 0),
    via: cardMinor > 0 ? 'card' : walletMinor > 0 ? 'wallet' : 'none',
  };
}
