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

  it('upgrades insecure requests only where the public address is https', () => {
    expect(directivesOf({})['upgrade-insecure-requests']).toBeNull();
    expect(directivesOf({ PUBLIC_URL: 'http://192.168.1.20:3000' })['upgrade-insecure-requests']).toBeNull();
    expect(directivesOf({ PUBLIC_URL: 'https://rides.example.com' })['upgrade-insecure-requests']).toEqual([]);
  });

  it('refuses a tile URL without its {z}/{x}/{y} placeholders', () => {
    expect(() => loadConfig({ MAP_TILE_URL: 'https://tiles.example.org/map.png' })).toThrow(/MAP_TILE_URL/);
  });
});
