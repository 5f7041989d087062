import type { PlaceSuggestion } from '@rideway/contract';
import type { Place } from '@rideway/domain';
import { api } from './client';

export type { PlaceSuggestion } from '@rideway/contract';

/** Section 7's place search through the server's maps port. */
export async function searchPlaces(searchKeyword: string, signal?: AbortSignal): Promise<PlaceSuggestion[]> {
  return (await api<{ searchResults: PlaceSuggestion[] }>('/googleapis-autocomplete', { method: 'POST', body: { searchKeyword }, signal })).searchResults;
}

/** The coordinates of a chosen suggestion, as a booking's place. */
export async function placeOf(suggestion: PlaceSuggestion): Promise<Place> {
  const { coords, address } = await api<{ coords: { lat: number; lng: number }; address: string }>('/googleapis-getcoords', { method: 'POST', body: { place_id: suggestion.place_id } });
  return { lat: coords.lat, lng: coords.lng, add: address || suggestion.description };
}
