/** Map tiles; OpenStreetMap's unless the build names other ones (VITE_MAP_TILES). */
export const MAP_TILES = (import.meta.env.VITE_MAP_TILES as string | undefined) ?? 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const TILE_ATTRIBUTION = '&copy; OpenStreetMap contributors';
