import { greatCircleKm, type LatLng } from '@rideway/domain';
import { around } from 'geokdbush';
import KDBush from 'kdbush';
import RBush from 'rbush';
import TinyQueue from 'tinyqueue';
import type { DriverPresence, GeoIndex, NearestDriver, NearestQuery } from './port';

/** A driver's point in the R-tree (a box of zero size), with when it was reported. */
type Item = { minX: number; minY: number; maxX: number; maxY: number; uid: string; at: number };
/** rbush's node layout, as its toJSON() exports it. */
type TreeNode = { minX: number; minY: number; maxX: number; maxY: number; leaf: boolean; children: (TreeNode | Item)[] };
type Candidate = { distanceKm: number; node?: TreeNode; item?: Item };

const wrap = (degrees: number): number => ((((degrees + 180) % 360) + 360) % 360) - 180;
const clamp = (value: number, low: number, high: number): number => Math.min(high, Math.max(low, value));
const toRadians = (degrees: number): number => (degrees * Math.PI) / 180;

/**
 * The least great-circle distance from a point to any point of a lat/lng box: a lower bound that
 * lets the search skip whole subtrees. Within the box's longitudes the nearest point lies on the
 * same meridian; outside them it lies on the nearer edge meridian, at the latitude where the
 * great circle through the point meets that meridian at a right angle.
 */
export function boxDistanceKm(point: LatLng, box: { minX: number; minY: number; maxX: number; maxY: number }): number {
  if (point.lng >= box.minX && point.lng <= box.maxX) return greatCircleKm(point, { lat: clamp(point.lat, box.minY, box.maxY), lng: point.lng });
  const toWest = Math.abs(wrap(box.minX - point.lng));
  const toEast = Math.abs(wrap(point.lng - box.maxX));
  const edge = toWest <= toEast ? box.minX : box.maxX;
  const across = toRadians(Math.min(toWest, toEast));
  if (Math.cos(across) <= 0) {
    return Math.min(greatCircleKm(point, { lat: box.minY, lng: edge }), greatCircleKm(point, { lat: box.maxY, lng: edge }));
  }
  const meetsAt = (Math.atan(Math.tan(toRadians(point.lat)) / Math.cos(across)) * 180) / Math.PI;
  return greatCircleKm(point, { lat: clamp(meetsAt, box.minY, box.maxY), lng: edge });
}

const isItem = (entry: TreeNode | Item): entry is Item => 'uid' in entry;
const byDistance = (a: Candidate, b: Candidate): number => a.distanceKm - b.distanceKm;
const NODE_SIZE = 16;
/** Points per kd-tree leaf: small leaves measured fastest for the nearest few (bench/dispatch). */
const KD_NODE_SIZE = 16;
/** Changes an overlay takes before its car type is packed again: at least this many... */
const REPACK_MIN_CHANGES = 1024;
/** ...or this fraction of the packed drivers. */
const REPACK_FRACTION = 32;

/** The drivers of a car type as they were at the last packing: a static kd-tree over typed arrays. */
type Packed = { kd: KDBush; uids: string[]; lat: Float64Array; lng: Float64Array; at: Float64Array; valid: Uint8Array };

/**
 * A car type's available drivers: most in a packed kd-tree (kdbush, searched nearest-first by
 * geokdbush), the ones that moved since in a small R-tree overlay (rbush). Memory-compact and
 * cache-friendly where the numbers are, cheap to change where the changes are.
 */
type Lane = { packed?: Packed; slots: Map<string, number>; overlay: RBush<Item>; overlaySize: number };

/** Best-first search of an R-tree by great-circle distance. */
function searchOverlay(tree: RBush<Item>, point: LatLng, query: NearestQuery): NearestDriver[] {
  const found: NearestDriver[] = [];
  const queue = new TinyQueue<Candidate>([{ distanceKm: 0, node: tree.toJSON() as TreeNode }], byDistance);
  for (let next = queue.pop(); next && next.distanceKm <= query.radiusKm; next = queue.pop()) {
    const item = next.item;
    if (item) {
      if (item.at >= query.freshSince && !query.exclude?.has(item.uid)) {
        found.push({ uid: item.uid, distanceKm: next.distanceKm, lat: item.minY, lng: item.minX });
        if (found.length >= query.limit) break;
      }
      continue;
    }
    for (const child of next.node?.children ?? []) {
      const distanceKm = isItem(child) ? greatCircleKm(point, { lat: child.minY, lng: child.minX }) : boxDistanceKm(point, child);
      if (distanceKm <= query.radiusKm) queue.push(isItem(child) ? { distanceKm, item: child } : { distanceKm, node: child });
    }
  }
  return found;
}

function searchPacked(packed: Packed, point: LatLng, query: NearestQuery): NearestDriver[] {
  // geokdbush measures on a slightly smaller sphere: a hair of slack, then the domain's own distance decides.
  const ids = around(packed.kd, point.lng, point.lat, query.limit, query.radiusKm * 1.0001, (i) => packed.valid[i] === 1 && (packed.at[i] ?? 0) >= query.freshSince && !query.exclude?.has(packed.uids[i] ?? ''));
  const found: NearestDriver[] = [];
  for (const i of ids) {
    const at = { lat: packed.lat[i] ?? 0, lng: packed.lng[i] ?? 0 };
    const distanceKm = greatCircleKm(point, at);
    if (distanceKm <= query.radiusKm) found.push({ uid: packed.uids[i] ?? '', distanceKm, ...at });
  }
  return found;
}

