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

/** A point of a GPS trace: where the car was and, when known, when (epoch ms). */
export type TracePoint = LatLng & { at?: number };

/** The tiles every web map draws (a Leaflet URL template, `{z}/{x}/{y}`) and their attribution (HTML). */
export type MapTiles = { mapTileUrl: string; mapTileAttribution: string };

/**
 * The answer of a provider's own map tiles: the layer to draw now (a fresh one, or one still valid
 * while its renewal failed), undefined when there is none to give; and the failure of an attempt
 * this call made, for the caller to log (never thrown: the maps fall back to MAP_TILE_URL).
 */
export type ProviderTiles = { tiles?: MapTiles; failure?: MapsProviderError };

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
  /**
   * True when the provider bills a place search by its session token (Google's Places API (New)):
   * a cache in front of it then keeps each session's answers apart.
   */
  readonly placeSessions?: boolean;
  /**
   * Place suggestions for typed text. `sessionToken` names the search session the text belongs to
   * (the web's one per field, ended by the chosen place's lookup); adapters that don't bill by
   * session ignore it.
   */
  autocomplete: (query: string, sessionToken?: string) => Promise<PlaceSuggestion[]>;
  /** A place by the id a suggestion carried; `sessionToken` ends the search session it came from. */
  placeById: (placeId: string, sessionToken?: string) => Promise<Place | undefined>;
  reverseGeocode: (point: LatLng) => Promise<string>;
  /** A driving route through the points in order, or undefined when there is none. */
  route: (points: LatLng[]) => Promise<Route | undefined>;
  /**
   * Road distance and time from every origin to every destination in one call (OSRM's table,
   * Google's route matrix): rows by origin, cells by destination, undefined where no road joins them.
   */
  table: (origins: LatLng[], destinations: LatLng[]) => Promise<(Leg | undefined)[][]>;
  /**
   * The road a car most likely drove along a GPS trace (map matching: OSRM's match service),
   * which routing through every noisy point would not give (a point off the road becomes a
   * U-turn); undefined when the trace matches no road. Optional: adapters without it route
   * through the points instead.
   */
  matchTrace?: (points: TracePoint[]) => Promise<Route | undefined>;
  /**
   * The provider's own map tiles, where its terms require its results on its map (Google's Map
   * Tiles API); the configured MAP_TILE_URL otherwise.
   */
  mapTiles?: () => Promise<ProviderTiles>;
};
