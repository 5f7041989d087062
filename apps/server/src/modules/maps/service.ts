import type { AddressRequest, AutocompleteRequest, CoordsRequest, DriveTimeRequest, MultiLocTimeRequest } from '@rideway/contract';
import type { LatLng } from '@rideway/domain';
import type { AppContext } from '../../context';
import { AppError } from '../../http/app-error';

/**
 * The section 7 maps calls on the maps port; points arrive parsed from their "lat,lng" text. A
 * provider that fails throws a MapsProviderError carrying the call's key (no_route_found,
 * place_to_coords_error, google_places_error), which the error mapper answers with its 4xx.
 */

async function routeOrFail(ctx: AppContext, points: LatLng[]) {
  const route = await ctx.maps.route(points);
  if (!route) throw new AppError('no_route_found');
  return route;
}

export async function getAddress(ctx: AppContext, { latlng }: AddressRequest) {
  return { address: await ctx.maps.reverseGeocode(latlng) };
}

export async function getDriveTime(ctx: AppContext, { start, dest }: DriveTimeRequest) {
  const route = await routeOrFail(ctx, [start, dest]);
  return { distance_in_km: route.distanceKm, time_in_secs: route.durationSeconds };
}

export async function getMultiLocTime(ctx: AppContext, { start, waypoints, dest }: MultiLocTimeRequest) {
  const route = await routeOrFail(ctx, [start, ...waypoints, dest]);
  return { distance_in_km: route.distanceKm, time_in_secs: route.durationSeconds };
}

/** A search's suggestions; its session token (optional) reaches the provider, which may bill the search and its chosen place as one. */
export async function autocomplete(ctx: AppContext, { searchKeyword, sessiontoken }: AutocompleteRequest) {
  return { searchResults: await ctx.maps.autocomplete(searchKeyword, sessiontoken) };
}

export async function getCoords(ctx: AppContext, { place_id: placeId, sessiontoken }: CoordsRequest) {
  const place = await ctx.maps.placeById(placeId, sessiontoken);
  if (!place) throw new AppError('google_places_error', 'place_id');
  return { coords: { lat: place.lat, lng: place.lng }, address: place.add };
}

export async function getRoute(ctx: AppContext, { start, dest }: DriveTimeRequest) {
  const route = await routeOrFail(ctx, [start, dest]);
  return { distance: route.distanceKm, duration: route.durationSeconds, polylinePoints: route.polylinePoints, approximate: route.approximate };
}