/**
 * The in-process index: per car type, the available drivers in a packed kd-tree plus an overlay
 * of the ones that changed since, so finding the nearest few costs about the log of the number
 * of drivers, never a scan.
 */
export function memoryGeoIndex(): GeoIndex {
  const presences = new Map<string, { presence: DriverPresence; item?: Item; lane?: Lane }>();
  const lanes = new Map<string, Lane>();
  const laneOf = (carType: string): Lane => {
    let lane = lanes.get(carType);
    if (!lane) {
      lane = { slots: new Map(), overlay: new RBush<Item>(NODE_SIZE), overlaySize: 0 };
      lanes.set(carType, lane);
    }
    return lane;
  };

  /** Packs every available driver of the lane into a new kd-tree and empties the overlay. */
  const repack = (lane: Lane): void => {
    const drivers: DriverPresence[] = [];
    for (const uid of lane.slots.keys()) {
      const presence = presences.get(uid)?.presence;
      if (presence) drivers.push(presence);
    }
    for (const item of lane.overlay.all()) {
      const entry = presences.get(item.uid);
      if (entry) {
        drivers.push(entry.presence);
        delete entry.item;
      }
    }
    const kd = new KDBush(Math.max(1, drivers.length), KD_NODE_SIZE);
    const packed: Packed = { kd, uids: [], lat: new Float64Array(drivers.length), lng: new Float64Array(drivers.length), at: new Float64Array(drivers.length), valid: new Uint8Array(drivers.length) };
    lane.slots.clear();
    drivers.forEach((presence, i) => {
      kd.add(presence.lng, presence.lat);
      packed.uids.push(presence.uid);
      packed.lat[i] = presence.lat;
      packed.lng[i] = presence.lng;
      packed.at[i] = presence.at;
      packed.valid[i] = 1;
      lane.slots.set(presence.uid, i);
    });
    if (drivers.length === 0) kd.add(0, 0);
    kd.finish();
    lane.packed = packed;
    lane.overlay.clear();
    lane.overlaySize = 0;
  };

  const unstore = (entry: { item?: Item; lane?: Lane; presence: DriverPresence }): void => {
    const lane = entry.lane;
    if (!lane) return;
    const slot = lane.slots.get(entry.presence.uid);
    if (slot !== undefined && lane.packed) {
      lane.packed.valid[slot] = 0;
      lane.slots.delete(entry.presence.uid);
    }
    if (entry.item) {
      lane.overlay.remove(entry.item);
      lane.overlaySize -= 1;
      delete entry.item;
    }
  };

  const store = (presence: DriverPresence): void => {
    const entry = presences.get(presence.uid);
    if (entry) unstore(entry);
    if (!presence.available || !presence.carType) {
      presences.set(presence.uid, { presence });
      return;
    }
    const lane = laneOf(presence.carType);
    const item: Item = { minX: presence.lng, minY: presence.lat, maxX: presence.lng, maxY: presence.lat, uid: presence.uid, at: presence.at };
    lane.overlay.insert(item);
    lane.overlaySize += 1;
    presences.set(presence.uid, { presence, item, lane });
    if (lane.overlaySize >= Math.max(REPACK_MIN_CHANGES, lane.slots.size / REPACK_FRACTION)) repack(lane);
  };

  return {
    kind: 'memory',
    put(presence) {
      store({ ...presence });
      return Promise.resolve();
    },
    move(uid, position) {
      const entry = presences.get(uid);
      if (!entry) return Promise.resolve(undefined);
      const presence = { ...entry.presence, ...position };
      store(presence);
      return Promise.resolve(presence);
    },
    remove(uid) {
      const entry = presences.get(uid);
      if (entry) unstore(entry);
      presences.delete(uid);
      return Promise.resolve();
    },
    get(uid) {
      const presence = presences.get(uid)?.presence;
      return Promise.resolve(presence ? { ...presence } : undefined);
    },
    nearest(query: NearestQuery) {
      const lane = lanes.get(query.carType);
      if (!lane || query.limit <= 0) return Promise.resolve([]);
      const point = { lat: query.lat, lng: query.lng };
      const found = [...(lane.packed ? searchPacked(lane.packed, point, query) : []), ...(lane.overlaySize > 0 ? searchOverlay(lane.overlay, point, query) : [])];
      return Promise.resolve(found.sort((a, b) => a.distanceKm - b.distanceKm).slice(0, query.limit));
    },
    list({ freshSince, fleetadmin }) {
      const listed: DriverPresence[] = [];
      for (const { presence } of presences.values()) {
        if (presence.at >= freshSince && (fleetadmin === undefined || presence.fleetadmin === fleetadmin)) listed.push({ ...presence });
      }
      return Promise.resolve(listed);
    },
    staleSince(before) {
      const stale: string[] = [];
      for (const { presence } of presences.values()) if (presence.at < before) stale.push(presence.uid);
      return Promise.resolve(stale);
    },
    close() {
      presences.clear();
      lanes.clear();
      return Promise.resolve();
    },
  };
}
