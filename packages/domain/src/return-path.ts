import { canOpenRoute, isProtectedRoute, landingRouteAfterLogin } from './permissions';
import type { UserType } from './booking-status';

/**
 * Security-critical: where signing in returns to (issue 17; and Google and Apple sign-in, issue
 * 20). `next` comes from the address bar, so anyone can write one into a link: only a path of this
 * site is followed, never another site (an open redirect that borrows our login page), never
 * /login itself and never an API path. The web app and the server share this rule.
 */

/** A same-origin path (with its query and fragment) from `next`, or null. */
export function safeReturnPath(next: string | null | undefined, origin: string): string | null {
  // Only a relative path: "//host", "/\host" and "https://..." name another site.
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return null;
  }
  // The parser's view decides (it drops tabs and newlines, and reads "\" as "/"): still our origin?
  if (url.origin !== new URL(origin).origin || url.pathname === '/login' || url.pathname.startsWith('/api/')) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Where a user goes after signing in: back to the page asked for if it is ours and theirs, else section 2's home. */
export function pathAfterLogin(next: string | null | undefined, usertype: UserType, origin: string): string {
  const path = safeReturnPath(next, origin);
  if (path === null) return landingRouteAfterLogin(usertype);
  const pathname = new URL(path, origin).pathname;
  // A screen of another role would send them straight back to /login.
  if (isProtectedRoute(pathname) && !canOpenRoute(pathname, usertype)) return landingRouteAfterLogin(usertype);
  return path;
}
