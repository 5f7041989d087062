import { ERROR_KEYS, type ErrorKey, type Result } from '@rideway/domain';
import { z } from 'zod';
import { errorResponseSchema } from './errors';

/**
 * Building blocks of route schemas. A field's spec key travels as the zod issue's message: a
 * schema built with `{ error: key }` answers that key for every problem of the field (missing,
 * wrong type, too long, refused by a domain check), and the server's one error mapper reads it
 * back with `errorKeyOfIssue`. An issue without a key answers `validation_error`.
 */

const KEYS: ReadonlySet<string> = new Set(ERROR_KEYS);

/** The spec key an issue carries, or validation_error. */
export const errorKeyOfIssue = (issue: { message?: string }): ErrorKey =>
  issue.message !== undefined && KEYS.has(issue.message) ? (issue.message as ErrorKey) : 'validation_error';

/** The field an issue names: the unknown key of a strict object, else the dotted path. */
export function fieldOfIssue(issue: z.core.$ZodIssue | { code: string; path: PropertyKey[]; keys?: string[] }): string | undefined {
  if (issue.code === 'unrecognized_keys' && 'keys' in issue && issue.keys?.[0] !== undefined) return issue.keys[0];
  const path = issue.path.map(String).join('.');
  return path === '' ? undefined : path;
}

/** A string field whose every problem answers `key`. */
export const keyedString = (key: ErrorKey, max = 1000) => z.string({ error: key }).max(max);

/**
 * A field checked by a domain validator (section 5's rules live once, in packages/domain): the
 * validator's key answers for a refusal, its value is what the service receives.
 */
export const checkedBy = <T>(base: z.ZodType<string>, validate: (value: string) => Result<T>) =>
  base.transform((value, ctx): T => {
    const result = validate(value);
    if (result.ok) return result.value;
    ctx.issues.push({ code: 'custom', message: result.key, input: value });
    return z.NEVER;
  });

/** Path parameters of the routes on one object. */
export const idParams = z.object({ id: z.string().min(1).max(128) });

/** A body that may be left out (a POST with nothing to say): it parses as `{}`. */
export const optionalBody = <S extends z.ZodObject>(schema: S) => schema.prefault({} as z.input<S>);

/** The answer with no body (204, or a redirect). */
export const noContent = z.null().meta({ description: 'No content' });

/** Every route's error answers: a catalogue key, its English text and the field it concerns. */
export const errorResponses = { '4xx': errorResponseSchema, '5xx': errorResponseSchema } as const;

/** `{ ok: true }`, the answer of an action with nothing else to say. */
export const okResponseSchema = z.object({ ok: z.literal(true) });

/** An `Idempotency-Key`'s longest spelling (Stripe's limit). */
export const IDEMPOTENCY_KEY_MAX = 255;

/**
 * The headers of a write that honours `Idempotency-Key` (booking creation, payment, withdraw
 * request, wallet credit): 1 to 255 printable ASCII characters, a UUID being the usual choice.
 * Other headers pass untouched.
 */
export const idempotencyHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .min(1)
    .max(IDEMPOTENCY_KEY_MAX)
    .regex(/^[\x20-\x7e]+$/)
    .optional()
    .meta({ description: 'A key the client makes for one action (a UUID) and sends again on its retries: a repeat with the same key within 24 hours answers the first result, with `Idempotent-Replayed: true`, and writes nothing.' }),
});
