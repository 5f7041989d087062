import type { Client as GeocodingClient } from '@googlemaps/google-maps-services-js';
import type { PlacesClient } from '@googlemaps/places';
import type { RoutesClient } from '@googlemaps/routing';
import { isLatLng, type LatLng } from '@rideway/domain';
import { z } from 'zod';
import type { Config } from '../../config';
import { googleMapTiles, googleTilesOptions } from './google-tiles';
import { MIN_QUERY_CHARS } from './osm';
import { MapsProviderError, type Leg, type MapsPort, type Place, type PlaceSuggestion, type Route } from './port';
import { providerError, readAnswer, type MapsCall } from './provider-call';
import { isTypedPointId, pointText, typedPointPlace, typedPointSuggestion } from './typed-point';

/**
 * The google maps adapter: Google Maps Platform through Google's official Node.js clients.
 * - Routes API (`@googlemaps/routing`), https://developers.google.com/maps/documentation/routes/reference/rest/v2/TopLevel/computeRoutes:
 *   `POST https://routes.googleapis.com/directions/v2:computeRoutes` with `X-Goog-Api-Key` and
 *   `X-Goog-FieldMask: routes.distanceMeters,routes.duration,routes.polyline.encodedPolyline`; the
 *   answer is `{routes: [{distanceMeters, duration: "123s", polyline: {encodedPolyline}}]}`, or `{}`
 *   when no route joins the points.
 * - Routes API, https://developers.google.com/maps/documentation/routes/reference/rest/v2/TopLevel/computeRouteMatrix:
 *   `POST https://routes.googleapis.com/distanceMatrix/v2:computeRouteMatrix` answers a stream (a
 *   JSON array over REST) of elements with `originIndex`, `destinationIndex`, `status` and
 *   `condition` (ROUTE_EXISTS, ROUTE_NOT_FOUND); at most 625 elements a request.
 * - Places API (New) (`@googlemaps/places`), https://developers.google.com/maps/documentation/places/web-service/place-autocomplete:
 *   `POST https://places.googleapis.com/v1/places:autocomplete` with `{input}` answers
 *   `{suggestions: [{placePrediction: {placeId, text: {text}}}]}`; and
 *   https://developers.google.com/maps/documentation/places/web-service/place-details:
 *   `GET https://places.googleapis.com/v1/places/{placeId}` with a required field mask.
 * - Geocoding API (`@googlemaps/google-maps-services-js`), https://developers.google.com/maps/documentation/geocoding/requests-reverse-geocoding:
 *   `GET https://maps.googleapis.com/maps/api/geocode/json?latlng=..&key=..` answers HTTP 200 with
 *   a `status` (OK, ZERO_RESULTS, OVER_QUERY_LIMIT, REQUEST_DENIED, INVALID_REQUEST, UNKNOWN_ERROR).
 * Errors of the first two APIs are `{error: {code, message, status}}` with the HTTP status
 * (https://cloud.google.com/apis/design/errors). The legacy Directions and Distance Matrix APIs are
 * not used: new projects cannot enable them.
 *
 * The Routes and Places clients run in their HTTP/1.1 REST mode (`fallback: 'rest'`: JSON over
 * fetch, no gRPC connection), which takes another address (`apiEndpoint`, `port`, `protocol`), so
 * GOOGLE_*_API_URL reach a stand-in without an interceptor. Their `timeout` call option does
 * nothing in that mode: the transport's own timeout (google-auth-library's `transporterOptions`)
 * aborts a request, and a timer answers in any case. The Geocoding client fixes its host in a
 * default `url`; every request passes its own `url` (an axios request option the client accepts)
 * instead. The clients are loaded on the first call, so a server on another provider never loads
 * them. The key travels in the `X-Goog-Api-Key` header, except to the Geocoding API, which takes
 * it as the `key` query parameter; no error here carries a URL, a header or the clients' errors.
 *
 * Google's terms allow keeping place IDs indefinitely and coordinates for up to 30 days, not
 * routes, addresses or suggestions, so nothing Google answers is cached here (docs/maps-google.md).
 *
 * Places session tokens (https://developers.google.com/maps/documentation/places/web-service/place-session-tokens):
 * the autocomplete requests of one search and the Place Details request of the place chosen carry
 * the same `sessionToken` (a URL- and filename-safe base64 string, a version 4 UUID recommended),
 * and Google bills them as one session. The web makes one per place field (the section 7 payloads'
 * optional `sessiontoken`); it reaches autocompletePlaces and getPlace as their `sessionToken`
 * (a query parameter of Place Details over REST). A call without one is billed on its own.
 *
 * Google's map: with a browser key (GOOGLE_MAP_TILES_API_KEY) the adapter also gives the web its
 * map tiles, from the Map Tiles API (google-tiles.ts).
 */

