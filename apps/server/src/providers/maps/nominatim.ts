import { isLatLng, type LatLng } from '@rideway/domain';
import { z } from 'zod';
import type { Place, PlaceSuggestion } from './port';
import { callProvider, joinUrl, providerError, readAnswer, type MapsCall } from './provider-call';
import { pointText } from './typed-point';

/**
 * Geocoding from a Nominatim server, as documented at
 * https://nominatim.org/release-docs/latest/api/Search/, .../api/Reverse/, .../api/Lookup/ and
 * .../api/Output/ (jsonv2: `place_id`, `osm_type` "node" | "way" | "relation", `osm_id`, `lat` and
 * `lon` as strings, `display_name`, `category`, `type`, `name`):
 * - `GET /search?q=..&format=jsonv2&limit=..`: an array of places;
 * - `GET /reverse?lat=..&lon=..&format=jsonv2`: one place, or `{"error": "Unable to geocode"}`
 *   where there is no OSM data;
 * - `GET /lookup?osm_ids=N123,W456&format=jsonv2`: an array of the places found.
 * The place_id handed out is the OSM type letter and id (`W456`), the form /lookup takes: Nominatim's
 * own place_id differs between installations and imports. Nominatim's usage policy
 * (https://operations.osmfoundation.org/policies/nominatim/) asks every application to identify
 * itself by its User-Agent: the configured one is sent.
 */

export type NominatimOptions = {
  /** The Nominatim server, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  timeoutMs: number;
  userAgent: string;
};

/** Suggestions per search, as the offline gazetteer gives. */
export const SUGGESTIONS = 8;

const OSM_TYPE_LETTER = { node: 'N', way: 'W', relation: 'R' } as const;
/** An OSM object as /lookup takes it: N, W or R and the id. */
export const OSM_PLACE_ID = /^[NWR][1-9]\d{0,19}$/;

const coordinate = z.string().regex(/^-?\d{1,3}(\.\d+)?$/).transform(Number);
const place = z.object({
  osm_type: z.enum(['node', 'way', 'relation']).optional(),
  osm_id: z.union([z.number().int().positive(), z.string().regex(/^[1-9]\d*$/)]).optional(),
  lat: coordinate,
  lon: coordinate,
  display_name: z.string(),
});
const places = z.array(place);
/** A place, or the error Nominatim answers where it has no data (`{"error": "Unable to geocode"}`). */
const reverseAnswer = z.union([place, z.object({ error: z.string() })]);

type NominatimPlace = z.output<typeof place>;

const placeId = (found: NominatimPlace): string | undefined =>
  found.osm_type && found.osm_id !== undefined ? `${OSM_TYPE_LETTER[found.osm_type]}${found.osm_id}` : undefined;

export function nominatimGeocoding(options: NominatimOptions) {
  const ask = async (call: MapsCall, path: string, query: Record<string, string>): Promise<unknown> => {
    const url = joinUrl(options.baseUrl, path);
    for (const [name, value] of Object.entries({ ...query, format: 'jsonv2' })) url.searchParams.set(name, value);
    return (await callProvider({ provider: 'nominatim', call, url, timeoutMs: options.timeoutMs, headers: { 'user-agent': options.userAgent } })).body;
  };
  /** A place's point, or `malformed`: Nominatim never answers a point off the globe. */
  const pointOf = (call: MapsCall, found: NominatimPlace): LatLng => {
    const point = { lat: found.lat, lng: found.lon };
    if (!isLatLng(point)) throw providerError({ provider: 'nominatim', call }, 'malformed', 'a place off the globe');
    return point;
  };

  return {
    /** Free-text search: the places with an OSM object, as suggestions. */
    async search(query: string): Promise<PlaceSuggestion[]> {
      const found = readAnswer({ provider: 'nominatim', call: 'autocomplete' }, places, await ask('autocomplete', '/search', { q: query, limit: String(SUGGESTIONS) }));
      return found.flatMap((entry) => {
        const id = placeId(entry);
        return id ? [{ place_id: id, description: entry.display_name }] : [];
      });
    },

    /** An OSM object by its type and id (`W456`); undefined when the id is not one or nothing is found. */
    async lookup(id: string): Promise<Place | undefined> {
      if (!OSM_PLACE_ID.test(id)) return undefined;
      const [found] = readAnswer({ provider: 'nominatim', call: 'placeById' }, places, await ask('placeById', '/lookup', { osm_ids: id }));
      return found ? { ...pointOf('placeById', found), add: found.display_name } : undefined;
    },

    /** The address of the nearest OSM object; the point itself where Nominatim has no data. */
    async reverse(point: LatLng): Promise<string> {
      if (!isLatLng(point)) return pointText(point);
      const answer = readAnswer(
        { provider: 'nominatim', call: 'reverseGeocode' },
        reverseAnswer,
        await ask('reverseGeocode', '/reverse', { lat: point.lat.toFixed(6), lon: point.lng.toFixed(6) }),
      );
      return 'display_name' in answer && answer.display_name !== '' ? answer.display_name : pointText(point);
    },
  };
}
