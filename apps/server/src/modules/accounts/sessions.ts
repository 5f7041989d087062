/**
 * Security-critical: sessions are random opaque tokens; only their SHA-256 is stored, so a
 * database leak yields no usable token. Revoking is deleting the row; once the deletion commits,
 * announcing it closes the WebSockets opened with the revoked sessions, on every process.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, ne } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { forgetSession, forgetSessionsOf } from '../../http/session-cache';

export const SESSION_COOKIE = 'rideway_session';
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
export const newToken = (): string => randomBytes(32).toString('base64url');

export async function createSession(db: Db | Tx, uid: string, now: number): Promise<string> {
  const token = newToken();
  await db.insert(sessions).values({ tokenHash: hashToken(token), uid, createdAt: now, expiresAt: now + SESSION_LIFETIME_MS });
  return token;
}

export type SessionUser = typeof users.$inferSelect;

/** The signed-in user of a token and when its session expires, or null when the token is unknown, revoked or expired (one query). */
export async function sessionOfToken(db: Db, token: string, now: number): Promise<{ user: SessionUser; expiresAt: number } | null> {
  if (token.length > 200) return null;
  const rows = await db
    .select({ user: users, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.uid))
    .where(and(eq(sessions.tokenHash, hashToken(token)), gt(sessions.expiresAt, now)))
    .limit(1);
  return rows[0] ?? null;
}

/** The signed-in user of a token, or null when the token is unknown, revoked or expired. */
export async function userOfToken(db: Db, token: string, now: number): Promise<SessionUser | null> {
  return (await sessionOfToken(db, token, now))?.user ?? null;
}

// Each revocation forgets the cached sessions of this process at once (http/session-cache.ts),
// before its transaction commits; the announcement after the commit forgets them again here and
// in the other processes, so a read made before the commit cannot keep a revoked session.
export const revokeSession = (db: Db | Tx, token: string) => {
  forgetSession(token);
  return db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
};
export const revokeAllSessions = (db: Db | Tx, uid: string) => {
  forgetSessionsOf(uid);
  return db.delete(sessions).where(eq(sessions.uid, uid));
};
/** Every session of the user but the one it is using now (it changed its own email or mobile). */
export const revokeOtherSessions = (db: Db | Tx, uid: string, keptToken: string) => {
  forgetSessionsOf(uid);
  return db.delete(sessions).where(and(eq(sessions.uid, uid), ne(sessions.tokenHash, hashToken(keptToken))));
};

/**
 * Which sessions ended, by token: `only` that one, `except` all but that one, neither all of the
 * user's sessions.
 */
export type EndedSessions = { uid: string; only?: string; except?: string };

/**
 * After the revocation committed: every process closes the WebSockets opened with the ended
 * sessions (close code 4401, not_logged_in). Only token hashes travel. Never throws: the sessions
 * are already gone from the database, and each gateway's sweep closes what a lost notice left open.
 */
export async function announceSessionsEnded(ctx: AppContext, ended: EndedSessions): Promise<void> {
  // This process's session caches forget them now, not when the bus's echo arrives.
  forgetSessionsOf(ended.uid);
  await ctx.live.bus.endSessions({
    uid: ended.uid,
    ...(ended.only === undefined ? {} : { only: hashToken(ended.only) }),
    ...(ended.except === undefined ? {} : { except: hashToken(ended.except) }),
  });
}

/** Of these sessions (token hashes), the ones still valid: the gateway's sweep closes the sockets of the others. */
export async function validSessions(db: Db, hashes: readonly string[], now: number): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await db
    .select({ tokenHash: sessions.tokenHash })
    .from(sessions)
    .where(and(inArray(sessions.tokenHash, [...hashes]), gt(sessions.expiresAt, now)));
  return new Set(rows.map((row) => row.tokenHash));
}
