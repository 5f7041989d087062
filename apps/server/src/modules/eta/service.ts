import type { Eta } from '@rideway/contract';
import { canReuseEta, canViewTracking, etaTargetOf, kmInUnit, type BookingStatus, type EtaTarget, type LatLng } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { bookings } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import type { Route } from '../../providers/maps/port';
import { newestPosition } from '../bookings/before-step';
import { getSettings } from '../settings/service';

/**
 * GET /api/bookings/:id/eta (issue 16): how far, by road, the trip's driver is from the pickup
 * (ACCEPTED, ARRIVED) or, once STARTED, from the drop, from the driver's newest position.
 *
 * Each booking's answer is kept and reused while the driver moved at most ETA_REUSE_METRES and
 * it is at most ETA_REUSE_MS old (the domain's rule); a question in flight is shared. So a flood
 * of requests, from one rider or many tabs, costs at most one maps call per booking and window.
 * The memory is per server process (decisions.md): N processes ask at most N times per window.
 */

type Kept = { target: EtaTarget; from: LatLng; at: number; route: Promise<Route | undefined> };

/** At most this many bookings' ETAs are kept; the least recently asked goes first. */
const MAX_KEPT = 10_000;
const kept = new WeakMap<AppContext, Map<string, Kept>>();

const keptOf = (ctx: AppContext): Map<string, Kept> => {
  const found = kept.get(ctx);
  if (found) return found;
  const made = new Map<string, Kept>();
  kept.set(ctx, made);
  return made;
};

/** The route, or undefined when there is none or the provider failed: the answer is then no_route_found, never a 500. */
async function askRoute(ctx: AppContext, from: LatLng, to: LatLng): Promise<Route | undefined> {
  try {
    return await ctx.maps.route([from, to]);
  } catch (error) {
    ctx.log.warn({ err: error, provider: ctx.maps.provider }, 'maps route for an ETA failed');
    return undefined;
  }
}

/** The kept ETA of the booking if it may still answer, else a new question to the maps provider (kept in its place). */
function etaRoute(ctx: AppContext, bookingId: string, basis: Omit<Kept, 'route'>, to: LatLng): Kept {
  const memory = keptOf(ctx);
  const found = memory.get(bookingId);
  memory.delete(bookingId);
  const entry = found && canReuseEta(found, basis) ? found : { ...basis, route: askRoute(ctx, basis.from, to) };
  // Re-inserted: a Map iterates in insertion order, so its first key is the least recently asked.
  memory.set(bookingId, entry);
  while (memory.size > MAX_KEPT) {
    const oldest = memory.keys().next();
    if (oldest.done === true) break;
    memory.delete(oldest.value);
  }
  return entry;
}

/**
 * The ETA for the trip's parties (its rider, its driver, their fleet admin, admins); anyone else
 * gets the 404 of a missing booking. No driver yet, or the drop reached: invalid_transition. No
 * known position of the driver: location_fetch_error. No route: no_route_found.
 */
export async function bookingEta(ctx: AppContext, actor: Actor, bookingId: string): Promise<Eta> {
  const row = (
    await ctx.db
      .select({ status: bookings.status, customer: bookings.customer, driver: bookings.driver, fleetadmin: bookings.fleetadmin, pickup: bookings.pickup, drop: bookings.drop })
      .from(bookings)
      .where(eq(bookings.id, bookingId))
      .limit(1)
  )[0];
  const status = row?.status as BookingStatus | undefined;
  if (!row || !status || !canViewTracking(actor, { ...row, status })) throw new AppError('not_found');
  const target = etaTargetOf(status);
  if (!target || !row.driver) throw new AppError('invalid_transition');
  const from = await newestPosition(ctx, row.driver);
  if (!from) throw new AppError('location_fetch_error');
  const to = target === 'pickup' ? row.pickup : row.drop;
  const entry = etaRoute(ctx, bookingId, { target, from, at: ctx.now() }, { lat: to.lat, lng: to.lng });
  const route = await entry.route;
  if (!route) throw new AppError('no_route_found');
  const { convert_to_mile } = await getSettings(ctx.db);
  return {
    target,
    distance: Math.round(kmInUnit(route.distanceKm, convert_to_mile) * 1000) / 1000,
    duration: Math.round(route.durationSeconds),
    approximate: route.approximate,
    at: entry.at,
  };
}
