import { fieldOf, isLatLng, textOf, type LatLng } from '@rideway/domain';
import type { AppContext } from '../../context';
import { AppError } from '../../http/app-error';

/** Section 7 sends points as "lat,lng" text (or {lat, lng}); waypoints pipe-separated. */
export function pointOf(value: unknown, field: string): LatLng {
  if (isLatLng(value)) return { lat: value.lat, lng: value.lng };
  const text = textOf(value, 60);
  const [lat, lng] = (text ?? '').split(',').map((part) => Number(part.trim()));
  const point = { lat, lng };
  if (!isLatLng(point)) throw new AppError('place_to_coords_error', field);
  return point;
}

function waypointsOf(value: unknown): LatLng[] {
  if (value === undefined || value === '') return [];
  const text = textOf(value, 5000);
  if (text === undefined) throw new AppError('place_to_coords_error', 'waypoints');
  const parts = text.split('|');
  if (parts.length > 25) throw new AppError('place_to_coords_error', 'waypoints');
  return parts.map((part) => pointOf(part, 'waypoints'));
}

async function routeOrFail(ctx: AppContext, points: LatLng[]) {
  const route = await ctx.maps.route(points);
  if (!route) throw new AppError('no_route_found');
  return route;
}

export async function getAddress(ctx: AppContext, input: unknown) {
  return { address: await ctx.maps.reverseGeocode(pointOf(fieldOf(input, 'latlng'), 'latlng')) };
}

export async function getDriveTime(ctx: AppContext, input: unknown) {
  const route = await routeOrFail(ctx, [pointOf(fieldOf(input, 'start'), 'start'), pointOf(fieldOf(input, 'dest'), 'dest')]);
  return { distance_in_km: route.distanceKm, time_in_secs: route.durationSeconds };
}

export async function getMultiLocTime(ctx: AppContext, input: unknown) {
  const points = [pointOf(fieldOf(input, 'start'), 'start'), ...waypointsOf(fieldOf(input, 'waypoints')), pointOf(fieldOf(input, 'dest'), 'dest')];
  const route = await routeOrFail(ctx, points);
  return { distance_in_km: route.distanceKm, time_in_secs: route.durationSeconds };
}

export async function autocomplete(ctx: AppContext, input: unknown) {
  const keyword = textOf(fieldOf(input, 'searchKeyword'), 200);
  if (keyword === undefined) throw new AppError('google_places_error', 'searchKeyword');
  return { searchResults: await ctx.maps.autocomplete(keyword) };
}

export async function getCoords(ctx: AppContext, input: unknown) {
  const placeId = textOf(fieldOf(input, 'place_id'), 200);
  const place = placeId ? await ctx.maps.placeById(placeId) : undefined;
  if (!place) throw new AppError('google_places_error', 'place_id');
  return { coords: { lat: place.lat, lng: place.lng }, address: place.add };
}

export async function getRoute(ctx: AppContext, input: unknown) {
  const route = await routeOrFail(ctx, [pointOf(fieldOf(input, 'start'), 'start'), pointOf(fieldOf(input, 'dest'), 'dest')]);
  return { distance: route.distanceKm, duration: route.durationSeconds, polylinePoints: route.polylinePoints, approximate: route.approximate };
}
