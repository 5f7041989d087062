import type { DocumentProblemView } from '@rideway/contract';
import { documentProblems, todayIn, vehicleName, vehicleProblem, type DocumentKind, type DocumentState, type DocumentStatus } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { driverDocuments, vehicles } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { getSettings } from '../settings/service';

/**
 * Issue 20: what keeps a driver from going online (its documents, its active vehicle and that
 * vehicle's registration and insurance): none when the operator does not require documents
 * (RequireDriverDocuments). Kept here, beside going online, so presence needs nothing of the
 * documents module (which takes drivers offline through presence).
 */
export async function documentProblemsOf(ctx: AppContext, db: Db | Tx, uid: string): Promise<{ required: boolean; problems: DocumentProblemView[] }> {
  const settings = await getSettings(db);
  if (!settings.RequireDriverDocuments) return { required: false, problems: [] };
  return { required: true, problems: await driverProblems(db, uid, todayIn(ctx.now(), settings.timezone)) };
}

/** A document row as the rules read it. */
export const documentStateOf = (row: { kind: string; status: string; expiresOn: string; createdAt: number; vehicleId: string | null }): DocumentState => ({
  kind: row.kind as DocumentKind,
  status: row.status as DocumentStatus,
  expiresOn: row.expiresOn,
  createdAt: row.createdAt,
  vehicleId: row.vehicleId,
});

/**
 * Issue 20 point 3: what keeps a driver offline on `today`, whatever the setting (the driver's
 * documents page and an admin's user page show it either way): its own papers, the active vehicle
 * missing or waiting for review, and that vehicle's registration and insurance, named by the
 * vehicle (another vehicle's papers count for nothing). `activeVehicleId` overrides the active
 * vehicle: the rule for a car the driver is about to switch to.
 */
export async function driverProblems(db: Db | Tx, uid: string, today: string, { activeVehicleId }: { activeVehicleId?: string } = {}): Promise<DocumentProblemView[]> {
  const docs = await db.select({ kind: driverDocuments.kind, status: driverDocuments.status, expiresOn: driverDocuments.expiresOn, createdAt: driverDocuments.createdAt, vehicleId: driverDocuments.vehicleId }).from(driverDocuments).where(eq(driverDocuments.uid, uid));
  const cars = await db.select().from(vehicles).where(eq(vehicles.uid, uid));
  const states = cars.map((row) => ({ id: row.id, status: row.status as DocumentStatus, active: activeVehicleId === undefined ? row.active : row.id === activeVehicleId }));
  const active = states.find((car) => car.active && car.status !== 'rejected');
  const problem = vehicleProblem(states);
  const names = new Map(cars.map((row) => [row.id, vehicleName(row)]));
  const papers = documentProblems(docs.map(documentStateOf), today, active?.id ?? null).map((found) => {
    const vehicle = found.vehicleId === undefined ? undefined : names.get(found.vehicleId);
    return vehicle === undefined ? found : { ...found, vehicle };
  });
  return [...papers, ...(problem ? [{ kind: 'vehicle' as const, problem }] : [])];
}

/** Refuses going online (documents_required) with the list of problems the driver app shows. */
export async function assertMayGoOnline(ctx: AppContext, db: Db | Tx, uid: string): Promise<void> {
  const { problems } = await documentProblemsOf(ctx, db, uid);
  if (problems.length > 0) throw new AppError('documents_required', undefined, {}, { problems });
}
