/**
 * When the map tiles count as unavailable (offline, a tile server down): some tiles failed and
 * none has loaded, or none has loaded this long after the map asked (a request that hangs on a
 * dead network fails no faster than this). One tile loading is enough to show the tiles again.
 */
export const TILE_FAILURES_BEFORE_FALLBACK = 2;
export const TILE_FIRST_LOAD_TIMEOUT_MS = 12_000;

export type TileHealth = { loaded: number; failed: number; timedOut: boolean };

export const FRESH_TILES: TileHealth = { loaded: 0, failed: 0, timedOut: false };

export const tilesUnavailable = ({ loaded, failed, timedOut }: TileHealth): boolean =>
  loaded === 0 && (failed >= TILE_FAILURES_BEFORE_FALLBACK || timedOut);
