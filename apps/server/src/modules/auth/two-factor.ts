/**
 * Security-critical: two-factor sign-in (TOTP, RFC 6238) for admins and fleet admins (issue 20,
 * point 5; docs/decisions.md, "Issue 20 point 5").
 *
 * - Every sign-in path (password, SMS code, Facebook, Google, Apple) ends in sessionOrChallenge:
 *   a staff member with an authenticator, or without one while RequireStaffTwoFactor is on, gets
 *   a challenge instead of a session. The challenge is random, kept hashed, bound to the user,
 *   single-use, 5 minutes long and void after 5 wrong codes. A password alone never makes a session.
 * - The second step is a code from the authenticator (the current time step or one either side;
 *   a time step is accepted once: `last_time_step`) or one recovery code (kept hashed, single use).
 * - Wrong codes are also counted per user (10 in 15 minutes lock the second step, 429 with
 *   Retry-After), so new challenges do not buy more guesses.
 * - The secret is sealed with TWO_FACTOR_KEY when it is set (secret-box.ts), else stored as the
 *   authenticator holds it (base32). The recovery codes and challenges are stored as SHA-256 only.
 */
import { createHash, randomInt } from 'node:crypto';
import type { TwoFactorDisable, TwoFactorEnrolment, TwoFactorReset, TwoFactorStatus } from '@rideway/contract';
import { pathAfterLogin, type UserType } from '@rideway/domain';
import { and, eq, isNotNull, isNull, lte, or, lt, sql } from 'drizzle-orm';
import type * as Otplib from 'otplib';
import { openSecret, parseSecretKey, sealSecret } from './secret-box';
import { recordAudit } from '../../audit/record';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { twoFactor, twoFactorChallenges, twoFactorRecoveryCodes, users } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { UserRow } from '../accounts/accounts';
import { verifyPassword } from '../accounts/passwords';
import { announceSessionsEnded, createSession, hashToken, newToken, revokeAllSessions } from '../accounts/sessions';
import type { Actor } from '../../http/actor';
import { renderFor } from '../messages/render';
import { enqueue } from '../outbox/service';
import { assertNotDemoMode, getSettings } from '../settings/service';
import { admit } from './admit';

/**
 * otplib and qrcode (with their hashing, base32 and PNG code: about 1 MB of heap, and their source
 * maps) load with the first second step or enrolment, not at start: a server's riders and drivers
 * never have one (issue 21 point 4). Loaded before a transaction opens, never inside one.
 */
const otplib = (): Promise<typeof Otplib> => import('otplib');

/** The authenticator's time step (the apps' default). */
const PERIOD_S = 30;
export const CHALLENGE_LIFETIME_MS = 5 * 60 * 1000;
export const CHALLENGE_MAX_WRONG = 5;
export const USER_MAX_WRONG = 10;
export const USER_WRONG_WINDOW_MS = 15 * 60 * 1000;
export const RECOVERY_CODE_COUNT = 10;
/** Recovery codes: 10 characters of an alphabet without look-alikes (about 50 bits), shown as xxxxx-xxxxx. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

const STAFF: readonly string[] = ['admin', 'fleetadmin'];
export const isStaff = (user: Pick<UserRow, 'usertype'>): boolean => STAFF.includes(user.usertype);

type TwoFactorRow = typeof twoFactor.$inferSelect;

export type SignedIn = { token: string; user: UserRow };
export type SecondStep = { challenge: string; enrol: boolean; user: UserRow };
export const needsSecondStep = (outcome: SignedIn | SecondStep): outcome is SecondStep => 'challenge' in outcome;

const recoveryHash = (uid: string, code: string): string => createHash('sha256').update(`${uid}:${code}`).digest('hex');
/** A recovery code as typed: case, spaces and dashes do not matter. */
const normalisedRecovery = (code: string): string => code.toLowerCase().replace(/[\s-]/g, '');

async function rowOf(db: Db | Tx, uid: string, lock = false): Promise<TwoFactorRow | undefined> {
  const query = db.select().from(twoFactor).where(eq(twoFactor.uid, uid));
  return (lock ? await query.for('update') : await query)[0];
}

/**
 * Where a sign-in whose first factor was right goes: a session, or a challenge when the user is
 * staff with an authenticator, or staff without one while the operator requires it (enrol first).
 * `next` is the page the sign-in started from (already checked to be a path of this site).
 */