const PROVIDER = 'google';

/** The fields each call asks for: Google bills by them, and answers only them. */
const ROUTE_FIELDS = 'routes.distanceMeters,routes.duration,routes.polyline.encodedPolyline';
const MATRIX_FIELDS = 'originIndex,destinationIndex,status,condition,distanceMeters,duration';
const AUTOCOMPLETE_FIELDS = 'suggestions.placePrediction.placeId,suggestions.placePrediction.text.text';
const PLACE_FIELDS = 'id,formattedAddress,location,displayName';

/** computeRoutes takes at most 25 intermediate waypoints. */
export const MAX_INTERMEDIATES = 25;
/** computeRouteMatrix answers at most 625 elements (origins × destinations) a request. */
export const MAX_MATRIX_ELEMENTS = 625;
/** A place ID is Google's URL-safe text; anything else is no place of Google's. */
const PLACE_ID = /^[\w-]{1,1024}$/;
/** A session token as Google takes it (URL- and filename-safe base64, at most 36 characters); another is not sent. */
const SESSION_TOKEN = /^[\w-]{1,36}$/;
const withSession = (sessionToken: string | undefined): { sessionToken?: string } =>
  sessionToken !== undefined && SESSION_TOKEN.test(sessionToken) ? { sessionToken } : {};

const DEFAULT_BASES = { routes: 'https://routes.googleapis.com', places: 'https://places.googleapis.com', geocoding: 'https://maps.googleapis.com' };

export type GoogleMapsOptions = {
  apiKey: string;
  routesUrl: string;
  placesUrl: string;
  geocodingUrl: string;
  timeoutMs: number;
};

export function googleOptions(config: Config): GoogleMapsOptions {
  if (!config.GOOGLE_MAPS_API_KEY) throw new Error('MAPS_PROVIDER=google needs GOOGLE_MAPS_API_KEY');
  const shared = config.GOOGLE_MAPS_API_URL;
  return {
    apiKey: config.GOOGLE_MAPS_API_KEY,
    routesUrl: config.GOOGLE_ROUTES_API_URL ?? shared ?? DEFAULT_BASES.routes,
    placesUrl: config.GOOGLE_PLACES_API_URL ?? shared ?? DEFAULT_BASES.places,
    geocodingUrl: config.GOOGLE_GEOCODING_API_URL ?? shared ?? DEFAULT_BASES.geocoding,
    timeoutMs: config.MAPS_TIMEOUT_MS,
  };
}

/** The maps port on Google Maps Platform (MAPS_PROVIDER=google), with Google's map tiles when a browser key is set. */
export function googleMaps(config: Config): MapsPort {
  const tiles = googleTilesOptions(config);
  return { ...googleMapsAdapter(googleOptions(config)), ...(tiles ? { mapTiles: googleMapTiles(tiles) } : {}) };
}

// The answers as the clients decode them (protobuf objects: absent messages are null, int64 a string).
const duration = z.object({ seconds: z.union([z.string(), z.number()]).nullish(), nanos: z.number().nullish() });
const routesAnswer = z.object({
  routes: z.array(z.object({ distanceMeters: z.number().int().nonnegative().nullish(), duration, polyline: z.object({ encodedPolyline: z.string().min(1) }) })).nullish(),
});
const matrixElement = z.object({
  originIndex: z.number().int().nonnegative().nullish(),
  destinationIndex: z.number().int().nonnegative().nullish(),
  status: z.object({ code: z.number().nullish() }).nullish(),
  condition: z.union([z.string(), z.number()]).nullish(),
  distanceMeters: z.number().int().nonnegative().nullish(),
  duration: duration.nullish(),
});
const autocompleteAnswer = z.object({
  suggestions: z.array(z.object({ placePrediction: z.object({ placeId: z.string().min(1), text: z.object({ text: z.string().min(1) }) }).nullish() })).nullish(),
});
const placeAnswer = z.object({
  formattedAddress: z.string().nullish(),
  displayName: z.object({ text: z.string().nullish() }).nullish(),
  location: z.object({ latitude: z.number().nullish(), longitude: z.number().nullish() }),
});
const geocodeAnswer = z.object({
  status: z.string(),
  results: z.array(z.object({ formatted_address: z.string().min(1) })).nullish(),
});

