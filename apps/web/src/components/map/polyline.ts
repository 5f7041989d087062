import { decode } from '@googlemaps/polyline-codec';
import type { LatLng } from '@rideway/domain';

/** A route's points from Google's encoded polyline format (section 7's polylinePoints, precision 5), through Google's own codec. */
export function routePoints(polylinePoints: string): LatLng[] {
  if (polylinePoints === '') return [];
  return decode(polylinePoints, 5).map(([lat, lng]) => ({ lat, lng }));
}
