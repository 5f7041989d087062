import {
  bookLaterDispatchAt,
  driversWithinRadius,
  KM_PER_MILE,
  nextOfferBatch,
  noTakerCancelAt,
  NO_TAKER_REASON,
  DEFAULT_DRIVER_RADIUS,
  type DriverState,
} from '@rideway/domain';
import type { Settings } from '@rideway/contract';
import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { bookings, users } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { schedule, type JobHandler } from '../../jobs/runner';
import { freshSince } from '../presence/service';
import { getSettings } from '../settings/service';
import { announceBooking } from './announce';
import type { BookingRow } from './booking-view';

const DISPATCH_JOBS = { round: 'dispatch.round', start: 'dispatch.start', expire: 'dispatch.expire' } as const;

type Place = { lat: number; lng: number };

/**
 * Section 5 and 6 availability, nearest first: the live index proposes the nearest drivers of the
 * car type, the database confirms each is approved, active and not in queue, and the domain's
 * radius rule has the last word.
 */
export async function availableDriversNear(
  ctx: AppContext,
  db: Db | Tx,
  pickup: Place,
  carType: string,
  settings: Pick<Settings, 'driverRadius' | 'convert_to_mile'>,
  options: { limit: number; exclude?: readonly string[] },
): Promise<string[]> {
  const radius = settings.driverRadius > 0 ? settings.driverRadius : DEFAULT_DRIVER_RADIUS;
  const radiusKm = settings.convert_to_mile ? radius * KM_PER_MILE : radius;
  // A few spare candidates cover drivers whose state changed since the index last heard of them.
  const near = await ctx.live.geo.nearest({ ...pickup, radiusKm, carType, limit: options.limit * 2 + 2, freshSince: freshSince(ctx), exclude: new Set(options.exclude ?? []) });
  if (near.length === 0) return [];
  const rows = await db
    .select({ id: users.id, usertype: users.usertype, approved: users.approved, queue: users.queue, driverActiveStatus: users.driverActiveStatus, carType: users.carType })
    .from(users)
    .where(inArray(users.id, near.map((driver) => driver.uid)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const states: DriverState[] = [];
  for (const driver of near) {
    const row = byId.get(driver.uid);
    if (row) states.push({ uid: row.id, usertype: row.usertype, approved: row.approved, queue: row.queue, driverActiveStatus: row.driverActiveStatus, carType: row.carType, location: { lat: driver.lat, lng: driver.lng } });
  }
  return driversWithinRadius(states, { pickup, driverRadius: radius, convertToMile: settings.convert_to_mile, carType })
    .slice(0, options.limit)
    .map((found) => found.driver.uid);
}

/**
 * One round of offers (issue 5): the next nearest drivers not asked yet get the booking, the
 * previous round's offers are withdrawn, and the round's timeout is scheduled.
 */
async function offerRound(ctx: AppContext, tx: Tx, row: BookingRow, settings: Settings, now: number, nearest?: string[]): Promise<BookingRow> {
  const batch = ctx.config.OFFER_BATCH_SIZE;
  const fresh = nearest ?? (await availableDriversNear(ctx, tx, row.pickup, row.carType, settings, { limit: batch, exclude: row.offeredDrivers }));
  const again = fresh.length > 0 ? [] : await availableDriversNear(ctx, tx, row.pickup, row.carType, settings, { limit: batch });
  const { offer, restarted } = nextOfferBatch([...fresh, ...again], row.offeredDrivers, batch);
  const round = row.dispatchRound + 1;
  const updated = (
    await tx
      .update(bookings)
      .set({
        requestedDrivers: Object.fromEntries(offer.map((uid) => [uid, true as const])),
        offeredDrivers: restarted ? offer : [...row.offeredDrivers, ...offer],
        dispatchRound: round,
        updatedAt: now,
      })
      .where(and(eq(bookings.id, row.id), eq(bookings.status, 'NEW')))
      .returning()
  )[0];
  if (!updated) throw new AppError('invalid_transition');
  await announceBooking(tx, row, updated, now, settings.appName);
  await schedule(tx, DISPATCH_JOBS.round, now + ctx.config.OFFER_TIMEOUT_S * 1000, { bookingId: row.id, round });
  return updated;
}

/**
 * Starts a NEW booking's search: a book-later booking waits for its job ahead of the tripdate;
 * otherwise the first round of offers goes out (autoDispatch on; with it off the admin assigns),
 * and the booking is cancelled if nobody has taken it in time.
 */
export async function beginDispatch(ctx: AppContext, tx: Tx, row: BookingRow, settings: Settings, now: number, nearest?: string[]): Promise<BookingRow> {
  if (row.status !== 'NEW') return row;
  const startAt = row.bookLater ? bookLaterDispatchAt(row.tripdate, now, ctx.config.BOOK_LATER_DISPATCH_AHEAD_S * 1000) : now;
  if (startAt > now) {
    await schedule(tx, DISPATCH_JOBS.start, startAt, { bookingId: row.id });
    return row;
  }
  await schedule(tx, DISPATCH_JOBS.expire, noTakerCancelAt(row, now, ctx.config.NO_TAKER_CANCEL_S * 1000), { bookingId: row.id });
  if (!settings.autoDispatch) return row;
  return offerRound(ctx, tx, row, settings, now, nearest);
}

const bookingIdOf = (payload: Record<string, unknown>): string => {
  const id = payload.bookingId;
  if (typeof id !== 'string') throw new Error('job without a bookingId');
  return id;
};

async function lockNew(tx: Tx, id: string): Promise<BookingRow | undefined> {
  const row = (await tx.select().from(bookings).where(eq(bookings.id, id)).for('update'))[0];
  return row?.status === 'NEW' ? row : undefined;
}

/** The durable jobs of dispatch; `cancelUntaken` is the lifecycle's system cancel. */
export function dispatchJobs(ctx: AppContext, cancelUntaken: (bookingId: string, reason: string) => Promise<void>): Record<string, JobHandler> {
  const inTransaction = async (work: (tx: Tx, settings: Settings, now: number) => Promise<void>) => {
    await ctx.db.transaction(async (tx) => work(tx, await getSettings(tx), ctx.now()));
    ctx.live.relay.kick();
  };
  return {
    [DISPATCH_JOBS.round]: (payload) =>
      inTransaction(async (tx, settings, now) => {
        const row = await lockNew(tx, bookingIdOf(payload));
        // A round's timeout acts only while the round is current and nobody accepted.
        if (row && row.dispatchRound === payload.round && settings.autoDispatch) await offerRound(ctx, tx, row, settings, now);
      }),
    [DISPATCH_JOBS.start]: (payload) =>
      inTransaction(async (tx, settings, now) => {
        const row = await lockNew(tx, bookingIdOf(payload));
        if (row) await beginDispatch(ctx, tx, row, settings, now);
      }),
    [DISPATCH_JOBS.expire]: async (payload) => {
      await cancelUntaken(bookingIdOf(payload), NO_TAKER_REASON);
    },
  };
}