const km = (metres: number): number => Math.round(metres) / 1000;

/** A protobuf Duration's seconds, or undefined when it is not a duration. */
function seconds(value: z.output<typeof duration> | null | undefined): number | undefined {
  if (!value) return undefined;
  const total = Number(value.seconds ?? 0) + (value.nanos ?? 0) / 1e9;
  return Number.isFinite(total) && total >= 0 ? Math.round(total) : undefined;
}

const waypoint = (point: LatLng) => ({ location: { latLng: { latitude: point.lat, longitude: point.lng } } });

/** The points with at most `max` of them: the ends kept, the ones between evenly thinned. */
function thinned(points: LatLng[], max: number): LatLng[] {
  if (points.length <= max) return points;
  const between = points.length - 2;
  const keep = max - 2;
  const middle = Array.from({ length: keep }, (_, i) => points[1 + Math.floor(((i + 0.5) * between) / keep)] as LatLng);
  return [points[0] as LatLng, ...middle, points[points.length - 1] as LatLng];
}

// What the clients' errors carry (GaxiosError, AxiosError, a decoding Error), read without trusting it.
type ClientError = { name?: unknown; code?: unknown; status?: unknown; message?: unknown; cause?: unknown; response?: { status?: unknown; data?: unknown } };

/** The HTTP status of a client's error, when the provider answered one. */
function httpStatus(error: unknown): number | undefined {
  const e = (error ?? {}) as ClientError;
  for (const value of [e.response?.status, e.status, e.code]) {
    const status = typeof value === 'string' && /^\d{3}$/.test(value) ? Number(value) : value;
    if (typeof status === 'number' && status >= 100 && status < 600) return status;
  }
  return undefined;
}

/** Google's status name in an error answer (PERMISSION_DENIED, REQUEST_DENIED...), nothing else of it. */
function googleStatus(error: unknown): string | undefined {
  let data = ((error ?? {}) as ClientError).response?.data;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data) as unknown;
    } catch {
      return undefined;
    }
  }
  const body = data as { error?: { status?: unknown }; status?: unknown } | undefined;
  const status = body?.error?.status ?? body?.status;
  return typeof status === 'string' && /^[A-Z_]{2,40}$/.test(status) ? status : undefined;
}

const NO_CONNECTION = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** A client's error as the maps port's: why it failed, never what it carried (URLs, headers, the key). */
function sorted(call: MapsCall, error: unknown, timeoutMs: number): MapsProviderError {
  if (error instanceof MapsProviderError) return error;
  const request = { provider: PROVIDER, call };
  const e = (error ?? {}) as ClientError;
  const status = httpStatus(error);
  if (status !== undefined) {
    const named = googleStatus(error);
    return providerError(request, status >= 500 ? 'failed' : 'refused', `HTTP ${status}${named ? ` ${named}` : ''}`);
  }
  const code = typeof e.code === 'string' ? e.code : '';
  const causeName = (e.cause as { name?: unknown } | undefined)?.name;
  const aborted = [e.name, causeName].some((name) => name === 'AbortError' || name === 'TimeoutError') || code === 'ECONNABORTED' || code === 'ETIMEDOUT' || (typeof e.message === 'string' && /\baborted\b/i.test(e.message));
  if (aborted) return providerError(request, 'timeout', `no answer within ${timeoutMs} ms`);
  if (NO_CONNECTION.has(code)) return providerError(request, 'refused', `cannot connect (${code})`);
  if (/^E[A-Z]+$/.test(code)) return providerError(request, 'failed', `connection failed (${code})`);
  // The client could not decode what came back (not JSON, or not the documented message).
  return providerError(request, 'malformed', 'unreadable answer');
}

type Clients = { routes: RoutesClient; places: PlacesClient; geocoding: GeocodingClient };

