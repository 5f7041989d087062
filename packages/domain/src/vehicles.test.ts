import { describe, expect, it } from 'vitest';
import { activationRefusal, deletionRefusal, firstVehicleStatus, MAX_VEHICLES_PER_DRIVER, mayAddVehicle, mayReview, plateKey, vehicleProblem, type VehicleState } from './vehicles';

const car = (status: VehicleState['status'], active = false, id = 'v'): VehicleState => ({ id, status, active });

describe('vehicles (issue 20 point 3)', () => {
  it('makes only an approved vehicle active', () => {
    expect(activationRefusal(car('pending'), { queue: false, online: false, papersInOrder: true })).toBe('vehicle_not_approved');
    expect(activationRefusal(car('rejected'), { queue: false, online: false, papersInOrder: true })).toBe('vehicle_not_approved');
    expect(activationRefusal(car('approved'), { queue: false, online: false, papersInOrder: true })).toBeUndefined();
  });

  it('keeps the car of a trip in progress', () => {
    expect(activationRefusal(car('approved'), { queue: true, online: false, papersInOrder: true })).toBe('vehicle_switch_on_trip');
    // Making the active one active again changes nothing, so a trip does not stop it.
    expect(activationRefusal(car('approved', true), { queue: true, online: false, papersInOrder: true })).toBeUndefined();
  });

  it("keeps an online driver off a car whose papers are not in order; an offline one may switch", () => {
    expect(activationRefusal(car('approved'), { queue: false, online: true, papersInOrder: false })).toBe('vehicle_documents_required');
    expect(activationRefusal(car('approved'), { queue: false, online: true, papersInOrder: true })).toBeUndefined();
    expect(activationRefusal(car('approved'), { queue: false, online: false, papersInOrder: false })).toBeUndefined();
    expect(activationRefusal(car('approved', true), { queue: false, online: true, papersInOrder: false })).toBeUndefined();
  });

  it('limits how many vehicles a driver keeps', () => {
    expect(mayAddVehicle(MAX_VEHICLES_PER_DRIVER - 1)).toBe(true);
    expect(mayAddVehicle(MAX_VEHICLES_PER_DRIVER)).toBe(false);
  });

  it('deletes neither the active vehicle nor the last one', () => {
    expect(deletionRefusal(car('approved', true), 3)).toBe('vehicle_active_delete');
    expect(deletionRefusal(car('rejected'), 1)).toBe('vehicle_last_delete');
    expect(deletionRefusal(car('rejected'), 2)).toBeUndefined();
  });

  it('approves pending vehicles and rejects pending or approved ones', () => {
    expect(mayReview('pending', 'approved')).toBe(true);
    expect(mayReview('pending', 'rejected')).toBe(true);
    expect(mayReview('approved', 'rejected')).toBe(true);
    expect(mayReview('approved', 'approved')).toBe(false);
    expect(mayReview('rejected', 'approved')).toBe(false);
    expect(mayReview('rejected', 'rejected')).toBe(false);
  });

  it('says why the vehicles keep a driver offline', () => {
    expect(vehicleProblem([])).toBeUndefined();
    expect(vehicleProblem([car('approved', true), car('pending')])).toBeUndefined();
    expect(vehicleProblem([car('pending', true)])).toBe('pending');
    expect(vehicleProblem([car('rejected'), car('approved')])).toBe('missing');
  });

  it('approves the first vehicle of an approved account only', () => {
    expect(firstVehicleStatus({ approved: true })).toBe('approved');
    expect(firstVehicleStatus({ approved: false })).toBe('pending');
  });

  it('compares plates without case, spaces or dashes', () => {
    expect(plateKey('ab12 cde')).toBe(plateKey('AB12-CDE'));
    expect(plateKey('AB12 CDE')).not.toBe(plateKey('AB12 CDF'));
  });
});
