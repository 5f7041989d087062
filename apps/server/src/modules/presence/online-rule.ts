import { documentProblems, todayIn, vehicleProblem, type DocumentKind, type DocumentProblem, type DocumentStatus } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { driverDocuments, vehicles } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { getSettings } from '../settings/service';

/**
 * Issue 20: what keeps a driver from going online (its documents and its active vehicle): none
 * when the operator does not require documents (RequireDriverDocuments). Kept here, beside going online, so presence needs nothing
 * of the documents module (which takes drivers offline through presence).
 */
export async function documentProblemsOf(ctx: AppContext, db: Db | Tx, uid: string): Promise<{ required: boolean; problems: DocumentProblem[] }> {
  const settings = await getSettings(db);
  if (!settings.RequireDriverDocuments) return { required: false, problems: [] };
  const rows = await db.select({ kind: driverDocuments.kind, status: driverDocuments.status, expiresOn: driverDocuments.expiresOn, createdAt: driverDocuments.createdAt }).from(driverDocuments).where(eq(driverDocuments.uid, uid));
  const states = rows.map((row) => ({ ...row, kind: row.kind as DocumentKind, status: row.status as DocumentStatus }));
  return { required: true, problems: [...documentProblems(states, todayIn(ctx.now(), settings.timezone)), ...(await vehicleProblemsOf(db, uid))] };
}

/** Issue 20 point 3: the active vehicle missing (rejected, or none made active) or waiting for review. */
export async function vehicleProblemsOf(db: Db | Tx, uid: string): Promise<DocumentProblem[]> {
  const rows = await db.select({ id: vehicles.id, status: vehicles.status, active: vehicles.active }).from(vehicles).where(eq(vehicles.uid, uid));
  const problem = vehicleProblem(rows.map((row) => ({ ...row, status: row.status as DocumentStatus })));
  return problem ? [{ kind: 'vehicle', problem }] : [];
}

/** Refuses going online (documents_required) with the list of problems the driver app shows. */
export async function assertMayGoOnline(ctx: AppContext, db: Db | Tx, uid: string): Promise<void> {
  const { problems } = await documentProblemsOf(ctx, db, uid);
  if (problems.length > 0) throw new AppError('documents_required', undefined, {}, { problems });
}