export function googleMapsAdapter(options: GoogleMapsOptions): MapsPort {
  const { apiKey, timeoutMs } = options;
  let clients: Promise<Clients> | undefined;

  /** Google's clients, loaded and made on the first call. */
  const load = (): Promise<Clients> => {
    clients ??= (async () => {
      const [{ RoutesClient }, { PlacesClient }, { Client }] = await Promise.all([import('@googlemaps/routing'), import('@googlemaps/places'), import('@googlemaps/google-maps-services-js')]);
      /** REST over HTTP/1.1 to the configured address, the key in X-Goog-Api-Key. */
      const restOptions = (base: string) => {
        const url = new URL(base);
        return {
          fallback: 'rest' as const,
          apiKey,
          apiEndpoint: url.hostname,
          port: Number(url.port || (url.protocol === 'http:' ? 80 : 443)),
          protocol: url.protocol.replace(':', ''),
          // Without it google-auth-library asks the GCE metadata server for one on the first call.
          projectId: 'api-key',
          clientOptions: { transporterOptions: { timeout: timeoutMs } },
        };
      };
      return {
        routes: new RoutesClient(restOptions(options.routesUrl)),
        places: new PlacesClient(restOptions(options.placesUrl)),
        // Its retries (retry-axios) are off: one call, one timeout.
        geocoding: new Client({ config: { timeout: timeoutMs, raxConfig: { retry: 0, noResponseRetries: 0 } } }),
      };
    })();
    clients.catch(() => {
      clients = undefined;
    });
    return clients;
  };

  /** One call to Google within the timeout, its failure sorted; `cancel` stops it when the time is up. */
  const ask = <T>(call: MapsCall, run: () => Promise<T>, cancel?: () => void): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        cancel?.();
        reject(providerError({ provider: PROVIDER, call }, 'timeout', `no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      run().then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(sorted(call, error, timeoutMs));
        },
      );
    });

  /** Every element of one computeRouteMatrix call. */
  const matrix = async (origins: LatLng[], destinations: LatLng[]): Promise<z.output<typeof matrixElement>[]> => {
    const { routes } = await load();
    const stream = routes.computeRouteMatrix(
      { origins: origins.map((point) => ({ waypoint: waypoint(point) })), destinations: destinations.map((point) => ({ waypoint: waypoint(point) })), travelMode: 'DRIVE', routingPreference: 'TRAFFIC_UNAWARE' },
      { otherArgs: { headers: { 'X-Goog-FieldMask': MATRIX_FIELDS } } },
    );
    const collect = async (): Promise<unknown[]> => {
      const elements: unknown[] = [];
      for await (const element of stream) elements.push(element);
      return elements;
    };
    const elements = await ask('table', collect, () => stream.destroy());
    return elements.map((element) => readAnswer({ provider: PROVIDER, call: 'table' }, matrixElement, element));
  };

  return {
    provider: PROVIDER,
    placeSessions: true,

    async autocomplete(query, sessionToken): Promise<PlaceSuggestion[]> {
      const typed = typedPointSuggestion(query);
      if (typed) return [typed];
      const input = query.trim().replace(/\s+/g, ' ');
      if (Array.from(input).length < MIN_QUERY_CHARS) return [];
      const { places } = await load();
      const [answer] = await ask('autocomplete', () => places.autocompletePlaces({ input, ...withSession(sessionToken) }, { otherArgs: { headers: { 'X-Goog-FieldMask': AUTOCOMPLETE_FIELDS } } }));
      const { suggestions } = readAnswer({ provider: PROVIDER, call: 'autocomplete' }, autocompleteAnswer, answer);
      return (suggestions ?? []).flatMap(({ placePrediction }) => (placePrediction ? [{ place_id: placePrediction.placeId, description: placePrediction.text.text }] : []));
    },

    async placeById(placeId, sessionToken): Promise<Place | undefined> {
      if (isTypedPointId(placeId)) return typedPointPlace(placeId);
      if (!PLACE_ID.test(placeId)) return undefined;
      const { places } = await load();
      // 404 NOT_FOUND: no such place (or an id Google no longer knows).
      const found = await ask('placeById', () =>
        places.getPlace({ name: `places/${placeId}`, ...withSession(sessionToken) }, { otherArgs: { headers: { 'X-Goog-FieldMask': PLACE_FIELDS } } }).then(
          ([place]) => place,
          (error: unknown) => {
            if (httpStatus(error) === 404) return undefined;
            throw error;
          },
        ),
      );
      if (found === undefined) return undefined;
      const request = { provider: PROVIDER, call: 'placeById' as const };
      const place = readAnswer(request, placeAnswer, found);
      const point = { lat: place.location.latitude ?? 0, lng: place.location.longitude ?? 0 };
      if (!isLatLng(point)) throw providerError(request, 'malformed', 'a place off the globe');
      const name = place.displayName?.text ?? '';
      const address = place.formattedAddress ?? '';
      const add = name && address && !address.startsWith(name) ? `${name}, ${address}` : address || name || pointText(point);
      return { ...point, add };
    },

    async reverseGeocode(point): Promise<string> {
      if (!isLatLng(point)) return pointText(point);
      const { geocoding } = await load();
      const request = { provider: PROVIDER, call: 'reverseGeocode' as const };
      const response = await ask('reverseGeocode', () =>
        geocoding.reverseGeocode({ params: { latlng: { lat: point.lat, lng: point.lng }, key: apiKey }, url: new URL('/maps/api/geocode/json', options.geocodingUrl).href }),
      );
      const answer = readAnswer(request, geocodeAnswer, response.data);
      switch (answer.status) {
        case 'OK': {
          const [first] = answer.results ?? [];
          if (!first) throw providerError(request, 'malformed', 'OK without a result');
          return first.formatted_address;
        }
        case 'ZERO_RESULTS':
          return pointText(point);
        case 'UNKNOWN_ERROR':
          throw providerError(request, 'failed', answer.status);
        case 'OVER_QUERY_LIMIT':
        case 'OVER_DAILY_LIMIT':
        case 'REQUEST_DENIED':
        case 'INVALID_REQUEST':
          throw providerError(request, 'refused', answer.status);
        default:
          throw providerError(request, 'malformed', 'an unknown status');
      }
    },

    async route(points): Promise<Route | undefined> {
      if (points.length < 2 || !points.every(isLatLng)) return undefined;
      const stops = thinned(points, MAX_INTERMEDIATES + 2);
      const { routes } = await load();
      const [answer] = await ask('route', () =>
        routes.computeRoutes(
          {
            origin: waypoint(stops[0] as LatLng),
            destination: waypoint(stops[stops.length - 1] as LatLng),
            intermediates: stops.slice(1, -1).map(waypoint),
            travelMode: 'DRIVE',
            // Without traffic: the Essentials SKU (TRAFFIC_AWARE is billed as Pro).
            routingPreference: 'TRAFFIC_UNAWARE',
          },
          { otherArgs: { headers: { 'X-Goog-FieldMask': ROUTE_FIELDS } } },
        ),
      );
      const request = { provider: PROVIDER, call: 'route' as const };
      const [best] = readAnswer(request, routesAnswer, answer).routes ?? [];
      if (!best) return undefined;
      const durationSeconds = seconds(best.duration);
      if (durationSeconds === undefined) throw providerError(request, 'malformed', 'a route without a duration');
      return { distanceKm: km(best.distanceMeters ?? 0), durationSeconds, polylinePoints: best.polyline.encodedPolyline, approximate: false };
    },

    async table(origins, destinations): Promise<(Leg | undefined)[][]> {
      const grid = origins.map(() => destinations.map((): Leg | undefined => undefined));
      if (origins.length === 0 || destinations.length === 0 || ![...origins, ...destinations].every(isLatLng)) return grid;
      // Requests of at most 625 elements: destinations in chunks, origins in as many rows as fit.
      const columns = Math.min(destinations.length, MAX_MATRIX_ELEMENTS);
      const rows = Math.max(1, Math.floor(MAX_MATRIX_ELEMENTS / columns));
      const parts: { row: number; column: number; origins: LatLng[]; destinations: LatLng[] }[] = [];
      for (let row = 0; row < origins.length; row += rows) {
        for (let column = 0; column < destinations.length; column += columns) {
          parts.push({ row, column, origins: origins.slice(row, row + rows), destinations: destinations.slice(column, column + columns) });
        }
      }
      const request = { provider: PROVIDER, call: 'table' as const };
      const answers = await Promise.all(parts.map((part) => matrix(part.origins, part.destinations)));
      answers.forEach((elements, index) => {
        const part = parts[index] as (typeof parts)[number];
        for (const element of elements) {
          const i = element.originIndex ?? 0;
          const j = element.destinationIndex ?? 0;
          if (i >= part.origins.length || j >= part.destinations.length) throw providerError(request, 'malformed', 'an element for a point not asked about');
          // A non-OK status or ROUTE_NOT_FOUND: no road joins them (the cell stays empty).
          if ((element.status?.code ?? 0) !== 0 || (element.condition !== 'ROUTE_EXISTS' && element.condition !== 1)) continue;
          const durationSeconds = seconds(element.duration);
          if (durationSeconds === undefined) throw providerError(request, 'malformed', 'a route without a duration');
          (grid[part.row + i] as (Leg | undefined)[])[part.column + j] = { distanceKm: km(element.distanceMeters ?? 0), durationSeconds };
        }
      });
      return grid;
    },
  };
}
