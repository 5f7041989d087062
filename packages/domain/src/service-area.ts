import pointInPolygon from 'point-in-polygon-hao';
import { isLatLng, type LatLng } from './geo';
import { fail, ok, type Result } from './result';

/**
 * Issue 16, point 6: the service area, one or more polygons an admin draws on the settings map.
 * A pickup outside every polygon is refused (outside_service_area); an empty list means the
 * service runs everywhere, as before the setting existed.
 */

/** One polygon: its vertices in order, the ring closing by itself (the first vertex is not repeated). */
export type ServiceAreaPolygon = LatLng[];
export type ServiceArea = ServiceAreaPolygon[];

/**
 * Limits (decisions.md): the area is a public setting every visitor downloads, so it stays small
 * (about 80 kB at the total limit) while a city or a few regions traced by hand fit well within.
 */
export const MAX_SERVICE_AREA_POLYGONS = 20;
export const MIN_SERVICE_AREA_VERTICES = 3;
export const MAX_SERVICE_AREA_VERTICES = 500;
export const MAX_SERVICE_AREA_TOTAL_VERTICES = 2000;

/** Web Mercator's latitude limit (Leaflet's): the map cannot show, so cannot draw, beyond it. */
const MERCATOR_MAX_LATITUDE = 85.0511287798;

const distinctVertices = (polygon: readonly LatLng[]): number => new Set(polygon.map(({ lat, lng }) => `${String(lat)},${String(lng)}`)).size;

/**
 * The rule of a service area (proper_service_area): at most 20 polygons and 2000 vertices in
 * all, each polygon 3 to 500 vertices of valid coordinates (latitude -90..90, longitude
 * -180..180, finite numbers), at least 3 of them distinct (a line or a point encloses nothing).
 * The value kept holds only each vertex's lat and lng.
 */
export function validateServiceArea(value: unknown): Result<ServiceArea> {
  const refused = fail<ServiceArea>('proper_service_area', 'serviceArea');
  if (!Array.isArray(value) || value.length > MAX_SERVICE_AREA_POLYGONS) return refused;
  const area: ServiceArea = [];
  let total = 0;
  for (const polygon of value as unknown[]) {
    if (!Array.isArray(polygon) || polygon.length < MIN_SERVICE_AREA_VERTICES || polygon.length > MAX_SERVICE_AREA_VERTICES) return refused;
    total += polygon.length;
    if (total > MAX_SERVICE_AREA_TOTAL_VERTICES) return refused;
    const vertices: LatLng[] = [];
    for (const vertex of polygon as unknown[]) {
      if (!isLatLng(vertex)) return refused;
      vertices.push({ lat: vertex.lat, lng: vertex.lng });
    }
    if (distinctVertices(vertices) < MIN_SERVICE_AREA_VERTICES) return refused;
    area.push(vertices);
  }
  return ok(area);
}

/** A point on the Web Mercator plane, as [x, y]: the plane the admin drew the polygon on. */
const mercator = ({ lat, lng }: LatLng): [number, number] => {
  const clamped = Math.max(-MERCATOR_MAX_LATITUDE, Math.min(MERCATOR_MAX_LATITUDE, lat));
  return [lng, Math.log(Math.tan(Math.PI / 4 + (clamped * Math.PI) / 360)) * (180 / Math.PI)];
};

/**
 * Whether a point is in the service area: inside any polygon, its edge included; everywhere
 * when the area is empty. The test is point-in-polygon-hao's (robust predicates) on the Web
 * Mercator plane, so "inside" is exactly what the settings map shows drawn: an edge is straight
 * on that map, not along a great circle. A polygon crossing the antimeridian is not supported
 * (decisions.md).
 */
export function insideServiceArea(point: LatLng, areas: readonly (readonly LatLng[])[]): boolean {
  if (areas.length === 0) return true;
  const target = mercator(point);
  return areas.some((polygon) => {
    if (polygon.length < MIN_SERVICE_AREA_VERTICES) return false;
    const ring = polygon.map(mercator);
    const first = ring[0];
    if (first) ring.push(first);
    return pointInPolygon(target, [ring]) !== false;
  });
}
