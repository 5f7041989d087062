/**
 * Security-critical: the wallet ledger is append-only and a balance is always the sum of its
 * entries. Every move that must not overdraw locks the user's row first, so concurrent moves on
 * one wallet are serialised and never both pass the balance check.
 */
import type { WalletHistoryEntry } from '@rideway/contract';
import { desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { bookings, users, walletEntries } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { emit } from '../../realtime/events';
import { fromMinor } from '@rideway/domain';
import { getSettings } from '../settings/service';

type LedgerType = 'Credit' | 'Debit' | 'Withdraw';

export async function balanceMinor(db: Db | Tx, uid: string): Promise<number> {
  const rows = await db
    .select({ total: sql<string>`coalesce(sum(${walletEntries.amountMinor}), 0)` })
    .from(walletEntries)
    .where(eq(walletEntries.uid, uid));
  return Number(rows[0]?.total ?? 0);
}

/** The balances of many users in one query. */
export async function balancesMinor(db: Db | Tx, uids: string[]): Promise<Map<string, number>> {
  if (uids.length === 0) return new Map();
  const rows = await db
    .select({ uid: walletEntries.uid, total: sql<string>`sum(${walletEntries.amountMinor})` })
    .from(walletEntries)
    .where(inArray(walletEntries.uid, uids))
    .groupBy(walletEntries.uid);
  return new Map(rows.map((row) => [row.uid, Number(row.total)]));
}

/** Locks the user's row for the rest of the transaction; refuses a missing user. */
export async function lockWallet(tx: Tx, uid: string): Promise<void> {
  const rows = await tx.select({ id: users.id }).from(users).where(eq(users.id, uid)).for('update');
  if (rows.length === 0) throw new AppError('not_found', 'uid');
}

/**
 * The currency an entry is in (issue 17): the one named, else its booking's (a trip's moves stay in
 * the trip's currency after the setting changes), else the settings' in force.
 */
async function entryCurrency(tx: Db | Tx, entry: { currency?: string; bookingId?: string }): Promise<string> {
  if (entry.currency !== undefined) return entry.currency;
  if (entry.bookingId !== undefined) {
    const booking = (await tx.select({ currency: bookings.currency }).from(bookings).where(eq(bookings.id, entry.bookingId)).limit(1))[0];
    if (booking) return booking.currency;
  }
  return (await getSettings(tx)).code;
}

/** Appends one entry. Credits are positive; debits and withdrawals are recorded as negatives. */
export async function appendEntry(
  tx: Db | Tx,
  entry: { uid: string; type: LedgerType; amountMinor: number; txRef: string; at: number; bookingId?: string; currency?: string },
): Promise<void> {
  if (!Number.isSafeInteger(entry.amountMinor) || entry.amountMinor <= 0) throw new AppError('no_details_error');
  const signed = entry.type === 'Credit' ? entry.amountMinor : -entry.amountMinor;
  const currency = await entryCurrency(tx, entry);
  await tx.insert(walletEntries).values({
    uid: entry.uid,
    type: entry.type,
    amountMinor: signed,
    currency,
    txRef: entry.txRef,
    at: entry.at,
    bookingId: entry.bookingId ?? null,
  });
  await emit(tx, `user:${entry.uid}`, 'wallet', { type: entry.type, amount: fromMinor(entry.amountMinor), currency, txRef: entry.txRef, date: entry.at, bookingId: entry.bookingId ?? null }, entry.at);
}

/** A debit or withdrawal that must not take the balance below zero. Call inside a transaction. */
export async function takeFromWallet(
  tx: Tx,
  entry: { uid: string; type: 'Debit' | 'Withdraw'; amountMinor: number; txRef: string; at: number; bookingId?: string; currency?: string },
): Promise<void> {
  await lockWallet(tx, entry.uid);
  if ((await balanceMinor(tx, entry.uid)) < entry.amountMinor) throw new AppError('insufficient_balance');
  await appendEntry(tx, entry);
}

/** The user's newest entries, each with the reference of the trip it belongs to (null for a top-up, a credit, a withdrawal). */
export async function history(db: Db | Tx, uid: string, limit = 500) {
  return db
    .select({ entry: walletEntries, reference: bookings.reference })
    .from(walletEntries)
    .leftJoin(bookings, eq(bookings.id, walletEntries.bookingId))
    .where(eq(walletEntries.uid, uid))
    .orderBy(desc(walletEntries.at), desc(walletEntries.id))
    .limit(limit);
}

/** A ledger entry as the wallet screens show it, naming its trip by reference. */
export const walletEntryView = ({ entry, reference }: Awaited<ReturnType<typeof history>>[number]): WalletHistoryEntry => ({
  id: String(entry.id),
  type: entry.type as WalletHistoryEntry['type'],
  amount: fromMinor(Math.abs(entry.amountMinor)),
  currency: entry.currency,
  date: entry.at,
  txRef: entry.txRef,
  bookingId: entry.bookingId,
  booking_id: reference,
});
