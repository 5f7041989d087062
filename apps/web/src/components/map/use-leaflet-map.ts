import 'leaflet/dist/leaflet.css';
import './map.css';
import L from 'leaflet';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useMapTiles } from '../../utils/map-tiles';
import { FRESH_TILES, TILE_FIRST_LOAD_TIMEOUT_MS, tilesUnavailable } from './tile-health';

/** The highest zoom the tile servers in use serve (OpenStreetMap's standard layer). */
const TILE_MAX_ZOOM = 19;

export type LeafletMap = {
  /** The map's element: give it to MapFrame. */
  attach: (node: HTMLDivElement | null) => (() => void) | undefined;
  /** The map, once its element is in the page; layers are added to it in effects. */
  map: L.Map | null;
  /** The tiles failed (offline): the frame shows a plain background and a note instead. */
  tilesUnavailable: boolean;
};

/**
 * A Leaflet map built once on its element, with the configured tiles (MAP_TILE_URL) whose
 * failure is watched: Leaflet's tileerror with no tile loaded marks them unavailable, and the
 * markers, labels and lines on top stay as they are. `initialView` sets the first centre and zoom
 * (a map without them cannot take markers).
 */
export function useLeafletMap(options: L.MapOptions, initialView: (map: L.Map) => void): LeafletMap {
  // Read once, when the element arrives: later views are the caller's effects' business.
  const first = useRef({ options, initialView });
  const [map, setMap] = useState<L.Map | null>(null);
  const attach = useCallback((node: HTMLDivElement | null) => {
    if (!node) return undefined;
    const created = L.map(node, first.current.options);
    first.current.initialView(created);
    setMap(created);
    return () => {
      setMap(null);
      created.remove();
    };
  }, []);

  const tiles = useMapTiles();
  const url = tiles?.url;
  const attribution = tiles?.attribution;
  const [unavailable, setUnavailable] = useState(false);
  useEffect(() => {
    if (!map || !url) return undefined;
    let health = FRESH_TILES;
    const report = (change: Partial<typeof health>) => {
      health = { ...health, ...change };
      setUnavailable(tilesUnavailable(health));
    };
    const layer = L.tileLayer(url, { maxZoom: TILE_MAX_ZOOM, attribution })
      .on('tileload', () => { report({ loaded: health.loaded + 1 }); })
      .on('tileerror', () => { report({ failed: health.failed + 1 }); });
    const timer = window.setTimeout(() => { report({ timedOut: true }); }, TILE_FIRST_LOAD_TIMEOUT_MS);
    layer.addTo(map);
    return () => {
      window.clearTimeout(timer);
      layer.remove();
    };
  }, [map, url, attribution]);

  return { attach, map, tilesUnavailable: unavailable };
}
