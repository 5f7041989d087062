import KDBush from 'kdbush';
import { searchNearest, type Packed } from './nearest-search';
import { OverlayGrid, type Item } from './overlay-grid';
import type { DriverPresence, GeoIndex, NearestQuery } from './port';

/** Points per kd-tree leaf: small leaves measured fastest for the nearest few (bench/dispatch). */
const KD_NODE_SIZE = 16;
/** Changes an overlay takes before its car type is packed again: at least this many... */
const REPACK_MIN_CHANGES = 1024;
/** ...or this fraction of the packed drivers. */
const REPACK_FRACTION = 32;

/**
 * A car type's available drivers: most in a packed kd-tree (kdbush; nearest-search walks its
 * arrays), the ones that moved since in a grid overlay. Memory-compact and cache-friendly where
 * the numbers are, cheap to change where the changes are.
 */
type Lane = { packed?: Packed; slots: Map<string, number>; overlay: OverlayGrid };

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
      lane = { slots: new Map(), overlay: new OverlayGrid() };
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
    for (const presence of drivers) kd.add(presence.lng, presence.lat);
    if (drivers.length === 0) kd.add(0, 0);
    kd.finish();
    const packed: Packed = { kd, uids: new Array<string>(drivers.length).fill(''), at: new Float64Array(drivers.length), valid: new Uint8Array(drivers.length) };
    lane.slots.clear();
    // finish() sorted the points into tree order; `ids` says which driver landed where.
    for (let at = 0; at < drivers.length; at += 1) {
      const presence = drivers[kd.ids[at] ?? 0];
      if (!presence) continue;
      packed.uids[at] = presence.uid;
      packed.at[at] = presence.at;
      packed.valid[at] = 1;
      lane.slots.set(presence.uid, at);
    }
    lane.packed = packed;
    lane.overlay.clear();
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
    const item = lane.overlay.insert(presence.uid, presence.lat, presence.lng, presence.at);
    presences.set(presence.uid, { presence, item, lane });
    if (lane.overlay.size >= Math.max(REPACK_MIN_CHANGES, lane.slots.size / REPACK_FRACTION)) repack(lane);
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
      return Promise.resolve(searchNearest(query, lane.packed, lane.overlay.size > 0 ? lane.overlay : undefined));
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
    size() {
      return Promise.resolve(presences.size);
    },
    close() {
      presences.clear();
      lanes.clear();
      return Promise.resolve();
    },
  };
}
