/**
 * Security-critical: cross-site request forgery. A browser attaches the session cookie to a
 * request another site makes it send (a form post, a WebSocket), so an unsafe request, and the
 * WebSocket's upgrade, that says it comes from another origin (its Origin header, or its Referer
 * where a browser sent no Origin) is refused. Clients that are not browsers send neither and use
 * a Bearer token. Routes that receive cross-site posts by design (a payment provider's return or
 * notification, an OAuth form_post) say so with `config: { crossSite: true }` and carry their own
 * signature or state.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { AppError } from './app-error';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route receives cross-site requests by design and checks their signature or state itself. */
    crossSite?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const originOf = (value: string): string | undefined => {
  try {
    return new URL(value).origin;
  } catch {
    return undefined;
  }
};

/** The origin a request says it comes from, or undefined where it says none. */
function claimedOrigin(request: FastifyRequest): string | undefined | null {
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== '') return origin === 'null' ? null : (originOf(origin) ?? null);
  const referer = request.headers.referer;
  if (typeof referer === 'string' && referer !== '') return originOf(referer) ?? null;
  return undefined;
}

export function registerCsrfCheck(app: FastifyInstance, config: Config): void {
  const publicOrigin = config.PUBLIC_URL === undefined ? undefined : originOf(config.PUBLIC_URL);
  app.addHook('onRequest', (request, _reply, done) => {
    const upgrade = request.headers.upgrade?.toLowerCase() === 'websocket';
    if ((SAFE_METHODS.has(request.method) && !upgrade) || request.routeOptions.config.crossSite === true) {
      done();
      return;
    }
    const claimed = claimedOrigin(request);
    // The app's own origin: where the browser reached this server (through TRUST_PROXY's host), or
    // the public address. Worked out only for a request that claims one (an app's claims none).
    const trusted = claimed === undefined || (claimed !== null && (claimed === publicOrigin || claimed === originOf(`${request.protocol}://${request.host}`)));
    done(trusted ? undefined : new AppError('forbidden', 'origin'));
  });
}
