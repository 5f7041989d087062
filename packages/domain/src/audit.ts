/**
 * Security-critical: issue 23 point 8, the audit log. Every admin and fleet-admin change is
 * recorded with who, when, what, and the values before and after. This file holds the pure rules:
 * which changes there are (each action and the kind of thing it changes), what of a change is
 * kept (the changed fields only), and what never is (secrets: redacted, whatever the entity).
 */

/** Each action an admin or fleet admin takes, and the kind of entity it changes. */
export const AUDIT_ACTIONS = {
  'user.create': 'user',
  'user.update': 'user',
  'user.approve': 'user',
  'user.suspend': 'user',
  'user.delete': 'user',
  'user.two_factor_reset': 'user',
  'document.approve': 'document',
  'document.reject': 'document',
  'vehicle.approve': 'vehicle',
  'vehicle.reject': 'vehicle',
  'settings.update': 'settings',
  'cartype.create': 'cartype',
  'cartype.update': 'cartype',
  'cartype.delete': 'cartype',
  'cancelreason.create': 'cancelreason',
  'cancelreason.update': 'cancelreason',
  'cancelreason.delete': 'cancelreason',
  'promo.create': 'promo',
  'promo.update': 'promo',
  'promo.delete': 'promo',
  'notification.send': 'notification',
  'notification.delete': 'notification',
  'wallet.credit': 'wallet',
  'withdraw.complete': 'withdraw',
  'withdraw.reject': 'withdraw',
  'refund.create': 'refund',
  'refund.confirm': 'refund',
  'booking.create': 'booking',
  'booking.cancel': 'booking',
  'booking.assign': 'booking',
  'message.retry': 'message',
} as const;
export type AuditAction = keyof typeof AUDIT_ACTIONS;
export type AuditEntityType = (typeof AUDIT_ACTIONS)[AuditAction];

export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[];
export const AUDIT_ENTITY_TYPES = [...new Set(Object.values(AUDIT_ACTIONS))] as AuditEntityType[];

export const entityTypeOf = (action: AuditAction): AuditEntityType => AUDIT_ACTIONS[action];

/** Who is audited: the staff who change what others rely on. A rider's or driver's own changes are not. */
export const isAuditedActor = (usertype: string): boolean => usertype === 'admin' || usertype === 'fleetadmin';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
/** A record's fields as the log keeps them: JSON, by the field's name. */
export type AuditValues = { [field: string]: JsonValue };
/** What a change did: the changed fields' values before (null for a creation) and after (null for a deletion). */
export type AuditChange = { before: AuditValues | null; after: AuditValues | null };

/** Stands for a secret's value: the log says it was set or changed, never what it is. */
export const REDACTED = '[redacted]';
/** Stands for a deleted person's data in the log's earlier entries about the account. */
export const ERASED = '[erased]';

/**
 * A field that holds a secret, by its name, whatever the entity: passwords and their hashes,
 * session, push and reset tokens, two-factor secrets and recovery codes, API keys and
 * credentials. By name, so a secret column added later is redacted without a change here.
 */
const SECRET_FIELD = /password|secret|token|hash|recovery|credential|api_?key|private_?key/i;
export const isSecretField = (field: string): boolean => SECRET_FIELD.test(field);

/** A value as JSON (what a jsonb column keeps): undefined drops out, a non-finite number becomes text, a date its epoch ms. */
function toJson(value: unknown): JsonValue | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (Array.isArray(value)) return value.map((item) => toJson(item) ?? null);
  if (typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value) as object | null)) {
    const entries = Object.entries(value).flatMap(([key, item]) => {
      const json = toJson(item);
      return json === undefined ? [] : [[key, json] as const];
    });
    return Object.fromEntries(entries);
  }
  if (value instanceof Date) return value.getTime();
  // Another object (a class's instance) as its JSON form; a function or a symbol has none.
  if (typeof value === 'object') return toJson(JSON.parse(JSON.stringify(value)) as unknown) ?? null;
  return null;
}

/** The value with every secret field in it (at any depth) redacted; an unset secret stays null, so "set" and "unset" still show. */
function redact(field: string, value: JsonValue): JsonValue {
  if (isSecretField(field)) return value === null ? null : REDACTED;
  if (Array.isArray(value)) return value.map((item) => redact('', item));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redact(key, item)]));
  return value;
}

const sameJson = (a: JsonValue | undefined, b: JsonValue | undefined): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

type Fields = Readonly<Record<string, unknown>>;

/** Every field that has a value (a creation's or a deletion's record; unset fields say nothing). */
function whole(record: Fields): AuditValues {
  const values: AuditValues = {};
  for (const [field, raw] of Object.entries(record)) {
    const value = toJson(raw);
    if (value !== undefined && value !== null) values[field] = redact(field, value);
  }
  return values;
}

/**
 * What the log keeps of a change from `before` to `after` (null for a creation or a deletion):
 * for an edit, only the fields whose values differ, each on both sides (null where a side has no
 * value); for a creation or a deletion, the record's fields that have a value. Secrets are
 * redacted after the comparison, so a changed password shows as changed. Answers null when
 * nothing changed: no change, no entry.
 */
export function auditChange(before: Fields | null, after: Fields | null): AuditChange | null {
  if (before === null && after === null) return null;
  if (before === null && after !== null) return { before: null, after: whole(after) };
  if (after === null && before !== null) return { before: whole(before), after: null };
  const old = before ?? {};
  const next = after ?? {};
  const changedBefore: AuditValues = {};
  const changedAfter: AuditValues = {};
  for (const field of new Set([...Object.keys(old), ...Object.keys(next)])) {
    const from = toJson(old[field]);
    const to = toJson(next[field]);
    if (sameJson(from, to)) continue;
    changedBefore[field] = redact(field, from ?? null);
    changedAfter[field] = redact(field, to ?? null);
  }
  return Object.keys(changedAfter).length === 0 ? null : { before: changedBefore, after: changedAfter };
}

/**
 * The fields of a user that name or reach the person (decisions.md, account privacy), and the
 * reason an admin gave for suspending the account, which is about the person too. When the
 * account is deleted, its earlier entries keep that these fields changed, never their values.
 */
const PERSONAL_FIELDS: ReadonlySet<string> = new Set([
  'firstName',
  'lastName',
  'email',
  'mobile',
  'profileImage',
  'profile_image',
  'licenseImage',
  'bankName',
  'bankCode',
  'bankAccount',
  'vehicleNumber',
  'vehicleMake',
  'vehicleModel',
  'otherInfo',
  'other_info',
  'referralId',
  'facebookId',
  'googleId',
  'appleId',
  'locationLat',
  'locationLng',
  'reason',
]);

/** A user entry's values with the person's data erased (an unset field stays null). */
export function erasePersonal(values: AuditValues | null): AuditValues | null {
  if (values === null) return null;
  return Object.fromEntries(Object.entries(values).map(([field, value]) => [field, PERSONAL_FIELDS.has(field) && value !== null ? ERASED : value]));
}

/** The fields a change touched, in the order the log keeps them (the admin page's "what"). */
export const changedFields = (change: AuditChange): string[] => Object.keys(change.after ?? change.before ?? {});
