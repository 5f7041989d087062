import type { z } from 'zod';
import { AppError } from './app-error';

/** Parses a body with a strict schema; the first problem answers validation_error with its field. */
export function parseBody<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.code === 'unrecognized_keys' ? issue.keys[0] : issue?.path.join('.');
  throw new AppError('validation_error', field || undefined);
}
