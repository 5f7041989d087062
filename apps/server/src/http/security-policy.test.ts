import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { originOfTemplate, securityHeaders } from './security-policy';

type Directives = Record<string, string[] | null>;
const directivesOf = (env: Record<string, string>): Directives => {
  const options = securityHeaders(loadConfig(env), ['https://checkout.example.com/pay']);
  const csp = options.contentSecurityPolicy;
  if (typeof csp !== 'object') throw new Error('no policy');
  return csp.directives as Directives;
};

describe('the security policy, built from the configuration', () => {
  it('reads the origin of a tile URL template, subdomain placeholders as any subdomain', () => {
    expect(originOfTemplate('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe('https://tile.openstreetmap.org');
    expect(originOfTemplate('https://{s}.Tiles.example.org:8443/a/{z}/{x}/{y}@2x.png')).toBe('https://*.tiles.example.org:8443');
    expect(() => originOfTemplate('ftp://x/{z}/{x}/{y}')).toThrow();
  });

  it("lets maps load the configured tiles and forms post to the providers' pages", () => {
    const directives = directivesOf({ MAP_TILE_URL: 'http://127.0.0.1:9999/{z}/{x}/{y}.png' });
    expect(directives['img-src']).toEqual(["'self'", 'data:', 'blob:', 'http://127.0.0.1:9999']);
    expect(directives['form-action']).toEqual(["'self'", 'https://checkout.example.com']);
    expect(directivesOf({})['img-src']).toContain('https://tile.openstreetmap.org');
  });

  it("lets maps load Google's tiles when Google's map is on, beside MAP_TILE_URL's (the fallback), and nowhere else", () => {
    const google = { MAPS_PROVIDER: 'google', GOOGLE_MAPS_API_KEY: 'AIzaServerKey_123456' };
    expect(directivesOf(google)['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https://tile.openstreetmap.org']);
    const withMap = { ...google, GOOGLE_MAP_TILES_API_KEY: 'AIzaBrowserKey_123456' };
    expect(directivesOf(withMap)['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https://tile.openstreetmap.org', 'https://tile.googleapis.com']);
    expect(directivesOf({ ...withMap, GOOGLE_MAPS_API_URL: 'http://127.0.0.1:9000' })['img-src']).toContain('http://127.0.0.1:9000');
    expect(directivesOf({ ...withMap, GOOGLE_MAPS_API_URL: 'http://127.0.0.1:9000', GOOGLE_MAP_TILES_URL: 'http://127.0.0.1:9001' })['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https://tile.openstreetmap.org', 'http://127.0.0.1:9001']);
    // Tiles are images: no script, frame or fetch is opened to them.
    expect([directivesOf(withMap)['connect-src'], directivesOf(withMap)['script-src']]).toEqual([undefined, undefined]);
    // A browser key without Google's provider draws MAP_TILE_URL's tiles only.
    expect(directivesOf({ GOOGLE_MAP_TILES_API_KEY: 'AIzaBrowserKey_123456' })['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https://tile.openstreetmap.org']);
  });

  it('upgrades insecure requests only where the public address is https', () => {
    expect(directivesOf({})['upgrade-insecure-requests']).toBeNull();
    expect(directivesOf({ PUBLIC_URL: 'http://192.168.1.20:3000' })['upgrade-insecure-requests']).toBeNull();
    expect(directivesOf({ PUBLIC_URL: 'https://rides.example.com' })['upgrade-insecure-requests']).toEqual([]);
  });

  it("adds each configured payment provider's hosts, and nothing without one (issue 18)", () => {
    const none = directivesOf({});
    expect(none['script-src']).toBeUndefined();
    expect(none['frame-src']).toBeUndefined();
    expect(none['connect-src']).toBeUndefined();
    const stripe = directivesOf({ STRIPE_SECRET_KEY: 'sk_test_0123456789abcdef', STRIPE_WEBHOOK_SECRET: 'whsec_0123456789abcdef' });
    expect(stripe['form-action']).toEqual(["'self'", 'https://checkout.example.com', 'https://checkout.stripe.com']);
    expect(stripe['script-src']).toBeUndefined();
    const braintree = directivesOf({ BRAINTREE_MERCHANT_ID: 'merchant1', BRAINTREE_PUBLIC_KEY: 'public1', BRAINTREE_PRIVATE_KEY: 'private-key-1' });
    expect(braintree['script-src']).toEqual(["'self'", 'https://js.braintreegateway.com', 'https://assets.braintreegateway.com']);
    expect(braintree['frame-src']).toEqual(["'self'", 'https://assets.braintreegateway.com']);
    expect(braintree['connect-src']).toContain('https://api.sandbox.braintreegateway.com');
    // Drop-in's card images, beside the map tiles; nobody else's.
    expect(braintree['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https://tile.openstreetmap.org', 'https://assets.braintreegateway.com']);
    expect(stripe['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https://tile.openstreetmap.org']);
    // An adapter's own declaration, as given.
    const own = securityHeaders(loadConfig({}), [], [{ formAction: ['https://pay.example/x'], script: ['https://js.pay.example/v1.js'], frame: [], connect: ['https://api.pay.example'] }]);
    const directives = (own.contentSecurityPolicy as { directives: Directives }).directives;
    expect([directives['form-action'], directives['script-src'], directives['frame-src'], directives['connect-src']]).toEqual([["'self'", 'https://pay.example'], ["'self'", 'https://js.pay.example'], undefined, ["'self'", 'https://api.pay.example']]);
  });

  it('refuses a tile URL without its {z}/{x}/{y} placeholders', () => {
    expect(() => loadConfig({ MAP_TILE_URL: 'https://tiles.example.org/map.png' })).toThrow(/MAP_TILE_URL/);
  });
});