export async function sessionOrChallenge(ctx: AppContext, user: UserRow, next: string | null = null): Promise<SignedIn | SecondStep> {
  if (isStaff(user)) {
    const enabled = (await rowOf(ctx.db, user.id))?.enabledAt != null;
    const enrol = !enabled && (await getSettings(ctx.db)).RequireStaffTwoFactor;
    if (enabled || enrol) {
      const challenge = newToken();
      const now = ctx.now();
      // Challenges never finished go as new ones start.
      await ctx.db.delete(twoFactorChallenges).where(lte(twoFactorChallenges.expiresAt, now));
      await ctx.db.insert(twoFactorChallenges).values({ tokenHash: hashToken(challenge), uid: user.id, purpose: enrol ? 'enrol' : 'code', next, expiresAt: now + CHALLENGE_LIFETIME_MS });
      return { challenge, enrol, user };
    }
  }
  return { token: await createSession(ctx.db, user.id, ctx.now()), user };
}

/** The per-user lock: too many wrong codes lately answer 429 until the window ends. */
function lockedFor(row: TwoFactorRow | undefined, now: number): number | null {
  if (!row || row.failedSince === null || row.failedCount < USER_MAX_WRONG) return null;
  const until = row.failedSince + USER_WRONG_WINDOW_MS;
  return until > now ? until - now : null;
}

const tooMany = (ms: number) => new AppError('too_many_requests', undefined, { 'retry-after': String(Math.ceil(ms / 1000)) });

/** Counts one wrong code or password in the database itself, so answers at once never count one for several. */
async function countWrong(tx: Tx, uid: string, now: number): Promise<void> {
  const fresh = sql`(${twoFactor.failedSince} is null or ${now} - ${twoFactor.failedSince} >= ${USER_WRONG_WINDOW_MS})`;
  await tx.update(twoFactor)
    .set({ failedCount: sql`case when ${fresh} then 1 else ${twoFactor.failedCount} + 1 end`, failedSince: sql`case when ${fresh} then ${now}::bigint else ${twoFactor.failedSince} end` })
    .where(eq(twoFactor.uid, uid));
}

/** The key that seals authenticator secrets, when the operator set one. */
const secretKey = (ctx: AppContext): Buffer | undefined => (ctx.config.TWO_FACTOR_KEY ? parseSecretKey(ctx.config.TWO_FACTOR_KEY) : undefined);

/**
 * A code from the authenticator: the current time step or one either side (clocks drift), and
 * only a step after the last one accepted, so an overheard code cannot be replayed. The step is
 * taken with a conditional write: of two requests with one code, one wins.
 */
async function acceptTotp(ctx: AppContext, tx: Tx, row: TwoFactorRow, code: string, verify: typeof Otplib.verify): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  let timeStep: number;
  try {
    const result = await verify({
      secret: openSecret(secretKey(ctx), row.secret),
      token: code,
      epoch: Math.floor(ctx.now() / 1000),
      period: PERIOD_S,
      epochTolerance: PERIOD_S,
      ...(row.lastTimeStep === null ? {} : { afterTimeStep: row.lastTimeStep }),
    });
    // The default strategy is TOTP, whose answer carries the time step (the type covers HOTP's too).
    if (!result.valid || !('timeStep' in result) || typeof result.timeStep !== 'number') return false;
    timeStep = result.timeStep;
  } catch {
    // A code otplib cannot read (or a step window it refuses) is a wrong code, never a server error.
    return false;
  }
  const taken = await tx.update(twoFactor).set({ lastTimeStep: timeStep })
    .where(and(eq(twoFactor.uid, row.uid), or(isNull(twoFactor.lastTimeStep), lt(twoFactor.lastTimeStep, timeStep))))
    .returning({ uid: twoFactor.uid });
  return taken.length === 1;
}

/** One recovery code, used up as it is accepted. */
async function acceptRecovery(ctx: AppContext, tx: Tx, uid: string, code: string): Promise<boolean> {
  const normalised = normalisedRecovery(code);
  if (!/^[a-z0-9]{10}$/.test(normalised)) return false;
  const used = await tx.update(twoFactorRecoveryCodes).set({ usedAt: ctx.now() })
    .where(and(eq(twoFactorRecoveryCodes.uid, uid), eq(twoFactorRecoveryCodes.codeHash, recoveryHash(uid, normalised)), isNull(twoFactorRecoveryCodes.usedAt)))
    .returning({ uid: twoFactorRecoveryCodes.uid });
  return used.length === 1;
}

