import { createServer, type IncomingHttpHeaders } from 'node:http';
import polylineCodec from '@googlemaps/polyline-codec';
import { greatCircleKm, type LatLng } from '@rideway/domain';
import { listenLocally } from './stand-in-server';

/**
 * A local stand-in for the Google Maps Platform services the google adapter uses, on one node:http
 * server, written from Google's public documentation:
 * - Routes API, https://developers.google.com/maps/documentation/routes/reference/rest/v2/TopLevel/computeRoutes
 *   and .../computeRouteMatrix: `POST /directions/v2:computeRoutes` answers
 *   `{routes: [{distanceMeters, duration: "123s", polyline: {encodedPolyline}}]}`, or `{}` when no
 *   route joins the points; `POST /distanceMatrix/v2:computeRouteMatrix` answers a JSON array of
 *   elements `{originIndex, destinationIndex, status, condition, distanceMeters, duration}`, in no
 *   particular order (the REST form of its stream), `condition` ROUTE_EXISTS or ROUTE_NOT_FOUND.
 * - Places API (New), https://developers.google.com/maps/documentation/places/web-service/place-autocomplete
 *   and .../place-details: `POST /v1/places:autocomplete` with `{input, sessionToken?}` answers
 *   `{suggestions: [{placePrediction: {place, placeId, text: {text}}}]}` (`{}` when none);
 *   `GET /v1/places/{placeId}` answers the Place with the fields asked for, 404 NOT_FOUND for an
 *   unknown id.
 * - Geocoding API, https://developers.google.com/maps/documentation/geocoding/requests-reverse-geocoding:
 *   `GET /maps/api/geocode/json?latlng=lat,lng&key=..` answers HTTP 200 with a `status` (OK,
 *   ZERO_RESULTS, OVER_QUERY_LIMIT, REQUEST_DENIED, INVALID_REQUEST, UNKNOWN_ERROR) and `results`.
 * - Map Tiles API, https://developers.google.com/maps/documentation/tile/session_tokens, .../tile/roadmap
 *   and .../tile/2d-tiles-overview: `POST /v1/createSession?key=..` with `{mapType, language,
 *   region}` (all required) answers `{session, expiry, tileWidth, tileHeight, imageFormat}`, expiry
 *   in seconds since the epoch as a string, two weeks on; `GET /v1/2dtiles/{z}/{x}/{y}?session=..&key=..`
 *   answers a PNG tile of a known session (400 otherwise); `GET /tile/v1/viewport?session=..&key=..
 *   &zoom=..&north=..&south=..&east=..&west=..` answers `{copyright, maxZoomRects}`. These take the
 *   browser key (`tileKey`), and when `tileReferer` is set only a request whose Referer starts with
 *   it, as a key restricted by HTTP referrer (403 PERMISSION_DENIED otherwise).
 * The Routes and Places APIs take the key in `X-Goog-Api-Key` (or `?key=`) and the field mask in
 * `X-Goog-FieldMask` (or `?fields=`), Google's system parameters
 * (https://cloud.google.com/apis/docs/system-parameters); the field mask is required except for
 * autocomplete, and only the fields it names are answered. Their errors are
 * `{error: {code, message, status}}` with the HTTP status: a missing key 403 PERMISSION_DENIED, a
 * wrong one 400 INVALID_ARGUMENT (API_KEY_INVALID), a missing field mask or a bad body 400
 * INVALID_ARGUMENT. Google's client libraries ask with `$alt=json;enum-encoding=int`: enums then
 * travel as numbers, both ways.
 *
 * Its world: roads are 1.3 times the straight line, driven at 10 m/s; nothing reaches south of
 * 60° S (no route there, and no address). Its places are PLACES. Modes: `ok`; `nothing` (no
 * route, no suggestion, no place, ZERO_RESULTS); `hang` (never answers); `fail` (503
 * UNAVAILABLE); `garbage` (not JSON); `wrongShape` (JSON of another shape than documented);
 * `quota` (429 RESOURCE_EXHAUSTED, Geocoding's OVER_QUERY_LIMIT); `blocked` (the API is not
 * enabled for the key: 403 PERMISSION_DENIED, Geocoding's REQUEST_DENIED).
 */

export type GoogleStandInMode = 'ok' | 'nothing' | 'hang' | 'fail' | 'garbage' | 'wrongShape' | 'quota' | 'blocked';

export type GoogleSeenRequest = { method: string; path: string; query: URLSearchParams; headers: IncomingHttpHeaders; body: unknown };

