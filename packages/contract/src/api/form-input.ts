import type { ErrorKey, Result } from '@rideway/domain';
import { z } from 'zod';

/**
 * Section 5's number fields (bonus, driver radius, wallet amounts) take a number or the text a
 * form field holds ("7.5"); every problem of the field answers `key`.
 */
export const formNumber = (key: ErrorKey) => z.union([z.number(), z.string()], { error: key });

/**
 * `checkedBy` for an input that is not only text: the domain validator's key answers a refusal,
 * its value is what the service receives.
 */
export const checkedInput = <I, T>(base: z.ZodType<I>, validate: (value: I) => Result<T>) =>
  base.transform((value, ctx): T => {
    const result = validate(value);
    if (result.ok) return result.value;
    ctx.issues.push({ code: 'custom', message: result.key, input: value });
    return z.NEVER;
  });
