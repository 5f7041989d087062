import polylineCodec from '@googlemaps/polyline-codec';
import { greatCircleKm, type LatLng } from '@rideway/domain';
import { json, startStandIn, type SeenRequest, type StandIn, type StandInAnswer } from './stand-in-server';

/**
 * A local OSRM (osrm-routed, HTTP API v5), written from https://project-osrm.org/docs/v5.24.0/api/
 * (General options, Route service, Table service, Result objects):
 * - `GET /route/v1/{profile}/{lng,lat;lng,lat...}`: `{code: "Ok", routes: [{distance (m), duration
 *   (s), geometry, weight, weight_name, legs}], waypoints}`; options overview, geometries, steps
 *   checked against their documented values;
 * - `GET /table/v1/{profile}/{coordinates}?sources=..&destinations=..&annotations=..`: `{code: "Ok",
 *   durations, distances, sources, destinations}`, null where no route;
 * - `GET /match/v1/{profile}/{coordinates}?timestamps=..&radiuses=..&gaps=..&tidy=..` (Match
 *   service): `{code: "Ok", matchings: [{distance, duration, geometry, confidence, weight,
 *   weight_name, legs}], tracepoints}`, `tracepoints` one per input point in order, each a
 *   Waypoint with `matchings_index`, `waypoint_index` and `alternatives_count`, or null for an
 *   outlier; `NoMatch` when no matching is found. timestamps (integers, non-decreasing) and
 *   radiuses (numbers >= 0) must have one value per point.
 * - an error is HTTP 400 with `{code, message}`: InvalidUrl, InvalidQuery (a malformed coordinate
 *   list), InvalidOptions, InvalidValue, NoRoute, NoTable, NoMatch.
 * Its road network: every road is 1.4 times the straight line, driven at 8.5 m/s (about 31 km/h),
 * except that nothing reaches Antarctica (south of 60° S): NoRoute there. Mode `nothing` answers
 * NoRoute (route), NoTable (table) and NoMatch (match) for everything.
 * Its map matching: a matched trace is 1.2 times the straight lines between its points (the
 * roads followed, without the detours a route through every point makes), at the same speed; a
 * point in Antarctica is an outlier (null), and the trace splits into sub-traces (matchings)
 * where two points follow each other more than 10 km apart. `match` sets what the match service
 * answers whatever the trace: `ok`, `NoMatch`, or `refused` (400 TooBig, an osrm-routed whose
 * --max-matching-size the trace exceeds).
 */

export const ROAD_FACTOR = 1.4;
export const SPEED_M_S = 8.5;

const isUnreachable = (point: LatLng): boolean => point.lat < -60;

/** The stand-in's road distance between two points, in metres (one decimal, as OSRM gives). */
export const roadMetres = (from: LatLng, to: LatLng): number => Math.round(greatCircleKm(from, to) * 1000 * ROAD_FACTOR * 10) / 10;
export const roadSeconds = (metres: number): number => Math.round((metres / SPEED_M_S) * 10) / 10;

/** The route the stand-in answers through the points: metres, seconds and the encoded line. */
export function standInRoute(points: LatLng[]): { metres: number; seconds: number; geometry: string } {
  let metres = 0;
  for (let i = 1; i < points.length; i += 1) metres += roadMetres(points[i - 1] as LatLng, points[i] as LatLng);
  metres = Math.round(metres * 10) / 10;
  return { metres, seconds: roadSeconds(metres), geometry: polylineCodec.encode(points.map((point) => [point.lat, point.lng]), 5) };
}

/** The matched trace's factor over the straight lines between its points. */
export const MATCH_FACTOR = 1.2;
/** Consecutive points further apart than this are an improbable transition: the trace splits there. */
export const MATCH_SPLIT_KM = 10;

/** The stand-in's matching of one sub-trace: metres, seconds and the encoded line, as OSRM gives them. */
export function standInMatching(points: LatLng[]): { metres: number; seconds: number; geometry: string } {
  let metres = 0;
  for (let i = 1; i < points.length; i += 1) metres += greatCircleKm(points[i - 1] as LatLng, points[i] as LatLng) * 1000 * MATCH_FACTOR;
  metres = Math.round(metres * 10) / 10;
  return { metres, seconds: roadSeconds(metres), geometry: polylineCodec.encode(points.map((point) => [point.lat, point.lng]), 5) };
}

