import {
  bookLaterDispatchAt,
  driversWithinRadius,
  KM_PER_MILE,
  nextOfferBatch,
  noTakerCancelAt,
  NO_TAKER_REASON,
  DEFAULT_DRIVER_RADIUS,
  rankByRoadTime,
  type DriverState,
  type LatLng,
  type RoadLeg,
} from '@rideway/domain';
import type { Settings } from '@rideway/contract';
import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { bookings, users } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { schedule, type JobHandler } from '../../jobs/runner';
import { freshSince } from '../presence/service';
import { languageMap } from '../languages/service';
import type { LanguageFiles } from '../messages/render';
import { getSettings } from '../settings/service';
import { announceBooking } from './announce';
import type { BookingRow } from './booking-view';

/**
 * Dispatch (issues 5, 16 and 17): a NEW booking is offered in rounds to the available drivers
 * who can drive to the pickup soonest. The maps provider is asked for the drivers' road times
 * before any transaction opens (ARCHITECTURE rule 2): a round's candidates are found first, then
 * the booking is locked, re-checked (still NEW, still the same round) and written.
 */

export const DISPATCH_JOBS = { round: 'dispatch.round', start: 'dispatch.start', expire: 'dispatch.expire' } as const;

/** A driver found for an offer, with its road leg to the pickup when the maps table gave one. */
export type OfferCandidate = { uid: string; leg?: RoadLeg };

/**
 * A round's candidates, found before its transaction for the booking's round `round`: the best
 * drivers not asked yet in this search (`fresh`) and, only when there are none, the best of
 * everyone in range (`again`: the search starts over).
 */
export type RoundCandidates = {
  round: number;
  fresh: OfferCandidate[];
  again: OfferCandidate[];
  /** The language files the offers' push notices are written from, read with the candidates (from the process's cache, not in the transaction). */
  languages: LanguageFiles;
};

type Search = {
  limit: number;
  exclude?: readonly string[];
  /** False: the straight-line order, without asking the maps provider (no offers will go out). */
  byRoad?: boolean;
};

/** A cell of the route table, if it is one: finite, non-negative distance and time. */
const legOf = (cell: unknown): RoadLeg | undefined => {
  if (typeof cell !== 'object' || cell === null) return undefined;
  const { distanceKm, durationSeconds } = cell as Partial<RoadLeg>;
  const valid = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;
  return valid(distanceKm) && valid(durationSeconds) ? { distanceKm, durationSeconds } : undefined;
};

/**
 * Each origin's road leg to the pickup, in ONE route-table call for the whole batch. A provider
 * that fails, times out or answers nonsense yields no legs (the straight-line order stands) and a
 * warning: dispatch never stops because the maps provider is down (decisions.md).
 */
export async function legsToPickup(ctx: AppContext, origins: readonly LatLng[], pickup: LatLng): Promise<(RoadLeg | undefined)[]> {
  if (origins.length === 0) return [];
  try {
    const rows = await ctx.maps.table([...origins], [{ lat: pickup.lat, lng: pickup.lng }]);
    return origins.map((_origin, index) => legOf(rows[index]?.[0]));
  } catch (error) {
    ctx.log.warn({ err: error, provider: ctx.maps.provider, origins: origins.length }, 'maps route table failed: drivers are offered in straight-line order');
    return [];
  }
}

/**
 * Section 5 and 6 availability: the live index proposes the nearest drivers of the car type, the
 * database confirms each is approved, active and not in queue, and the domain's radius rule has
 * the last word. Nearest first in a straight line, with each driver's position.
 */
