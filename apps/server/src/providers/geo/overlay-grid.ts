import { EARTH_RADIUS_KM, toRadians, type LatLng } from '@rideway/domain';

/** A driver who moved since its car type was last packed, with when it was reported. */
export type Item = { uid: string; lat: number; lng: number; at: number; cell: number; slot: number };

/** Cell size in degrees: a city is a handful of cells, so a search visits a few short lists. */
const CELL_DEGREES = 0.05;
const ROWS = Math.round(180 / CELL_DEGREES);
const COLUMNS = Math.round(360 / CELL_DEGREES);
const toDegrees = (radians: number): number => (radians * 180) / Math.PI;
const rowOf = (lat: number): number => Math.min(ROWS - 1, Math.max(0, Math.floor((lat + 90) / CELL_DEGREES)));
const columnOf = (lng: number): number => (((Math.floor((lng + 180) / CELL_DEGREES) % COLUMNS) + COLUMNS) % COLUMNS);

/**
 * The drivers who moved since the last packing, bucketed by a fixed lat/lng grid. Inserting and
 * removing are O(1), and a search visits only the cells a circle of the current bound covers, so
 * its cost follows how many drivers are near the pickup, not how many are online.
 */
export class OverlayGrid {
  private readonly cells = new Map<number, Item[]>();
  size = 0;

  insert(uid: string, lat: number, lng: number, at: number): Item {
    const cell = rowOf(lat) * COLUMNS + columnOf(lng);
    let items = this.cells.get(cell);
    if (!items) {
      items = [];
      this.cells.set(cell, items);
    }
    const item: Item = { uid, lat, lng, at, cell, slot: items.length };
    items.push(item);
    this.size += 1;
    return item;
  }

  remove(item: Item): void {
    const items = this.cells.get(item.cell);
    if (!items || items[item.slot] !== item) return;
    // The last item of the cell takes the removed one's slot.
    const last = items.pop();
    if (last && last !== item) {
      items[item.slot] = last;
      last.slot = item.slot;
    }
    if (items.length === 0) this.cells.delete(item.cell);
    this.size -= 1;
  }

  *all(): Iterable<Item> {
    for (const items of this.cells.values()) yield* items;
  }

  clear(): void {
    this.cells.clear();
    this.size = 0;
  }

  /**
   * Visits every item in the cells that a circle of `radiusKm` around the point touches. A point within
   * d of the pickup lies within asin(sin(d/R) / cos φ) of its longitude (the bounding box of a
   * spherical cap); near a pole the cap spans every longitude.
   */
  near(point: LatLng, radiusKm: number, visit: (item: Item) => void): void {
    const angular = Math.min(Math.PI, radiusKm / EARTH_RADIUS_KM);
    const latSpan = toDegrees(angular);
    const sinLngSpan = Math.sin(angular) / Math.cos(toRadians(point.lat));
    const everyColumn = point.lat + latSpan >= 90 || point.lat - latSpan <= -90 || sinLngSpan >= 1;
    const lngSpan = everyColumn ? 180 : toDegrees(Math.asin(sinLngSpan));
    const firstRow = rowOf(point.lat - latSpan);
    const lastRow = rowOf(point.lat + latSpan);
    const firstColumn = columnOf(point.lng - lngSpan);
    const columnCount = everyColumn ? COLUMNS : Math.min(COLUMNS, ((columnOf(point.lng + lngSpan) - firstColumn + COLUMNS) % COLUMNS) + 1);
    for (let row = firstRow; row <= lastRow; row += 1) {
      for (let step = 0; step < columnCount; step += 1) {
        const items = this.cells.get(row * COLUMNS + ((firstColumn + step) % COLUMNS));
        if (items) for (const item of items) visit(item);
      }
    }
  }
}
