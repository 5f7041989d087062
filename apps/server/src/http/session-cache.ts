import type { SessionUser } from '../modules/accounts/sessions';

/** How long a hot route may trust a session it has already checked. */
const SESSION_CACHE_MS = 5000;
const MAX_ENTRIES = 50_000;

/**
 * Sessions recently resolved by routes called many times a second by the same clients (a
 * driver's position every few seconds). Only routes that opt in use it; they need the caller's
 * identity, not fresh profile fields. Sessions that end (on this process or another, through
 * the bus) leave the cache at once.
 */
export function sessionCache() {
  const entries = new Map<string, { user: SessionUser; until: number }>();
  return {
    get(token: string, now: number): SessionUser | undefined {
      const entry = entries.get(token);
      if (!entry) return undefined;
      if (entry.until < now) {
        entries.delete(token);
        return undefined;
      }
      return entry.user;
    },
    set(token: string, user: SessionUser, now: number): void {
      // Oldest first out: a Map keeps insertion order.
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value ?? '');
      entries.set(token, { user, until: now + SESSION_CACHE_MS });
    },
    /** Forgets every cached session of a user: they are read again from the database. */
    dropUser(uid: string): void {
      for (const [token, entry] of entries) if (entry.user.id === uid) entries.delete(token);
    },
  };
}
export type SessionCache = ReturnType<typeof sessionCache>;
