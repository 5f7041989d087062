import {
  facebookCallbackQuery,
  loginRequestSchema,
  noContent,
  okResponseSchema,
  otpRequestResponse,
  otpRequestSchema,
  otpVerifySchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  registerRequestSchema,
  registerResponse,
  sessionResponse,
  signInMethodsResponse,
  verifyEmailQuery,
} from '@rideway/contract';
import { landingRouteAfterLogin, type UserType } from '@rideway/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { AppError } from '../../http/app-error';
import type { RouteApp } from '../../http/routing';
import type { UserRow } from '../accounts/accounts';
import { announceSessionsEnded, newToken, revokeSession, SESSION_COOKIE, SESSION_LIFETIME_MS } from '../accounts/sessions';
import { userView } from '../users/view';
import { facebookDialogUrl, facebookSignIn } from './facebook';
import { confirmPasswordReset, requestPasswordReset, verifyEmail } from './links';
import { signInMethods } from './methods';
import { requestOtp, verifyOtp } from './otp';
import { login, register } from './service';
import { countResetRequest } from './throttle';

// The login dialog's round trip carries a one-time state, kept in a cookie for the callback only.
const STATE_COOKIE = 'rideway_oauth_state';
const STATE_PATH = '/api/auth/facebook';
const STATE_LIFETIME_S = 10 * 60;

/** A browser navigation's only answer: a redirect, with no body. */
const redirected = { 302: noContent };

export function authRoutes(app: RouteApp, ctx: AppContext): void {
  const secure = ctx.config.PUBLIC_URL?.startsWith('https://') ?? false;
  const setSessionCookie = (reply: FastifyReply, token: string) =>
    reply.setCookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: SESSION_LIFETIME_MS / 1000 });
  /** Sets the session cookie and answers the token and the user. */
  const startSession = async (reply: FastifyReply, session: { token: string; user: UserRow }) => {
    void setSessionCookie(reply, session.token);
    return { token: session.token, user: await userView(ctx.db, session.user) };
  };

  app.post('/api/auth/register', {
    config: { access: 'public' },
    schema: { summary: 'Register a rider or a driver (section 5)', body: registerRequestSchema, response: { 201: registerResponse } },
  }, async (request, reply) => {
    const user = await register(ctx, request.body);
    return reply.status(201).send({ user: await userView(ctx.db, user) });
  });

  app.post('/api/auth/login', {
    config: { access: 'public' },
    schema: { summary: 'Sign in by email and password; sets the session cookie', body: loginRequestSchema, response: { 200: sessionResponse } },
  }, async (request, reply) => startSession(reply, await login(ctx, request.body, request.ip)));

  app.post('/api/auth/otp/request', {
    config: { access: 'public' },
    schema: { summary: 'Phone sign-in: send a 6-digit code by SMS', body: otpRequestSchema, response: { 200: otpRequestResponse } },
  }, async (request) => requestOtp(ctx, request.body, request.ip));

  app.post('/api/auth/otp/verify', {
    config: { access: 'public' },
    schema: { summary: 'Phone sign-in: verify the code; sets the session cookie', body: otpVerifySchema, response: { 200: sessionResponse } },
  }, async (request, reply) => startSession(reply, await verifyOtp(ctx, request.body)));

  app.post('/api/auth/password-reset', {
    config: { access: 'public' },
    schema: { summary: 'Mail a single-use password reset link', body: passwordResetRequestSchema, response: { 200: okResponseSchema } },
  }, async (request) => {
    // Counted per email and per address whether or not the email has an account: the same answers either way.
    await countResetRequest(ctx.db, request.body.email, request.ip, ctx.now());
    await requestPasswordReset(ctx, request.body);
    return { ok: true as const };
  });

  app.post('/api/auth/password-reset/confirm', {
    config: { access: 'public' },
    schema: { summary: 'Set a new password with the mailed token', body: passwordResetConfirmSchema, response: { 200: okResponseSchema } },
  }, async (request) => {
    await confirmPasswordReset(ctx, request.body);
    return { ok: true as const };
  });

  app.get('/api/auth/verify-email', {
    config: { access: 'public' },
    schema: { summary: 'The emailed verification link: back to /login with verified=1 or 0', querystring: verifyEmailQuery, response: redirected },
  }, async (request, reply) => {
    try {
      await verifyEmail(ctx, request.query.token);
      return await reply.redirect('/login?verified=1');
    } catch (error) {
      if (error instanceof AppError) return reply.redirect('/login?verified=0');
      throw error;
    }
  });

  // Browser navigations: every outcome is a redirect, a failure to /login with the message key.
  const failedSignIn = (reply: FastifyReply, error: unknown) => {
    if (!(error instanceof AppError)) throw error;
    return reply.clearCookie(STATE_COOKIE, { path: STATE_PATH }).redirect(`/login?error=${encodeURIComponent(error.key)}`);
  };
  const originOf = (request: FastifyRequest) => ctx.config.PUBLIC_URL ?? `${request.protocol}://${request.host}`;

  app.get('/api/auth/facebook', {
    config: { access: 'public' },
    schema: { summary: "Sign in with Facebook: off to Facebook's login dialog", response: redirected },
  }, async (request, reply) => {
    const state = newToken();
    try {
      const dialog = await facebookDialogUrl(ctx, originOf(request), state);
      return await reply.setCookie(STATE_COOKIE, state, { httpOnly: true, sameSite: 'lax', secure, path: STATE_PATH, maxAge: STATE_LIFETIME_S }).redirect(dialog);
    } catch (error) {
      return failedSignIn(reply, error);
    }
  });

  app.get('/api/auth/facebook/callback', {
    config: { access: 'public' },
    schema: { summary: "Facebook's answer: starts the session and goes to the user's home", querystring: facebookCallbackQuery, response: redirected },
  }, async (request, reply) => {
    const { code, state } = request.query;
    try {
      const expected = request.cookies[STATE_COOKIE];
      if (!expected || state !== expected || code === undefined) throw new AppError('login_error');
      const session = await facebookSignIn(ctx, originOf(request), code);
      return await setSessionCookie(reply, session.token).clearCookie(STATE_COOKIE, { path: STATE_PATH }).redirect(landingRouteAfterLogin(session.user.usertype as UserType));
    } catch (error) {
      return failedSignIn(reply, error);
    }
  });

  app.get('/api/auth/methods', {
    config: { access: 'public' },
    schema: { summary: 'The sign-in methods on offer', response: { 200: signInMethodsResponse } },
  }, () => signInMethods(ctx));

  app.post('/api/auth/logout', {
    config: { access: 'public' },
    schema: { summary: 'End this session', response: { 204: noContent } },
  }, async (request, reply) => {
    if (request.sessionToken) {
      await revokeSession(ctx.db, request.sessionToken);
      // The sockets opened with this session close too, on every process; the user's other sessions stay.
      if (request.actor) await announceSessionsEnded(ctx, { uid: request.actor.uid, only: request.sessionToken });
    }
    return reply.clearCookie(SESSION_COOKIE, { path: '/' }).status(204).send(null);
  });
}
