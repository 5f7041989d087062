import { documentProblems, todayIn, type DocumentKind, type DocumentProblem, type DocumentStatus } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { driverDocuments } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { getSettings } from '../settings/service';

/**
 * Issue 20: what keeps a driver from going online: none when the operator does not require
 * documents (RequireDriverDocuments). Kept here, beside going online, so presence needs nothing
 * of the documents module (which takes drivers offline through presence).
 */
export async function documentProblemsOf(ctx: AppContext, db: Db | Tx, uid: string): Promise<{ required: boolean; problems: DocumentProblem[] }> {
  const settings = await getSettings(db);
  if (!settings.RequireDriverDocuments) return { required: false, problems: [] };
  const rows = await db.select({ kind: driverDocuments.kind, status: driverDocuments.status, expiresOn: driverDocuments.expiresOn, createdAt: driverDocuments.createdAt }).from(driverDocuments).where(eq(driverDocuments.uid, uid));
  const states = rows.map((row) => ({ ...row, kind: row.kind as DocumentKind, status: row.status as DocumentStatus }));
  return { required: true, problems: documentProblems(states, todayIn(ctx.now(), settings.timezone)) };
}

/** Refuses going online (documents_required) with the list of problems the driver app shows. */
export async function assertMayGoOnline(ctx: AppContext, db: Db | Tx, uid: string): Promise<void> {
  const { problems } = await documentProblemsOf(ctx, db, uid);
  if (problems.length > 0) throw new AppError('documents_required', undefined, {}, { problems });
}
