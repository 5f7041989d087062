import { greatCircleKm, isPlausibleMove, trackedRoutePlan, type LatLng } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { bookings, tracking, users } from '../../db/schema';
import { lastTrackingPoint } from '../presence/service';
import { getSettings } from '../settings/service';
import { MapsProviderError, type Route, type TracePoint } from '../../providers/maps/port';
import { pointText } from '../../providers/maps/typed-point';

/**
 * What a step needs from outside services, fetched before its transaction opens (ARCHITECTURE
 * rule 2: fetch first, then lock, check and write).
 */

/** The driver's newest position: the live index's, else the last one written to the users table. */
export async function newestPosition(ctx: AppContext, driver: string): Promise<LatLng | undefined> {
  const live = await ctx.live.geo.get(driver);
  if (live) return { lat: live.lat, lng: live.lng };
  const stored = (await ctx.db.select({ lat: users.locationLat, lng: users.locationLng }).from(users).where(eq(users.id, driver)))[0];
  return stored?.lat != null && stored.lng != null ? { lat: stored.lat, lng: stored.lng } : undefined;
}

/**
 * Fare integrity: the position a trip is reached at, if a car could have got there from the trip's
 * last tracking point since (MAX_TRACKING_SPEED_KMH); else that last point, where the car
 * demonstrably was (decisions.md).
 */
export async function plausibleReachPosition(ctx: AppContext, bookingId: string, position: LatLng | undefined): Promise<LatLng | undefined> {
  const last = await lastTrackingPoint(ctx.db, bookingId);
  if (!position || isPlausibleMove(last, { ...position, at: ctx.now() })) return position;
  return last ? { lat: last.lat, lng: last.lng } : undefined;
}

/** The route a taxi trip was driven along, and the address where it ended. */
export type RouteDriven = { km: number; end: LatLng; address: string };

/** What a provider that failed answers instead (a MapsProviderError); any other error still throws. */
async function unlessProviderFails<T, F>(call: Promise<T>, instead: F): Promise<T | F> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof MapsProviderError) return instead;
    throw error;
  }
}

/** A point without its time, as the routing calls take it. */
const pointOnly = ({ lat, lng }: LatLng): LatLng => ({ lat, lng });

/**
 * Section 9's multi-location call on a GPS trace: the adapter's map matching where it has one
 * (OSRM's match: the roads the car followed, where routing through every noisy point would turn
 * a point beside the road into a U-turn), else the route through the points. A trace that
 * matches no road, or a provider that refuses to match (one built or limited without it), gets
 * the route through the points instead; a provider that times out or fails is not asked twice.
 */
async function tracedRoute(ctx: AppContext, points: TracePoint[]): Promise<Route | undefined> {
  const throughPoints = () => ctx.maps.route(points.map(pointOnly));
  if (!ctx.maps.matchTrace) return throughPoints();
  try {
    return (await ctx.maps.matchTrace(points)) ?? (await throughPoints());
  } catch (error) {
    if (error instanceof MapsProviderError && error.reason === 'refused') return throughPoints();
    throw error;
  }
}

/**
 * Section 4 REACHED in taxi mode: the maps route through the trip's tracked points and the
 * position it reaches at (section 9: two points the drive-time route, more the multi-location
 * route with the waypoints thinned above 25, matched to the roads where the adapter can), and
 * that position reverse-geocoded; both asked together, before the step's transaction opens.
 * Without two points the trip was not followed: undefined, and the booked fare stands. Only the
 * trip's driver reaching a started trip costs a maps call. Without the provider's route (no road
 * joins the points, or the provider failed) the distance is the path the tracked points draw;
 * without its address, the point itself: a driver at the drop is never held there by a maps
 * outage (decisions.md, real maps).
 */
export async function routeDriven(ctx: AppContext, bookingId: string, driver: string, reachedAt: LatLng | undefined): Promise<RouteDriven | undefined> {
  if ((await getSettings(ctx.db)).appcat !== 'taxi') return undefined;
  const trip = (await ctx.db.select({ driver: bookings.driver, status: bookings.status }).from(bookings).where(eq(bookings.id, bookingId)))[0];
  if (trip?.driver !== driver || trip.status !== 'STARTED') return undefined;
  const tracked = await ctx.db.select({ lat: tracking.lat, lng: tracking.lng, at: tracking.at }).from(tracking).where(eq(tracking.bookingId, bookingId)).orderBy(tracking.at);
  const points: TracePoint[] = reachedAt ? [...tracked, { lat: reachedAt.lat, lng: reachedAt.lng, at: ctx.now() }] : tracked;
  const plan = trackedRoutePlan(points);
  if (plan.kind === 'none') return undefined;
  const [route, address] = await Promise.all([
    unlessProviderFails(plan.kind === 'pair' ? ctx.maps.route([pointOnly(plan.start), pointOnly(plan.dest)]) : tracedRoute(ctx, [plan.start, ...plan.waypoints, plan.dest]), undefined),
    unlessProviderFails(ctx.maps.reverseGeocode(pointOnly(plan.dest)), pointText(plan.dest)),
  ]);
  // Without the maps service's route, the straight legs between the points.
  const km = route?.distanceKm ?? points.slice(1).reduce((sum, point, i) => sum + greatCircleKm(points[i] ?? point, point), 0);
  return { km, end: pointOnly(plan.dest), address };
}
