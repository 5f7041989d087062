import type { UserDetail, UserStatusChange, UserTrip, WalletHistoryEntry } from '@rideway/contract';
import { fromMinor, maskContactForDemo, type BookingStatus } from '@rideway/domain';
import { alias } from 'drizzle-orm/pg-core';
import { and, desc, eq, isNotNull, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { bookings, driverDocuments, twoFactor, userStatusChanges, users } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import type { UserRow } from '../accounts/accounts';
import { documentToday, documentView } from '../documents/service';
import { driverProblems } from '../presence/online-rule';
import { listDriverVehicles } from '../vehicles/service';
import { getSettings } from '../settings/service';
import { balanceMinor, history, walletEntryView } from '../wallet/ledger';
import { managedUser } from './managed';
import { toApiUser } from './view';

/** How many of each section's newest rows the page shows; the counts are of all. */
const RECENT_TRIPS = 20;
const RECENT_WALLET_ENTRIES = 20;
const RECENT_RATINGS = 10;
const DOCUMENT_HISTORY = 30;
const STATUS_HISTORY = 50;


/** A driver's documents, newest first, and what keeps it offline today (the documents module's rule). */
async function documentsOf(ctx: AppContext, target: UserRow): Promise<UserDetail['documents']> {
  if (target.usertype !== 'driver') return { documents: [], problems: [] };
  const [rows, today] = await Promise.all([
    ctx.db.select().from(driverDocuments).where(eq(driverDocuments.uid, target.id)).orderBy(desc(driverDocuments.createdAt)),
    documentToday(ctx),
  ]);
  return { documents: rows.slice(0, DOCUMENT_HISTORY).map(documentView), problems: await driverProblems(ctx.db, target.id, today) };
}

/** The user's trips as rider and as driver: both counts in one query, the newest few in another. */
async function tripsOf(db: Db, uid: string, { drivenOnly }: { drivenOnly: boolean }): Promise<UserDetail['trips']> {
  const either = drivenOnly ? eq(bookings.driver, uid) : or(eq(bookings.customer, uid), eq(bookings.driver, uid));
  const [counts, rows] = await Promise.all([
    db
      .select({
        asRider: sql<number>`count(*) filter (where ${bookings.customer} = ${uid})`.mapWith(Number),
        asDriver: sql<number>`count(*) filter (where ${bookings.driver} = ${uid})`.mapWith(Number),
      })
      .from(bookings)
      .where(either),
    db
      .select({ id: bookings.id, reference: bookings.reference, customer: bookings.customer, status: bookings.status, tripdate: bookings.tripdate, carType: bookings.carType, pickup: bookings.pickup, drop: bookings.drop, tripCostMinor: bookings.tripCostMinor, currency: bookings.currency })
      .from(bookings)
      .where(either)
      .orderBy(desc(bookings.tripdate))
      .limit(RECENT_TRIPS),
  ]);
  const recent: UserTrip[] = rows.map((row) => ({
    id: row.id,
    booking_id: row.reference,
    role: row.customer === uid ? 'rider' : 'driver',
    status: row.status as BookingStatus,
    tripdate: row.tripdate,
    carType: row.carType,
    pickupAddress: row.pickup.add,
    dropAddress: row.drop.add,
    trip_cost: fromMinor(row.tripCostMinor),
    currency: row.currency,
  }));
  return { asRider: drivenOnly ? null : (counts[0]?.asRider ?? 0), asDriver: counts[0]?.asDriver ?? 0, recent };
}

/** The balance (the ledger's sum) and the newest entries, each naming its trip. */
async function walletOfUser(db: Db, uid: string): Promise<{ balanceMinor: number; recent: WalletHistoryEntry[] }> {
  const [balance, rows] = await Promise.all([balanceMinor(db, uid), history(db, uid, RECENT_WALLET_ENTRIES)]);
  return { balanceMinor: balance, recent: rows.map(walletEntryView) };
}

/** The newest ratings riders gave this driver, with their words (the average is section 4's, on the user). */
async function ratingsOf(db: Db, target: UserRow): Promise<UserDetail['ratings']> {
  const rows =
    target.usertype === 'driver'
      ? await db
          .select({ id: bookings.id, reference: bookings.reference, rating: bookings.rating, comment: bookings.ratingComment, at: sql<number>`coalesce(${bookings.tripEndTime}, ${bookings.tripdate})`.mapWith(Number) })
          .from(bookings)
          .where(and(eq(bookings.driver, target.id), isNotNull(bookings.rating)))
          .orderBy(desc(sql`coalesce(${bookings.tripEndTime}, ${bookings.tripdate})`))
          .limit(RECENT_RATINGS)
      : [];
  return {
    userrating: target.ratings?.userrating ?? null,
    count: target.ratings?.details.length ?? 0,
    recent: rows.map((row) => ({ bookingId: row.id, booking_id: row.reference, rate: row.rating ?? 0, comment: row.comment, at: row.at })),
  };
}

const changer = alias(users, 'changer');

/** Every approval and suspension, newest first, with the name of who decided it. */
async function statusHistoryOf(db: Db, uid: string): Promise<UserStatusChange[]> {
  const rows = await db
    .select({ change: userStatusChanges, byId: changer.id, byFirst: changer.firstName, byLast: changer.lastName })
    .from(userStatusChanges)
    .leftJoin(changer, eq(changer.id, userStatusChanges.changedBy))
    .where(eq(userStatusChanges.uid, uid))
    .orderBy(desc(userStatusChanges.changedAt), desc(userStatusChanges.id))
    .limit(STATUS_HISTORY);
  return rows.map(({ change, byId, byFirst, byLast }) => ({
    approved: change.approved,
    reason: change.reason,
    changedBy: byId ? { id: byId, name: `${byFirst ?? ''} ${byLast ?? ''}`.trim() } : null,
    at: change.changedAt,
  }));
}

/**
 * A staff member's two-factor sign-in, on or off (read here: the auth module depends on this one).
 * Null for riders and drivers, who have none.
 */
async function twoFactorOf(db: Db, target: UserRow): Promise<UserDetail['twoFactor']> {
  if (target.usertype !== 'admin' && target.usertype !== 'fleetadmin') return null;
  const [row] = await db.select({ enabledAt: twoFactor.enabledAt }).from(twoFactor).where(eq(twoFactor.uid, target.id));
  return { enabled: row?.enabledAt != null };
}

/**
 * Security-critical. GET /api/users/:id/detail: an admin sees any user but an admin, a fleet admin
 * only its own drivers; anyone else, and a deleted account, is not_found exactly like a missing id.
 * One query finds the user, then each section is one or two queries, run together. In demo mode
 * the contacts are hidden, as in the list.
 */
export async function userDetail(ctx: AppContext, actor: Actor, id: string): Promise<UserDetail> {
  const target = await managedUser(ctx.db, actor, id);
  if (target.id === actor.uid) throw new AppError('not_found');
  const [settings, documents, vehicles, trips, wallet, ratings, statusHistory, twoFactor] = await Promise.all([
    getSettings(ctx.db),
    documentsOf(ctx, target),
    target.usertype === 'driver' ? listDriverVehicles(ctx.db, target.id) : [],
    // A fleet admin manages its drivers' work: the rides a driver takes as a rider are its own life.
    tripsOf(ctx.db, target.id, { drivenOnly: actor.usertype === 'fleetadmin' }),
    walletOfUser(ctx.db, target.id),
    ratingsOf(ctx.db, target),
    statusHistoryOf(ctx.db, target.id),
    twoFactorOf(ctx.db, target),
  ]);
  const user = maskContactForDemo(toApiUser(target, { walletBalanceMinor: wallet.balanceMinor }), settings);
  return { user, documents, vehicles, trips, wallet: { walletBalance: user.walletBalance, recent: wallet.recent }, ratings, statusHistory, twoFactor };
}
