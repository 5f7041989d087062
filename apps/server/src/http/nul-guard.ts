import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error';

const MAX_DEPTH = 32;

/** True when a string anywhere inside the value holds U+0000, which PostgreSQL text cannot store. */
function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return false;
  // for...in over own keys: no array of entries made for every body (the guard sees every request).
  for (const key in value) {
    if (Object.hasOwn(value, key) && (key.includes('\u0000') || containsNul((value as Record<string, unknown>)[key], depth + 1))) return true;
  }
  return false;
}

/** Refuses NUL characters in the body, query and path before any service sees them. */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const hasNul = containsNul(request.body) || containsNul(request.query) || containsNul(request.params);
    done(hasNul ? new AppError('validation_error') : undefined);
  });
}
