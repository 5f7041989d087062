import type { AuditEntry, AuditLogPage, AuditQuery } from '@rideway/contract';
import { isDemoMode, maskContactForDemo, type AuditAction, type AuditEntityType, type AuditValues, type UserType } from '@rideway/domain';
import { and, desc, eq, gte, ilike, inArray, lt, lte, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AppContext } from '../../context';
import { auditLog, users } from '../../db/schema';
import { getSettings } from '../settings/service';

/**
 * Issue 23 point 8: the audit log as admins read it (GET /api/audit, admins only). Newest first,
 * a page at a time by a cursor (the last id shown), so a page costs the same however long the
 * log grows and an entry written meanwhile never shifts a page. Security note: the search term is
 * a bound parameter, its LIKE wildcards and escape character taken literally.
 */

/** Who made the change, and the user a user or wallet entry is about, as the accounts are now. */
const actorUser = alias(users, 'actor_user');
const subjectUser = alias(users, 'subject_user');
/** Entries whose entity id is a user's id. */
const ABOUT_USERS: AuditEntityType[] = ['user', 'wallet'];

/** The term as a LIKE pattern that finds it anywhere, every character taken literally. */
const containing = (term: string): string => `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/**
 * Part of the action, the entity's id, the actor's name or email, or the name or email of the
 * user the entry is about, any case. In demo mode (section 6: emails hidden) not by email, so a search
 * cannot confirm an address the page hides.
 */
function searchCondition(term: string, { contacts }: { contacts: boolean }): SQL | undefined {
  const pattern = containing(term);
  const fullName = (table: { firstName: AnyColumn; lastName: AnyColumn }) => sql`(${table.firstName} || ' ' || ${table.lastName}) ilike ${pattern}`;
  return or(
    ilike(auditLog.action, pattern),
    ilike(auditLog.entityId, pattern),
    fullName(actorUser),
    fullName(subjectUser),
    contacts ? ilike(actorUser.email, pattern) : undefined,
    contacts ? ilike(subjectUser.email, pattern) : undefined,
  );
}

const nameOf = (user: { firstName: string; lastName: string } | null): string | null => (user === null ? null : `${user.firstName} ${user.lastName}`.trim());

/** Section 6 in the values too: a contact an entry recorded shows as the lists show it in demo mode. */
function hideContacts(values: AuditValues | null, hidden: { email: string | null; mobile: string | null }): AuditValues | null {
  if (values === null) return null;
  const shown = { ...values };
  for (const field of ['email', 'mobile'] as const) if (shown[field] !== undefined && shown[field] !== null) shown[field] = hidden[field];
  return shown;
}

export async function listAudit(ctx: AppContext, query: AuditQuery): Promise<AuditLogPage> {
  const settings = await getSettings(ctx.db);
  const demo = isDemoMode(settings);
  const conditions = [
    query.action ? eq(auditLog.action, query.action) : undefined,
    query.entityType ? eq(auditLog.entityType, query.entityType) : undefined,
    query.from === undefined ? undefined : gte(auditLog.at, query.from),
    query.to === undefined ? undefined : lte(auditLog.at, query.to),
    query.before === undefined ? undefined : lt(auditLog.id, query.before),
    query.search ? searchCondition(query.search, { contacts: !demo }) : undefined,
  ].filter((condition) => condition !== undefined);
  const rows = await ctx.db
    .select({
      entry: auditLog,
      actor: { firstName: actorUser.firstName, lastName: actorUser.lastName, email: actorUser.email },
      subject: { firstName: subjectUser.firstName, lastName: subjectUser.lastName },
    })
    .from(auditLog)
    .leftJoin(actorUser, eq(actorUser.id, auditLog.actorUid))
    .leftJoin(subjectUser, and(inArray(auditLog.entityType, ABOUT_USERS), eq(subjectUser.id, auditLog.entityId)))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(auditLog.id))
    // One more than the page: whether an older page exists, without counting the log.
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const hidden = maskContactForDemo({ email: '', mobile: '' }, settings);
  const entries = page.map(({ entry, actor, subject }): AuditEntry => ({
    id: entry.id,
    at: entry.at,
    actor: {
      uid: entry.actorUid,
      // Written from a session's usertype and an action of the domain's list (audit/record.ts).
      usertype: entry.actorUsertype as UserType,
      name: nameOf(actor) ?? '',
      email: actor?.email ? (demo ? hidden.email : actor.email) : null,
    },
    action: entry.action as AuditAction,
    entityType: entry.entityType as AuditEntityType,
    entityId: entry.entityId,
    entityName: nameOf(subject),
    before: demo ? hideContacts(entry.before, hidden) : entry.before,
    after: demo ? hideContacts(entry.after, hidden) : entry.after,
    requestId: entry.requestId,
  }));
  const last = page.at(-1);
  return { entries, nextBefore: rows.length > query.limit && last ? last.entry.id : null };
}