export type GoogleStandIn = {
  /** The base URL, e.g. `http://127.0.0.1:40123`: GOOGLE_MAPS_API_URL. */
  url: string;
  /** The API key it accepts. */
  key: string;
  /** The browser key the Map Tiles API accepts (GOOGLE_MAP_TILES_API_KEY). */
  tileKey: string;
  /** When set, the Map Tiles API answers only requests whose Referer starts with it. */
  tileReferer?: string;
  /** The tile sessions it created, oldest first. */
  sessions: string[];
  /** How long a session lives, in seconds (two weeks, as Google says today). */
  sessionSeconds: number;
  /** When true, the viewport information answers 503 whatever the mode (the tiles still work). */
  viewportDown?: boolean;
  mode: GoogleStandInMode;
  /** Every request received, oldest first. */
  requests: GoogleSeenRequest[];
  close: () => Promise<void>;
};

export const ROAD_FACTOR = 1.3;
export const SPEED_M_S = 10;

export type StandInPlace = { id: string; name: string; formattedAddress: string; lat: number; lng: number };

/** The places it knows (made-up place ids, in Google's alphabet). */
export const PLACES: StandInPlace[] = [
  { id: 'ChIJstandin-bakerstreet221b', name: '221B Baker Street', formattedAddress: '221B Baker St, London NW1 6XE, UK', lat: 51.523767, lng: -0.1585557 },
  { id: 'ChIJstandin-kingscross', name: "King's Cross", formattedAddress: 'Euston Rd, London N1 9AL, UK', lat: 51.530882, lng: -0.123496 },
  { id: 'ChIJstandin-paddington', name: 'Paddington', formattedAddress: 'Praed St, London W2 1HQ, UK', lat: 51.516667, lng: -0.176944 },
  { id: 'ChIJstandin-bakerloo', name: 'Baker Street Station', formattedAddress: 'Marylebone Rd, London NW1 5LJ, UK', lat: 51.522883, lng: -0.15713 },
];

const isUnreachable = (point: LatLng): boolean => point.lat < -60;

/** The stand-in's road between points: whole metres (distanceMeters is an int32), seconds, the encoded line. */
export function standInRoute(points: LatLng[]): { metres: number; seconds: number; polyline: string } {
  let km = 0;
  for (let i = 1; i < points.length; i += 1) km += greatCircleKm(points[i - 1] as LatLng, points[i] as LatLng);
  const metres = Math.round(km * 1000 * ROAD_FACTOR);
  return { metres, seconds: Math.round(metres / SPEED_M_S), polyline: polylineCodec.encode(points.map((point) => [point.lat, point.lng]), 5) };
}

type Answer = { status: number; body: unknown; contentType?: string };

/** The copyright the viewport information answers. */
export const STAND_IN_COPYRIGHT = 'Map data ©2025 Google <stand-in>';

/** A 256-pixel PNG tile, Google-map beige with a darker edge, so a screenshot shows whose tiles were drawn. */
const TILE_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAQAAAAEAAQMAAABmvDolAAAABlBMVEX16+LIuKCmPA64AAAAP0lEQVR42u3aMREAQAgEsZvBvyec/TuAgjZbR8LmLWUFnbECAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACYwPle+JRHP4Q1wLfZAAAAAElFTkSuQmCC',
  'base64',
);