/** New recovery codes in place of any old ones; answers them in the clear, the one time they are shown. */
async function newRecoveryCodes(tx: Tx, uid: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join(''));
  await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.uid, uid));
  await tx.insert(twoFactorRecoveryCodes).values(codes.map((code) => ({ uid, codeHash: recoveryHash(uid, code) })));
  return codes.map((code) => `${code.slice(0, 5)}-${code.slice(5)}`);
}

type Checked = { ok: true; value: string[] | null } | { ok: false; error: AppError };

/**
 * Checks a code against the user's authenticator under a row lock, counting a wrong one (the
 * count commits: the refusal is answered after the transaction), then runs `then` on success.
 */
async function withCode(
  ctx: AppContext,
  uid: string,
  code: string,
  options: { recovery: boolean; pending: boolean },
  then: (tx: Tx, row: TwoFactorRow) => Promise<string[] | null>,
  challenge?: { guard: (tx: Tx) => Promise<AppError | null>; onWrong: (tx: Tx) => Promise<void> },
): Promise<string[] | null> {
  const { verify } = await otplib();
  const checked = await ctx.db.transaction(async (tx): Promise<Checked> => {
    const now = ctx.now();
    const row = await rowOf(tx, uid, true);
    if (!row) return { ok: false, error: new AppError(options.pending ? 'two_factor_not_started' : 'two_factor_not_enabled') };
    if (options.pending !== (row.enabledAt === null)) return { ok: false, error: new AppError(options.pending ? 'two_factor_already_enabled' : 'two_factor_not_enabled') };
    const locked = lockedFor(row, now);
    if (locked !== null) return { ok: false, error: tooMany(locked) };
    // Under the user's lock, so codes sent at once for one challenge are judged one after another
    // against its count: a challenge never takes more than its wrong codes.
    const spent = await challenge?.guard(tx);
    if (spent) return { ok: false, error: spent };
    const accepted = (await acceptTotp(ctx, tx, row, code, verify)) || (options.recovery && (await acceptRecovery(ctx, tx, uid, code)));
    if (!accepted) {
      await countWrong(tx, uid, now);
      await challenge?.onWrong(tx);
      return { ok: false, error: new AppError('two_factor_code_wrong', 'code') };
    }
    await tx.update(twoFactor).set({ failedCount: 0, failedSince: null }).where(eq(twoFactor.uid, uid));
    return { ok: true, value: await then(tx, row) };
  });
  if (!checked.ok) throw checked.error;
  return checked.value;
}

type ChallengeRow = typeof twoFactorChallenges.$inferSelect;

const isGood = (row: ChallengeRow | undefined, now: number): row is ChallengeRow => row !== undefined && row.expiresAt > now && row.failedAttempts < CHALLENGE_MAX_WRONG;

/** The challenge a second step names, if it is still good; it does not say why not. */
async function openChallenge(ctx: AppContext, challenge: string | undefined): Promise<ChallengeRow> {
  if (!challenge || challenge.length > 100) throw new AppError('two_factor_challenge_expired');
  const row = (await ctx.db.select().from(twoFactorChallenges).where(eq(twoFactorChallenges.tokenHash, hashToken(challenge))))[0];
  if (!isGood(row, ctx.now())) throw new AppError('two_factor_challenge_expired');
  return row;
}

async function userOf(ctx: AppContext, uid: string): Promise<UserRow> {
  const user = (await ctx.db.select().from(users).where(eq(users.id, uid)))[0];
  if (!user) throw new AppError('two_factor_challenge_expired');
  return user;
}

/**
 * The second step of a sign-in: the code (or a recovery code) for the challenge's user; with an
 * enrolment challenge, the first code of the authenticator just added, which turns it on and
 * answers the recovery codes. The challenge is used up by the right code; each wrong one counts
 * against it and against the user.
 */