/** The sub-traces the stand-in matches a trace into: outliers left out, split at improbable jumps; each has 2 or more points. */
export function standInSubTraces(points: LatLng[]): { indexes: number[] }[] {
  const traces: { indexes: number[] }[] = [];
  let current: number[] = [];
  points.forEach((point, index) => {
    if (isUnreachable(point)) return;
    const previous = current.at(-1);
    if (previous !== undefined && greatCircleKm(points[previous] as LatLng, point) > MATCH_SPLIT_KM) {
      traces.push({ indexes: current });
      current = [];
    }
    current.push(index);
  });
  traces.push({ indexes: current });
  return traces.filter((trace) => trace.indexes.length >= 2);
}

export type OsrmStandIn = StandIn & {
  /** What the match service answers: as documented, NoMatch whatever the trace, or refused (400 TooBig). */
  match: 'ok' | 'NoMatch' | 'refused';
};

const error = (code: string, message: string): StandInAnswer => json({ code, message }, 400);

/** The coordinates of a path segment, or undefined when malformed (OSRM's InvalidQuery). */
function parseCoordinates(text: string): LatLng[] | undefined {
  const points: LatLng[] = [];
  for (const pair of decodeURIComponent(text).split(';')) {
    const match = /^(-?\d{1,3}(?:\.\d+)?),(-?\d{1,2}(?:\.\d+)?)$/.exec(pair);
    if (!match) return undefined;
    const point = { lng: Number(match[1]), lat: Number(match[2]) };
    if (Math.abs(point.lng) > 180 || Math.abs(point.lat) > 90) return undefined;
    points.push(point);
  }
  return points;
}

/** `sources` / `destinations`: `all` (default) or `;`-separated indexes below the count. */
function parseIndexes(text: string | null, count: number): number[] | undefined {
  if (text === null || text === 'all') return Array.from({ length: count }, (_, i) => i);
  const indexes = text.split(';').map((part) => (/^\d+$/.test(part) ? Number(part) : NaN));
  return indexes.every((index) => Number.isInteger(index) && index < count) ? indexes : undefined;
}

const waypoint = (point: LatLng) => ({ hint: 'c3RhbmQtaW4', distance: 0, name: '', location: [point.lng, point.lat] });

function route(points: LatLng[], query: URLSearchParams, mode: 'ok' | 'nothing' | 'wrongShape'): StandInAnswer {
  if (points.length < 2) return error('InvalidOptions', 'Number of coordinates needs to be at least two.');
  for (const [name, allowed] of [['overview', ['simplified', 'full', 'false']], ['geometries', ['polyline', 'polyline6', 'geojson']], ['steps', ['true', 'false']]] as const) {
    const value = query.get(name);
    if (value !== null && !(allowed as readonly string[]).includes(value)) return error('InvalidOptions', `Options are invalid: ${name}`);
  }
  if (mode === 'wrongShape') return json({ code: 'Ok', routes: [{ distance: 'far', duration: null }] });
  if (mode === 'nothing' || points.some(isUnreachable)) return error('NoRoute', 'Impossible route between points');
  const whole = standInRoute(points);
  const legs = points.slice(1).map((to, i) => {
    const metres = roadMetres(points[i] as LatLng, to);
    return { distance: metres, duration: roadSeconds(metres), weight: roadSeconds(metres), summary: '', steps: [] };
  });
  return json({
    code: 'Ok',
    routes: [{ distance: whole.metres, duration: whole.seconds, weight: whole.seconds, weight_name: 'routability', geometry: whole.geometry, legs }],
    waypoints: points.map(waypoint),
  });
}

function table(points: LatLng[], query: URLSearchParams, mode: 'ok' | 'nothing' | 'wrongShape'): StandInAnswer {
  const sources = parseIndexes(query.get('sources'), points.length);
  const destinations = parseIndexes(query.get('destinations'), points.length);
  if (!sources || !destinations) return error('InvalidOptions', 'Options are invalid: sources or destinations');
  const annotations = (query.get('annotations') ?? 'duration').split(',');
  if (!annotations.every((name) => name === 'duration' || name === 'distance')) return error('InvalidOptions', 'Options are invalid: annotations');
  if (mode === 'nothing') return error('NoTable', 'No table found');
  if (mode === 'wrongShape') return json({ code: 'Ok', durations: [[1]], distances: [[1]] });
  const cell = (i: number, j: number) => {
    const from = points[i] as LatLng;
    const to = points[j] as LatLng;
    return isUnreachable(from) || isUnreachable(to) ? undefined : roadMetres(from, to);
  };
  const grid = (value: (metres: number) => number) => sources.map((i) => destinations.map((j) => {
    const metres = cell(i, j);
    return metres === undefined ? null : value(metres);
  }));
  return json({
    code: 'Ok',
    ...(annotations.includes('duration') ? { durations: grid(roadSeconds) } : {}),
    ...(annotations.includes('distance') ? { distances: grid((metres) => metres) } : {}),
    sources: sources.map((i) => waypoint(points[i] as LatLng)),
    destinations: destinations.map((j) => waypoint(points[j] as LatLng)),
  });
}

