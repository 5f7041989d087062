/** Safe reads of untrusted input: any value in, a typed value or undefined out, never a throw. */

export const MAX_NAME_LENGTH = 100;
export const MAX_EMAIL_LENGTH = 254;
export const MAX_TEXT_LENGTH = 1000;

export function fieldOf(input: unknown, name: string): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  return Object.prototype.hasOwnProperty.call(input, name) ? (input as Record<string, unknown>)[name] : undefined;
}

/** A string of at most `max` characters, or undefined. */
export const textOf = (value: unknown, max = MAX_TEXT_LENGTH): string | undefined =>
  typeof value === 'string' && value.length <= max ? value : undefined;

/** A string with something other than white space in it. */
export const isNonBlank = (value: unknown, max = MAX_TEXT_LENGTH): value is string => {
  const text = textOf(value, max);
  return text !== undefined && text.trim().length > 0;
};

/** A finite number, or a numeric string such as "12.5" (form inputs send strings). */
export function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.length > 32) return undefined;
  const trimmed = value.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(trimmed)) return undefined;
  const parsed = Number(trimmed);
  return Number.isFinite(parsed) ? parsed : undefined;
}
