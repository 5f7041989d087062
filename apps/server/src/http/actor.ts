import type { UserType } from '@rideway/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { SESSION_COOKIE, sessionOfToken, type SessionUser } from '../modules/accounts/sessions';
import { isAllowed } from './routing';
import type { SessionCache } from './session-cache';
import { AppError } from './app-error';

/**
 * The signed-in caller, and the request it acts in: the audit log (issue 23 point 8) names the
 * request, so an entry can be matched with the server's log lines.
 */
export type Actor = { uid: string; usertype: UserType; user: SessionUser; requestId: string };

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
    sessionToken: string | null;
  }
}

function tokenOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length).trim() || null;
  return request.cookies[SESSION_COOKIE] ?? null;
}

/**
 * Resolves the caller from the session and applies the route's access before anything else runs:
 * 401 not_logged_in for a signed-out caller on a protected route, 403 forbidden for a role the
 * route does not admit.
 */
export function registerActorHook(app: FastifyInstance, ctx: AppContext, cache: SessionCache): void {
  app.decorateRequest('actor', null);
  app.decorateRequest('sessionToken', null);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.url === undefined) return;
    const access = request.routeOptions.config.access;
    if (access === undefined) throw new AppError('not_found');
    const token = tokenOf(request);
    const cached = request.routeOptions.config.sessionCache === true;
    let user = token && cached ? (cache.get(token, ctx.now()) ?? null) : null;
    if (token && !user) {
      const readAt = cache.generation();
      const session = await sessionOfToken(ctx.db, token, ctx.now());
      user = session?.user ?? null;
      if (session && cached) cache.set(token, session.user, session.expiresAt, ctx.now(), readAt);
    }
    if (user) {
      request.actor = { uid: user.id, usertype: user.usertype as UserType, user, requestId: request.id };
      request.sessionToken = token;
    }
    if (isAllowed(access, request.actor?.usertype ?? null)) return;
    throw new AppError(request.actor ? 'forbidden' : 'not_logged_in');
  });
}

/** The signed-in caller of a route the table already restricts. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError('not_logged_in');
  return request.actor;
}
