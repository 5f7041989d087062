import { timingSafeEqual, randomUUID } from 'node:crypto';
import {
  isNonBlank,
  loginOtp,
  textOf,
  toMinor,
  validateEmailLogin,
  validateLoginOtp,
  validateMobile,
  validatePassword,
  validateRegistration,
  fieldOf,
} from '@rideway/domain';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { authTokens, carTypes, otpCodes, users } from '../../db/schema';
import { AppError, unwrap } from '../../http/app-error';
import { decodeImageDataUrl } from '../../providers/storage';
import { enqueue } from '../outbox/service';
import { getSettings } from '../settings/service';
import { findUserByEmail, findUserByReferralId, insertAccount, type UserRow } from '../users/accounts';
import { appendEntry } from '../wallet/ledger';
import { hashPassword, verifyPassword } from './passwords';
import { createSession, hashToken, newToken, revokeAllSessions } from './sessions';
import { assertNotThrottled, clearFailures, recordFailure } from './throttle';

export const OTP_LIFETIME_MS = 10 * 60 * 1000;
export const OTP_MAX_WRONG = 5;
export const OTP_SENDS_PER_WINDOW = 3;
export const OTP_SEND_WINDOW_MS = 15 * 60 * 1000;
export const LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;
const MAX_LICENCE_BYTES = 5 * 1024 * 1024;

const baseUrl = (ctx: AppContext): string => ctx.config.PUBLIC_URL ?? `http://${ctx.config.HOST}:${ctx.config.PORT}`;

async function mailLink(ctx: AppContext, tx: Parameters<Parameters<AppContext['db']['transaction']>[0]>[0], user: UserRow, purpose: 'verify' | 'reset'): Promise<void> {
  if (!user.email) return;
  const token = newToken();
  const now = ctx.now();
  await tx.insert(authTokens).values({ tokenHash: hashToken(token), uid: user.id, purpose, expiresAt: now + LINK_LIFETIME_MS });
  const settings = await getSettings(tx);
  const link =
    purpose === 'verify'
      ? `${baseUrl(ctx)}/api/auth/verify-email?token=${token}`
      : `${baseUrl(ctx)}/reset-password?token=${token}`;
  const payload =
    purpose === 'verify'
      ? { subject: `Verify your email for ${settings.appName}`, text: `Hello ${user.firstName},\n\nConfirm your email address by opening this link:\n${link}\n\nThe link works once, for 24 hours.` }
      : { subject: `Reset your ${settings.appName} password`, text: `Hello ${user.firstName},\n\nChoose a new password by opening this link:\n${link}\n\nThe link works once, for 24 hours. If you did not ask for it, ignore this mail.` };
  await enqueue(tx, { channel: 'mail', recipient: user.email, payload }, now);
}

export type DriverFields = { carType: string; vehicleNumber: string; vehicleMake: string | null; vehicleModel: string | null; licenseImage: string };

/** Section 5 driver sign-up: a known car type, a vehicle number and the licence image first. */
async function driverFields(ctx: AppContext, input: unknown): Promise<DriverFields> {
  const carType = fieldOf(input, 'carType');
  if (!isNonBlank(carType, 100)) throw new AppError('select_proper', 'carType');
  const known = await ctx.db.select({ name: carTypes.name }).from(carTypes).where(eq(carTypes.name, carType.trim())).limit(1);
  if (known.length === 0) throw new AppError('select_proper', 'carType');
  const vehicleNumber = fieldOf(input, 'vehicleNumber');
  if (!isNonBlank(vehicleNumber, 30)) throw new AppError('select_proper', 'vehicleNumber');
  const licence = textOf(fieldOf(input, 'licenseImage'), Math.ceil((MAX_LICENCE_BYTES * 4) / 3) + 100);
  const image = licence ? decodeImageDataUrl(licence, MAX_LICENCE_BYTES) : undefined;
  if (!image) throw new AppError('select_proper', 'licenseImage');
  const optional = (name: string) => textOf(fieldOf(input, name), 60)?.trim() || null;
  return {
    carType: carType.trim(),
    vehicleNumber: vehicleNumber.trim(),
    vehicleMake: optional('vehicleMake'),
    vehicleModel: optional('vehicleModel'),
    licenseImage: await ctx.storage.put('licences', image.bytes, image.extension),
  };
}

