import { ERROR_CATALOGUE } from '@rideway/contract';
import type { ErrorKey, Result } from '@rideway/domain';

/** The one error type: a catalogue key (HTTP status and English text) and the field it concerns. */
export class AppError extends Error {
  constructor(
    readonly key: ErrorKey,
    readonly field?: string,
    readonly headers: Record<string, string> = {},
    /** What the client is told beyond the key (the documents that keep a driver offline). */
    readonly details?: unknown,
  ) {
    super(ERROR_CATALOGUE[key].message);
    this.name = 'AppError';
  }
}

/** The value of a domain result, or its key thrown as an AppError. */
export function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw new AppError(result.key, result.field);
  return result.value;
}
