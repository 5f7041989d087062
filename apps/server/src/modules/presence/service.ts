import type { DriverLocation, DriverStatus, LiveDriver } from '@rideway/contract';
import { isPlausibleMove } from '@rideway/domain';
import { and, desc, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { bookings, tracking, users } from '../../db/schema';
import type { Actor } from '../../http/actor';
import type { DriverPresence } from '../../providers/geo/port';
import { eventFrame, emit } from '../../realtime/events';
import type { UserRow } from '../accounts/accounts';
import { assertMayGoOnline } from './online-rule';

export const driverTimeoutMs = (ctx: AppContext): number => ctx.config.DRIVER_TIMEOUT_S * 1000;
/** Positions reported at or after this count as fresh. */
export const freshSince = (ctx: AppContext): number => (ctx.config.DRIVER_TIMEOUT_S > 0 ? ctx.now() - driverTimeoutMs(ctx) : 0);

/** The user columns a driver's entry in the live index is made of, and where it was last: read alone, not the whole row. */
const presenceColumns = {
  id: users.id,
  usertype: users.usertype,
  approved: users.approved,
  queue: users.queue,
  driverActiveStatus: users.driverActiveStatus,
  carType: users.carType,
  fleetadmin: users.fleetadmin,
  firstName: users.firstName,
  lastName: users.lastName,
  vehicleNumber: users.vehicleNumber,
  locationLat: users.locationLat,
  locationLng: users.locationLng,
  locationAt: users.locationAt,
};
type PresenceRow = Pick<UserRow, keyof typeof presenceColumns>;

const presenceRow = async (db: Db, uid: string): Promise<PresenceRow | undefined> => (await db.select(presenceColumns).from(users).where(eq(users.id, uid)))[0];

const presenceOf = (row: PresenceRow, position: { lat: number; lng: number; at: number }): DriverPresence => ({
  uid: row.id,
  ...position,
  carType: row.carType,
  fleetadmin: row.fleetadmin,
  name: `${row.firstName} ${row.lastName}`.trim(),
  vehicleNumber: row.vehicleNumber,
  available: row.usertype === 'driver' && row.approved && !row.queue && row.driverActiveStatus,
});

/** What the live driver map shows of a driver. */
const liveDriverView = (presence: DriverPresence): LiveDriver => ({
  uid: presence.uid,
  name: presence.name,
  vehicleNumber: presence.vehicleNumber,
  carType: presence.carType,
  location: { lat: presence.lat, lng: presence.lng },
  at: presence.at,
  busy: !presence.available,
});

const liveTopics = (fleetadmin: string | null) => (fleetadmin ? ['drivers:live', `drivers:live:${fleetadmin}`] : ['drivers:live']);

/** Positions are frequent and only the newest matters: they go straight to the bus, not the outbox. */
async function publishPosition(ctx: AppContext, presence: DriverPresence): Promise<void> {
  await ctx.live.bus.publish({ topics: liveTopics(presence.fleetadmin), frame: eventFrame('drivers:live', 'position', liveDriverView(presence)) });
}

async function publishOffline(ctx: AppContext, uid: string, fleetadmin: string | null): Promise<void> {
  await ctx.live.bus.publish({ topics: liveTopics(fleetadmin), frame: eventFrame('drivers:live', 'offline', { uid }) });
}

/**
 * Section 4: while a trip is STARTED, each position the driver reports is a tracking entry of it,
 * and a live point for whoever follows the trip. Before that (ACCEPTED, ARRIVED) the rider still
 * watches the driver come: the position goes out as a `driver` event, not stored, since only
 * STARTED and REACHED entries count as tracking.
 */
async function recordTripPoint(ctx: AppContext, driver: string, position: { lat: number; lng: number; at: number }): Promise<void> {
  const trip = (await ctx.db.select({ id: bookings.id, customer: bookings.customer, fleetadmin: bookings.fleetadmin, status: bookings.status }).from(bookings).where(and(eq(bookings.driver, driver), inArray(bookings.status, ['ACCEPTED', 'ARRIVED', 'STARTED']))).limit(1))[0];
  if (!trip) return;
  if (trip.status !== 'STARTED') {
    await ctx.live.bus.publish({ topics: [`tracking:${trip.id}`], frame: eventFrame(`tracking:${trip.id}`, 'driver', { status: trip.status, ...position }) });
    return;
  }
  // Fare integrity: a point the car could not have reached from the trip's last one (faster than
  // MAX_TRACKING_SPEED_KMH) is discarded, neither stored nor sent (decisions.md).
  if (!isPlausibleMove(await lastTrackingPoint(ctx.db, trip.id), position)) return;
  // The entry and its event are written together, so a follower never sees one without the other.
  await ctx.db.transaction((tx) => addTrackingPoint(tx, { bookingId: trip.id, status: trip.status, ...position }, { uids: [trip.customer, driver], fleetadmin: trip.fleetadmin, admins: true }));
  ctx.live.relay.kick();
}

/** The newest tracking entry of a trip, if any. */
export async function lastTrackingPoint(db: Db, bookingId: string): Promise<{ lat: number; lng: number; at: number } | undefined> {
  return (await db.select({ lat: tracking.lat, lng: tracking.lng, at: tracking.at }).from(tracking).where(eq(tracking.bookingId, bookingId)).orderBy(desc(tracking.at), desc(tracking.id)).limit(1))[0];
}

/** One tracking entry (section 3: at, status, lat, lng, id) and its live event. */
export async function addTrackingPoint(
  tx: Tx,
  point: { bookingId: string; status: string; lat: number; lng: number; at: number },
  audience: { uids: string[]; fleetadmin: string | null; admins: boolean },
): Promise<void> {
  const row = (await tx.insert(tracking).values(point).returning())[0];
  if (row) await emit(tx, `tracking:${point.bookingId}`, 'point', { id: row.id, at: row.at, status: row.status, lat: row.lat, lng: row.lng }, row.at, audience);
}

/**
 * POST /api/driver/location (and `location` over the WebSocket): the position goes to the live
 * index and the live map at once; the users table gets it written behind, in batches.
 */
export async function reportLocation(ctx: AppContext, actor: Actor, { lat, lng }: DriverLocation): Promise<{ at: number; online: boolean }> {
  const at = ctx.now();
  const report = { lat, lng, at };
  let presence = await ctx.live.geo.move(actor.uid, report);
  if (!presence) {
    // Not in the index: offline, or online since before this process started. The database says which.
    const row = await presenceRow(ctx.db, actor.uid);
    if (row?.driverActiveStatus) {
      presence = presenceOf(row, report);
      await ctx.live.geo.put(presence);
    }
  }
  ctx.live.pendingPositions.set(actor.uid, report);
  if (presence) {
    await publishPosition(ctx, presence);
    // A driver who is active and approved but not available is on a trip.
    if (!presence.available) await recordTripPoint(ctx, actor.uid, report);
  }
  return { at, online: presence !== undefined };
}

/**
 * Brings a driver's entry in the live index in line with the database after a change to its
 * availability (status, queue, approval, car type). Call after the change commits.
 */
export async function syncDriver(ctx: AppContext, uid: string): Promise<void> {
  const row = await presenceRow(ctx.db, uid);
  const current = await ctx.live.geo.get(uid);
  if (row?.usertype !== 'driver' || !row.driverActiveStatus) {
    if (current) {
      await ctx.live.geo.remove(uid);
      await publishOffline(ctx, uid, row?.fleetadmin ?? current.fleetadmin);
    }
    return;
  }
  const pending = ctx.live.pendingPositions.get(uid);
  const position = current ?? pending ?? (row.locationLat !== null && row.locationLng !== null ? { lat: row.locationLat, lng: row.locationLng, at: row.locationAt ?? 0 } : undefined);
  if (!position) return;
  const presence = presenceOf(row, { lat: position.lat, lng: position.lng, at: position.at });
  await ctx.live.geo.put(presence);
  await publishPosition(ctx, presence);
}

/** PATCH /api/driver/status: online or offline (driverActiveStatus). */
export async function setDriverStatus(ctx: AppContext, actor: Actor, { driverActiveStatus }: DriverStatus): Promise<DriverStatus> {
  // Issue 20: going online needs every required document approved and in date (offline is always allowed).
  if (driverActiveStatus) await assertMayGoOnline(ctx, ctx.db, actor.uid);
  await ctx.db.update(users).set({ driverActiveStatus }).where(eq(users.id, actor.uid));
  await syncDriver(ctx, actor.uid);
  return { driverActiveStatus };
}

/** Writes the positions reported since the last flush to the users table in one statement. */
export async function flushPositions(ctx: AppContext): Promise<number> {
  const pending = ctx.live.pendingPositions;
  if (pending.size === 0) return 0;
  const batch = [...pending.entries()];
  pending.clear();
  const values = sql.join(
    batch.map(([uid, p]) => sql`(${uid}::text, ${p.lat}::float8, ${p.lng}::float8, ${p.at}::bigint)`),
    sql`, `,
  );
  await ctx.db.execute(sql`
    update users set location_lat = v.lat, location_lng = v.lng, location_at = v.at
    from (values ${values}) as v(id, lat, lng, at)
    where users.id = v.id and (users.location_at is null or users.location_at <= v.at)`);
  return batch.length;
}

/** Drops drivers silent for longer than DRIVER_TIMEOUT_S out of the index and off the live map. */
export async function sweepSilentDrivers(ctx: AppContext): Promise<number> {
  if (ctx.config.DRIVER_TIMEOUT_S <= 0) return 0;
  const silent = await ctx.live.geo.staleSince(freshSince(ctx));
  for (const uid of silent) {
    const presence = await ctx.live.geo.get(uid);
    await ctx.live.geo.remove(uid);
    await publishOffline(ctx, uid, presence?.fleetadmin ?? null);
  }
  return silent.length;
}

/** On start, the in-process index is empty: it is filled with the online drivers whose last position is fresh. */
export async function warmIndex(ctx: AppContext): Promise<number> {
  const since = freshSince(ctx);
  const rows = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.usertype, 'driver'), eq(users.driverActiveStatus, true), isNotNull(users.locationLat), isNotNull(users.locationLng), gte(users.locationAt, since)));
  for (const row of rows) {
    if (row.locationLat === null || row.locationLng === null) continue;
    await ctx.live.geo.put(presenceOf(row, { lat: row.locationLat, lng: row.locationLng, at: row.locationAt ?? 0 }));
  }
  return rows.length;
}

/** The drivers on the live map a viewer may see: all for admins, its own for a fleet admin. */
export async function liveDrivers(ctx: AppContext, viewer: { uid: string; usertype: string }): Promise<LiveDriver[]> {
  const listed = await ctx.live.geo.list({ freshSince: freshSince(ctx), ...(viewer.usertype === 'fleetadmin' ? { fleetadmin: viewer.uid } : {}) });
  return listed.map(liveDriverView);
}