/**
 * Section 5 registration of a rider or a driver. A driver waits for approval when
 * driver_approval is on. A valid referral id credits the settings' bonus to both the referrer
 * and the new user (decisions.md).
 */
export async function register(ctx: AppContext, input: unknown): Promise<UserRow> {
  const fields = unwrap(validateRegistration(input));
  const usertype = fieldOf(input, 'usertype') ?? 'rider';
  if (usertype !== 'rider' && usertype !== 'driver') throw new AppError('not_valid_user_type', 'usertype');
  const settings = await getSettings(ctx.db);
  const referrer = fields.referralId ? await findUserByReferralId(ctx.db, fields.referralId) : undefined;
  if (fields.referralId && !referrer) throw new AppError('referer_not_found', 'referralId');
  const driver = usertype === 'driver' ? await driverFields(ctx, input) : undefined;
  const passwordHash = await hashPassword(fields.password);
  return ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    const user = await insertAccount(
      tx,
      {
        firstName: fields.firstName,
        lastName: fields.lastName,
        email: fields.email,
        mobile: fields.mobile,
        usertype,
        passwordHash,
        loginType: 'email',
        approved: !(usertype === 'driver' && settings.driver_approval),
        emailVerified: false,
        createdByAdmin: false,
        referralSource: 'signup',
        signupViaReferral: referrer?.id ?? null,
        ...driver,
      },
      now,
    );
    const bonus = toMinor(settings.bonus);
    if (referrer && bonus > 0) {
      for (const uid of [referrer.id, user.id]) {
        await appendEntry(tx, { uid, type: 'Credit', amountMinor: bonus, txRef: 'ReferralBonus', at: now });
      }
      await enqueue(tx, { channel: 'push', recipient: referrer.id, payload: { title: settings.appName, msg: `${user.firstName} joined with your referral id: your bonus is in your wallet.`, screen: 'wallet' } }, now);
    }
    if (settings.email_verify) await mailLink(ctx, tx, user, 'verify');
    return user;
  });
}

/** Section 4 sign-in rules once the credentials are right: approval, verified email, user type. */
export async function admit(ctx: AppContext, user: UserRow, viaPassword: boolean): Promise<void> {
  if (!['rider', 'driver', 'admin', 'fleetadmin'].includes(user.usertype)) throw new AppError('not_valid_user_type');
  if (!user.approved) throw new AppError('require_approval');
  const settings = await getSettings(ctx.db);
  if (viaPassword && settings.email_verify && !user.emailVerified && user.usertype !== 'admin') {
    await ctx.db.transaction((tx) => mailLink(ctx, tx, user, 'verify'));
    throw new AppError('email_verify_message');
  }
}

/** Email and password sign-in, throttled per account and per address. */
export async function login(ctx: AppContext, input: unknown, address: string): Promise<{ token: string; user: UserRow }> {
  const credentials = unwrap(validateEmailLogin(input));
  const key = { account: credentials.email, address };
  await assertNotThrottled(ctx.db, key, ctx.now());
  const user = await findUserByEmail(ctx.db, credentials.email);
  if (!user || !(await verifyPassword(user.passwordHash, credentials.password))) {
    await recordFailure(ctx.db, key, ctx.now());
    throw new AppError('login_error');
  }
  await clearFailures(ctx.db, credentials.email);
  await admit(ctx, user, true);
  return { token: await createSession(ctx.db, user.id, ctx.now()), user };
}

const codeHash = (verificationId: string, code: string): string => hashToken(`${verificationId}:${code}`);