/** `name` as `;`-separated values, one per point, each read by `read` (undefined when one is not). */
function perPoint<T>(query: URLSearchParams, name: string, count: number, read: (text: string) => T | undefined): T[] | 'absent' | undefined {
  const text = query.get(name);
  if (text === null) return 'absent';
  const values = text.split(';').map(read);
  return values.length === count && values.every((value): value is T => value !== undefined) ? values : undefined;
}

function match(points: LatLng[], query: URLSearchParams, mode: 'ok' | 'nothing' | 'wrongShape', matching: OsrmStandIn['match']): StandInAnswer {
  if (points.length < 2) return error('InvalidOptions', 'Number of coordinates needs to be at least two.');
  for (const [name, allowed] of [['overview', ['simplified', 'full', 'false']], ['geometries', ['polyline', 'polyline6', 'geojson']], ['steps', ['true', 'false']], ['gaps', ['split', 'ignore']], ['tidy', ['true', 'false']]] as const) {
    const value = query.get(name);
    if (value !== null && !(allowed as readonly string[]).includes(value)) return error('InvalidOptions', `Options are invalid: ${name}`);
  }
  const timestamps = perPoint(query, 'timestamps', points.length, (text) => (/^\d+$/.test(text) ? Number(text) : undefined));
  if (!timestamps) return error('InvalidOptions', 'Number of timestamps does not match number of coordinates');
  if (timestamps !== 'absent' && timestamps.some((value, i) => i > 0 && value < (timestamps[i - 1] ?? 0))) return error('InvalidValue', 'Timestamps need to be monotonically increasing');
  const radiuses = perPoint(query, 'radiuses', points.length, (text) => (/^\d+(\.\d+)?$/.test(text) ? Number(text) : undefined));
  if (!radiuses) return error('InvalidOptions', 'Number of radiuses does not match number of coordinates');
  if (matching === 'refused') return error('TooBig', 'Too many trace coordinates');
  if (mode === 'wrongShape') return json({ code: 'Ok', matchings: [{ distance: -1, geometry: 7 }], tracepoints: [] });
  const traces = standInSubTraces(points);
  if (mode === 'nothing' || matching === 'NoMatch' || traces.length === 0) return error('NoMatch', 'Could not match the trace.');
  const tracepoints = points.map((point, index): unknown => {
    const matchingsIndex = traces.findIndex((trace) => trace.indexes.includes(index));
    if (matchingsIndex === -1) return null;
    return { ...waypoint(point), matchings_index: matchingsIndex, waypoint_index: traces[matchingsIndex]?.indexes.indexOf(index), alternatives_count: 0 };
  });
  const matchings = traces.map((trace) => {
    const tracePoints = trace.indexes.map((index) => points[index] as LatLng);
    const { metres, seconds, geometry } = standInMatching(tracePoints);
    const legs = tracePoints.slice(1).map((to, i) => {
      const leg = standInMatching([tracePoints[i] as LatLng, to]);
      return { distance: leg.metres, duration: leg.seconds, weight: leg.seconds, summary: '', steps: [] };
    });
    return { confidence: 0.92, distance: metres, duration: seconds, weight: seconds, weight_name: 'routability', geometry, legs };
  });
  return json({ code: 'Ok', matchings, tracepoints });
}

function answer(request: SeenRequest, mode: 'ok' | 'nothing' | 'wrongShape', matching: OsrmStandIn['match']): StandInAnswer {
  const found = /^\/(route|table|match)\/v1\/([a-z_-]+)\/([^/]+)$/.exec(request.path);
  if (request.method !== 'GET' || !found) return error('InvalidUrl', `URL string malformed close to position 1: "${request.path.slice(0, 20)}"`);
  const points = parseCoordinates(found[3] ?? '');
  if (!points) return error('InvalidQuery', 'Query string malformed close to position 0');
  if (found[1] === 'match') return match(points, request.query, mode, matching);
  return found[1] === 'route' ? route(points, request.query, mode) : table(points, request.query, mode);
}

export async function startOsrm(): Promise<OsrmStandIn> {
  const state: { match: OsrmStandIn['match'] } = { match: 'ok' };
  const standIn = await startStandIn((request, mode) => answer(request, mode, state.match));
  // `match` is read on every request: a test sets it on the stand-in it holds.
  return Object.defineProperty(standIn, 'match', { get: () => state.match, set: (value: OsrmStandIn['match']) => { state.match = value; }, enumerable: true }) as OsrmStandIn;
}
