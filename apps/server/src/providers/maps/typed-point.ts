import { isLatLng, type LatLng } from '@rideway/domain';
import type { Place, PlaceSuggestion } from './port';

/**
 * A place typed as "lat,lng" is a place of its own with every adapter: suggested as itself, its
 * place_id `latlng:{lat},{lng}`, looked up without asking anyone.
 */

const LAT_LNG_INPUT = /^\s*(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/;
const PREFIX = 'latlng:';

export function parseLatLng(text: string): LatLng | undefined {
  const match = LAT_LNG_INPUT.exec(text);
  const point = match ? { lat: Number(match[1]), lng: Number(match[2]) } : undefined;
  return isLatLng(point) ? point : undefined;
}

/** The suggestion for a typed "lat,lng", or undefined when the text is not one. */
export function typedPointSuggestion(query: string): PlaceSuggestion | undefined {
  const point = parseLatLng(query);
  return point ? { place_id: `${PREFIX}${point.lat},${point.lng}`, description: `${point.lat}, ${point.lng}` } : undefined;
}

export const isTypedPointId = (placeId: string): boolean => placeId.startsWith(PREFIX);

/** The place of a `latlng:` place_id (undefined when its point is not one). */
export function typedPointPlace(placeId: string): Place | undefined {
  const point = parseLatLng(placeId.slice(PREFIX.length));
  return point ? { ...point, add: `${point.lat}, ${point.lng}` } : undefined;
}

/** A point as text, when no address is known for it. */
export const pointText = (point: LatLng): string => `${point.lat.toFixed(5)}, ${point.lng.toFixed(5)}`;