/** Phone sign-in, step 1: a 6-digit code by SMS to a number that has an account. */
export async function requestOtp(ctx: AppContext, input: unknown): Promise<{ verificationId: string }> {
  const settings = await getSettings(ctx.db);
  if (!settings.MobileLoginEnabled) throw new AppError('forbidden');
  const mobile = unwrap(validateMobile(fieldOf(input, 'mobile')));
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
    await enqueue(tx, { channel: 'sms', recipient: mobile, payload: { text: `Your ${settings.appName} code is ${code}. It expires in 10 minutes.` } }, now);
    return { verificationId };
  });
}

/** Phone sign-in, step 2: the code, once, within 10 minutes; 5 wrong tries void it. */
export async function verifyOtp(ctx: AppContext, input: unknown): Promise<{ token: string; user: UserRow }> {
  const verificationId = textOf(fieldOf(input, 'verificationId'), 100);
  const code = unwrap(validateLoginOtp(fieldOf(input, 'otp')));
  if (!verificationId) throw new AppError('login_error');
  const now = ctx.now();
  const user = await ctx.db.transaction(async (tx) => {
    const row = (await tx.select().from(otpCodes).where(eq(otpCodes.verificationId, verificationId)).for('update'))[0];
    if (!row || row.usedAt !== null || row.expiresAt <= now || row.failedAttempts >= OTP_MAX_WRONG) return null;
    const expected = Buffer.from(row.codeHash);
    const given = Buffer.from(codeHash(verificationId, code));
    if (!timingSafeEqual(expected, given)) {
      await tx.update(otpCodes).set({ failedAttempts: row.failedAttempts + 1 }).where(eq(otpCodes.verificationId, verificationId));
      return null;
    }
    await tx.update(otpCodes).set({ usedAt: now }).where(and(eq(otpCodes.verificationId, verificationId), isNull(otpCodes.usedAt)));
    return (await tx.select().from(users).where(eq(users.mobile, row.mobile)).limit(1))[0] ?? null;
  });
  if (!user) throw new AppError('login_error');
  await admit(ctx, user, false);
  return { token: await createSession(ctx.db, user.id, ctx.now()), user };
}

/** Always answers the same, so it does not tell which emails have accounts. */
export async function requestPasswordReset(ctx: AppContext, input: unknown): Promise<void> {
  const email = textOf(fieldOf(input, 'email'), 254);
  if (!email) throw new AppError('proper_email', 'email');
  const user = await findUserByEmail(ctx.db, email);
  if (!user?.email) return;
  await ctx.db.transaction((tx) => mailLink(ctx, tx, user, 'reset'));
}

async function useLink(ctx: AppContext, token: unknown, purpose: 'verify' | 'reset'): Promise<string> {
  const text = textOf(token, 100);
  if (!text) throw new AppError('not_found', 'token');
  const now = ctx.now();
  const used = await ctx.db
    .update(authTokens)
    .set({ usedAt: now })
    .where(and(eq(authTokens.tokenHash, hashToken(text)), eq(authTokens.purpose, purpose), isNull(authTokens.usedAt), gt(authTokens.expiresAt, now)))
    .returning({ uid: authTokens.uid });
  const uid = used[0]?.uid;
  if (!uid) throw new AppError('not_found', 'token');
  return uid;
}

/** The emailed reset link, once: a new password, and every session of the account ends. */
export async function confirmPasswordReset(ctx: AppContext, input: unknown): Promise<void> {
  const password = unwrap(validatePassword(fieldOf(input, 'password')));
  const passwordHash = await hashPassword(password);
  const uid = await useLink(ctx, fieldOf(input, 'token'), 'reset');
  await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, uid));
    await revokeAllSessions(tx, uid);
  });
}

export async function verifyEmail(ctx: AppContext, token: unknown): Promise<void> {
  const uid = await useLink(ctx, token, 'verify');
  await ctx.db.update(users).set({ emailVerified: true }).where(eq(users.id, uid));
}
