/** The live driver index (issue 5): where online drivers are, and who is nearest a pickup. */

/** An online driver as the index holds it. */
export type DriverPresence = {
  uid: string;
  lat: number;
  lng: number;
  /** When the driver last reported a position, epoch ms. */
  at: number;
  carType: string | null;
  fleetadmin: string | null;
  name: string;
  vehicleNumber: string | null;
  /** Section 6: approved, active and not in queue: may be offered trips. */
  available: boolean;
};

export type NearestQuery = {
  lat: number;
  lng: number;
  radiusKm: number;
  carType: string;
  limit: number;
  /** Drivers last seen before this are stale and skipped. */
  freshSince: number;
  exclude?: ReadonlySet<string>;
};

/** A driver found near a point, with the position the index holds for it. */
export type NearestDriver = { uid: string; distanceKm: number; lat: number; lng: number };

export interface GeoIndex {
  readonly kind: 'memory' | 'redis';
  /** Adds or replaces a driver's whole presence. */
  put(presence: DriverPresence): Promise<void>;
  /** A new position for a driver already online; undefined (and nothing stored) when it is not. */
  move(uid: string, position: { lat: number; lng: number; at: number }): Promise<DriverPresence | undefined>;
  remove(uid: string): Promise<void>;
  get(uid: string): Promise<DriverPresence | undefined>;
  /** Available drivers of the car type within the radius, nearest first, at most `limit`. */
  nearest(query: NearestQuery): Promise<NearestDriver[]>;
  /** Online drivers seen since `freshSince`, optionally of one fleet. */
  list(filter: { freshSince: number; fleetadmin?: string }): Promise<DriverPresence[]>;
  /** Drivers last seen before `before`. */
  staleSince(before: number): Promise<string[]>;
  /** How many drivers the index holds (online, stale ones not swept yet included): a metrics gauge. */
  size(): Promise<number>;
  close(): Promise<void>;
}
