import { isLatLng, type LatLng } from '@rideway/domain';
import { z } from 'zod';
import type { Leg, MapsPort, Route } from './port';
import { callProvider, joinUrl, providerError, readAnswer, type MapsCall } from './provider-call';

/**
 * Routes and route tables from OSRM's HTTP API v5 (osrm-routed), as documented at
 * https://project-osrm.org/docs/v5.24.0/api/ (General options, Route service, Table service,
 * Result objects; also docs/http.md in Project-OSRM/osrm-backend):
 * - `GET /route/v1/{profile}/{lng,lat;lng,lat...}?overview=full&geometries=polyline`: `routes[0]`
 *   has `distance` (m), `duration` (s) and `geometry`, Google's encoded polyline at precision 5.
 * - `GET /table/v1/{profile}/{coordinates}?sources=..&destinations=..&annotations=duration,distance`:
 *   `durations` (s) and `distances` (m) by source row and destination column, null where no route.
 * - Every answer has a `code`: `Ok`, or an error with HTTP 400. `NoRoute`, `NoSegment` (a point
 *   that snaps to no road) and `NoTable` mean the road network has no answer: "no route", not a
 *   failure. The other codes (`InvalidQuery`, `TooBig`, ...) are a refused call.
 */

/** osrm-routed serves the one profile its data was prepared with, whatever the path says. */
const PROFILE = 'driving';
/** Codes that say the road network joins no such points. */
const NO_ROUTE_CODES = new Set(['NoRoute', 'NoSegment', 'NoTable']);

const coded = z.object({ code: z.string(), message: z.string().optional() });
const routeAnswer = z.object({
  routes: z.array(z.object({ distance: z.number().nonnegative(), duration: z.number().nonnegative(), geometry: z.string() })).min(1),
});
const matrix = z.array(z.array(z.number().nonnegative().nullable()));
const tableAnswer = z.object({ durations: matrix, distances: matrix });

export type OsrmOptions = {
  /** The osrm-routed server, e.g. `http://127.0.0.1:5000`. */
  baseUrl: string;
  timeoutMs: number;
  userAgent: string;
};

/** A point as OSRM reads it: longitude first, 6 decimals (about 0.1 m). */
const coordinates = (points: LatLng[]): string => points.map((point) => `${point.lng.toFixed(6)},${point.lat.toFixed(6)}`).join(';');
const km = (metres: number): number => Math.round(metres) / 1000;

export function osrmRouting(options: OsrmOptions): Pick<MapsPort, 'route' | 'table'> {
  /** The answer when its code is Ok, undefined for "no route", else the refused call. */
  const ask = async (call: MapsCall, service: 'route' | 'table', points: LatLng[], query: Record<string, string>): Promise<unknown> => {
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
