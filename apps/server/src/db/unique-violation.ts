/**
 * Whether a write failed on a unique constraint (PostgreSQL's 23505; drizzle wraps the driver's
 * error as its `cause`). Several rules are kept by a unique index that a race can reach past the
 * check: each caller turns this into its own answer.
 */
export function isUniqueViolation(error: unknown): boolean {
  const cause = error instanceof Error && 'cause' in error ? error.cause : error;
  return typeof cause === 'object' && cause !== null && 'code' in cause && cause.code === '23505';
}