async function driversInRange(ctx: AppContext, db: Db | Tx, pickup: LatLng, carType: string, settings: Pick<Settings, 'driverRadius' | 'convert_to_mile'>, { limit, exclude }: Search) {
  const radius = settings.driverRadius > 0 ? settings.driverRadius : DEFAULT_DRIVER_RADIUS;
  const radiusKm = settings.convert_to_mile ? radius * KM_PER_MILE : radius;
  // A few spare candidates cover drivers whose state changed since the index last heard of them;
  // they are also the pool the road times rank (a driver a little further in a straight line may be nearer by road).
  const near = await ctx.live.geo.nearest({ ...pickup, radiusKm, carType, limit: limit * 2 + 2, freshSince: freshSince(ctx), exclude: new Set(exclude ?? []) });
  if (near.length === 0) return [];
  const rows = await db
    .select({ id: users.id, usertype: users.usertype, approved: users.approved, queue: users.queue, driverActiveStatus: users.driverActiveStatus, carType: users.carType })
    .from(users)
    .where(inArray(users.id, near.map((driver) => driver.uid)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const states: (DriverState & { location: LatLng })[] = [];
  for (const driver of near) {
    const row = byId.get(driver.uid);
    if (row) states.push({ uid: row.id, usertype: row.usertype, approved: row.approved, queue: row.queue, driverActiveStatus: row.driverActiveStatus, carType: row.carType, location: { lat: driver.lat, lng: driver.lng } });
  }
  return driversWithinRadius(states, { pickup, driverRadius: radius, convertToMile: settings.convert_to_mile, carType }).map((found) => found.driver);
}

/**
 * The available drivers in range, the quickest to drive to the pickup first (issue 16): the
 * straight-line candidates ranked by one route-table call. Call it with no transaction open.
 */
export async function availableDriversNear(
  ctx: AppContext,
  db: Db,
  pickup: LatLng,
  carType: string,
  settings: Pick<Settings, 'driverRadius' | 'convert_to_mile'>,
  search: Search,
): Promise<OfferCandidate[]> {
  const inRange = await driversInRange(ctx, db, pickup, carType, settings, search);
  const legs = search.byRoad === false ? [] : await legsToPickup(ctx, inRange.map((driver) => driver.location), pickup);
  return rankByRoadTime(inRange, legs)
    .slice(0, search.limit)
    .map(({ candidate, leg }) => (leg ? { uid: candidate.uid, leg } : { uid: candidate.uid }));
}

/** One driver's road leg to a pickup (an admin's assignment), or undefined when unknown. */
export async function legToPickup(ctx: AppContext, from: LatLng | undefined, pickup: LatLng): Promise<RoadLeg | undefined> {
  return from ? (await legsToPickup(ctx, [from], pickup))[0] : undefined;
}

/** The candidates of the booking's next round, found with no transaction open. Declined drivers are never among them. */
export async function roundCandidates(ctx: AppContext, row: BookingRow, settings: Settings): Promise<RoundCandidates> {
  const limit = ctx.config.OFFER_BATCH_SIZE;
  const fresh = await availableDriversNear(ctx, ctx.db, row.pickup, row.carType, settings, { limit, exclude: [...row.offeredDrivers, ...row.declinedDrivers] });
  const again = fresh.length > 0 ? [] : await availableDriversNear(ctx, ctx.db, row.pickup, row.carType, settings, { limit, exclude: row.declinedDrivers });
  return { round: row.dispatchRound, fresh, again, languages: await languageMap(ctx.db) };
}

/** The offered drivers' legs merged into the booking's: a driver offered again without a leg loses its old one. */
function mergedLegs(row: BookingRow, offer: readonly string[], byUid: ReadonlyMap<string, OfferCandidate>): BookingRow['offerLegs'] {
  const offered = new Set(offer);
  const kept = Object.entries(row.offerLegs).filter(([uid]) => !offered.has(uid));
  const fresh = offer.flatMap((uid) => {
    const leg = byUid.get(uid)?.leg;
    return leg ? [[uid, leg] as const] : [];
  });
  return Object.fromEntries([...kept, ...fresh]);
}

/**
 * One round of offers (issue 5), inside the caller's transaction with the booking locked: the
 * best drivers not asked yet get the booking, the previous round's offers are withdrawn, and the
 * round's timeout is scheduled. The candidates were found before the transaction opened.
 */
async function offerRound(ctx: AppContext, tx: Tx, row: BookingRow, settings: Settings, now: number, candidates: RoundCandidates): Promise<BookingRow> {
  // A driver may have declined since the candidates were found: never offered again.
  const declined = new Set(row.declinedDrivers);
  const usable = [...candidates.fresh, ...candidates.again].filter((candidate) => !declined.has(candidate.uid));
  const byUid = new Map(usable.map((candidate) => [candidate.uid, candidate]));
  const { offer, restarted } = nextOfferBatch(usable.map((candidate) => candidate.uid), row.offeredDrivers, ctx.config.OFFER_BATCH_SIZE);
  const round = row.dispatchRound + 1;
  const expiresAt = now + ctx.config.OFFER_TIMEOUT_S * 1000;
  const updated = (
    await tx
      .update(bookings)
      .set({
        requestedDrivers: Object.fromEntries(offer.map((uid) => [uid, true as const])),
        offeredDrivers: restarted ? offer : [...row.offeredDrivers, ...offer],
        offerLegs: mergedLegs(row, offer, byUid),
        offerExpiresAt: expiresAt,
        dispatchRound: round,
        updatedAt: now,
      })
      .where(and(eq(bookings.id, row.id), eq(bookings.status, 'NEW')))
      .returning()
  )[0];
  if (!updated) throw new AppError('invalid_transition');
  await announceBooking(tx, row, updated, now, settings, candidates.languages);
  await schedule(tx, DISPATCH_JOBS.round, expiresAt, { bookingId: row.id, round });
  ctx.metrics?.dispatchRound(offer.length, Object.keys(row.requestedDrivers).filter((uid) => !declined.has(uid)).length);
  return updated;
}

/** When a NEW booking's search starts: now, or (book later) ahead of its tripdate. */
const searchStartsAt = (ctx: AppContext, row: BookingRow, now: number): number =>
  row.bookLater ? bookLaterDispatchAt(row.tripdate, now, ctx.config.BOOK_LATER_DISPATCH_AHEAD_S * 1000) : now;

/**
 * Starts a NEW booking's search: a book-later booking waits for its job ahead of the tripdate;
 * otherwise the first round of offers goes out (autoDispatch on; with it off the admin assigns),
 * and the booking is cancelled if nobody has taken it in time. `candidates` are the first
 * round's, found before the caller's transaction; without them (a delivery paid ahead, inside its
 * payment's transaction) the first round is a job due now, so no maps call happens in a transaction.
 */
export async function beginDispatch(ctx: AppContext, tx: Tx, row: BookingRow, settings: Settings, now: number, candidates?: RoundCandidates): Promise<BookingRow> {
  if (row.status !== 'NEW') return row;
  const startAt = searchStartsAt(ctx, row, now);
  if (startAt > now) {
    await schedule(tx, DISPATCH_JOBS.start, startAt, { bookingId: row.id });
    return row;
  }
  await schedule(tx, DISPATCH_JOBS.expire, noTakerCancelAt(row, now, ctx.config.NO_TAKER_CANCEL_S * 1000), { bookingId: row.id });
  if (!settings.autoDispatch) return row;
  if (candidates?.round !== row.dispatchRound) {
    await schedule(tx, DISPATCH_JOBS.round, now, { bookingId: row.id, round: row.dispatchRound });
    return row;
  }
  return offerRound(ctx, tx, row, settings, now, candidates);
}

async function readBooking(db: Db, id: string): Promise<BookingRow | undefined> {
  return (await db.select().from(bookings).where(eq(bookings.id, id)))[0];
}

async function lockNew(tx: Tx, id: string): Promise<BookingRow | undefined> {
  const row = (await tx.select().from(bookings).where(eq(bookings.id, id)).for('update'))[0];
  return row?.status === 'NEW' ? row : undefined;
}

/**
 * The round after `round`, if `round` is still the booking's current one and nobody accepted:
 * candidates first, then the booking locked and re-checked. Run by a round's timeout, and at once
 * when the round's last offered driver declines.
 */
export async function advanceRound(ctx: AppContext, bookingId: string, round: number): Promise<void> {
  const settings = await getSettings(ctx.db);
  const seen = await readBooking(ctx.db, bookingId);
  if (!settings.autoDispatch || seen?.status !== 'NEW' || seen.dispatchRound !== round) return;
  const candidates = await roundCandidates(ctx, seen, settings);
  await ctx.db.transaction(async (tx) => {
    const row = await lockNew(tx, bookingId);
    // Someone accepted, or another round went out, while the candidates were found.
    if (row?.dispatchRound === round) await offerRound(ctx, tx, row, settings, ctx.now(), candidates);
  });
  ctx.live.relay.kick();
}

/** A book-later booking's search, when its job comes: candidates first, then the booking locked. */
async function startSearch(ctx: AppContext, bookingId: string): Promise<void> {
  const settings = await getSettings(ctx.db);
  const seen = await readBooking(ctx.db, bookingId);
  if (seen?.status !== 'NEW') return;
  const due = searchStartsAt(ctx, seen, ctx.now()) <= ctx.now();
  const candidates = due && settings.autoDispatch ? await roundCandidates(ctx, seen, settings) : undefined;
  await ctx.db.transaction(async (tx) => {
    const row = await lockNew(tx, bookingId);
    if (row) await beginDispatch(ctx, tx, row, settings, ctx.now(), candidates);
  });
  ctx.live.relay.kick();
}

const bookingIdOf = (payload: Record<string, unknown>): string => {
  const id = payload.bookingId;
  if (typeof id !== 'string') throw new Error('job without a bookingId');
  return id;
};

/** The durable jobs of dispatch; `cancelUntaken` is the lifecycle's system cancel. */
export function dispatchJobs(ctx: AppContext, cancelUntaken: (bookingId: string, reason: string) => Promise<void>): Record<string, JobHandler> {
  return {
    // A round's timeout acts only while the round is current and nobody accepted.
    [DISPATCH_JOBS.round]: (payload) => advanceRound(ctx, bookingIdOf(payload), Number(payload.round)),
    [DISPATCH_JOBS.start]: (payload) => startSearch(ctx, bookingIdOf(payload)),
    [DISPATCH_JOBS.expire]: async (payload) => {
      await cancelUntaken(bookingIdOf(payload), NO_TAKER_REASON);
    },
  };
}
