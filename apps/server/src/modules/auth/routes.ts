import { loginRequestSchema, otpRequestSchema, otpVerifySchema, passwordResetConfirmSchema, passwordResetRequestSchema, registerRequestSchema } from '@rideway/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../../context';
import { withBody, withSummary } from '../../http/docs';
import { AppError } from '../../http/app-error';
import { userView } from '../users/service';
import { confirmPasswordReset, login, register, requestOtp, requestPasswordReset, signInMethods, verifyEmail, verifyOtp } from './service';
import { revokeSession, SESSION_COOKIE, SESSION_LIFETIME_MS } from './sessions';

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

  app.get('/api/auth/methods', withSummary('The sign-in methods on offer'), () => signInMethods(ctx));

  app.post('/api/auth/logout', withSummary('End this session'), async (request, reply) => {
    if (request.sessionToken) await revokeSession(ctx.db, request.sessionToken);
    return reply.clearCookie(SESSION_COOKIE, { path: '/' }).status(204).send();
  });
}