const STATUS_CODE: Record<string, number> = { INVALID_ARGUMENT: 400, PERMISSION_DENIED: 403, NOT_FOUND: 404, RESOURCE_EXHAUSTED: 429, UNAVAILABLE: 503 };
/** google.rpc.Status as Google's REST APIs answer it. */
const googleError = (status: keyof typeof STATUS_CODE, message: string, reason?: string): Answer => ({
  status: STATUS_CODE[status] ?? 500,
  body: {
    error: {
      code: STATUS_CODE[status],
      message,
      status,
      ...(reason ? { details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com' }] } : {}),
    },
  },
});
const invalid = (message: string): Answer => googleError('INVALID_ARGUMENT', message);

/** The fields of `value` a field mask names (`a.b.c` paths, `*` for all), as Google answers them. */
function masked(value: unknown, paths: string[]): unknown {
  if (paths.includes('*') || paths.length === 0) return value;
  if (Array.isArray(value)) return value.map((item) => masked(item, paths));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    const below = paths.filter((path) => path === name || path.startsWith(`${name}.`)).map((path) => (path === name ? '*' : path.slice(name.length + 1)));
    if (below.length > 0) out[name] = masked(field, below);
  }
  return out;
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** A Waypoint's `location.latLng`, or undefined when it is not one. */
function latLngOf(waypoint: unknown): LatLng | undefined {
  const latLng = (waypoint as { location?: { latLng?: { latitude?: unknown; longitude?: unknown } } } | undefined)?.location?.latLng;
  // proto3 JSON leaves out zero values: a missing coordinate is 0.
  const lat = latLng?.latitude ?? 0;
  const lng = latLng?.longitude ?? 0;
  if (!latLng || !isNumber(lat) || !isNumber(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return undefined;
  return { lat, lng };
}

/** RouteTravelMode and RoutingPreference, by name and by number (enum-encoding=int). */
const TRAVEL_MODES: Record<string, string> = { '0': 'TRAVEL_MODE_UNSPECIFIED', '1': 'DRIVE', '2': 'BICYCLE', '3': 'WALK', '4': 'TWO_WHEELER', '7': 'TRANSIT' };
const ROUTING_PREFERENCES: Record<string, string> = { '0': 'ROUTING_PREFERENCE_UNSPECIFIED', '1': 'TRAFFIC_UNAWARE', '2': 'TRAFFIC_AWARE', '3': 'TRAFFIC_AWARE_OPTIMAL' };
const enumName = (names: Record<string, string>, value: unknown, fallback: string): string | undefined => {
  if (value === undefined) return fallback;
  if (typeof value === 'number') return names[String(value)];
  return typeof value === 'string' && Object.values(names).includes(value) ? value : undefined;
};
/** ROUTE_EXISTS = 1, ROUTE_NOT_FOUND = 2 (RouteMatrixElementCondition). */
const CONDITION_NUMBER: Record<string, number> = { ROUTE_EXISTS: 1, ROUTE_NOT_FOUND: 2 };

export async function startGoogleMaps(options: { key?: string } = {}): Promise<GoogleStandIn> {
  const standIn: GoogleStandIn = {
    url: '',
    key: options.key ?? 'AIzaStandInKey_0123456789abcdefghij',
    tileKey: 'AIzaStandInTileKey_0123456789abcdefgh',
    sessions: [],
    sessionSeconds: 14 * 24 * 3600,
    mode: 'ok',
    requests: [],
    close: () => Promise.resolve(),
  };

  /** The key and field mask checks the Routes and Places APIs make before anything else. */
  const systemParameters = (seen: GoogleSeenRequest, needsMask: boolean): Answer | string[] => {
    const key = (seen.headers['x-goog-api-key'] as string | undefined) ?? seen.query.get('key') ?? undefined;
    if (!key) return googleError('PERMISSION_DENIED', 'The request is missing a valid API key.');
    if (key !== standIn.key) return googleError('INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', 'API_KEY_INVALID');
    const mask = (seen.headers['x-goog-fieldmask'] as string | undefined) ?? seen.query.get('fields') ?? seen.query.get('$fields') ?? undefined;
    if (needsMask && !mask) {
      return invalid("FieldMask is a required parameter. See https://cloud.google.com/apis/docs/system-parameters on how to provide it. As an example, you can set the header 'X-Goog-FieldMask' to value 'displayName' to ask for the display name.");
    }
    return (mask ?? '*').split(',').map((path) => path.trim()).filter(Boolean);
  };

  const computeRoutes = (seen: GoogleSeenRequest, fields: string[]): Answer => {
    const body = seen.body as { origin?: unknown; destination?: unknown; intermediates?: unknown; travelMode?: unknown; routingPreference?: unknown } | undefined;
    const origin = latLngOf(body?.origin);
    const destination = latLngOf(body?.destination);
    if (!origin || !destination) return invalid('Invalid request: origin and destination must be waypoints with a location.latLng.');
    const intermediates = body?.intermediates ?? [];
    if (!Array.isArray(intermediates)) return invalid('Invalid JSON payload received. Unknown name "intermediates": Proto field is not repeating, cannot start list.');
    if (intermediates.length > 25) return invalid('Number of intermediate waypoints exceeds the maximum of 25.');
    const stops = intermediates.map(latLngOf);
    if (!stops.every((stop): stop is LatLng => stop !== undefined)) return invalid('Invalid request: every intermediate waypoint needs a location.latLng.');
    if (enumName(TRAVEL_MODES, body?.travelMode, 'DRIVE') !== 'DRIVE') return invalid('Invalid value at travel_mode.');
    const preference = enumName(ROUTING_PREFERENCES, body?.routingPreference, 'ROUTING_PREFERENCE_UNSPECIFIED');
    if (!preference) return invalid('Invalid value at routing_preference.');
    const points = [origin, ...stops, destination];
    if (standIn.mode === 'nothing' || points.some(isUnreachable)) return { status: 200, body: {} };
    if (standIn.mode === 'wrongShape') return { status: 200, body: { routes: [{ description: 'no distance, duration or polyline' }] } };
    const { metres, seconds, polyline } = standInRoute(points);
    return { status: 200, body: masked({ routes: [{ distanceMeters: metres, duration: `${seconds}s`, staticDuration: `${seconds}s`, polyline: { encodedPolyline: polyline } }] }, fields) };
  };

  const computeRouteMatrix = (seen: GoogleSeenRequest, fields: string[], numericEnums: boolean): Answer => {
    const body = seen.body as { origins?: unknown; destinations?: unknown; travelMode?: unknown } | undefined;
    if (!Array.isArray(body?.origins) || !Array.isArray(body.destinations) || body.origins.length === 0 || body.destinations.length === 0) {
      return invalid('Invalid request: origins and destinations are required.');
    }
    if (body.origins.length * body.destinations.length > 625) return invalid('The product of origins and destinations must not exceed 625 elements.');
    const origins = body.origins.map((origin: unknown) => latLngOf((origin as { waypoint?: unknown }).waypoint));
    const destinations = body.destinations.map((destination: unknown) => latLngOf((destination as { waypoint?: unknown }).waypoint));
    if (![...origins, ...destinations].every((point) => point !== undefined)) return invalid('Invalid request: every RouteMatrixOrigin and RouteMatrixDestination needs a waypoint with a location.latLng.');
    if (enumName(TRAVEL_MODES, body.travelMode, 'DRIVE') !== 'DRIVE') return invalid('Invalid value at travel_mode.');
    if (standIn.mode === 'wrongShape') return { status: 200, body: { elements: 'not the documented array' } };
    const condition = (name: string) => (numericEnums ? CONDITION_NUMBER[name] : name);
    const elements: unknown[] = [];
    origins.forEach((origin, originIndex) => {
      destinations.forEach((destination, destinationIndex) => {
        const from = origin as LatLng;
        const to = destination as LatLng;
        if (standIn.mode === 'nothing' || isUnreachable(from) || isUnreachable(to)) {
          elements.push({ originIndex, destinationIndex, status: {}, condition: condition('ROUTE_NOT_FOUND') });
          return;
        }
        const { metres, seconds } = standInRoute([from, to]);
        elements.push({ originIndex, destinationIndex, status: {}, condition: condition('ROUTE_EXISTS'), distanceMeters: metres, duration: `${seconds}s`, staticDuration: `${seconds}s` });
      });
    });
    // A stream: elements arrive as they are computed, in no particular order.
    return { status: 200, body: masked(elements.reverse(), fields) };
  };

  const autocomplete = (seen: GoogleSeenRequest, fields: string[]): Answer => {
    const body = seen.body as { input?: unknown; sessionToken?: unknown } | undefined;
    if (typeof body?.input !== 'string') return invalid('Invalid request: input is required.');
    if (body.sessionToken !== undefined && typeof body.sessionToken !== 'string') return invalid('Invalid value at session_token.');
    if (standIn.mode === 'wrongShape') return { status: 200, body: { suggestions: [{ placePrediction: { text: { text: 'a place without an id' } } }] } };
    const wanted = body.input.trim().toLowerCase();
    const found = standIn.mode === 'nothing' || wanted === '' ? [] : PLACES.filter((place) => `${place.name}, ${place.formattedAddress}`.toLowerCase().includes(wanted));
    if (found.length === 0) return { status: 200, body: {} };
    const suggestions = found.slice(0, 5).map((place) => {
      const text = `${place.name}, ${place.formattedAddress}`;
      return {
        placePrediction: {
          place: `places/${place.id}`,
          placeId: place.id,
          text: { text, matches: [{ startOffset: text.toLowerCase().indexOf(wanted), endOffset: text.toLowerCase().indexOf(wanted) + wanted.length }] },
          structuredFormat: { mainText: { text: place.name }, secondaryText: { text: place.formattedAddress } },
          types: ['point_of_interest', 'establishment'],
        },
      };
    });
    return { status: 200, body: masked({ suggestions }, fields) };
  };

  const placeDetails = (placeId: string, fields: string[]): Answer => {
    if (!/^[\w-]+$/.test(placeId)) return invalid(`Not a valid Place ID: ${placeId}`);
    const place = standIn.mode === 'nothing' ? undefined : PLACES.find((candidate) => candidate.id === placeId);
    if (!place) return googleError('NOT_FOUND', 'Requested entity was not found.');
    if (standIn.mode === 'wrongShape') return { status: 200, body: { id: place.id, formattedAddress: place.formattedAddress } };
    return {
      status: 200,
      body: masked(
        { name: `places/${place.id}`, id: place.id, formattedAddress: place.formattedAddress, location: { latitude: place.lat, longitude: place.lng }, displayName: { text: place.name, languageCode: 'en' } },
        fields,
      ),
    };
  };

  const reverseGeocode = (seen: GoogleSeenRequest): Answer => {
    const ok = (body: Record<string, unknown>): Answer => ({ status: 200, body: { results: [], ...body } });
    if (seen.query.get('key') !== standIn.key) return ok({ status: 'REQUEST_DENIED', error_message: 'The provided API key is invalid.' });
    if (standIn.mode === 'quota') return ok({ status: 'OVER_QUERY_LIMIT', error_message: 'You have exceeded your rate-limit for this API.' });
    if (standIn.mode === 'blocked') return ok({ status: 'REQUEST_DENIED', error_message: 'This API project is not authorized to use this API.' });
    const match = /^(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)$/.exec(seen.query.get('latlng') ?? '');
    const point = match ? { lat: Number(match[1]), lng: Number(match[2]) } : undefined;
    if (!point || Math.abs(point.lat) > 90 || Math.abs(point.lng) > 180) return ok({ status: 'INVALID_REQUEST', error_message: 'Invalid request. Invalid \'latlng\' parameter.' });
    if (standIn.mode === 'wrongShape') return ok({ status: 'OK', results: [{ geometry: {} }] });
    if (standIn.mode === 'nothing' || isUnreachable(point)) return ok({ status: 'ZERO_RESULTS' });
    const nearest = [...PLACES].sort((a, b) => greatCircleKm(point, a) - greatCircleKm(point, b))[0] as StandInPlace;
    return ok({
      status: 'OK',
      results: [
        {
          formatted_address: nearest.formattedAddress,
          geometry: { location: { lat: nearest.lat, lng: nearest.lng }, location_type: 'ROOFTOP' },
          place_id: nearest.id,
          types: ['street_address'],
        },
      ],
    });
  };

  /** The Map Tiles API: its browser key, its referrer restriction, then the call. */
  const mapTiles = (seen: GoogleSeenRequest): Answer | undefined => {
    const tile = seen.method === 'GET' ? /^\/v1\/2dtiles\/(\d{1,2})\/(\d+)\/(\d+)$/.exec(seen.path) : null;
    const createSession = seen.method === 'POST' && seen.path === '/v1/createSession';
    const viewport = seen.method === 'GET' && seen.path === '/tile/v1/viewport';
    if (!tile && !createSession && !viewport) return undefined;
    const key = seen.query.get('key') ?? (seen.headers['x-goog-api-key'] as string | undefined);
    if (!key) return googleError('PERMISSION_DENIED', 'The request is missing a valid API key.');
    if (key !== standIn.tileKey) return googleError('INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', 'API_KEY_INVALID');
    const referer = seen.headers.referer ?? '';
    if (standIn.tileReferer !== undefined && !referer.startsWith(standIn.tileReferer)) {
      return googleError('PERMISSION_DENIED', `Requests from referer ${referer || '<empty>'} are blocked.`, 'API_KEY_HTTP_REFERRER_BLOCKED');
    }
    if (standIn.mode === 'quota') return googleError('RESOURCE_EXHAUSTED', "Quota exceeded for quota metric 'Requests' of service 'Map Tiles API'.", 'RATE_LIMIT_EXCEEDED');
    if (standIn.mode === 'blocked') return googleError('PERMISSION_DENIED', 'Map Tiles API has not been used in this project before or it is disabled.', 'SERVICE_DISABLED');
    if (createSession) {
      const body = seen.body as { mapType?: unknown; language?: unknown; region?: unknown } | undefined;
      if (!['roadmap', 'satellite', 'terrain', 'streetview'].includes(body?.mapType as string)) return invalid('Invalid value at map_type.');
      if (typeof body?.language !== 'string' || typeof body.region !== 'string') return invalid('language and region are required.');
      if (standIn.mode === 'wrongShape') return { status: 200, body: { token: 'no session here', expiry: 'soon' } };
      const session = `standIn-${String(standIn.sessions.length + 1)}-${Math.random().toString(36).slice(2, 12)}`;
      standIn.sessions.push(session);
      return { status: 200, body: { session, expiry: String(Math.floor(Date.now() / 1000) + standIn.sessionSeconds), tileWidth: 256, tileHeight: 256, imageFormat: 'png' } };
    }
    if (!standIn.sessions.includes(seen.query.get('session') ?? '')) return invalid('Invalid session token.');
    if (viewport) {
      if (standIn.viewportDown === true) return googleError('UNAVAILABLE', 'The service is currently unavailable.');
      if (standIn.mode === 'wrongShape') return { status: 200, body: { copyright: 42 } };
      return { status: 200, body: { copyright: STAND_IN_COPYRIGHT, maxZoomRects: [{ maxZoom: 22, north: 85, south: -85, east: 180, west: -180 }] } };
    }
    const zoom = Number(tile?.[1]);
    const size = 2 ** zoom;
    if (zoom > 22 || Number(tile?.[2]) >= size || Number(tile?.[3]) >= size) return googleError('NOT_FOUND', 'Tile not found.');
    return { status: 200, body: TILE_PNG, contentType: 'image/png' };
  };

  const answer = (seen: GoogleSeenRequest): Answer => {
    const numericEnums = (seen.query.get('$alt') ?? '').includes('enum-encoding=int');
    const tiles = mapTiles(seen);
    if (tiles) return tiles;
    if (seen.method === 'GET' && seen.path === '/maps/api/geocode/json') return reverseGeocode(seen);
    const route = (() => {
      if (seen.method === 'POST' && seen.path === '/directions/v2:computeRoutes') return { needsMask: true, api: 'Routes API', run: (fields: string[]) => computeRoutes(seen, fields) };
      if (seen.method === 'POST' && seen.path === '/distanceMatrix/v2:computeRouteMatrix') return { needsMask: true, api: 'Routes API', run: (fields: string[]) => computeRouteMatrix(seen, fields, numericEnums) };
      if (seen.method === 'POST' && seen.path === '/v1/places:autocomplete') return { needsMask: false, api: 'Places API (New)', run: (fields: string[]) => autocomplete(seen, fields) };
      const details = seen.method === 'GET' ? /^\/v1\/places\/([^/]+)$/.exec(seen.path) : null;
      if (details) return { needsMask: true, api: 'Places API (New)', run: (fields: string[]) => placeDetails(decodeURIComponent(details[1] ?? ''), fields) };
      return undefined;
    })();
    if (!route) return { status: 404, body: { error: { code: 404, message: `The requested URL ${seen.path} was not found on this server.`, status: 'NOT_FOUND' } } };
    const checked = systemParameters(seen, route.needsMask);
    if (!Array.isArray(checked)) return checked;
    if (standIn.mode === 'quota') return googleError('RESOURCE_EXHAUSTED', `Quota exceeded for quota metric 'Requests' of service '${route.api}'.`, 'RATE_LIMIT_EXCEEDED');
    if (standIn.mode === 'blocked') return googleError('PERMISSION_DENIED', `${route.api} has not been used in this project before or it is disabled.`, 'SERVICE_DISABLED');
    return route.run(checked);
  };

  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://stand-in');
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      let unreadable = false;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        unreadable = true;
      }
      const seen: GoogleSeenRequest = { method: incoming.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: incoming.headers, body };
      standIn.requests.push(seen);
      const mode = standIn.mode;
      if (mode === 'hang') return;
      if (mode === 'fail') {
        response.writeHead(503, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify({ error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' } }));
        return;
      }
      if (mode === 'garbage') {
        response.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' }).end('{"routes": [{"distanceMeters": ');
        return;
      }
      const { status, body: answerBody, contentType } = unreadable ? invalid(`Invalid JSON payload received. Unexpected token.`) : answer(seen);
      if (Buffer.isBuffer(answerBody)) {
        response.writeHead(status, { 'content-type': contentType ?? 'application/octet-stream', 'cache-control': 'no-store' }).end(answerBody);
        return;
      }
      response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(answerBody));
    });
  });
  Object.assign(standIn, await listenLocally(server));
  return standIn;
}
