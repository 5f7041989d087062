import { greatCircleKm } from '@rideway/domain';
import { displayName, matches, OSM_PLACES, type OsmPlace } from './osm-places';
import { json, startStandIn, type SeenRequest, type StandIn, type StandInAnswer } from './stand-in-server';

/**
 * A local Nominatim, written from https://nominatim.org/release-docs/latest/api/Search/,
 * .../api/Reverse/, .../api/Lookup/ and .../api/Output/ (format jsonv2), and the usage policy
 * (https://operations.osmfoundation.org/policies/nominatim/):
 * - `GET /search?q=..&format=jsonv2&limit=..`: an array of places, best first (limit 1 to 40);
 * - `GET /reverse?lat=..&lon=..&format=jsonv2`: the nearest place within 2 km, else
 *   `{"error": "Unable to geocode"}` (HTTP 200, as Nominatim answers where it has no data);
 * - `GET /lookup?osm_ids=N1,W2,R3&format=jsonv2`: the places found among at most 50 ids;
 * - a place: `place_id` (its own), `licence`, `osm_type` (node, way, relation), `osm_id`, `lat` and
 *   `lon` as strings, `category`, `type`, `place_rank`, `importance`, `addresstype`, `name`,
 *   `display_name`, `boundingbox` (strings);
 * - a bad parameter is HTTP 400 with `{"error": {"code": 400, "message"}}`; a client that does
 *   not identify itself (no User-Agent, or a library's default) is blocked with a 403, as the
 *   policy says. Only format jsonv2 is served: the adapter must ask for it.
 * Mode `nothing` finds nothing anywhere.
 */

const badRequest = (message: string): StandInAnswer => json({ error: { code: 400, message } }, 400);

function jsonv2(place: OsmPlace) {
  const box = [place.lat - 0.001, place.lat + 0.001, place.lng - 0.001, place.lng + 0.001].map((value) => value.toFixed(7));
  return {
    place_id: place.placeId,
    licence: 'Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright',
    osm_type: place.osmType,
    osm_id: place.osmId,
    lat: place.lat.toFixed(7),
    lon: place.lng.toFixed(7),
    category: place.category,
    type: place.type,
    place_rank: 30,
    importance: 0.5,
    addresstype: place.category,
    name: place.name,
    display_name: displayName(place),
    boundingbox: box,
  };
}

const coordinate = (text: string | null, limit: number): number | undefined => {
  const value = text === null || text.trim() === '' ? NaN : Number(text);
  return Number.isFinite(value) && Math.abs(value) <= limit ? value : undefined;
};

function answer(request: SeenRequest, mode: 'ok' | 'nothing' | 'wrongShape'): StandInAnswer {
  const agent = request.headers['user-agent'] ?? '';
  if (agent === '' || /^(node|undici|node-fetch|axios)\b/i.test(agent)) return { status: 403, body: 'Access blocked: identify your application (usage policy).' };
  const { query } = request;
  if (query.get('format') !== 'jsonv2') return badRequest("Parameter 'format' must be jsonv2 on this server.");
  const known = mode === 'nothing' ? [] : OSM_PLACES;
  switch (request.path) {
    case '/search': {
      const q = query.get('q') ?? '';
      if (q.trim() === '') return badRequest('Nothing to search for.');
      const limit = query.get('limit') === null ? 10 : Number(query.get('limit'));
      if (!Number.isInteger(limit) || limit < 1 || limit > 40) return badRequest("Parameter 'limit' must be a number between 1 and 40.");
      if (mode === 'wrongShape') return json({ results: [] });
      return json(known.filter((place) => matches(place, q)).slice(0, limit).map(jsonv2));
    }
    case '/reverse': {
      const lat = coordinate(query.get('lat'), 90);
      const lon = coordinate(query.get('lon'), 180);
      if (lat === undefined || lon === undefined) return badRequest('Invalid coordinates.');
      if (mode === 'wrongShape') return json({ display_name: 5 });
      const point = { lat, lng: lon };
      const nearest = known
        .map((place) => ({ place, km: greatCircleKm(point, place) }))
        .filter((entry) => entry.km <= 2)
        .sort((a, b) => a.km - b.km)[0];
      return json(nearest ? jsonv2(nearest.place) : { error: 'Unable to geocode' });
    }
    case '/lookup': {
      const ids = (query.get('osm_ids') ?? '').split(',');
      if (ids.length > 50 || !ids.every((id) => /^[NWR]\d+$/.test(id))) return badRequest("Parameter 'osm_ids' must be a list of OSM ids with their type (N, W or R).");
      if (mode === 'wrongShape') return json([{ lat: 51.5, lon: -0.12 }]);
      return json(known.filter((place) => ids.includes(`${place.osmType[0]?.toUpperCase() ?? ''}${place.osmId}`)).map(jsonv2));
    }
    default:
      return json({ error: { code: 404, message: 'Unknown endpoint' } }, 404);
  }
}

export const startNominatim = (): Promise<StandIn> => startStandIn(answer);
