import type { ErrorKey, LatLng, Place } from '@rideway/domain';

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

/** One cell of a route table: the road distance and time from an origin to a destination. */
export type Leg = { distanceKm: number; durationSeconds: number };

/**
 * A provider that could not answer: it timed out, refused the call, failed (5xx) or answered
 * something malformed. The maps calls never turn this into a guess: the answer carries the spec's
 * key for the call (`no_route_found`, `google_places_error`, `place_to_coords_error`) and a 4xx.
 */
export class MapsProviderError extends Error {
  constructor(
    readonly provider: string,
    readonly reason: 'timeout' | 'refused' | 'failed' | 'malformed',
    /** The spec's key the failed call answers with. */
    readonly key: ErrorKey,
    message: string,
  ) {
    super(message);
    this.name = 'MapsProviderError';
  }
}

/**
 * The maps port: place search, geocoding and routes. Adapters: offline (the embedded default),
 * osm (OSRM, Nominatim and Photon) and google (Routes, Places (New) and Geocoding). "Nothing
 * found" is an empty answer (undefined, []), a provider's failure is a MapsProviderError.
 */
export type MapsPort = {
  /** The adapter's name, for logs and the public settings (`offline`, `osm`, `google`). */
  readonly provider: string;
  autocomplete: (query: string) => Promise<PlaceSuggestion[]>;
  placeById: (placeId: string) => Promise<Place | undefined>;
  reverseGeocode: (point: LatLng) => Promise<string>;
  /** A driving route through the points in order, or undefined when there is none. */
  route: (points: LatLng[]) => Promise<Route | undefined>;
  /**
   * Road distance and time from every origin to every destination in one call (OSRM's table,
   * Google's route matrix): rows by origin, cells by destination, undefined where no road joins them.
   */
  table: (origins: LatLng[], destinations: LatLng[]) => Promise<(Leg | undefined)[][]>;
};
