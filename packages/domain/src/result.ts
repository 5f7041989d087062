import type { ErrorKey } from './error-keys';

/** The outcome of a rule: a value, or the spec's error key (and the field it concerns). */
export type Result<T> = { ok: true; value: T } | { ok: false; key: ErrorKey; field?: string };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(key: ErrorKey, field?: string): Result<T> =>
  field === undefined ? { ok: false, key } : { ok: false, key, field };
