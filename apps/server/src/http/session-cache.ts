import type { SessionUser } from '../modules/accounts/sessions';

/** How long a hot route may trust a session it has already checked (issue 21: a few seconds at most). */
export const SESSION_CACHE_MS = 5000;
const MAX_ENTRIES = 50_000;

type Entry = { user: SessionUser; until: number };
type Instance = { drop: (uid: string) => void; dropToken: (token: string) => void };

/** Every session cache of this process (one per app), so a revocation reaches them all at once. */
const instances = new Set<Instance>();

/**
 * A session ended in this process (revoked, or about to be): every cache of the process forgets
 * the user's sessions now, before the bus's announcement comes back. Reads already under way
 * cannot put them back (see `generation` below).
 */
export function forgetSessionsOf(uid: string): void {
  for (const instance of instances) instance.drop(uid);
}

/** One session ended in this process (a logout): every cache of the process forgets it now. */
export function forgetSession(token: string): void {
  for (const instance of instances) instance.dropToken(token);
}

/**
 * Sessions recently resolved by routes called many times a second by the same clients (a
 * driver's position every few seconds, estimates, the bookings list). Only routes that opt in
 * (`sessionCache: true`) use it; they read the caller's identity (uid, usertype), never profile
 * fields that may have changed in the last seconds (docs/decisions.md, issue 21 point 1).
 *
 * A session never outlives its entry: an entry lasts SESSION_CACHE_MS at most and never past the
 * session's expiry; a revocation forgets the user's entries in the revoking process at once and in
 * the others when the bus delivers it; a read that began before a revocation is not kept; and
 * while the bus is not healthy (`healthy` false) the cache is off, since a revocation made
 * elsewhere could not reach it.
 */
export function sessionCache(options: { healthy: () => boolean } = { healthy: () => true }) {
  const entries = new Map<string, Entry>();
  // Moves on at every drop: a read that began before it may hold a session that just ended.
  let generation = 0;
  const instance: Instance = {
    drop(uid) {
      generation += 1;
      for (const [token, entry] of entries) if (entry.user.id === uid) entries.delete(token);
    },
    dropToken(token) {
      generation += 1;
      entries.delete(token);
    },
  };
  instances.add(instance);
  return {
    get(token: string, now: number): SessionUser | undefined {
      if (!options.healthy()) return undefined;
      const entry = entries.get(token);
      if (!entry) return undefined;
      if (entry.until <= now) {
        entries.delete(token);
        return undefined;
      }
      return entry.user;
    },
    /** The generation to hand back to `set`: taken before the database read. */
    generation(): number {
      return generation;
    },
    set(token: string, user: SessionUser, expiresAt: number, now: number, readAt: number): void {
      if (readAt !== generation || !options.healthy()) return;
      // Oldest first out: a Map keeps insertion order.
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value ?? '');
      entries.set(token, { user, until: Math.min(now + SESSION_CACHE_MS, expiresAt) });
    },
    /** Forgets every cached session of a user: they are read again from the database. */
    dropUser(uid: string): void {
      instance.drop(uid);
    },
    /** Forgets everything (the bus came back: revocations may have been missed meanwhile). */
    clear(): void {
      generation += 1;
      entries.clear();
    },
    close(): void {
      entries.clear();
      instances.delete(instance);
    },
  };
}
export type SessionCache = ReturnType<typeof sessionCache>;
