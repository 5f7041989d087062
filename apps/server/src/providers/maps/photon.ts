import type { LatLng } from '@rideway/domain';
import { z } from 'zod';
import type { PlaceSuggestion } from './port';
import { callProvider, joinUrl, readAnswer } from './provider-call';

/**
 * Type-ahead place search from a Photon server (komoot/photon, README "Search API"): built for
 * search-as-you-type over the same OSM data as Nominatim, which is not.
 * - `GET /api?q=..&limit=..` (optionally `lat` and `lon` to bias the results towards a point):
 *   a GeoJSON FeatureCollection; each feature is a Point with `coordinates` [lon, lat] and
 *   `properties` `osm_type` (N, W or R), `osm_id`, `name`, `housenumber`, `street`, `postcode`,
 *   `city`, `state`, `country`.
 * The place_id is the OSM type letter and id, so Nominatim's /lookup finds the same object.
 */

export type PhotonOptions = {
  /** The Photon server, e.g. `http://127.0.0.1:2322`. */
  baseUrl: string;
  timeoutMs: number;
  userAgent: string;
  /** Results near this point rank first. */
  near?: LatLng;
};

const text = z.string().optional();
const featureCollection = z.object({
  type: z.literal('FeatureCollection'),
  features: z.array(
    z.object({
      type: z.literal('Feature'),
      geometry: z.object({ type: z.literal('Point'), coordinates: z.tuple([z.number(), z.number()]) }),
      properties: z.object({
        osm_type: text,
        osm_id: z.number().int().positive().optional(),
        name: text,
        housenumber: text,
        street: text,
        postcode: text,
        city: text,
        state: text,
        country: text,
      }),
    }),
  ),
});

type Properties = z.output<typeof featureCollection>['features'][number]['properties'];

/** "Name, 12 Street, City, Country", each part once. */
function describe(properties: Properties): string {
  const street = [properties.housenumber, properties.street].filter(Boolean).join(' ');
  const parts = [properties.name, street, properties.city, properties.state === properties.city ? undefined : properties.state, properties.country];
  return [...new Set(parts.filter((part): part is string => typeof part === 'string' && part.trim() !== ''))].join(', ');
}

/** Suggestions for typed text, up to `limit`; only places with an OSM object Nominatim can look up. */
export function photonSearch(options: PhotonOptions) {
  return async (query: string, limit: number): Promise<PlaceSuggestion[]> => {
    const url = joinUrl(options.baseUrl, '/api');
    url.searchParams.set('q', query);
    url.searchParams.set('limit', String(limit));
    if (options.near) {
      url.searchParams.set('lat', options.near.lat.toFixed(5));
      url.searchParams.set('lon', options.near.lng.toFixed(5));
    }
    const request = { provider: 'photon', call: 'autocomplete' as const };
    const { body } = await callProvider({ ...request, url, timeoutMs: options.timeoutMs, headers: { 'user-agent': options.userAgent } });
    return readAnswer(request, featureCollection, body).features.flatMap(({ properties }) => {
      const type = properties.osm_type;
      const description = describe(properties);
      if ((type !== 'N' && type !== 'W' && type !== 'R') || properties.osm_id === undefined || description === '') return [];
      return [{ place_id: `${type}${properties.osm_id}`, description }];
    });
  };
}
