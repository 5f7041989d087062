import type { LatLng, Place } from '@rideway/domain';

export type { Place };

export type PlaceSuggestion = { place_id: string; description: string };
export type Route = {
  /** Road distance in km. */
  distanceKm: number;
  /** Driving time in seconds. */
  durationSeconds: number;
  /** Google's encoded polyline format. */
  polylinePoints: string;
  /** True when estimated without a road network (the offline adapter). */
  approximate: boolean;
};

/** The maps port: place search, geocoding and routes. Adapters: offline (default), OSRM/Nominatim, Google. */
export type MapsPort = {
  autocomplete: (query: string) => Promise<PlaceSuggestion[]>;
  placeById: (placeId: string) => Promise<Place | undefined>;
  reverseGeocode: (point: LatLng) => Promise<string>;
  /** A driving route through the points in order, or undefined when there is none. */
  route: (points: LatLng[]) => Promise<Route | undefined>;
};