export async function finishSecondStep(ctx: AppContext, challenge: string | undefined, code: string, origin: string): Promise<SignedIn & { landing: string; recoveryCodes?: string[] }> {
  const pending = await openChallenge(ctx, challenge);
  const enrolling = pending.purpose === 'enrol' && (await rowOf(ctx.db, pending.uid))?.enabledAt == null;
  const againstChallenge = {
    // Read again under the user's lock: another wrong code may have used the challenge up meanwhile.
    guard: async (tx: Tx) => (isGood((await tx.select().from(twoFactorChallenges).where(eq(twoFactorChallenges.tokenHash, pending.tokenHash)))[0], ctx.now()) ? null : new AppError('two_factor_challenge_expired')),
    onWrong: async (tx: Tx) => {
      await tx.update(twoFactorChallenges).set({ failedAttempts: sql`${twoFactorChallenges.failedAttempts} + 1` }).where(eq(twoFactorChallenges.tokenHash, pending.tokenHash));
    },
  };
  const recoveryCodes = await withCode(ctx, pending.uid, code, { recovery: !enrolling, pending: enrolling }, async (tx) => {
    // Single use: of two right answers at once, one takes the challenge.
    const taken = await tx.delete(twoFactorChallenges).where(eq(twoFactorChallenges.tokenHash, pending.tokenHash)).returning({ uid: twoFactorChallenges.uid });
    if (taken.length !== 1) throw new AppError('two_factor_challenge_expired');
    if (!enrolling) return null;
    await tx.update(twoFactor).set({ enabledAt: ctx.now() }).where(eq(twoFactor.uid, pending.uid));
    return newRecoveryCodes(tx, pending.uid);
  }, againstChallenge);
  const user = await userOf(ctx, pending.uid);
  // Approval may have been withdrawn in the minutes between the steps.
  await admit(ctx, user, false);
  const token = await createSession(ctx.db, user.id, ctx.now());
  return { token, user, landing: pathAfterLogin(pending.next, user.usertype as UserType, origin), ...(recoveryCodes ? { recoveryCodes } : {}) };
}

/** A new authenticator secret for the user (replacing one not confirmed yet), with its otpauth:// address drawn as a QR code. */
async function newAuthenticator(ctx: AppContext, user: UserRow): Promise<TwoFactorEnrolment> {
  const existing = await rowOf(ctx.db, user.id);
  if (existing?.enabledAt != null) throw new AppError('two_factor_already_enabled');
  const locked = lockedFor(existing, ctx.now());
  if (locked !== null) throw tooMany(locked);
  const [{ generateSecret, generateURI }, { default: QRCode }] = await Promise.all([otplib(), import('qrcode')]);
  const secret = generateSecret();
  const settings = await getSettings(ctx.db);
  const stored = sealSecret(secretKey(ctx), secret);
  // Only a secret not confirmed yet is replaced: a confirmation racing this one keeps its own.
  const written = await ctx.db.insert(twoFactor).values({ uid: user.id, secret: stored, createdAt: ctx.now() })
    .onConflictDoUpdate({ target: twoFactor.uid, set: { secret: stored, lastTimeStep: null, createdAt: ctx.now() }, setWhere: isNull(twoFactor.enabledAt) })
    .returning({ uid: twoFactor.uid });
  if (written.length === 0) throw new AppError('two_factor_already_enabled');
  const uri = generateURI({ issuer: settings.appName, label: user.email ?? user.mobile ?? user.id, secret });
  const svg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { secret, uri, qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/** Enrolment from a sign-in that requires it: the challenge's user gets a new authenticator. */
export async function enrolFromChallenge(ctx: AppContext, challenge: string | undefined): Promise<TwoFactorEnrolment> {
  const pending = await openChallenge(ctx, challenge);
  if (pending.purpose !== 'enrol') throw new AppError('two_factor_already_enabled');
  return newAuthenticator(ctx, await userOf(ctx, pending.uid));
}

export async function twoFactorStatus(ctx: AppContext, user: UserRow): Promise<TwoFactorStatus> {
  const enabledAt = (await rowOf(ctx.db, user.id))?.enabledAt ?? null;
  const enabled = enabledAt !== null;
  const left = enabled
    ? await ctx.db.select({ count: sql<string>`count(*)` }).from(twoFactorRecoveryCodes).where(and(eq(twoFactorRecoveryCodes.uid, user.id), isNull(twoFactorRecoveryCodes.usedAt)))
    : [];
  return {
    enabled,
    enabledAt,
    recoveryCodesLeft: Number(left[0]?.count ?? 0),
    required: (await getSettings(ctx.db)).RequireStaffTwoFactor,
  };
}

/** The profile's enrolment, step 1: a secret and its QR code; nothing is required until it is confirmed. */
export async function startEnrolment(ctx: AppContext, user: UserRow): Promise<TwoFactorEnrolment> {
  await assertNotDemoMode(ctx.db, 'two-factor:change');
  return newAuthenticator(ctx, user);
}

/** Step 2: a current code proves the app holds the secret; from now on sign-in asks for a code. */
export async function confirmEnrolment(ctx: AppContext, user: UserRow, code: string): Promise<string[]> {
  await assertNotDemoMode(ctx.db, 'two-factor:change');
  const codes = await withCode(ctx, user.id, code, { recovery: false, pending: true }, async (tx) => {
    await tx.update(twoFactor).set({ enabledAt: ctx.now() }).where(eq(twoFactor.uid, user.id));
    return newRecoveryCodes(tx, user.id);
  });
  return codes ?? [];
}

/** New recovery codes (the old ones stop working), on a current code from the authenticator. */
export async function regenerateRecoveryCodes(ctx: AppContext, user: UserRow, code: string): Promise<string[]> {
  await assertNotDemoMode(ctx.db, 'two-factor:change');
  return (await withCode(ctx, user.id, code, { recovery: false, pending: false }, (tx) => newRecoveryCodes(tx, user.id))) ?? [];
}

/**
 * Turning it off, on a current code (or a recovery code) or the password; refused while the
 * operator requires it of staff.
 */
export async function disableTwoFactor(ctx: AppContext, user: UserRow, { code, password }: TwoFactorDisable): Promise<void> {
  await assertNotDemoMode(ctx.db, 'two-factor:change');
  if ((await getSettings(ctx.db)).RequireStaffTwoFactor) throw new AppError('two_factor_required');
  const remove = async (tx: Tx) => {
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.uid, user.id));
    await tx.delete(twoFactor).where(eq(twoFactor.uid, user.id));
    return null;
  };
  if (code) {
    await withCode(ctx, user.id, code, { recovery: true, pending: false }, remove);
    return;
  }
  // Under the user's lock, like a code: passwords tried at once are judged one after another, each
  // wrong one counted, and none once the count has locked the account.
  const refusal = await ctx.db.transaction(async (tx): Promise<AppError | null> => {
    const row = await rowOf(tx, user.id, true);
    if (row?.enabledAt == null) return new AppError('two_factor_not_enabled');
    const locked = lockedFor(row, ctx.now());
    if (locked !== null) return tooMany(locked);
    if (!password || !(await verifyPassword(user.passwordHash, password))) {
      await countWrong(tx, user.id, ctx.now());
      return new AppError(password ? 'wrong_current_password' : 'two_factor_code_wrong', password ? 'password' : 'code');
    }
    await remove(tx);
    return null;
  });
  if (refusal) throw refusal;
}

