import {
  idParams,
  noContent,
  recoveryCodesResponse,
  twoFactorChallengeSchema,
  twoFactorCodeSchema,
  twoFactorDisableSchema,
  twoFactorResetSchema,
  twoFactorEnrolment,
  twoFactorSessionResponse,
  twoFactorStatusResponse,
  twoFactorVerifySchema,
} from '@rideway/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import type { RouteApp } from '../../http/routing';
import { userView } from '../users/view';
import {
  CHALLENGE_LIFETIME_MS,
  confirmEnrolment,
  disableTwoFactor,
  enrolFromChallenge,
  finishSecondStep,
  regenerateRecoveryCodes,
  resetTwoFactor,
  startEnrolment,
  twoFactorStatus,
  type SecondStep,
} from './two-factor';

/**
 * Issue 20 point 5: the browser's half of a sign-in waiting for its second step. Set by every
 * sign-in that stops for a code (the redirect flows have no other way to hand it to the page), sent
 * only to the second step's routes; API clients send the challenge in the body instead.
 */
export const TWO_FACTOR_COOKIE = 'rideway_2fa';
const TWO_FACTOR_PATH = '/api/auth/2fa';
/** The web page of the second step. */
export const SECOND_STEP_PAGE = '/login/2fa';

const STAFF = ['admin', 'fleetadmin'] as const;

export function twoFactorCookie(reply: FastifyReply, secure: boolean, step: SecondStep): FastifyReply {
  return reply.setCookie(TWO_FACTOR_COOKIE, step.challenge, { httpOnly: true, sameSite: 'lax', secure, path: TWO_FACTOR_PATH, maxAge: CHALLENGE_LIFETIME_MS / 1000 });
}

/** Where a redirect flow (Facebook, Google, Apple) sends the browser for the second step. */
export const secondStepPage = (step: SecondStep): string => `${SECOND_STEP_PAGE}${step.enrol ? '?enrol=1' : ''}`;

/** The JSON answer of a sign-in that stops for the second step (login, SMS code). */
export const challengeAnswer = (step: SecondStep) => ({ twoFactorRequired: true as const, challenge: step.challenge, enrol: step.enrol });

export function twoFactorRoutes(app: RouteApp, ctx: AppContext, options: { secure: boolean; setSessionCookie: (reply: FastifyReply, token: string) => FastifyReply; originOf: (request: FastifyRequest) => string }): void {
  const challengeOf = (request: FastifyRequest, body: { challenge?: string | undefined }) => body.challenge ?? request.cookies[TWO_FACTOR_COOKIE];

  app.post('/api/auth/2fa/verify', {
    config: { access: 'public' },
    schema: {
      summary: 'Second step of a sign-in: a code from the authenticator app or a recovery code; sets the session cookie (enrolling: the first code, and the recovery codes are answered once)',
      body: twoFactorVerifySchema,
      response: { 200: twoFactorSessionResponse },
    },
  }, async (request, reply) => {
    const session = await finishSecondStep(ctx, challengeOf(request, request.body), request.body.code, options.originOf(request));
    options.setSessionCookie(reply, session.token).clearCookie(TWO_FACTOR_COOKIE, { path: TWO_FACTOR_PATH });
    return { token: session.token, user: await userView(ctx.db, session.user), landing: session.landing, ...(session.recoveryCodes ? { recoveryCodes: session.recoveryCodes } : {}) };
  });

  app.post('/api/auth/2fa/enrol', {
    config: { access: 'public' },
    schema: { summary: 'A sign-in that requires two-factor (RequireStaffTwoFactor) of a staff member without it: a new authenticator secret and its QR code', body: twoFactorChallengeSchema, response: { 200: twoFactorEnrolment } },
  }, async (request) => enrolFromChallenge(ctx, challengeOf(request, request.body)));

  app.get('/api/me/two-factor', {
    config: { access: [...STAFF] },
    schema: { summary: 'Two-factor sign-in of the own account: on or off, recovery codes left, required by the operator', response: { 200: twoFactorStatusResponse } },
  }, async (request) => twoFactorStatus(ctx, actorOf(request).user));

  app.post('/api/me/two-factor/start', {
    config: { access: [...STAFF] },
    schema: { summary: 'Add an authenticator app: a new secret, its otpauth:// address and QR code (not required until confirmed)', response: { 200: twoFactorEnrolment } },
  }, async (request) => startEnrolment(ctx, actorOf(request).user));

  app.post('/api/me/two-factor/confirm', {
    config: { access: [...STAFF] },
    schema: { summary: "Confirm the authenticator with a current code: sign-in asks for a code from now on; the recovery codes are answered once", body: twoFactorCodeSchema, response: { 200: recoveryCodesResponse } },
  }, async (request) => ({ recoveryCodes: await confirmEnrolment(ctx, actorOf(request).user, request.body.code) }));

  app.post('/api/me/two-factor/recovery-codes', {
    config: { access: [...STAFF] },
    schema: { summary: 'New recovery codes on a current code (the old ones stop working); answered once', body: twoFactorCodeSchema, response: { 200: recoveryCodesResponse } },
  }, async (request) => ({ recoveryCodes: await regenerateRecoveryCodes(ctx, actorOf(request).user, request.body.code) }));

  app.post('/api/me/two-factor/disable', {
    config: { access: [...STAFF] },
    schema: { summary: 'Turn two-factor sign-in off, on a current code or the password (refused while the operator requires it)', body: twoFactorDisableSchema, response: { 204: noContent } },
  }, async (request, reply) => {
    await disableTwoFactor(ctx, actorOf(request).user, request.body);
    return reply.status(204).send(null);
  });

  app.post('/api/users/:id/two-factor/reset', {
    config: { access: ['admin'] },
    schema: {
      summary: "Turn another admin's or a fleet admin's two-factor sign-in off (lost authenticator and recovery codes), with the reason they are told; their sessions end",
      params: idParams,
      body: twoFactorResetSchema,
      response: { 204: noContent },
    },
  }, async (request, reply) => {
    await resetTwoFactor(ctx, actorOf(request), request.params.id, request.body);
    return reply.status(204).send(null);
  });
}
