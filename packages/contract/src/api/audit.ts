import { AUDIT_ACTION_NAMES, AUDIT_ENTITY_TYPES, USER_TYPES } from '@rideway/domain';
import { z } from 'zod';
import { epochMs } from '../primitives';

/** Issue 23 point 8: the audit log as admins read it, newest first, a page at a time. */

/** The most entries one page holds. */
export const AUDIT_PAGE_MAX = 100;
export const AUDIT_PAGE_DEFAULT = 50;

const time = z.coerce.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/**
 * GET /api/audit filters. `search` finds part of the actor's name or email, of the entity's id,
 * of the name or email of the user an entry is about, or of the action (any case); `from` and `to` are the entry's time (epoch ms, both ends
 * included); `before` is the page's cursor: entries older than that entry (the previous page's
 * `nextBefore`).
 */
export const auditQuerySchema = z
  .object({
    search: z.string().trim().max(100).optional(),
    action: z.enum(AUDIT_ACTION_NAMES).optional(),
    entityType: z.enum(AUDIT_ENTITY_TYPES).optional(),
    from: time.optional(),
    to: time.optional(),
    before: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
    limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(AUDIT_PAGE_DEFAULT),
  })
  // A range that ends before it starts is a mistake, not an empty page.
  .refine((query) => query.from === undefined || query.to === undefined || query.from <= query.to, { path: ['to'], error: 'validation_error' });
export type AuditQuery = z.output<typeof auditQuerySchema>;

/** The changed fields' values on one side of a change, each any JSON value (secrets redacted). */
const auditValues = z.record(z.string(), z.unknown()).nullable().meta({ description: 'Field name to its JSON value' });

export const auditEntrySchema = z.object({
  id: z.number().int(),
  /** When the change committed. */
  at: epochMs,
  /** Who: null uid when that account is no longer there. Name and email as the account has them now (an email hidden in demo mode). */
  actor: z.object({ uid: z.string().nullable(), usertype: z.enum(USER_TYPES), name: z.string(), email: z.string().nullable() }),
  action: z.enum(AUDIT_ACTION_NAMES),
  entityType: z.enum(AUDIT_ENTITY_TYPES),
  entityId: z.string(),
  /** The user a user or wallet entry is about, by name; null for other entities. */
  entityName: z.string().nullable(),
  /** The changed fields before (null for a creation) and after (null for a deletion). */
  before: auditValues,
  after: auditValues,
  /** The request that made the change, as the server's log lines name it. */
  requestId: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** A page of entries, newest first, and the cursor of the next (older) page; null on the last. */
export const auditLogResponse = z.object({ entries: z.array(auditEntrySchema), nextBefore: z.number().int().nullable() });
export type AuditLogPage = z.infer<typeof auditLogResponse>;
