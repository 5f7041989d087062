import { firstVehicleStatus, plateKey } from '@rideway/domain';
import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '../../db/client';
import { vehicles } from '../../db/schema';

/** The number as people compare plates (domain plateKey), unique per driver; none for no number. */
export const numberKeyOf = (vehicleNumber: string | null | undefined): string | null => (vehicleNumber ? plateKey(vehicleNumber) || null : null);

/**
 * Issue 20 point 3: the first vehicle of a new driver, from the sign-up or the admin's form
 * (accounts.ts insertAccount). Active from the start, so the user's car fields mirror it as they
 * always do; approved or pending as domain firstVehicleStatus decides (a pending active vehicle
 * keeps the driver offline while documents are required). Kept with the accounts, which need
 * nothing of the vehicles module (its service needs presence, documents and settings).
 */
export async function insertFirstVehicle(
  db: Db | Tx,
  uid: string,
  account: { approved: boolean; carType: string; vehicleMake: string | null; vehicleModel: string | null; vehicleNumber: string | null },
  now: number,
): Promise<void> {
  const status = firstVehicleStatus(account);
  await db.insert(vehicles).values({
    id: randomUUID(),
    uid,
    carType: account.carType,
    vehicleMake: account.vehicleMake,
    vehicleModel: account.vehicleModel,
    vehicleNumber: account.vehicleNumber,
    numberKey: numberKeyOf(account.vehicleNumber),
    status,
    reviewedBy: status === 'approved' ? 'sign-up' : null,
    reviewedAt: status === 'approved' ? now : null,
    active: true,
    createdAt: now,
  });
}
