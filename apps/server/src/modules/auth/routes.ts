import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../../context';
import { AppError } from '../../http/app-error';
import { userView } from '../users/service';
import { confirmPasswordReset, login, register, requestOtp, requestPasswordReset, signInMethods, verifyEmail, verifyOtp } from './service';
import { revokeSession, SESSION_COOKIE, SESSION_LIFETIME_MS } from './sessions';

export function authRoutes(app: FastifyInstance, ctx: AppContext): void {
  const secure = ctx.config.PUBLIC_URL?.startsWith('https://') ?? false;
  const startSession = (reply: FastifyReply, token: string) =>
    reply.setCookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: SESSION_LIFETIME_MS / 1000 });

  app.post('/api/auth/register', async (request, reply) => {
    const user = await register(ctx, request.body);
    return reply.status(201).send({ user: await userView(ctx.db, user) });
  });

  app.post('/api/auth/login', async (request, reply) => {
    const { token, user } = await login(ctx, request.body, request.ip);
    startSession(reply, token);
    return { token, user: await userView(ctx.db, user) };
  });

  app.post('/api/auth/otp/request', async (request) => requestOtp(ctx, request.body));

  app.post('/api/auth/otp/verify', async (request, reply) => {
    const { token, user } = await verifyOtp(ctx, request.body);
    startSession(reply, token);
    return { token, user: await userView(ctx.db, user) };
  });

  app.post('/api/auth/password-reset', async (request) => {
    await requestPasswordReset(ctx, request.body);
    return { ok: true };
  });

  app.post('/api/auth/password-reset/confirm', async (request) => {
    await confirmPasswordReset(ctx, request.body);
    return { ok: true };
  });

  app.get('/api/auth/verify-email', async (request, reply) => {
    try {
      await verifyEmail(ctx, (request.query as Record<string, unknown>).token);
      return await reply.redirect('/login?verified=1');
    } catch (error) {
      if (error instanceof AppError) return reply.redirect('/login?verified=0');
      throw error;
    }
  });

  app.get('/api/auth/methods', () => signInMethods(ctx));

  app.post('/api/auth/logout', async (request, reply) => {
    if (request.sessionToken) await revokeSession(ctx.db, request.sessionToken);
    return reply.clearCookie(SESSION_COOKIE, { path: '/' }).status(204).send();
  });
}
