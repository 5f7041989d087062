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
 * - an error is HTTP 400 with `{code, message}`: InvalidUrl, InvalidQuery (a malformed coordinate
 *   list), InvalidOptions, InvalidValue, NoRoute, NoTable.
 * Its road network: every road is 1.4 times the straight line, driven at 8.5 m/s (about 31 km/h),
 * except that nothing reaches Antarctica (south of 60° S): NoRoute there. Mode `nothing` answers
 * NoRoute (route) and NoTable (table) for everything.
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

function answer(request: SeenRequest, mode: 'ok' | 'nothing' | 'wrongShape'): StandInAnswer {
  const match = /^\/(route|table)\/v1\/([a-z_-]+)\/([^/]+)$/.exec(request.path);
  if (request.method !== 'GET' || !match) return error('InvalidUrl', `URL string malformed close to position 1: "${request.path.slice(0, 20)}"`);
  const points = parseCoordinates(match[3] ?? '');
  if (!points) return error('InvalidQuery', 'Query string malformed close to position 0');
  return match[1] === 'route' ? route(points, request.query, mode) : table(points, request.query, mode);
}

export const startOsrm = (): Promise<StandIn> => startStandIn(answer);
