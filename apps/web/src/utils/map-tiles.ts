import { useSettings } from '../api/settings';

export type MapTiles = { url: string; attribution: string };

/**
 * The map tiles the server is configured with (MAP_TILE_URL, MAP_TILE_ATTRIBUTION), read from the
 * public settings; null until they have arrived, so a map never asks another tile server first.
 */
export function useMapTiles(): MapTiles | null {
  const { data } = useSettings();
  return data?.mapTileUrl ? { url: data.mapTileUrl, attribution: data.mapTileAttribution } : null;
}
