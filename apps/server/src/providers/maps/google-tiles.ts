import { z } from 'zod';
import type { Config } from '../../config';
import { MapsProviderError, type MapTiles, type ProviderTiles } from './port';
import { callProvider, joinUrl, providerError, readAnswer } from './provider-call';

/**
 * Google's map under the web's maps when MAPS_PROVIDER=google: Google's terms want Places results
 * shown on a Google map, and Routes results on no other map. The web draws raster tiles from a
 * URL template (Leaflet), so the Map Tiles API's 2D tiles are what it draws:
 * - https://developers.google.com/maps/documentation/tile/session_tokens: `POST
 *   https://tile.googleapis.com/v1/createSession?key=KEY` with `{mapType, language, region}`
 *   (all three required) answers `{session, expiry, tileWidth, tileHeight, imageFormat}`;
 *   `expiry` is the token's end in seconds since the epoch (as a string), about two weeks away
 *   ("this might change": it is read, not assumed). One session serves every client.
 * - https://developers.google.com/maps/documentation/tile/roadmap: a tile is `GET
 *   https://tile.googleapis.com/v1/2dtiles/{z}/{x}/{y}?session=..&key=..`, z from 0 to 22.
 * - https://developers.google.com/maps/documentation/tile/2d-tiles-overview ("Viewport information
 *   requests"): `GET https://tile.googleapis.com/tile/v1/viewport?session=..&key=..&zoom=..&north=..
 *   &south=..&east=..&west=..` answers `{copyright, maxZoomRects}`, `copyright` being the
 *   attribution to show with the tiles. One request for the whole world is made per session; if it
 *   fails, the attribution is "Map data ©Google".
 * - https://developers.google.com/maps/documentation/tile/policies: the Google Maps attribution
 *   shown with the map (the logo, or the text "Google Maps" where it does not fit) and the data
 *   attribution, neither altered.
 * The key is in every tile URL, so it is the browser key GOOGLE_MAP_TILES_API_KEY (restricted by
 * HTTP referrer to the site and to the Map Tiles API), never the server key; the server asks with
 * it too, sending the public address (PUBLIC_URL) as its Referer so the restriction lets it in.
 * The session is kept until shortly before its expiry; a session that cannot be had is the
 * caller's to log, and the maps fall back to MAP_TILE_URL until the next attempt (a minute later).
 */

const PROVIDER = 'google';
export const DEFAULT_TILES_BASE = 'https://tile.googleapis.com';
/** The text the attribution falls back to without the viewport's: Google's own wording. */
export const FALLBACK_COPYRIGHT = 'Map data ©Google';
/** After a failed attempt, the next one waits this long (the settings are read on every page load). */
export const RETRY_AFTER_MS = 60_000;
/** A session is renewed this long before its expiry (at most half its life)... */
const RENEW_AHEAD_MS = 24 * 3600_000;
/** ...and no longer handed out this close to it, even when its renewal fails. */
const STOP_AHEAD_MS = 5 * 60_000;
const MAX_COPYRIGHT_CHARS = 300;

export type GoogleTilesOptions = {
  /** The browser key: it is in every tile URL. */
  apiKey: string;
  /** Scheme, host and port of the Map Tiles API. */
  baseUrl: string;
  /** IETF language tag of the map's labels (createSession `language`). */
  language: string;
  /** CLDR region (createSession `region`): whose borders and names the map shows. */
  region: string;
  /** Sent as the Referer, for a key restricted to the site's address. */
  referer?: string;
  timeoutMs: number;
  now?: () => number;
};

/** The Map Tiles API's address the configuration names, when Google's map is on (MAPS_PROVIDER=google with a browser key). */
export function googleTilesBase(config: Config): string | undefined {
  if (config.MAPS_PROVIDER !== 'google' || !config.GOOGLE_MAP_TILES_API_KEY) return undefined;
  return config.GOOGLE_MAP_TILES_URL ?? config.GOOGLE_MAPS_API_URL ?? DEFAULT_TILES_BASE;
}

export function googleTilesOptions(config: Config): GoogleTilesOptions | undefined {
  const baseUrl = googleTilesBase(config);
  if (!baseUrl || !config.GOOGLE_MAP_TILES_API_KEY) return undefined;
  return {
    apiKey: config.GOOGLE_MAP_TILES_API_KEY,
    baseUrl,
    language: config.GOOGLE_MAP_TILES_LANGUAGE,
    region: config.GOOGLE_MAP_TILES_REGION,
    ...(config.PUBLIC_URL ? { referer: `${config.PUBLIC_URL.replace(/\/+$/, '')}/` } : {}),
    timeoutMs: config.MAPS_TIMEOUT_MS,
  };
}

