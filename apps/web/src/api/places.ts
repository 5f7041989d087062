import type { EditPlaceRequest, PlaceSuggestion, SavedPlace, SavePlaceRequest } from '@rideway/contract';
import type { Place } from '@rideway/domain';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

export type { PlaceSuggestion, SavedPlace } from '@rideway/contract';

/**
 * A new place search session (a version 4 UUID): one per field's search, sent with its
 * suggestions and with the chosen place's lookup, so a provider that bills by session (Google)
 * bills them as one.
 */
export function newPlaceSession(): string {
  // randomUUID exists only in a secure context; the app also runs over plain http on a LAN address.
  if (window.isSecureContext) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Section 7's place search through the server's maps port, within a search session when given. */
export async function searchPlaces(searchKeyword: string, signal?: AbortSignal, sessiontoken?: string): Promise<PlaceSuggestion[]> {
  return (await api<{ searchResults: PlaceSuggestion[] }>('/googleapis-autocomplete', { method: 'POST', body: { searchKeyword, ...(sessiontoken ? { sessiontoken } : {}) }, signal })).searchResults;
}

/** The coordinates of a chosen suggestion, as a booking's place; the lookup ends the search session it came from. */
export async function placeOf(suggestion: PlaceSuggestion, sessiontoken?: string): Promise<Place> {
  const body = { place_id: suggestion.place_id, ...(sessiontoken ? { sessiontoken } : {}) };
  const { coords, address } = await api<{ coords: { lat: number; lng: number }; address: string }>('/googleapis-getcoords', { method: 'POST', body });
  return { lat: coords.lat, lng: coords.lng, add: address || suggestion.description };
}

/** A point as section 7's maps calls take it: "lat,lng". */
const pointText = ({ lat, lng }: Pick<Place, 'lat' | 'lng'>): string => `${String(lat)},${String(lng)}`;

/** Section 7's reverse geocoding: a point on the map (a dropped pin, the browser's position) as a booking's place. */
export async function placeAt(point: Pick<Place, 'lat' | 'lng'>, signal?: AbortSignal): Promise<Place> {
  const { address } = await api<{ address: string }>('/googleapis-getaddress', { method: 'POST', body: { latlng: pointText(point) }, signal });
  return { lat: point.lat, lng: point.lng, add: address };
}

/** Section 7's route: distance (km), duration (seconds), Google's encoded polyline, and whether it is only estimated. */
export type PlannedRoute = { distance: number; duration: number; polylinePoints: string; approximate: boolean };

export async function routeBetween(start: Pick<Place, 'lat' | 'lng'>, dest: Pick<Place, 'lat' | 'lng'>, signal?: AbortSignal): Promise<PlannedRoute> {
  return api<PlannedRoute>('/googleapis-getroute', { method: 'POST', body: { start: pointText(start), dest: pointText(dest) }, signal });
}

const SAVED_PLACES = ['saved-places'] as const;

/**
 * Issue 17 point 12: the rider's saved places, the most used first (the server's order). Read
 * again each time a place field or the profile mounts, so a drop recorded since shows.
 */
/** A rider's saved places (issue 17 point 12). */
export const savedPlacesQuery = queryOptions({ queryKey: SAVED_PLACES, queryFn: async () => (await api<{ places: SavedPlace[] }>('/api/me/places')).places });

export function useSavedPlaces(enabled = true) {
  return useQuery({ ...savedPlacesQuery, enabled });
}

/** The saved places change: every field and list showing them reads them again. */
function useSavedPlacesChange<T>(mutationFn: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: SAVED_PLACES }) });
}

export const useSavePlace = () => useSavedPlacesChange((body: SavePlaceRequest) => api<{ place: SavedPlace }>('/api/me/places', { method: 'POST', body }));
export const useEditPlace = () => useSavedPlacesChange(({ id, ...body }: EditPlaceRequest & { id: number }) => api<{ place: SavedPlace }>(`/api/me/places/${String(id)}`, { method: 'PATCH', body }));
export const useRemovePlace = () => useSavedPlacesChange((id: number) => api<undefined>(`/api/me/places/${String(id)}`, { method: 'DELETE' }));

/** What a saved place is called: Home or Work (translated), its own name, or else its address. */
export const savedPlaceTitle = (place: Pick<SavedPlace, 'label' | 'name' | 'description'>, t: (key: string) => string): string =>
  place.label ? t(`place_${place.label}`) : (place.name ?? place.description);
