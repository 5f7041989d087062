import polylineCodec from '@googlemaps/polyline-codec';
import { greatCircleKm, isLatLng, type LatLng } from '@rideway/domain';
import { z } from 'zod';
import type { Leg, MapsPort, Route, TracePoint } from './port';
import { callProvider, joinUrl, providerError, readAnswer, type MapsCall } from './provider-call';

/**
 * Routes and route tables from OSRM's HTTP API v5 (osrm-routed), as documented at
 * https://project-osrm.org/docs/v5.24.0/api/ (General options, Route service, Table service,
 * Result objects; also docs/http.md in Project-OSRM/osrm-backend):
 * - `GET /route/v1/{profile}/{lng,lat;lng,lat...}?overview=full&geometries=polyline`: `routes[0]`
 *   has `distance` (m), `duration` (s) and `geometry`, Google's encoded polyline at precision 5.
 * - `GET /table/v1/{profile}/{coordinates}?sources=..&destinations=..&annotations=duration,distance`:
 *   `durations` (s) and `distances` (m) by source row and destination column, null where no route.
 * - `GET /match/v1/{profile}/{coordinates}?overview=full&geometries=polyline&timestamps=..&radiuses=..&gaps=ignore`
 *   (Match service: map matching snaps a GPS trace to the roads it most plausibly followed):
 *   `matchings` are Route objects (`distance`, `duration`, `geometry`) with a `confidence` in 0..1,
 *   one per sub-trace the trace had to be split into; `tracepoints` are the input points in order,
 *   each the Waypoint it snapped to (`location` [lng, lat], `matchings_index`), or null for an
 *   outlier left out. `timestamps` are whole seconds since the epoch, non-decreasing; `radiuses`
 *   the GPS precision of each point in metres (5 by default, a phone's fix is rarely that good);
 *   `gaps=ignore` keeps a pause in the trace from splitting it. osrm-routed takes at most 100
 *   points a match by default (`--max-matching-size`).
 * - Every answer has a `code`: `Ok`, or an error with HTTP 400. `NoRoute`, `NoSegment` (a point
 *   that snaps to no road), `NoTable` and `NoMatch` mean the road network has no answer: "no
 *   route", not a failure. The other codes (`InvalidQuery`, `TooBig`, ...) are a refused call.
 */

/** osrm-routed serves the one profile its data was prepared with, whatever the path says. */
const PROFILE = 'driving';
/** Codes that say the road network joins no such points. */
const NO_ROUTE_CODES = new Set(['NoRoute', 'NoSegment', 'NoTable', 'NoMatch']);
/** A phone's GPS fix is good to about this many metres in a city; OSRM assumes 5 without a radius. */
export const TRACE_RADIUS_M = 25;

const coded = z.object({ code: z.string(), message: z.string().optional() });
const routeAnswer = z.object({
  routes: z.array(z.object({ distance: z.number().nonnegative(), duration: z.number().nonnegative(), geometry: z.string() })).min(1),
});
const matrix = z.array(z.array(z.number().nonnegative().nullable()));
const tableAnswer = z.object({ durations: matrix, distances: matrix });
const matchAnswer = z.object({
  matchings: z.array(z.object({ distance: z.number().nonnegative(), duration: z.number().nonnegative(), geometry: z.string(), confidence: z.number().min(0).max(1).optional() })),
  tracepoints: z.array(z.object({ matchings_index: z.number().int().nonnegative(), location: z.tuple([z.number(), z.number()]) }).nullable()),
});

export type OsrmOptions = {
  /** The osrm-routed server, e.g. `http://127.0.0.1:5000`. */
  baseUrl: string;
  timeoutMs: number;
  userAgent: string;
};

/** A point as OSRM reads it: longitude first, 6 decimals (about 0.1 m). */
const coordinates = (points: LatLng[]): string => points.map((point) => `${point.lng.toFixed(6)},${point.lat.toFixed(6)}`).join(';');
const km = (metres: number): number => Math.round(metres) / 1000;

