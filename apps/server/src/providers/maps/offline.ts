// The package ships a UMD main and no "exports": Node's ESM loader sees only a default export.
import polylineCodec from '@googlemaps/polyline-codec';
import { EARTH_RADIUS_KM, greatCircleKm, isLatLng, toRadians, type LatLng } from '@rideway/domain';
import { buildGazetteer, normalise, type Gazetteer, type GazetteerPlace } from './gazetteer';
import type { Leg, MapsPort } from './port';
import { isTypedPointId, pointText, typedPointPlace, typedPointSuggestion } from './typed-point';

/** Roads are longer than the straight line: a city detour factor. */
export const ROAD_FACTOR = 1.3;
/** Average city driving speed, km/h. */
export const AVERAGE_SPEED_KMH = 25;
/** No taxi route is offered beyond this straight-line distance. */
const MAX_ROUTE_KM = 1000;

let gazetteer: Gazetteer | undefined;

/** The demo city's places, then the world's cities (135,000, read on first use, held compactly, with their kd-tree). */
const places = (): Gazetteer => (gazetteer ??= buildGazetteer());

const KM_PER_DEGREE = toRadians(1) * EARTH_RADIUS_KM;
/** Half the Earth's circumference: every place is nearer than this. */
const HALF_EARTH_KM = Math.PI * EARTH_RADIUS_KM;
/** The first search radius; each miss doubles it. Most points have a place within it. */
const FIRST_RADIUS_KM = 25;

/**
 * The longitude/latitude boxes holding every point within `radiusKm` (great-circle) of `point`:
 * one box, two across the antimeridian, the whole band when it reaches a pole.
 */
function boxesAround(point: LatLng, radiusKm: number): [number, number, number, number][] {
  const slack = 1.0001;
  const dLat = (radiusKm / KM_PER_DEGREE) * slack;
  const south = Math.max(-90, point.lat - dLat);
  const north = Math.min(90, point.lat + dLat);
  // The widest longitude span of a spherical cap: asin(sin(r/R) / cos(lat)).
  const spread = Math.sin(Math.min(Math.PI / 2, radiusKm / EARTH_RADIUS_KM)) / Math.cos(toRadians(point.lat));
  if (north >= 90 || south <= -90 || spread >= 1) return [[-180, south, 180, north]];
  const dLng = (Math.asin(spread) * 180 * slack) / Math.PI;
  const west = point.lng - dLng;
  const east = point.lng + dLng;
  if (west < -180) return [[west + 360, south, 180, north], [-180, south, east, north]];
  if (east > 180) return [[west, south, 180, north], [-180, south, east - 360, north]];
  return [[west, south, east, north]];
}

/**
 * The nearest place to a point, through the gazetteer's kd-tree: the places in the boxes around it, the
 * radius widened until the nearest found lies within it (so no place outside could be nearer).
 */
function nearest(point: LatLng): GazetteerPlace | undefined {
  const all = places();
  for (let radiusKm = FIRST_RADIUS_KM; ; radiusKm *= 2) {
    let best: number | undefined;
    let bestKm = Infinity;
    for (const [west, south, east, north] of boxesAround(point, radiusKm)) {
      for (const id of all.inBox(west, south, east, north)) {
        const km = greatCircleKm(point, all.position(id));
        if (km < bestKm) {
          best = id;
          bestKm = km;
        }
      }
    }
    if (bestKm <= radiusKm || radiusKm >= HALF_EARTH_KM) return best === undefined ? undefined : all.place(best);
  }
}

/**
 * The embedded maps adapter: no network. Places come from the demo city and a packaged list of
 * world cities (or a typed "lat,lng"); routes are the great-circle distance times a road factor
 * at an average speed, with a straight polyline, and say they are approximate.
 */
export function offlineMaps(): MapsPort {
  /** The straight line times the road factor, at the average speed; none beyond the longest route. */
  const leg = (from: LatLng, to: LatLng): Leg | undefined => {
    const straightKm = greatCircleKm(from, to);
    if (straightKm > MAX_ROUTE_KM) return undefined;
    const distanceKm = Math.round(straightKm * ROAD_FACTOR * 1000) / 1000;
    return { distanceKm, durationSeconds: Math.round((distanceKm / AVERAGE_SPEED_KMH) * 3600) };
  };
  return {
    provider: 'offline',
    autocomplete(query) {
      const typed = typedPointSuggestion(query);
      if (typed) return Promise.resolve([typed]);
      const wanted = normalise(query);
      if (wanted.length < 2) return Promise.resolve([]);
      const all = places();
      return Promise.resolve(all.search(wanted, 8).map((index) => {
        const place = all.place(index);
        return { place_id: place.id, description: place.name };
      }));
    },
    placeById(placeId) {
      if (isTypedPointId(placeId)) return Promise.resolve(typedPointPlace(placeId));
      const all = places();
      const index = all.indexOfId(placeId);
      const place = index === undefined ? undefined : all.place(index);
      return Promise.resolve(place ? { lat: place.lat, lng: place.lng, add: place.name } : undefined);
    },
    reverseGeocode(point) {
      const entry = nearest(point);
      if (!entry) return Promise.resolve(pointText(point));
      const km = greatCircleKm(point, entry);
      return Promise.resolve(km < 0.3 ? entry.name : `near ${entry.name}`);
    },
    route(points) {
      if (points.length < 2 || !points.every(isLatLng)) return Promise.resolve(undefined);
      let straightKm = 0;
      for (let i = 1; i < points.length; i += 1) straightKm += greatCircleKm(points[i - 1] as LatLng, points[i] as LatLng);
      const first = points[0] as LatLng;
      const last = points[points.length - 1] as LatLng;
      if (greatCircleKm(first, last) > MAX_ROUTE_KM) return Promise.resolve(undefined);
      const distanceKm = Math.round(straightKm * ROAD_FACTOR * 1000) / 1000;
      return Promise.resolve({
        distanceKm,
        durationSeconds: Math.round((distanceKm / AVERAGE_SPEED_KMH) * 3600),
        polylinePoints: polylineCodec.encode(points.map((p) => [p.lat, p.lng])),
        approximate: true,
      });
    },
    table(origins, destinations) {
      return Promise.resolve(origins.map((origin) => destinations.map((destination) => leg(origin, destination))));
    },
  };
}
