/**
 * Security-critical: sessions are random opaque tokens; only their SHA-256 is stored, so a
 * database leak yields no usable token. Revoking is deleting the row.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { sessions, users } from '../../db/schema';

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

/** The signed-in user of a token, or null when the token is unknown, revoked or expired. */
export async function userOfToken(db: Db, token: string, now: number): Promise<SessionUser | null> {
  if (token.length > 200) return null;
  const rows = await db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.uid))
    .where(and(eq(sessions.tokenHash, hashToken(token)), gt(sessions.expiresAt, now)))
    .limit(1);
  return rows[0]?.user ?? null;
}

export const revokeSession = (db: Db | Tx, token: string) => db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
export const revokeAllSessions = (db: Db | Tx, uid: string) => db.delete(sessions).where(eq(sessions.uid, uid));
