import type { PasswordResetConfirm, PasswordResetRequest } from '@rideway/contract';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { authTokens, users } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { findUserByEmail, type UserRow } from '../accounts/accounts';
import { hashPassword } from '../accounts/passwords';
import { announceSessionsEnded, hashToken, newToken, revokeAllSessions } from '../accounts/sessions';
import { renderIn } from '../messages/render';
import { enqueue } from '../outbox/service';
import { getSettings } from '../settings/service';

/** The mailed links (email verification, password reset) work once, for 24 hours. */
export const LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;

const baseUrl = (ctx: AppContext): string => ctx.config.PUBLIC_URL ?? `http://${ctx.config.HOST}:${ctx.config.PORT}`;

/** Mails the user a single-use link: to verify the email, or to choose a new password. */
export async function mailLink(ctx: AppContext, tx: Db | Tx, user: UserRow, purpose: 'verify' | 'reset'): Promise<void> {
  if (!user.email) return;
  const token = newToken();
  const now = ctx.now();
  await tx.insert(authTokens).values({ tokenHash: hashToken(token), uid: user.id, purpose, expiresAt: now + LINK_LIFETIME_MS });
  const settings = await getSettings(tx);
  const link =
    purpose === 'verify'
      ? `${baseUrl(ctx)}/api/auth/verify-email?token=${token}`
      : `${baseUrl(ctx)}/reset-password?token=${token}`;
  // In the language the user reads messages in (issue 19).
  const render = await renderIn(tx, user.language);
  const values = { app: settings.appName, name: user.firstName, link };
  const payload =
    purpose === 'verify'
      ? { subject: render('mail_verify_subject', values), text: render('mail_verify_text', values) }
      : { subject: render('mail_reset_subject', values), text: render('mail_reset_text', values) };
  await enqueue(tx, { channel: 'mail', recipient: user.email, payload }, now);
}

/** Always answers the same, so it does not tell which emails have accounts. */
export async function requestPasswordReset(ctx: AppContext, { email }: PasswordResetRequest): Promise<void> {
  const user = await findUserByEmail(ctx.db, email);
  if (!user?.email) return;
  await ctx.db.transaction((tx) => mailLink(ctx, tx, user, 'reset'));
}

/** Uses a mailed link once: the account it was sent for, or not_found. */
async function useLink(ctx: AppContext, token: string | undefined, purpose: 'verify' | 'reset'): Promise<string> {
  if (!token) throw new AppError('not_found', 'token');
  const now = ctx.now();
  const used = await ctx.db
    .update(authTokens)
    .set({ usedAt: now })
    .where(and(eq(authTokens.tokenHash, hashToken(token)), eq(authTokens.purpose, purpose), isNull(authTokens.usedAt), gt(authTokens.expiresAt, now)))
    .returning({ uid: authTokens.uid });
  const uid = used[0]?.uid;
  if (!uid) throw new AppError('not_found', 'token');
  return uid;
}

/** The emailed reset link, once: a new password, and every session of the account ends, with its open sockets. */
export async function confirmPasswordReset(ctx: AppContext, { password, token }: PasswordResetConfirm): Promise<void> {
  const passwordHash = await hashPassword(password);
  const uid = await useLink(ctx, token, 'reset');
  await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, uid));
    await revokeAllSessions(tx, uid);
  });
  await announceSessionsEnded(ctx, { uid });
}

export async function verifyEmail(ctx: AppContext, token: string | undefined): Promise<void> {
  const uid = await useLink(ctx, token, 'verify');
  await ctx.db.update(users).set({ emailVerified: true }).where(eq(users.id, uid));
}
