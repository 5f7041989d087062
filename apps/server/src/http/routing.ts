/**
 * Security-critical: every route declares who may call it (`config: { access }`) beside its
 * schemas, and one hook (http/actor.ts) applies it before anything else runs. A route without
 * an access or without response schemas stops the server at start.
 */
import { errorResponses } from '@rideway/contract';
import type { FastifyBaseLogger, FastifyInstance, FastifySchema, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault, RouteOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { USER_TYPES, type UserType } from '@rideway/domain';

/** Anyone; any signed-in user; or only these user types. */
export type Access = 'public' | 'signedIn' | readonly UserType[];

export const ALL: readonly UserType[] = USER_TYPES;
export const ADMIN: readonly UserType[] = ['admin'];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (required on every route; checked at start). */
    access?: Access;
    /**
     * The session may come from the short cache of hot routes (http/session-cache.ts): only for
     * routes whose handlers read the caller's uid and usertype, never other profile fields.
     */
    sessionCache?: boolean;
    /** false: the route writes no events, so the relay is not kicked after it. */
    writesEvents?: boolean;
    /**
     * true: the route's service wakes the relay itself once its change committed (a trip step's
     * afterStep, a decline), so the answer does not wake it a second time for a pass that finds nothing.
     */
    relaysItself?: boolean;
  }
  interface FastifyInstance {
    /** Every route's access, as registered: the role matrix of the API tests is built from it. */
    routeAccess: Map<string, Access>;
  }
}

/** The Fastify instance routes are declared on: request and reply typed from their zod schemas. */
export type RouteApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;

export const isAllowed = (access: Access, usertype: UserType | null): boolean =>
  access === 'public' || (usertype !== null && (access === 'signedIn' || access.includes(usertype)));

/** The OpenAPI tag, security and note on who may call a route. */
function describeAccess(url: string, access: Access): FastifySchema {
  const tag = url.startsWith('/api/') ? (url.split('/')[2] ?? 'api') : 'compat (spec section 7)';
  const who = access === 'public' ? 'Anyone.' : access === 'signedIn' ? 'Any signed-in user.' : `Allowed: ${access.join(', ')}.`;
  return {
    tags: [tag],
    description: who,
    ...(access === 'public' ? {} : { security: [{ bearerAuth: [] }, { cookieAuth: [] }] }),
  };
}

const routeKey = (method: string, url: string): string => `${method} ${url}`;

/**
 * Checks each route as it is registered: its access is declared, its responses are declared
 * (the error answers are added to every route's document here, once), and the access is noted
 * in the API document and in `app.routeAccess`.
 */
export function registerRouteChecks(app: FastifyInstance): void {
  app.decorate('routeAccess', new Map<string, Access>());
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.every((method) => method === 'HEAD')) return;
    const label = routeKey(methods.filter((method) => method !== 'HEAD').join(','), route.url);
    const access = route.config?.access;
    if (access === undefined) throw new Error(`route ${label} declares no access`);
    const schema = route.schema ?? {};
    if (schema.response === undefined) throw new Error(`route ${label} declares no responses`);
    route.schema = { ...describeAccess(route.url, access), ...schema, response: { ...errorResponses, ...(schema.response as object) } };
    for (const method of methods) if (method !== 'HEAD') app.routeAccess.set(routeKey(method, route.url), access);
  });
}
