/**
 * Security-critical: issue 23 point 8. Writes an admin's or fleet admin's change into the audit
 * log in the change's own transaction, so a committed change always has its entry and a refused
 * or failed one (rolled back) has none. What is kept is the domain's rule (auditChange): the
 * changed fields only, secrets redacted; a change that changed nothing writes nothing.
 */
import { auditChange, entityTypeOf, erasePersonal, type AuditAction } from '@rideway/domain';
import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { auditLog } from '../db/schema';

/** Who changed it: the account, its type, and the request (null when the change came from elsewhere than a request). */
export type AuditActor = { uid: string; usertype: string; requestId?: string | undefined };

/** A record's fields as they were or are: the entity's API shape, or its row. */
type Fields = Readonly<Record<string, unknown>>;

export type AuditRecord = {
  actor: AuditActor;
  action: AuditAction;
  entityId: string;
  /** The entity before the change; null for a creation. */
  before: Fields | null;
  /** The entity after the change; null for a deletion. */
  after: Fields | null;
  at: number;
};

/** Records one change in the caller's transaction; nothing when nothing changed. */
export async function recordAudit(tx: Tx, record: AuditRecord): Promise<void> {
  const change = auditChange(record.before, record.after);
  if (!change) return;
  await tx.insert(auditLog).values({
    at: record.at,
    actorUid: record.actor.uid,
    actorUsertype: record.actor.usertype,
    action: record.action,
    entityType: entityTypeOf(record.action),
    entityId: record.entityId,
    before: change.before,
    after: change.after,
    requestId: record.actor.requestId ?? null,
  });
}

/**
 * A deleted account (decisions.md, account privacy): the entries about it keep what was done,
 * when and by whom, and which fields changed, but no longer the person's data in them. In the
 * deletion's transaction.
 */
export async function erasePersonalAudit(tx: Tx, uid: string): Promise<void> {
  const about = and(inArray(auditLog.entityType, ['user', 'wallet']), eq(auditLog.entityId, uid));
  const entries = await tx.select({ id: auditLog.id, before: auditLog.before, after: auditLog.after }).from(auditLog).where(about);
  for (const entry of entries) {
    await tx.update(auditLog).set({ before: erasePersonal(entry.before), after: erasePersonal(entry.after) }).where(eq(auditLog.id, entry.id));
  }
}
