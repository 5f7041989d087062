import type { UserType } from '@rideway/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { SESSION_COOKIE, sessionOfToken, type SessionUser } from '../modules/accounts/sessions';
import { isAllowed, type Access } from './routing';
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
  const admit = (request: FastifyRequest, access: Access, token: string | null, user: SessionUser | null): AppError | undefined => {
    if (user) {
      request.actor = { uid: user.id, usertype: user.usertype as UserType, user, requestId: request.id };
      request.sessionToken = token;
    }
    if (isAllowed(access, request.actor?.usertype ?? null)) return undefined;
    return new AppError(request.actor ? 'forbidden' : 'not_logged_in');
  };
  // A callback hook: a visitor, or a session from the cache, is admitted without a promise; only
  // a session read from the database waits for it.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.routeOptions.url === undefined) {
      done();
      return;
    }
    const access = request.routeOptions.config.access;
    if (access === undefined) {
      done(new AppError('not_found'));
      return;
    }
    const token = tokenOf(request);
    const cached = request.routeOptions.config.sessionCache === true;
    const user = token && cached ? (cache.get(token, ctx.now()) ?? null) : null;
    if (!token || user) {
      done(admit(request, access, token, user));
      return;
    }
    const readAt = cache.generation();
    sessionOfToken(ctx.db, token, ctx.now()).then(
      (session) => {
        if (session && cached) cache.set(token, session.user, session.expiresAt, ctx.now(), readAt);
        done(admit(request, access, token, session?.user ?? null));
      },
      (error: unknown) => { done(error instanceof Error ? error : new Error(String(error))); },
    );
  });
}

/** The signed-in caller of a route the table already restricts. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError('not_logged_in');
  return request.actor;
}
