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
  signInResponse,
  signInMethodsResponse,
  socialCallbackFields,
  socialStartQuery,
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
import { signInMethods, type SocialProvider } from './methods';
import { finishSocialSignIn, SIGN_IN_LIFETIME_MS, startSocialSignIn, type SocialCallback } from './oidc';
import { requestOtp, verifyOtp } from './otp';
import { login, register } from './service';
import { countResetRequest } from './throttle';
import { needsSecondStep, type SecondStep, type SignedIn } from './two-factor';
import { challengeAnswer, secondStepPage, twoFactorCookie, twoFactorRoutes } from './two-factor-routes';

// The login dialog's round trip carries a one-time state, kept in a cookie for the callback only.
const STATE_COOKIE = 'rideway_oauth_state';
const STATE_PATH = '/api/auth/facebook';
const STATE_LIFETIME_S = 10 * 60;
/**
 * Google and Apple sign-in (issue 20): the browser's half of a sign-in under way (oidc.ts). Apple
 * answers with a cross-site form post, which carries a cookie only when it is SameSite=None, and
 * browsers keep those only when Secure: so None and Secure over https, Lax over plain http (a LAN
 * install: Google's return is a top-level GET, which carries Lax; Apple accepts https returns only).
 */
const SOCIAL_COOKIE = 'rideway_social';
const SOCIAL_PATH = '/api/auth';

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
  /** Issue 20 point 5: a session as before, or the challenge of the second step (also set as a cookie for the web). */
  const sessionOrSecondStep = async (reply: FastifyReply, outcome: SignedIn | SecondStep) => {
    if (!needsSecondStep(outcome)) return startSession(reply, outcome);
    void twoFactorCookie(reply, secure, outcome);
    return challengeAnswer(outcome);
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
    schema: {
      summary: 'Sign in by email and password; sets the session cookie, or answers a challenge when a second step (two-factor) is needed',
      body: loginRequestSchema,
      response: { 200: signInResponse },
    },
  }, async (request, reply) => sessionOrSecondStep(reply, await login(ctx, request.body, request.ip)));

  app.post('/api/auth/otp/request', {
    config: { access: 'public' },
    schema: { summary: 'Phone sign-in: send a 6-digit code by SMS', body: otpRequestSchema, response: { 200: otpRequestResponse } },
  }, async (request) => requestOtp(ctx, request.body, request.ip));

  app.post('/api/auth/otp/verify', {
    config: { access: 'public' },
    schema: { summary: 'Phone sign-in: verify the code; sets the session cookie, or answers a challenge when a second step (two-factor) is needed', body: otpVerifySchema, response: { 200: signInResponse } },
  }, async (request, reply) => sessionOrSecondStep(reply, await verifyOtp(ctx, request.body)));

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
      reply.clearCookie(STATE_COOKIE, { path: STATE_PATH });
      if (needsSecondStep(session)) return await twoFactorCookie(reply, secure, session).redirect(secondStepPage(session));
      return await setSessionCookie(reply, session.token).redirect(landingRouteAfterLogin(session.user.usertype as UserType));
    } catch (error) {
      return failedSignIn(reply, error);
    }
  });

  const socialFailed = (reply: FastifyReply, error: unknown) => {
    if (!(error instanceof AppError)) throw error;
    return reply.clearCookie(SOCIAL_COOKIE, { path: SOCIAL_PATH }).redirect(`/login?error=${encodeURIComponent(error.key)}`);
  };
  const finishSocial = async (request: FastifyRequest, reply: FastifyReply, provider: SocialProvider, answer: SocialCallback) => {
    try {
      const session = await finishSocialSignIn(ctx, provider, originOf(request), answer, request.cookies[SOCIAL_COOKIE]);
      reply.clearCookie(SOCIAL_COOKIE, { path: SOCIAL_PATH });
      if (needsSecondStep(session)) return await twoFactorCookie(reply, secure, session).redirect(secondStepPage(session));
      return await setSessionCookie(reply, session.token).redirect(session.landing);
    } catch (error) {
      return socialFailed(reply, error);
    }
  };
  for (const provider of ['google', 'apple'] as const) {
    const name = provider === 'google' ? 'Google' : 'Apple';
    app.get(`/api/auth/${provider}/start`, {
      config: { access: 'public' },
      schema: { summary: `Sign in with ${name}: off to ${name}'s sign-in page (OpenID Connect)`, querystring: socialStartQuery, response: redirected },
    }, async (request, reply) => {
      try {
        const started = await startSocialSignIn(ctx, provider, originOf(request), request.query.next);
        const https = request.protocol === 'https';
        return await reply
          .setCookie(SOCIAL_COOKIE, started.browserToken, { httpOnly: true, sameSite: https ? 'none' : 'lax', secure: https, path: SOCIAL_PATH, maxAge: SIGN_IN_LIFETIME_MS / 1000 })
          .redirect(started.url);
      } catch (error) {
        return socialFailed(reply, error);
      }
    });
  }

  app.get('/api/auth/google/callback', {
    config: { access: 'public' },
    schema: { summary: "Google's answer: starts the session and goes to the page asked for or the user's home", querystring: socialCallbackFields, response: redirected },
  }, async (request, reply) => finishSocial(request, reply, 'google', request.query));

  app.post('/api/auth/apple/callback', {
    // Apple posts its answer from appleid.apple.com (response_mode=form_post): a cross-site post by
    // design, so the Origin check lets it through; the single-use state, the browser's cookie and
    // the ID token's nonce are what this route checks instead (oidc.ts).
    config: { access: 'public', crossSite: true },
    // Documented as the form post it is (a browser's navigation: every problem is a redirect to /login).
    schema: { summary: "Apple's answer (a form post): starts the session and goes to the page asked for or the user's home", consumes: ['application/x-www-form-urlencoded'], body: socialCallbackFields, response: redirected },
  }, async (request, reply) => finishSocial(request, reply, 'apple', request.body));

  app.get('/api/auth/methods', {
    config: { access: 'public' },
    schema: { summary: 'The sign-in methods on offer', response: { 200: signInMethodsResponse } },
  }, () => signInMethods(ctx));

  twoFactorRoutes(app, ctx, { secure, setSessionCookie, originOf });

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
