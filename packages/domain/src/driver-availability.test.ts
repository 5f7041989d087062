import { describe, expect, it } from 'vitest';
import { driversWithinRadius, isDriverAvailable, type DriverState } from './driver-availability';

const pickup = { lat: 51.5, lng: -0.12 };
const driver = (uid: string, extra: Partial<DriverState> = {}): DriverState => ({
  uid,
  usertype: 'driver',
  approved: true,
  queue: false,
  driverActiveStatus: true,
  location: pickup,
  carType: 'Sedan',
  ...extra,
});
// Degrees of latitude to km: about 111.2 km each.
const northBy = (km: number) => ({ lat: pickup.lat + km / 111.195, lng: pickup.lng });

describe('section 6: a driver is available when approved, not in queue, active and located', () => {
  it('accepts a driver meeting every condition', () => {
    expect(isDriverAvailable(driver('a'))).toBe(true);
  });
  it.each([
    ['not approved', { approved: false }],
    ['in queue (busy)', { queue: true }],
    ['inactive', { driverActiveStatus: false }],
    ['without a location', { location: null }],
    ['not a driver', { usertype: 'rider' }],
  ])('refuses one %s', (_name, extra) => {
    expect(isDriverAvailable(driver('a', extra))).toBe(false);
  });
});

describe('section 5: book now needs an available driver within driverRadius of the pickup', () => {
  it('finds drivers within the radius, nearest first, of the car type', () => {
    const drivers = [driver('far', { location: northBy(9) }), driver('near', { location: northBy(1) }), driver('van', { carType: 'Van' }), driver('out', { location: northBy(11) })];
    const found = driversWithinRadius(drivers, { pickup, driverRadius: 10, convertToMile: false, carType: 'Sedan' });
    expect(found.map((d) => d.driver.uid)).toEqual(['near', 'far']);
    expect(found[0]!.distance).toBeCloseTo(1, 3);
  });

  it('defaults the radius to 10 when unset or 0', () => {
    const drivers = [driver('nine', { location: northBy(9.9) }), driver('eleven', { location: northBy(10.1) })];
    expect(driversWithinRadius(drivers, { pickup, convertToMile: false }).map((d) => d.driver.uid)).toEqual(['nine']);
    expect(driversWithinRadius(drivers, { pickup, driverRadius: 0, convertToMile: false }).map((d) => d.driver.uid)).toEqual(['nine']);
  });

  it('measures in miles when convert_to_mile: 15 km is within 10 miles', () => {
    const drivers = [driver('fifteen', { location: northBy(15) })];
    expect(driversWithinRadius(drivers, { pickup, driverRadius: 10, convertToMile: false })).toEqual([]);
    expect(driversWithinRadius(drivers, { pickup, driverRadius: 10, convertToMile: true })).toHaveLength(1);
  });

  it('skips unavailable drivers', () => {
    expect(driversWithinRadius([driver('busy', { queue: true })], { pickup, convertToMile: false })).toEqual([]);
  });
});
