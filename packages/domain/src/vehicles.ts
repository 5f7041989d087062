/**
 * Issue 20 point 3: a driver's vehicles (car type, make, model, number, image). A driver may have
 * several, each approved or rejected by an admin or the driver's fleet admin, and drives one at a
 * time: the active one, whose car type dispatch matches (the user's carType, vehicleMake,
 * vehicleModel and vehicleNumber of section 3 mirror it).
 */
import type { DocumentStatus } from './driver-documents';

/** A driver keeps at most this many vehicles (rejected ones included, which it may delete). */
export const MAX_VEHICLES_PER_DRIVER = 5;

export type VehicleStatus = DocumentStatus;

/** What the rules read of a vehicle. */
export type VehicleState = { id: string; status: VehicleStatus; active: boolean };

/**
 * Why a vehicle may not be made active, as an error key; undefined when it may. An online driver
 * keeps the car it drives unless the new one's registration and insurance are in order
 * (`papersInOrder`, always true while documents are not required): a switch must not leave it
 * online in a car nobody checked. An offline driver may switch to prepare, and stays offline
 * until the new car's papers are approved (documentProblems says which).
 */
export function activationRefusal(
  vehicle: VehicleState,
  driver: { queue: boolean; online: boolean; papersInOrder: boolean },
): 'vehicle_not_approved' | 'vehicle_switch_on_trip' | 'vehicle_documents_required' | undefined {
  if (vehicle.status !== 'approved') return 'vehicle_not_approved';
  // The trip in progress was offered for the active vehicle's car type: the car stays until it ends.
  if (driver.queue && !vehicle.active) return 'vehicle_switch_on_trip';
  if (driver.online && !vehicle.active && !driver.papersInOrder) return 'vehicle_documents_required';
  return undefined;
}

/** Whether a driver with `count` vehicles may add another. */
export const mayAddVehicle = (count: number): boolean => count < MAX_VEHICLES_PER_DRIVER;

/**
 * Why a vehicle may not be deleted: the active one is the car the driver drives (another must be
 * made active first), and the last one would leave the driver with none to review or drive.
 */
export function deletionRefusal(vehicle: VehicleState, count: number): 'vehicle_active_delete' | 'vehicle_last_delete' | undefined {
  if (vehicle.active) return 'vehicle_active_delete';
  if (count <= 1) return 'vehicle_last_delete';
  return undefined;
}

/** Whether a decision applies: approval decides a pending vehicle; a rejection also withdraws an approved one. */
export const mayReview = (status: VehicleStatus, decision: 'approved' | 'rejected'): boolean =>
  status === 'pending' || (decision === 'rejected' && status === 'approved');

/**
 * What keeps the driver from going online on account of its vehicles: `missing` when it has
 * vehicles but none active (its active one was rejected), `pending` while the active one waits for
 * review. A driver with no vehicle at all (an account made before vehicles, without a car type)
 * has none: dispatch never offers it a trip, as no car type matches.
 */
export function vehicleProblem(vehicles: readonly VehicleState[]): 'missing' | 'pending' | undefined {
  if (vehicles.length === 0) return undefined;
  const active = vehicles.find((vehicle) => vehicle.active);
  if (!active || active.status === 'rejected') return 'missing';
  return active.status === 'pending' ? 'pending' : undefined;
}

/**
 * The first vehicle, from the sign-up or the admin's form: approved when the operator accepted the
 * driver as described (an account made approved, by an admin or by automatic approval); else it
 * waits for review like the documents sent with it. While documents are not required to go online
 * (RequireDriverDocuments off), a pending first vehicle does not hold the driver back.
 */
export const firstVehicleStatus = (account: { approved: boolean }): VehicleStatus => (account.approved ? 'approved' : 'pending');

/** A vehicle number compared the way people read a plate: case and spaces do not count. */
export const plateKey = (vehicleNumber: string): string => vehicleNumber.replace(/[\s-]+/g, '').toUpperCase();

/** How the driver's texts name a vehicle: make, model and number as the driver typed them. */
export function vehicleName(vehicle: { carType: string; vehicleMake: string | null; vehicleModel: string | null; vehicleNumber: string | null }): string {
  const name = [vehicle.vehicleMake, vehicle.vehicleModel].filter(Boolean).join(' ') || vehicle.carType;
  return vehicle.vehicleNumber ? `${name} (${vehicle.vehicleNumber})` : name;
}
