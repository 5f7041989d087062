import { distanceInUnit, type LatLng } from './geo';
import { DEFAULT_DRIVER_RADIUS } from './spec-constants';

/** The section 3 user fields that decide whether a driver can take a trip. */
export type DriverState = {
  uid: string;
  usertype: string;
  approved: boolean;
  queue: boolean;
  driverActiveStatus: boolean;
  location?: LatLng | null;
  carType?: string | null;
};

/** Section 6: approved, not in queue, active and located. */
export const isDriverAvailable = (driver: DriverState): boolean =>
  driver.usertype === 'driver' &&
  driver.approved &&
  !driver.queue &&
  driver.driverActiveStatus &&
  driver.location != null;

type DriverSearch = {
  pickup: LatLng;
  /** Radius in the unit in force; 0 or missing means the default of 10. */
  driverRadius?: number;
  convertToMile: boolean;
  /** Only drivers of this car type, when given. */
  carType?: string;
};

type NearbyDriver<T> = { driver: T; distance: number };

/**
 * Section 5 and 6: available drivers within driverRadius of the pickup (distance in miles when
 * convert_to_mile), of the requested car type, nearest first. The server's live index answers
 * the same question without a scan; this is the rule it must agree with.
 */
export function driversWithinRadius<T extends DriverState>(
  drivers: readonly T[],
  search: DriverSearch,
): NearbyDriver<T>[] {
  const radius = search.driverRadius && search.driverRadius > 0 ? search.driverRadius : DEFAULT_DRIVER_RADIUS;
  const nearby: NearbyDriver<T>[] = [];
  for (const driver of drivers) {
    if (!isDriverAvailable(driver) || !driver.location) continue;
    if (search.carType !== undefined && driver.carType !== search.carType) continue;
    const distance = distanceInUnit(search.pickup, driver.location, search.convertToMile);
    if (distance <= radius) nearby.push({ driver, distance });
  }
  return nearby.sort((a, b) => a.distance - b.distance);
}