export function osrmRouting(options: OsrmOptions): Required<Pick<MapsPort, 'route' | 'table' | 'matchTrace'>> {
  /** The answer when its code is Ok, undefined for "no route", else the refused call. */
  const ask = async (call: MapsCall, service: 'route' | 'table' | 'match', points: LatLng[], query: Record<string, string>): Promise<unknown> => {
    const url = joinUrl(options.baseUrl, `/${service}/v1/${PROFILE}/${coordinates(points)}`);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    const request = { provider: 'osrm', call };
    const { body } = await callProvider({ ...request, url, timeoutMs: options.timeoutMs, headers: { 'user-agent': options.userAgent }, answerStatuses: [400] });
    const { code, message } = readAnswer(request, coded, body);
    if (code === 'Ok') return body;
    if (NO_ROUTE_CODES.has(code)) return undefined;
    throw providerError(request, 'refused', `${code}${message ? `: ${message}` : ''}`);
  };

  return {
    async route(points): Promise<Route | undefined> {
      if (points.length < 2 || !points.every(isLatLng)) return undefined;
      const body = await ask('route', 'route', points, { overview: 'full', geometries: 'polyline', steps: 'false' });
      if (body === undefined) return undefined;
      const [best] = readAnswer({ provider: 'osrm', call: 'route' }, routeAnswer, body).routes;
      if (!best) return undefined;
      return { distanceKm: km(best.distance), durationSeconds: Math.round(best.duration), polylinePoints: best.geometry, approximate: false };
    },

    /**
     * The trace matched to the roads: the matchings' distances and durations summed, their lines
     * joined. Where the trace had to be split, the straight line between one sub-trace's last
     * snapped point and the next one's first is added to the distance (the road between them is
     * unknown; the server charges the straight line wherever no road is known).
     */
    async matchTrace(points: TracePoint[]): Promise<Route | undefined> {
      if (points.length < 2 || !points.every(isLatLng)) return undefined;
      const query: Record<string, string> = {
        overview: 'full',
        geometries: 'polyline',
        radiuses: points.map(() => String(TRACE_RADIUS_M)).join(';'),
        gaps: 'ignore',
      };
      // Timestamps only when every point has one, non-decreasing as OSRM requires.
      const seconds = points.map((point) => (typeof point.at === 'number' && Number.isFinite(point.at) ? Math.floor(point.at / 1000) : undefined));
      if (seconds.every((value, i): value is number => value !== undefined && value >= 0 && (i === 0 || value >= (seconds[i - 1] ?? 0)))) {
        query.timestamps = seconds.join(';');
      }
      const body = await ask('matchTrace', 'match', points, query);
      if (body === undefined) return undefined;
      const request = { provider: 'osrm', call: 'matchTrace' as const };
      const { matchings, tracepoints } = readAnswer(request, matchAnswer, body);
      if (tracepoints.length !== points.length) throw providerError(request, 'malformed', 'tracepoints for another number of points than asked');
      if (matchings.length === 0) return undefined;
      if (tracepoints.some((point) => point !== null && point.matchings_index >= matchings.length)) throw providerError(request, 'malformed', 'a tracepoint of a matching not answered');
      // Each sub-trace's first and last snapped point, in trace order.
      const ends = new Map<number, { first: LatLng; last: LatLng }>();
      for (const point of tracepoints) {
        if (point === null) continue;
        const at = { lat: point.location[1], lng: point.location[0] };
        const known = ends.get(point.matchings_index);
        ends.set(point.matchings_index, { first: known?.first ?? at, last: at });
      }
      let metres = 0;
      let duration = 0;
      const line: [number, number][] = [];
      matchings.forEach((matching, index) => {
        metres += matching.distance;
        duration += matching.duration;
        const previous = ends.get(index - 1);
        const current = ends.get(index);
        if (previous && current) metres += greatCircleKm(previous.last, current.first) * 1000;
        line.push(...polylineCodec.decode(matching.geometry, 5).map(([lat, lng]): [number, number] => [lat, lng]));
      });
      const polylinePoints = matchings.length === 1 ? (matchings[0]?.geometry ?? '') : polylineCodec.encode(line, 5);
      return { distanceKm: km(metres), durationSeconds: Math.round(duration), polylinePoints, approximate: false };
    },

    async table(origins, destinations): Promise<(Leg | undefined)[][]> {
      if (origins.length === 0 || destinations.length === 0) return origins.map(() => []);
      const none = () => origins.map(() => destinations.map((): Leg | undefined => undefined));
      if (![...origins, ...destinations].every(isLatLng)) return none();
      const indexes = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i).join(';');
      const body = await ask('table', 'table', [...origins, ...destinations], {
        sources: indexes(0, origins.length),
        destinations: indexes(origins.length, destinations.length),
        annotations: 'duration,distance',
      });
      if (body === undefined) return none();
      const request = { provider: 'osrm', call: 'table' as const };
      const { durations, distances } = readAnswer(request, tableAnswer, body);
      const fits = (rows: (number | null)[][]) => rows.length === origins.length && rows.every((row) => row.length === destinations.length);
      if (!fits(durations) || !fits(distances)) throw providerError(request, 'malformed', 'a table of another size than asked');
      return origins.map((_, i) =>
        destinations.map((_, j): Leg | undefined => {
          const seconds = durations[i]?.[j];
          const metres = distances[i]?.[j];
          return seconds == null || metres == null ? undefined : { distanceKm: km(metres), durationSeconds: Math.round(seconds) };
        }),
      );
    },
  };
}
