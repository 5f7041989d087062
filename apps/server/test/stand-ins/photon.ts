import { greatCircleKm } from '@rideway/domain';
import { matches, OSM_PLACES, type OsmPlace } from './osm-places';
import { json, startStandIn, type SeenRequest, type StandIn, type StandInAnswer } from './stand-in-server';

/**
 * A local Photon, written from komoot/photon's README ("Search API"):
 * - `GET /api?q=..&limit=..`, optionally `lat` and `lon` together (a location bias: nearer results
 *   first); answers a GeoJSON FeatureCollection of Point features, coordinates [lon, lat], with
 *   `properties` osm_type (N, W, R), osm_id, osm_key, osm_value, type, name, housenumber, street,
 *   postcode, city, country, countrycode;
 * - a bad parameter is HTTP 400 with `{"message"}`.
 * Mode `nothing` finds nothing.
 */

const badRequest = (message: string): StandInAnswer => json({ message }, 400);

const feature = (place: OsmPlace) => ({
  type: 'Feature',
  geometry: { type: 'Point', coordinates: [place.lng, place.lat] },
  properties: {
    osm_type: place.osmType[0]?.toUpperCase(),
    osm_id: place.osmId,
    osm_key: place.category,
    osm_value: place.type,
    type: 'house',
    name: place.name,
    ...(place.housenumber ? { housenumber: place.housenumber } : {}),
    ...(place.street ? { street: place.street } : {}),
    ...(place.postcode ? { postcode: place.postcode } : {}),
    ...(place.city ? { city: place.city } : {}),
    country: place.country,
    countrycode: 'GB',
  },
});

function answer(request: SeenRequest, mode: 'ok' | 'nothing' | 'wrongShape'): StandInAnswer {
  if (request.path !== '/api') return json({ message: 'not found' }, 404);
  const { query } = request;
  const q = query.get('q') ?? '';
  if (q.trim() === '') return badRequest("missing search term 'q': /?q=berlin");
  const limit = query.get('limit') === null ? 15 : Number(query.get('limit'));
  if (!Number.isInteger(limit) || limit < 1) return badRequest("Invalid parameter 'limit', expected a positive integer.");
  const lat = query.get('lat');
  const lon = query.get('lon');
  if ((lat === null) !== (lon === null)) return badRequest("Invalid search: 'lat' and 'lon' go together.");
  const near = lat !== null && lon !== null ? { lat: Number(lat), lng: Number(lon) } : undefined;
  if (near && (!Number.isFinite(near.lat) || !Number.isFinite(near.lng) || Math.abs(near.lat) > 90 || Math.abs(near.lng) > 180)) return badRequest('Invalid coordinates.');
  if (mode === 'wrongShape') return json({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: 'here' }, properties: {} }] });
  const found = (mode === 'nothing' ? [] : OSM_PLACES).filter((place) => matches(place, q));
  if (near) found.sort((a, b) => greatCircleKm(near, a) - greatCircleKm(near, b));
  return json({ type: 'FeatureCollection', features: found.slice(0, limit).map(feature) });
}

export const startPhoton = (): Promise<StandIn> => startStandIn(answer);
