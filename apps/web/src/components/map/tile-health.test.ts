import { describe, expect, it } from 'vitest';
import { FRESH_TILES, TILE_FAILURES_BEFORE_FALLBACK, tilesUnavailable } from './tile-health';

describe('when the map tiles count as unavailable', () => {
  it('after failures with no tile loaded, or no tile in time', () => {
    expect(tilesUnavailable(FRESH_TILES)).toBe(false);
    expect(tilesUnavailable({ ...FRESH_TILES, failed: TILE_FAILURES_BEFORE_FALLBACK - 1 })).toBe(false);
    expect(tilesUnavailable({ ...FRESH_TILES, failed: TILE_FAILURES_BEFORE_FALLBACK })).toBe(true);
    expect(tilesUnavailable({ ...FRESH_TILES, timedOut: true })).toBe(true);
  });

  it('never once a tile has loaded: a few failed tiles among loaded ones keep the map', () => {
    expect(tilesUnavailable({ loaded: 1, failed: 20, timedOut: true })).toBe(false);
  });
});
