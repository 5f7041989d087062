import type { Config } from '../../config';
import { nominatimGeocoding, SUGGESTIONS } from './nominatim';
import { osrmRouting } from './osrm';
import { photonSearch } from './photon';
import type { MapsPort } from './port';
import { isTypedPointId, typedPointPlace, typedPointSuggestion } from './typed-point';

/**
 * The osm maps adapter: open, self-hostable services over OpenStreetMap data. Routes, route
 * tables and matched GPS traces from OSRM (osrm.ts), addresses and places from Nominatim
 * (nominatim.ts), type-ahead from Photon (photon.ts) when one is configured, else from
 * Nominatim's search. Wire formats and the documentation they follow are at the top of each file;
 * docs/maps.md says how to run them. None of them bills by search session: the Places session
 * tokens the port carries are ignored.
 */

export type OsmOptions = {
  osrmUrl: string;
  nominatimUrl: string;
  /** A Photon server for type-ahead; Nominatim's search otherwise. */
  photonUrl?: string;
  timeoutMs: number;
  /** Sent to every server; Nominatim's usage policy requires one naming the application. */
  userAgent: string;
};

/** Shorter text is not searched: a letter or two matches half the world and costs a call per key. */
export const MIN_QUERY_CHARS = 3;

/** The User-Agent the maps calls identify the application with: MAPS_USER_AGENT, or Rideway and its address. */
export const mapsUserAgent = (config: Pick<Config, 'MAPS_USER_AGENT' | 'PUBLIC_URL'>): string =>
  config.MAPS_USER_AGENT ?? `Rideway/0.1 (${config.PUBLIC_URL ?? 'self-hosted ride-hailing server'})`;

export function osmOptions(config: Config): OsmOptions {
  if (!config.OSRM_URL || !config.NOMINATIM_URL) throw new Error('MAPS_PROVIDER=osm needs OSRM_URL and NOMINATIM_URL');
  return {
    osrmUrl: config.OSRM_URL,
    nominatimUrl: config.NOMINATIM_URL,
    ...(config.PHOTON_URL ? { photonUrl: config.PHOTON_URL } : {}),
    timeoutMs: config.MAPS_TIMEOUT_MS,
    userAgent: mapsUserAgent(config),
  };
}

export function osmMaps(options: OsmOptions): MapsPort {
  const { timeoutMs, userAgent } = options;
  const routing = osrmRouting({ baseUrl: options.osrmUrl, timeoutMs, userAgent });
  const geocoding = nominatimGeocoding({ baseUrl: options.nominatimUrl, timeoutMs, userAgent });
  const photon = options.photonUrl ? photonSearch({ baseUrl: options.photonUrl, timeoutMs, userAgent }) : undefined;
  return {
    provider: 'osm',
    async autocomplete(query) {
      const typed = typedPointSuggestion(query);
      if (typed) return [typed];
      const text = query.trim().replace(/\s+/g, ' ');
      if (text.length < MIN_QUERY_CHARS) return [];
      return photon ? photon(text, SUGGESTIONS) : geocoding.search(text);
    },
    placeById: (placeId) => (isTypedPointId(placeId) ? Promise.resolve(typedPointPlace(placeId)) : geocoding.lookup(placeId)),
    reverseGeocode: (point) => geocoding.reverse(point),
    route: (points) => routing.route(points),
    table: (origins, destinations) => routing.table(origins, destinations),
    // OSRM's match service: a trip's GPS trace snapped to the roads it followed.
    matchTrace: (points) => routing.matchTrace(points),
  };
}
