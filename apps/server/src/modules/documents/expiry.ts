import { reminderDue, todayIn, type DocumentKind, type DocumentReminder } from '@rideway/domain';
import { and, asc, eq, gte, isNull, lt, lte, or } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { driverDocuments, users, vehicles } from '../../db/schema';
import { driverProblems } from '../presence/online-rule';
import { syncDriver } from '../presence/service';
import { getSettings } from '../settings/service';
import { documentNameOf, tellDriver } from './service';

const BATCH = 100;
/** A run stops after this many batches; the next run goes on (a backlog never holds a timer for long). */
const MAX_BATCHES = 20;

const DAY_MS = 24 * 60 * 60 * 1000;
const plusDays = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/**
 * Issue 20 point 3: reminders 30 and 7 days before an approved document expires (once each, by
 * mail and push in the driver's language), and at expiry the driver is taken offline and told
 * why. Both follow the go-online rule (presence/online-rule): the driver's own papers and the
 * active vehicle's registration and insurance; another vehicle's papers are marked as handled
 * without a word, as they keep no one offline (switching to that vehicle says why). Each step claims its row with a conditional update, so several processes, or a run
 * repeated, send nothing twice. Answers how many reminders and expiries were handled.
 */
export async function checkDocumentExpiry(ctx: AppContext): Promise<{ reminded: number; expired: number }> {
  const settings = await getSettings(ctx.db);
  const today = todayIn(ctx.now(), settings.timezone);
  let reminded = 0;
  let expired = 0;
  for (let round = 0; round < MAX_BATCHES; round += 1) {
    const due = await ctx.db
      .select()
      .from(driverDocuments)
      .where(and(eq(driverDocuments.status, 'approved'), isNull(driverDocuments.expiryHandledAt), gte(driverDocuments.expiresOn, today), lte(driverDocuments.expiresOn, plusDays(today, 30)), or(isNull(driverDocuments.reminded30At), isNull(driverDocuments.reminded7At))))
      .orderBy(asc(driverDocuments.expiresOn), asc(driverDocuments.id))
      .limit(BATCH);
    let sent = 0;
    for (const doc of due) {
      const reminder = reminderDue(doc.expiresOn, today, new Set<DocumentReminder>([...(doc.reminded30At === null ? [] : [30 as const]), ...(doc.reminded7At === null ? [] : [7 as const])]));
      if (await remind(ctx, doc, reminder, today)) sent += 1;
    }
    reminded += sent;
    // Rows with nothing due yet stay in the window: stop when a batch sent nothing.
    if (due.length < BATCH || sent === 0) break;
  }
  for (let round = 0; round < MAX_BATCHES; round += 1) {
    const due = await ctx.db
      .select({ id: driverDocuments.id })
      .from(driverDocuments)
      .where(and(eq(driverDocuments.status, 'approved'), isNull(driverDocuments.expiryHandledAt), lt(driverDocuments.expiresOn, today)))
      .limit(BATCH);
    for (const doc of due) if (await expire(ctx, doc.id, today, settings.RequireDriverDocuments)) expired += 1;
    if (due.length < BATCH) break;
  }
  return { reminded, expired };
}

/** Whether a document counts for going online now: the driver's own, or the active vehicle's. */
async function inUse(tx: Tx, doc: typeof driverDocuments.$inferSelect): Promise<boolean> {
  if (doc.vehicleId === null) return true;
  return (await tx.select({ id: vehicles.id }).from(vehicles).where(and(eq(vehicles.id, doc.vehicleId), eq(vehicles.active, true))).limit(1)).length > 0;
}

/** Sends one reminder and marks it (and an earlier one that would now say less) as sent. */
async function remind(ctx: AppContext, doc: typeof driverDocuments.$inferSelect, reminder: DocumentReminder | undefined, today: string): Promise<boolean> {
  const now = ctx.now();
  // Marked without sending: a document already renewed by a newer approved one in date.
  return ctx.db.transaction(async (tx) => {
    const column = reminder === 7 ? driverDocuments.reminded7At : driverDocuments.reminded30At;
    if (reminder === undefined) return false;
    const claimed = await tx
      .update(driverDocuments)
      .set(reminder === 7 ? { reminded7At: now, reminded30At: doc.reminded30At ?? now } : { reminded30At: now })
      .where(and(eq(driverDocuments.id, doc.id), isNull(column)))
      .returning({ id: driverDocuments.id });
    if (claimed.length === 0) return false;
    const renewed = await tx
      .select({ id: driverDocuments.id })
      .from(driverDocuments)
      .where(and(eq(driverDocuments.uid, doc.uid), eq(driverDocuments.kind, doc.kind), doc.vehicleId === null ? isNull(driverDocuments.vehicleId) : eq(driverDocuments.vehicleId, doc.vehicleId), eq(driverDocuments.status, 'approved'), gte(driverDocuments.expiresOn, plusDays(doc.expiresOn, 1))))
      .limit(1);
    if (renewed.length > 0 || doc.expiresOn < today || !(await inUse(tx, doc))) return false;
    const document = await documentNameOf(tx, doc.kind as DocumentKind, doc.vehicleId);
    await tellDriver(tx, doc.uid, (render) => render('push_document_reminder', { document: document(render), date: doc.expiresOn }), now);
    return true;
  });
}

/**
 * An approved document past its day: marked once; when it leaves the driver without a valid
 * document of its kind (for a registration or insurance, of the active vehicle) and the operator
 * requires documents, the driver goes offline (its availability suspended until a new one is
 * approved) and is told why, the vehicle named.
 */
async function expire(ctx: AppContext, id: string, today: string, required: boolean): Promise<boolean> {
  const now = ctx.now();
  const outcome = await ctx.db.transaction(async (tx) => {
    const doc = (await tx.update(driverDocuments).set({ expiryHandledAt: now }).where(and(eq(driverDocuments.id, id), isNull(driverDocuments.expiryHandledAt))).returning())[0];
    if (!doc) return undefined;
    // Renewed in time (another approved document of the kind is in date), or another vehicle's paper: nothing to do.
    const problems = await driverProblems(tx, doc.uid, today);
    if (!problems.some((problem) => problem.kind === doc.kind && (problem.vehicleId ?? null) === doc.vehicleId)) return { uid: doc.uid, offline: false };
    const wentOffline = required && (await tx.update(users).set({ driverActiveStatus: false }).where(and(eq(users.id, doc.uid), eq(users.driverActiveStatus, true))).returning({ id: users.id })).length > 0;
    const document = await documentNameOf(tx, doc.kind as DocumentKind, doc.vehicleId);
    await tellDriver(tx, doc.uid, (render) => render(required ? 'push_document_expired' : 'push_document_expired_info', { document: document(render), date: doc.expiresOn }), now);
    return { uid: doc.uid, offline: wentOffline };
  });
  if (!outcome) return false;
  if (outcome.offline) await syncDriver(ctx, outcome.uid);
  return true;
}
