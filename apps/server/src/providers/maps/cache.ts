import type { LatLng } from '@rideway/domain';
import type { MapsPort } from './port';
import type { MapsCall } from './provider-call';

/**
 * A short-lived memory of a maps adapter's answers, in front of any adapter: the same route,
 * place or address asked again within `ttlSeconds` is answered without calling the provider
 * (a rider's estimate then booking, the web's repeated searches, several riders at one station).
 * Keys are the call and its inputs, points rounded to 5 decimals (about a metre). Bounded: the
 * least recently used answer goes first. A failure is never kept, so the next call asks again;
 * calls in flight are shared, so a burst of the same question asks once.
 *
 * Place search sessions: the session token reaches the adapter with the call that asks it. For a
 * provider that bills by session (`placeSessions`), the token is part of the key, so one
 * session's search is never answered from, or shared with, another's call (that call would carry
 * the other session's token). For the others (osm) the token changes nothing in the answer and is
 * left out of the key: every rider's "tower of" is the same question. A matched trace is not
 * kept: each trip's trace is asked once.
 */

export type MapsCacheOptions = {
  /** How long an answer is kept; 0 turns the cache off. */
  ttlSeconds: number;
  /** At most this many answers are kept. */
  maxEntries?: number;
  /** The calls whose answers may be kept (a provider's terms may forbid keeping some); all by default. */
  calls?: readonly MapsCall[];
  now?: () => number;
};

export const DEFAULT_MAX_ENTRIES = 2000;

const pointKey = (point: LatLng): string => `${point.lat.toFixed(5)},${point.lng.toFixed(5)}`;
const pointsKey = (points: LatLng[]): string => points.map(pointKey).join(';');

export function cachedMaps(port: MapsPort, options: MapsCacheOptions): MapsPort {
  if (options.ttlSeconds <= 0) return port;
  const ttlMs = options.ttlSeconds * 1000;
  const maxEntries = Math.max(1, options.maxEntries ?? DEFAULT_MAX_ENTRIES);
  const now = options.now ?? Date.now;
  const cached = new Set<MapsCall>(options.calls ?? ['autocomplete', 'placeById', 'reverseGeocode', 'route', 'table']);
  /** The session part of a place call's key: only where the provider bills by session. */
  const session = (token: string | undefined): string => (port.placeSessions === true && token !== undefined ? `|${token}` : '');
  const entries = new Map<string, { expires: number; answer: Promise<unknown> }>();

  const remember = <T>(call: MapsCall, key: string, ask: () => Promise<T>): Promise<T> => {
    if (!cached.has(call)) return ask();
    const id = `${call}|${key}`;
    const at = now();
    const hit = entries.get(id);
    entries.delete(id);
    // Re-inserted on a hit: a Map iterates in insertion order, so its first key is the least recently used.
    if (hit && hit.expires > at) {
      entries.set(id, hit);
      return hit.answer as Promise<T>;
    }
    const answer = ask();
    const entry = { expires: at + ttlMs, answer };
    entries.set(id, entry);
    void answer.catch(() => {
      if (entries.get(id) === entry) entries.delete(id);
    });
    while (entries.size > maxEntries) {
      const oldest = entries.keys().next();
      if (oldest.done === true) break;
      entries.delete(oldest.value);
    }
    return answer;
  };

  const { matchTrace, mapTiles } = port;
  return {
    provider: port.provider,
    ...(port.placeSessions === undefined ? {} : { placeSessions: port.placeSessions }),
    autocomplete: (query, sessionToken) =>
      remember('autocomplete', `${query.trim().replace(/\s+/g, ' ').toLowerCase()}${session(sessionToken)}`, () => port.autocomplete(query, sessionToken)),
    placeById: (placeId, sessionToken) => remember('placeById', `${placeId}${session(sessionToken)}`, () => port.placeById(placeId, sessionToken)),
    reverseGeocode: (point) => remember('reverseGeocode', pointKey(point), () => port.reverseGeocode(point)),
    route: (points) => remember('route', pointsKey(points), () => port.route(points)),
    table: (origins, destinations) => remember('table', `${pointsKey(origins)}|${pointsKey(destinations)}`, () => port.table(origins, destinations)),
    ...(matchTrace ? { matchTrace: (points: Parameters<typeof matchTrace>[0]) => matchTrace(points) } : {}),
    ...(mapTiles ? { mapTiles: () => mapTiles() } : {}),
  };
}
