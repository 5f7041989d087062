import { z } from 'zod';
import { keyedString } from '../http';
import { sessionResponse } from './auth';

/**
 * Issue 20 point 5: two-factor sign-in (TOTP) for admins and fleet admins. A sign-in that needs a
 * second step answers a challenge instead of a session; the second step is a 6-digit code from the
 * authenticator app or one recovery code.
 */

/** The answer of a sign-in that stops before the session: the challenge to send with the code. */
export const twoFactorChallengeResponse = z.object({
  twoFactorRequired: z.literal(true),
  /** Single-use, minutes-long; also set as an httpOnly cookie for the web. */
  challenge: z.string(),
  /** True when the staff member has no authenticator yet and the operator requires one: enrol first. */
  enrol: z.boolean(),
});
export type TwoFactorChallenge = z.infer<typeof twoFactorChallengeResponse>;

/** A code from the authenticator app (6 digits) or a recovery code (letters and digits, dashes and spaces ignored). */
export const twoFactorCode = keyedString('two_factor_code_wrong', 40).min(1, { error: 'two_factor_code_wrong' });

/** The challenge, from the body (API clients) or the cookie the sign-in set (the web). */
const challengeField = z.string().max(100).optional();

export const twoFactorVerifySchema = z.object({ code: twoFactorCode, challenge: challengeField });
export type TwoFactorVerify = z.output<typeof twoFactorVerifySchema>;
export const twoFactorChallengeSchema = z.object({ challenge: challengeField });

/** An authenticator to add: the secret (to type in), its otpauth:// address, and the same drawn as a QR code (an SVG data URL). */
export const twoFactorEnrolment = z.object({ secret: z.string(), uri: z.string(), qr: z.string() });
export type TwoFactorEnrolment = z.infer<typeof twoFactorEnrolment>;

/** Recovery codes, shown once: each signs in once in place of a code. */
export const recoveryCodesResponse = z.object({ recoveryCodes: z.array(z.string()) });

export const twoFactorStatusResponse = z.object({
  enabled: z.boolean(),
  enabledAt: z.number().nullable(),
  recoveryCodesLeft: z.number().int(),
  /** The operator requires it for staff (RequireStaffTwoFactor): it cannot be turned off. */
  required: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusResponse>;

export const twoFactorCodeSchema = z.object({ code: twoFactorCode });
/** Turning it off: a current code, or the account's password. */
export const twoFactorDisableSchema = z.object({ code: twoFactorCode.optional(), password: z.string().max(100).optional() });
export type TwoFactorDisable = z.output<typeof twoFactorDisableSchema>;

/** The most a reset's reason may hold. */
export const MAX_TWO_FACTOR_RESET_REASON = 500;
/** An admin turns a staff member's two-factor sign-in off (a lost phone and lost recovery codes): the reason is told to that person. */
export const twoFactorResetSchema = z.strictObject({
  reason: keyedString('two_factor_reset_reason_required', MAX_TWO_FACTOR_RESET_REASON).refine((reason) => reason.trim().length >= 3, { error: 'two_factor_reset_reason_required' }),
});
export type TwoFactorReset = z.output<typeof twoFactorResetSchema>;

/** POST /api/auth/login and /api/auth/otp/verify: a session as before, or the challenge of a second step. */
export const signInResponse = z.union([sessionResponse, twoFactorChallengeResponse]);

/** The second step done: the session, where to go, and the recovery codes when it enrolled the authenticator. */
export const twoFactorSessionResponse = sessionResponse.extend({ landing: z.string(), recoveryCodes: z.array(z.string()).optional() });