/**
 * Security-critical. POST /api/users/:id/two-factor/reset (admins only; decisions.md, "Issue 20
 * point 5: an admin's reset"): a staff member who lost both the authenticator and the recovery
 * codes cannot sign in; another admin turns two-factor off for them, with a reason they are told.
 * Their sessions end, so whoever holds one must sign in again with the password; the next sign-in
 * asks them to add an authenticator again when the operator requires it. Never the own account
 * (a stolen session alone must not undo the second factor), never a rider or driver (who have none).
 */
export async function resetTwoFactor(ctx: AppContext, actor: Actor, uid: string, { reason }: TwoFactorReset): Promise<void> {
  if (uid === actor.uid) throw new AppError('two_factor_reset_own');
  await assertNotDemoMode(ctx.db, 'two-factor:change');
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const target = (await tx.select().from(users).where(and(eq(users.id, uid), isNull(users.deletedAt))))[0];
    if (!target || !isStaff(target)) throw new AppError('not_found');
    const removed = await tx.delete(twoFactor).where(and(eq(twoFactor.uid, uid), isNotNull(twoFactor.enabledAt))).returning({ uid: twoFactor.uid });
    if (removed.length === 0) throw new AppError('two_factor_not_enabled');
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.uid, uid));
    await tx.delete(twoFactorChallenges).where(eq(twoFactorChallenges.uid, uid));
    await revokeAllSessions(tx, uid);
    await recordAudit(tx, { actor, action: 'user.two_factor_reset', entityId: uid, before: { twoFactorEnabled: true, reason: null }, after: { twoFactorEnabled: false, reason: reason.trim() }, at: now });
    const render = await renderFor(tx, uid);
    const title = render('push_account_title');
    const msg = render('push_two_factor_reset', { reason: reason.trim() });
    await enqueue(tx, { channel: 'push', recipient: uid, payload: { title, msg } }, now);
    if (target.email) await enqueue(tx, { channel: 'mail', recipient: target.email, payload: { subject: title, text: msg } }, now);
  });
  await announceSessionsEnded(ctx, { uid });
}
