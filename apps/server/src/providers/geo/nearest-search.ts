import { EARTH_RADIUS_KM, greatCircleKm, toRadians, type LatLng } from '@rideway/domain';
import type KDBush from 'kdbush';
import type { OverlayGrid } from './overlay-grid';
import type { NearestDriver, NearestQuery } from './port';


/**
 * The drivers of a car type as they were at the last packing: a static kd-tree over typed arrays.
 * Every array is in the tree's order (position i is the tree's point i), so a leaf's drivers sit
 * side by side in memory and a search reads them without jumping about.
 */
export type Packed = { kd: KDBush; uids: string[]; at: Float64Array; valid: Uint8Array };


/**
 * A lower bound on the great-circle distance from a point to anywhere beyond a meridian: the way
 * there crosses that meridian or the antimeridian, and the distance to a meridian is
 * R·asin(cos φ·sin Δλ) for Δλ up to 90°; asin y ≥ y and sin x ≥ x − x³/6 keep it a bound
 * without a trig call.
 */
export function beyondMeridianKm(queryLng: number, cosLat: number, meridian: number, eastward: boolean): number {
  const direct = eastward ? meridian - queryLng : queryLng - meridian;
  const viaAntimeridian = eastward ? queryLng + 180 : 180 - queryLng;
  const across = Math.min(Math.PI / 2, toRadians(Math.max(0, Math.min(direct, viaAntimeridian))));
  return EARTH_RADIUS_KM * cosLat * (across - (across * across * across) / 6);
}

/**
 * The nearest few drivers found so far, ranked by haversine's h (which grows with distance, so
 * km are computed once, at the end), and how far the worst kept one is: the bound every part of
 * a search must beat. One instance spans the packed tree and the overlay, so the second search
 * starts with the first one's bound.
 */
class NearestFew {
  readonly cosLat: number;
  worstKm: number;
  private worstH: number;
  private readonly kept: { h: number; uid: string; lat: number; lng: number }[] = [];

  constructor(
    readonly point: LatLng,
    private readonly query: NearestQuery,
  ) {
    this.cosLat = Math.cos(toRadians(point.lat));
    // A hair of slack over the radius: the domain's own distance has the last word in result().
    this.worstKm = query.radiusKm * 1.0001;
    this.worstH = Math.sin(Math.min(Math.PI / 2, this.worstKm / (2 * EARTH_RADIUS_KM))) ** 2;
  }

  /** False when a driver at this latitude is already farther than the worst kept: no trig needed. */
  mayKeep(lat: number): boolean {
    return Math.abs(toRadians(lat - this.point.lat)) * EARTH_RADIUS_KM <= this.worstKm;
  }

  eligible(uid: string, at: number): boolean {
    return at >= this.query.freshSince && !this.query.exclude?.has(uid);
  }

  offer(uid: string, lat: number, lng: number): void {
    const sinLat = Math.sin(toRadians(lat - this.point.lat) / 2);
    const sinLng = Math.sin(toRadians(lng - this.point.lng) / 2);
    const h = sinLat * sinLat + this.cosLat * Math.cos(toRadians(lat)) * sinLng * sinLng;
    if (h > this.worstH) return;
    let slot = this.kept.length;
    while (slot > 0 && (this.kept[slot - 1]?.h ?? 0) > h) slot -= 1;
    this.kept.splice(slot, 0, { h, uid, lat, lng });
    if (this.kept.length > this.query.limit) this.kept.pop();
    if (this.kept.length === this.query.limit) {
      this.worstH = this.kept[this.kept.length - 1]?.h ?? this.worstH;
      this.worstKm = 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(this.worstH)));
    }
  }

  result(): NearestDriver[] {
    const found: NearestDriver[] = [];
    for (const { uid, lat, lng } of this.kept) {
      const distanceKm = greatCircleKm(this.point, { lat, lng });
      if (distanceKm <= this.query.radiusKm) found.push({ uid, distanceKm, lat, lng });
    }
    return found;
  }
}

/** Scratch stack for the kd-tree walk: left, right, axis and lower bound of each pending node. */
const STACK: number[] = [];

/**
 * Walks kdbush's kd-sorted arrays (its `ids` and `coords` layout) depth-first, the nearer half
 * first, skipping a half once the plane that bounds it is farther than the worst kept driver.
 * Steps down the tree are comparisons and the trig runs on the few points near the pickup, so a
 * tree ten times larger costs a few cheap steps more.
 */
function walkPacked(packed: Packed, few: NearestFew): void {
  const { coords, nodeSize, numItems } = packed.kd;
  const { point } = few;
  const consider = (at: number): void => {
    const lat = coords[2 * at + 1] ?? 0;
    if (!few.mayKeep(lat) || packed.valid[at] !== 1) return;
    const uid = packed.uids[at] ?? '';
    if (few.eligible(uid, packed.at[at] ?? 0)) few.offer(uid, lat, coords[2 * at] ?? 0);
  };
  let top = 0;
  const push = (left: number, right: number, axis: number, boundKm: number): void => {
    STACK[top++] = left;
    STACK[top++] = right;
    STACK[top++] = axis;
    STACK[top++] = boundKm;
  };
  push(0, numItems - 1, 0, 0);
  while (top > 0) {
    const boundKm = STACK[--top] ?? 0;
    const axis = STACK[--top] ?? 0;
    const right = STACK[--top] ?? 0;
    const left = STACK[--top] ?? 0;
    if (boundKm > few.worstKm) continue;
    if (right - left <= nodeSize) {
      for (let at = left; at <= right; at += 1) consider(at);
      continue;
    }
    const middle = (left + right) >> 1;
    consider(middle);
    const split = coords[2 * middle + axis] ?? 0;
    const nearLow = (axis === 0 ? point.lng : point.lat) < split;
    const planeKm = axis === 0 ? beyondMeridianKm(point.lng, few.cosLat, split, nearLow) : toRadians(Math.abs(point.lat - split)) * EARTH_RADIUS_KM;
    const farBound = Math.max(boundKm, planeKm);
    // The far half goes on the stack first, so the near half is walked first and tightens the bound.
    if (farBound <= few.worstKm) {
      if (nearLow) push(middle + 1, right, 1 - axis, farBound);
      else push(left, middle - 1, 1 - axis, farBound);
    }
    if (nearLow) push(left, middle - 1, 1 - axis, boundKm);
    else push(middle + 1, right, 1 - axis, boundKm);
  }
}

/** Offers the overlay's drivers in the cells the current bound covers. */
function walkOverlay(overlay: OverlayGrid, few: NearestFew): void {
  overlay.near(few.point, few.worstKm, (item) => {
    if (few.mayKeep(item.lat) && few.eligible(item.uid, item.at)) few.offer(item.uid, item.lat, item.lng);
  });
}

/** The available drivers nearest the query's point within its radius, nearest first, at most `limit`. */
export function searchNearest(query: NearestQuery, packed: Packed | undefined, overlay: OverlayGrid | undefined): NearestDriver[] {
  const few = new NearestFew({ lat: query.lat, lng: query.lng }, query);
  if (packed) walkPacked(packed, few);
  if (overlay) walkOverlay(overlay, few);
  return few.result();
}
