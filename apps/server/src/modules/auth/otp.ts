import { timingSafeEqual, randomUUID } from 'node:crypto';
import type { OtpRequest, OtpVerifyRequest } from '@rideway/contract';
import { loginOtp } from '@rideway/domain';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { otpCodes, users } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { hashToken } from '../accounts/sessions';
import { renderIn } from '../messages/render';
import { enqueue } from '../outbox/service';
import { getSettings } from '../settings/service';
import { admit } from './admit';
import { countOtpRequest } from './throttle';
import { sessionOrChallenge, type SecondStep, type SignedIn } from './two-factor';

export const OTP_LIFETIME_MS = 10 * 60 * 1000;
export const OTP_MAX_WRONG = 5;
export const OTP_SENDS_PER_WINDOW = 3;
export const OTP_SEND_WINDOW_MS = 15 * 60 * 1000;

const codeHash = (verificationId: string, code: string): string => hashToken(`${verificationId}:${code}`);

/**
 * Phone sign-in, step 1: a 6-digit code by SMS to a number that has an account. Section 5 keeps
 * user_does_not_exists for a number without one, so the requests are counted per address first
 * (throttle.ts): one address can ask about a bounded number of numbers.
 */
export async function requestOtp(ctx: AppContext, { mobile }: OtpRequest, ip: string): Promise<{ verificationId: string }> {
  const settings = await getSettings(ctx.db);
  if (!settings.MobileLoginEnabled) throw new AppError('forbidden');
  await countOtpRequest(ctx.db, ip, ctx.now());
  const user = (await ctx.db.select().from(users).where(eq(users.mobile, mobile)).limit(1))[0];
  if (!user) throw new AppError('user_does_not_exists', 'mobile');
  return ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    // Serialise sends to one number so the per-window limit holds under concurrent requests.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`otp:${mobile}`}))`);
    const recent = await tx
      .select({ count: sql<string>`count(*)` })
      .from(otpCodes)
      .where(and(eq(otpCodes.mobile, mobile), gt(otpCodes.createdAt, now - OTP_SEND_WINDOW_MS)));
    if (Number(recent[0]?.count ?? 0) >= OTP_SENDS_PER_WINDOW) {
      throw new AppError('too_many_requests', undefined, { 'retry-after': String(OTP_SEND_WINDOW_MS / 1000) });
    }
    const verificationId = randomUUID();
    const code = loginOtp();
    await tx.insert(otpCodes).values({ verificationId, mobile, codeHash: codeHash(verificationId, code), createdAt: now, expiresAt: now + OTP_LIFETIME_MS });
    // In the language the user reads messages in (issue 19).
    const render = await renderIn(tx, user.language);
    await enqueue(tx, { channel: 'sms', recipient: mobile, payload: { text: render('sms_login_code', { app: settings.appName, code }) } }, now);
    return { verificationId };
  });
}

/** Phone sign-in, step 2: the code, once, within 10 minutes; 5 wrong tries void it. */
export async function verifyOtp(ctx: AppContext, { verificationId, otp }: OtpVerifyRequest): Promise<SignedIn | SecondStep> {
  const now = ctx.now();
  const user = await ctx.db.transaction(async (tx) => {
    const row = (await tx.select().from(otpCodes).where(eq(otpCodes.verificationId, verificationId)).for('update'))[0];
    if (!row || row.usedAt !== null || row.expiresAt <= now || row.failedAttempts >= OTP_MAX_WRONG) return null;
    const expected = Buffer.from(row.codeHash);
    const given = Buffer.from(codeHash(verificationId, otp));
    if (!timingSafeEqual(expected, given)) {
      await tx.update(otpCodes).set({ failedAttempts: row.failedAttempts + 1 }).where(eq(otpCodes.verificationId, verificationId));
      return null;
    }
    await tx.update(otpCodes).set({ usedAt: now }).where(and(eq(otpCodes.verificationId, verificationId), isNull(otpCodes.usedAt)));
    return (await tx.select().from(users).where(eq(users.mobile, row.mobile)).limit(1))[0] ?? null;
  });
  if (!user) throw new AppError('login_error');
  await admit(ctx, user, false);
  // Issue 20 point 5: a code by SMS is a first factor only; staff with an authenticator stop here for its code.
  return sessionOrChallenge(ctx, user);
}