const sessionAnswer = z.object({
  session: z.string().min(1).max(2048),
  expiry: z.union([z.string().regex(/^\d{1,12}$/), z.number().int().positive()]).transform(Number),
});
const viewportAnswer = z.object({ copyright: z.string().max(2000).optional() });

/** Text as HTML (Leaflet puts the attribution in the page as HTML). */
const html = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${String(c.charCodeAt(0))};`);

type Held = { tiles: MapTiles; renewAt: number; usableUntil: number };

/** Google's 2D roadmap tiles, one session at a time: the port's `mapTiles`. */
export function googleMapTiles(options: GoogleTilesOptions): () => Promise<ProviderTiles> {
  const now = options.now ?? Date.now;
  const request = { provider: PROVIDER, call: 'mapTiles' as const };
  let held: Held | undefined;
  let retryAt = 0;
  let inFlight: Promise<void> | undefined;

  const url = (path: string, query: Record<string, string>): URL => {
    const target = joinUrl(options.baseUrl, path);
    for (const [name, value] of Object.entries(query)) target.searchParams.set(name, value);
    return target;
  };
  const headers = options.referer ? { referer: options.referer } : undefined;

  /** The attribution Google gives for the whole world under this session, or its fixed wording. */
  const copyright = async (session: string): Promise<string> => {
    try {
      const world = { zoom: '2', north: '85', south: '-85', east: '180', west: '-180' };
      const { body } = await callProvider({ ...request, url: url('/tile/v1/viewport', { session, key: options.apiKey, ...world }), timeoutMs: options.timeoutMs, ...(headers ? { headers } : {}) });
      const text = readAnswer(request, viewportAnswer, body).copyright?.trim() ?? '';
      return text === '' ? FALLBACK_COPYRIGHT : text.slice(0, MAX_COPYRIGHT_CHARS);
    } catch {
      // The tiles are there; only the finer attribution is not.
      return FALLBACK_COPYRIGHT;
    }
  };

  const createSession = async (): Promise<void> => {
    const { body } = await callProvider({
      ...request,
      url: url('/v1/createSession', { key: options.apiKey }),
      method: 'POST',
      body: { mapType: 'roadmap', language: options.language, region: options.region },
      timeoutMs: options.timeoutMs,
      ...(headers ? { headers } : {}),
    });
    const { session, expiry } = readAnswer(request, sessionAnswer, body);
    const asked = now();
    const expires = expiry * 1000;
    if (expires - asked <= 2 * STOP_AHEAD_MS) throw providerError(request, 'malformed', 'a session that expires at once');
    const mapTileUrl = `${options.baseUrl.replace(/\/+$/, '')}/v1/2dtiles/{z}/{x}/{y}?session=${encodeURIComponent(session)}&key=${encodeURIComponent(options.apiKey)}`;
    const mapTileAttribution = `Google Maps · ${html(await copyright(session))}`;
    held = {
      tiles: { mapTileUrl, mapTileAttribution },
      renewAt: expires - Math.min(RENEW_AHEAD_MS, (expires - asked) / 2),
      usableUntil: expires - STOP_AHEAD_MS,
    };
  };

  const usable = (): MapTiles | undefined => (held && held.usableUntil > now() ? held.tiles : undefined);

  return async (): Promise<ProviderTiles> => {
    const at = now();
    const current = usable();
    if (current && held && held.renewAt > at) return { tiles: current };
    // One attempt at a time: the others wait for it when there is nothing to hand out yet.
    if (inFlight) {
      if (!current) await inFlight.catch(() => undefined);
      const tiles = usable();
      return tiles ? { tiles } : {};
    }
    if (at < retryAt) return current ? { tiles: current } : {};
    const attempt = createSession();
    inFlight = attempt;
    try {
      await attempt;
      const tiles = usable();
      return tiles ? { tiles } : {};
    } catch (error) {
      retryAt = now() + RETRY_AFTER_MS;
      const failure = error instanceof MapsProviderError ? error : providerError(request, 'failed', 'unexpected error');
      const tiles = usable();
      return tiles ? { tiles, failure } : { failure };
    } finally {
      inFlight = undefined;
    }
  };
}
