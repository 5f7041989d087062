import { greatCircleKm, type LatLng } from '@rideway/domain';
import RBush from 'rbush';
import TinyQueue from 'tinyqueue';
import type { DriverPresence, GeoIndex, NearestDriver, NearestQuery } from './port';

/** A driver's point in the R-tree (a box of zero size). */
type Item = { minX: number; minY: number; maxX: number; maxY: number; uid: string };
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

/**
 * The in-process index: one R-tree (rbush) per car type holding the available drivers, searched
 * best-first by great-circle distance, so the cost of finding the nearest few grows with the
 * log of the number of drivers instead of with the number.
 */
export function memoryGeoIndex(): GeoIndex {
  const presences = new Map<string, { presence: DriverPresence; item?: Item; tree?: RBush<Item> }>();
  const trees = new Map<string, RBush<Item>>();
  const treeOf = (carType: string): RBush<Item> => {
    let tree = trees.get(carType);
    if (!tree) {
      tree = new RBush<Item>(16);
      trees.set(carType, tree);
    }
    return tree;
  };

  const store = (presence: DriverPresence): void => {
    const entry = presences.get(presence.uid);
    if (entry?.item) entry.tree?.remove(entry.item);
    if (presence.available && presence.carType) {
      const item: Item = { minX: presence.lng, minY: presence.lat, maxX: presence.lng, maxY: presence.lat, uid: presence.uid };
      const tree = treeOf(presence.carType);
      tree.insert(item);
      presences.set(presence.uid, { presence, item, tree });
    } else {
      presences.set(presence.uid, { presence });
    }
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
      if (entry?.item) entry.tree?.remove(entry.item);
      presences.delete(uid);
      return Promise.resolve();
    },
    get(uid) {
      const presence = presences.get(uid)?.presence;
      return Promise.resolve(presence ? { ...presence } : undefined);
    },
    nearest(query: NearestQuery) {
      const tree = trees.get(query.carType);
      const found: NearestDriver[] = [];
      if (!tree || query.limit <= 0) return Promise.resolve(found);
      const point = { lat: query.lat, lng: query.lng };
      const queue = new TinyQueue<Candidate>([{ distanceKm: 0, node: tree.toJSON() as TreeNode }], (a, b) => a.distanceKm - b.distanceKm);
      for (let next = queue.pop(); next && next.distanceKm <= query.radiusKm; next = queue.pop()) {
        if (next.item) {
          const presence = presences.get(next.item.uid)?.presence;
          if (presence && presence.at >= query.freshSince && !query.exclude?.has(presence.uid)) {
            found.push({ uid: presence.uid, distanceKm: next.distanceKm });
            if (found.length >= query.limit) break;
          }
          continue;
        }
        for (const child of next.node?.children ?? []) {
          const distanceKm = isItem(child) ? greatCircleKm(point, { lat: child.minY, lng: child.minX }) : boxDistanceKm(point, child);
          if (distanceKm <= query.radiusKm) queue.push(isItem(child) ? { distanceKm, item: child } : { distanceKm, node: child });
        }
      }
      return Promise.resolve(found);
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
      trees.clear();
      return Promise.resolve();
    },
  };
}
