import { loginRequestSchema, otpRequestSchema, otpVerifySchema, passwordResetConfirmSchema, passwordResetRequestSchema, registerRequestSchema } from '@rideway/contract';
import { landingRouteAfterLogin, type UserType } from '@rideway/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { withBody, withSummary } from '../../http/docs';
import { AppError } from '../../http/app-error';
import { userView } from '../users/service';
import { facebookDialogUrl, facebookSignIn } from './facebook';
import { signInMethods } from './methods';
import { confirmPasswordReset, login, register, requestOtp, requestPasswordReset, verifyEmail, verifyOtp } from './service';
import { newToken, revokeSession, SESSION_COOKIE, SESSION_LIFETIME_MS } from './sessions';

// The login dialog's round trip carries a one-time state, kept in a cookie for the callback only.
const STATE_COOKIE = 'rideway_oauth_state';
const STATE_PATH = '/api/auth/facebook';
const STATE_LIFETIME_S = 10 * 60;

export function authRoutes(app: FastifyInstance, ctx: AppContext): void {
  const secure = ctx.config.PUBLIC_URL?.startsWith('https://') ?? false;
  const startSession = (reply: FastifyReply, token: string) =>
    reply.setCookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: SESSION_LIFETIME_MS / 1000 });

  app.post('/api/auth/register', withBody('Register a rider or a driver (section 5)', registerRequestSchema), async (request, reply) => {
    const user = await register(ctx, request.body);
    return reply.status(201).send({ user: await userView(ctx.db, user) });
  });

  app.post('/api/auth/login', withBody('Sign in by email and password; sets the session cookie', loginRequestSchema), async (request, reply) => {
    const { token, user } = await login(ctx, request.body, request.ip);
    startSession(reply, token);
    return { token, user: await userView(ctx.db, user) };
  });

  app.post('/api/auth/otp/request', withBody('Phone sign-in: send a 6-digit code by SMS', otpRequestSchema), async (request) => requestOtp(ctx, request.body));

  app.post('/api/auth/otp/verify', withBody('Phone sign-in: verify the code', otpVerifySchema), async (request, reply) => {
    const { token, user } = await verifyOtp(ctx, request.body);
    startSession(reply, token);
    return { token, user: await userView(ctx.db, user) };
  });

  app.post('/api/auth/password-reset', withBody('Mail a single-use password reset link', passwordResetRequestSchema), async (request) => {
    await requestPasswordReset(ctx, request.body);
    return { ok: true };
  });

  app.post('/api/auth/password-reset/confirm', withBody('Set a new password with the mailed token', passwordResetConfirmSchema), async (request) => {
    await confirmPasswordReset(ctx, request.body);
    return { ok: true };
  });

  app.get('/api/auth/verify-email', withSummary('The emailed verification link'), async (request, reply) => {
    try {
      await verifyEmail(ctx, (request.query as Record<string, unknown>).token);
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

  app.get('/api/auth/facebook', withSummary("Sign in with Facebook: off to Facebook's login dialog"), async (request, reply) => {
    const state = newToken();
    try {
      const dialog = await facebookDialogUrl(ctx, originOf(request), state);
      return await reply.setCookie(STATE_COOKIE, state, { httpOnly: true, sameSite: 'lax', secure, path: STATE_PATH, maxAge: STATE_LIFETIME_S }).redirect(dialog);
    } catch (error) {
      return failedSignIn(reply, error);
    }
  });

  app.get('/api/auth/facebook/callback', withSummary("Facebook's answer: starts the session and goes to the user's home"), async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    try {
      const expected = request.cookies[STATE_COOKIE];
      if (!expected || query.state !== expected || typeof query.code !== 'string' || query.code.length > 2000) throw new AppError('login_error');
      const { token, user } = await facebookSignIn(ctx, originOf(request), query.code);
      startSession(reply, token);
      return await reply.clearCookie(STATE_COOKIE, { path: STATE_PATH }).redirect(landingRouteAfterLogin(user.usertype as UserType));
    } catch (error) {
      return failedSignIn(reply, error);
    }
  });

  app.get('/api/auth/methods', withSummary('The sign-in methods on offer'), () => signInMethods(ctx));

  app.post('/api/auth/logout', withSummary('End this session'), async (request, reply) => {
    if (request.sessionToken) await revokeSession(ctx.db, request.sessionToken);
    return reply.clearCookie(SESSION_COOKIE, { path: '/' }).status(204).send();
  });
}
