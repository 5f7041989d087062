/** The sign-in return rule itself (safeReturnPath, pathAfterLogin) is the domain's, shared with the server. */

/** The /login address that returns to `path` after signing in. */
export const loginReturningTo = (path: string): string => (path === '/' || path.startsWith('/login') ? '/login' : `/login?next=${encodeURIComponent(path)}`);
