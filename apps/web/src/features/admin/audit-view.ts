import type { AuditEntry } from '@rideway/contract';
import { ERASED, REDACTED, type AuditAction, type AuditEntityType } from '@rideway/domain';
import type { AuditFilters } from '../../api/audit';

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** What the admin typed and chose; dates are the date fields' yyyy-mm-dd. */
export type AuditForm = { search: string; action: AuditAction | ''; entityType: AuditEntityType | ''; from: string; to: string };
export const NO_AUDIT_FILTERS: AuditForm = { search: '', action: '', entityType: '', from: '', to: '' };

/** The server's filters for a form: the days whole, in the browser's time zone, both ends included (as the booking history's). */
export function auditFiltersOf(form: AuditForm): AuditFilters {
  const day = (text: string, end: boolean) => (text ? new Date(`${text}T${end ? '23:59:59.999' : '00:00:00'}`).getTime() : undefined);
  return {
    ...(form.search.trim() ? { search: form.search.trim() } : {}),
    ...(form.action ? { action: form.action } : {}),
    ...(form.entityType ? { entityType: form.entityType } : {}),
    ...(form.from ? { from: day(form.from, false) } : {}),
    ...(form.to ? { to: day(form.to, true) } : {}),
  };
}

/** An action's name in the reader's language ('user.two_factor_reset' reads audit_action_user_two_factor_reset). */
export const actionLabel = (action: AuditAction, t: Translate): string => t(`audit_action_${action.replace('.', '_')}`);
export const entityLabel = (type: AuditEntityType, t: Translate): string => t(`audit_entity_${type}`);

/** Who: the account's name now, or that it is gone. */
export const actorLabel = (entry: Pick<AuditEntry, 'actor'>, t: Translate): string => entry.actor.name || t('audit_account_gone');

/** The changed fields, alphabetically (the database keeps a record's keys in an order of its own). */
export const fieldsOf = (entry: Pick<AuditEntry, 'before' | 'after'>): string[] =>
  Object.keys(entry.after ?? entry.before ?? {}).sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));

/** What was changed: the kind, the user's name or the entity's id (settings are one), and the fields. */
export function whatText(entry: Pick<AuditEntry, 'entityType' | 'entityId' | 'entityName' | 'before' | 'after'>, t: Translate): string {
  const subject = entry.entityName ?? (entry.entityType === 'settings' ? '' : entry.entityId);
  const head = subject ? `${entityLabel(entry.entityType, t)}: ${subject}` : entityLabel(entry.entityType, t);
  const fields = fieldsOf(entry);
  return fields.length ? `${head} · ${t('audit_fields_changed', { fields: fields.join(', ') })}` : head;
}

/** A field that holds a time, by the names the records use (procesDate, reviewedAt, tripdate, ...). */
const TIME_FIELD = /(At|Date|date)$/;
/** Epoch ms after 2001: a number that reads as a time rather than a count. */
const isEpochMs = (value: number): boolean => Number.isInteger(value) && value > 1_000_000_000_000;

/** A value as the admin reads it: nothing, a secret or an erased value in words, a time as a time, the rest as written. */
export function valueText(field: string, value: unknown, t: Translate, dateTime: (at: number) => string): string {
  if (value === null || value === undefined) return t('audit_no_value');
  if (value === REDACTED) return t('audit_redacted');
  if (value === ERASED) return t('audit_erased');
  if (typeof value === 'boolean') return t(value ? 'yes' : 'no');
  if (typeof value === 'number') return TIME_FIELD.test(field) && isEpochMs(value) ? dateTime(value) : String(value);
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** One line of the change: a field, its value before and after, each as read. */
export type ChangeLine = { field: string; before: string; after: string };

export function changeLines(entry: Pick<AuditEntry, 'before' | 'after'>, t: Translate, dateTime: (at: number) => string): ChangeLine[] {
  return fieldsOf(entry).map((field) => ({
    field,
    before: valueText(field, entry.before?.[field], t, dateTime),
    after: valueText(field, entry.after?.[field], t, dateTime),
  }));
}
