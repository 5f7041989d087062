import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../harness';

type Operation = { tags?: string[]; description?: string; summary?: string; security?: unknown[]; requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }> } };

describe('the OpenAPI document at /api/openapi.json', () => {
  let t: TestApp;
  let paths: Record<string, Record<string, Operation>>;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    const response = await t.request({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    paths = document.paths;
  });
  afterAll(() => t.close());

  const operation = (key: string): Operation | undefined => {
    const [method = '', url = ''] = key.split(' ');
    const path = url.replace(/:(\w+)/g, '{$1}').replace('*', '{*}');
    return paths[path]?.[method.toLowerCase()];
  };

  it('describes every route of the route table, with who may call it', () => {
    for (const [key, access] of t.app.routeAccess) {
      const op = operation(key);
      expect(op, key).toBeDefined();
      expect(op?.description, key).toMatch(/^(Anyone\.|Any signed-in user\.|Allowed: )/);
      if (access !== 'public') expect(op?.security, key).toEqual([{ bearerAuth: [] }, { cookieAuth: [] }]);
    }
  });

  it('answers with security headers and JSON logs off the request path', async () => {
    const response = await t.request({ method: 'GET', url: '/api/health' });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['strict-transport-security']).toBeDefined();
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    // Issue 15: no answer of the API is kept by a cache; plain http on a LAN address keeps working.
    expect(response.headers['cache-control']).toBe('no-store');
    // Same-origin form posts (a provider's card form) then say their origin, not `null`.
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(response.headers['content-security-policy']).toContain('img-src \'self\' data: blob: https://tile.openstreetmap.org');
  });

  // The headers are worked out once from the policy (issue 21): refusals, unknown paths and
  // invalid bodies carry them too, and the one route that opts out keeps nosniff.
  it('answers refusals, unknown paths and invalid bodies with the same security headers', async () => {
    const policy = (await t.request({ method: 'GET', url: '/api/health' })).headers['content-security-policy'];
    const rider = await t.makeUser('rider');
    const answers = await Promise.all([
      t.request({ method: 'GET', url: '/api/no-such-path' }),
      t.request({ method: 'GET', url: '/api/me' }),
      t.request({ method: 'POST', url: '/api/estimates', as: rider, payload: { pickup: 'here' } }),
      t.request({ method: 'POST', url: '/api/estimates', as: rider, headers: { origin: 'https://evil.example' }, payload: {} }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([404, 401, 400, 403]);
    for (const answer of answers) {
      expect(answer.headers['content-security-policy']).toBe(policy);
      expect(answer.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
    const driver = await t.makeUser('driver');
    await t.goOnline(driver);
    const location = await t.request({ method: 'POST', url: '/api/driver/location', as: driver, payload: { lat: 51.5, lng: -0.12 } });
    expect(location.statusCode).toBe(200);
    expect(location.headers['x-content-type-options']).toBe('nosniff');
    expect(location.headers['content-security-policy']).toBeUndefined();
    expect(location.headers['strict-transport-security']).toBeUndefined();
  });

  it('documents request bodies with the contract schemas', () => {
    const register = operation('POST /api/auth/register')?.requestBody?.content['application/json']?.schema;
    expect(Object.keys(register?.properties ?? {})).toEqual(expect.arrayContaining(['firstName', 'email', 'password', 'usertype', 'licenseImage']));
    const carType = operation('POST /api/cartypes')?.requestBody?.content['application/json']?.schema;
    expect(carType?.required).toEqual(expect.arrayContaining(['name', 'base_fare', 'convenience_fee_type']));
    expect(carType?.properties).not.toHaveProperty('id');
    const promoUpdate = operation('PATCH /api/promos/:id')?.requestBody?.content['application/json']?.schema;
    expect(promoUpdate?.properties).not.toHaveProperty('user_avail');
  });
});
