import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { Config } from '../config';
import { googleTilesBase } from '../providers/maps/google-tiles';
import { providerPolicies } from '../providers/payments/in-force';
import type { PaymentProviderPort } from '../providers/payments/port';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * false: the route's answer is JSON fetched by an app, and carries only nosniff of the
     * document headers (a policy, frame and HSTS headers mean nothing to a fetch).
     */
    documentHeaders?: false;
  }
}

/**
 * The origin a URL template's requests go to: `https://{s}.tile.example.org/{z}/{x}/{y}.png`
 * becomes `https://*.tile.example.org` (a subdomain placeholder is any subdomain).
 */
export function originOfTemplate(template: string): string {
  const match = /^(https?):\/\/([^/]+)/i.exec(template);
  if (!match) throw new Error(`not an http(s) URL template: ${template}`);
  const [, scheme = 'https', host = ''] = match;
  return `${scheme.toLowerCase()}://${host.replace(/\{[a-z]+\}/gi, '*').toLowerCase()}`;
}

/**
 * The security headers, built from the configuration (what a real browser loads from other
 * hosts): map tiles from the configured tile server (and Google's Map Tiles API when Google's
 * map is on: MAP_TILE_URL stays allowed, it is the fallback), card forms posted to the configured
 * payment providers' pages, and `upgrade-insecure-requests` only where the public address is
 * https, so the app still works when opened over plain http on a network address.
 */
export function securityHeaders(config: Config, formTargets: readonly string[] = [], payments: readonly NonNullable<PaymentProviderPort['policy']>[] = providerPolicies(config)): HelmetOptions {
  const https = config.PUBLIC_URL?.startsWith('https://') ?? false;
  // Each configured payment provider's hosts (issue 18), and nothing else: none without one.
  const hosts = (pick: (policy: NonNullable<PaymentProviderPort['policy']>) => string[] | undefined): string[] => [...new Set(payments.flatMap((policy) => (pick(policy) ?? []).map(originOfTemplate)))];
  const extra = (directive: string, origins: string[]): Record<string, string[]> => (origins.length > 0 ? { [directive]: ["'self'", ...origins] } : {});
  // Leaflet loads tiles as images: img-src is the one directive they need (no fetch, no script).
  const googleTiles = googleTilesBase(config);
  const tiles = [originOfTemplate(config.MAP_TILE_URL), ...(googleTiles ? [originOfTemplate(googleTiles)] : [])];
  return {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'img-src': ["'self'", 'data:', 'blob:', ...new Set([...tiles, ...hosts((policy) => policy.image)])],
        'form-action': ["'self'", ...new Set([...formTargets.map(originOfTemplate), ...hosts((policy) => policy.formAction)])],
        ...extra('script-src', hosts((policy) => policy.script)),
        ...extra('frame-src', hosts((policy) => policy.frame)),
        ...extra('connect-src', hosts((policy) => policy.connect)),
        'upgrade-insecure-requests': https ? [] : null,
      },
    },
    // Over plain http (a phone on the LAN) the browser ignores it with a console warning.
    crossOriginOpenerPolicy: https ? undefined : false,
    // The browser's own default: under helmet's no-referrer a same-origin form post says
    // `Origin: null`, which the cross-site check (csrf.ts) must refuse.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  };
}

/**
 * The headers helmet sets for these options, worked out once: the policy has no part that
 * differs between requests (no nonce, no directive computed per request), so each answer gets
 * the same set. @fastify/helmet built a new helmet middleware, and parsed the policy again, on
 * every request: about 45 µs of a 90 µs estimate (issue 21, point 1).
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const response = new ServerResponse(new IncomingMessage(new Socket()));
  helmet(options)(response.req, response, () => {});
  return Object.fromEntries(Object.entries(response.getHeaders()).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]));
}

/** Every answer carries the security headers, unless its route says `documentHeaders: false`. */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const headers = helmetHeaders(options);
  const nosniff = { 'x-content-type-options': headers['x-content-type-options'] ?? 'nosniff' };
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.routeOptions.config.documentHeaders === false ? nosniff : headers);
    done();
  });
}
