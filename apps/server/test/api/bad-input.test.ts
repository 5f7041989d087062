import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ENGINES, registeredRoutes, type TestApp } from '../harness';
import type { UserRow } from '../../src/modules/users/accounts';

const BIG = 'x'.repeat(100_000);
const FIELDS = ['email', 'password', 'firstName', 'lastName', 'mobile', 'usertype', 'amount', 'uid', 'label', 'name', 'title', 'body', 'otp', 'verificationId', 'token', 'bonus', 'driverRadius', 'promo_name', 'base_fare', 'regData', 'referralId', 'licenseImage', 'image', 'carType'];

const BODIES: { name: string; payload: string }[] = [
  { name: 'malformed JSON', payload: '{"email": "a@b.co", ' },
  { name: 'JSON null', payload: 'null' },
  { name: 'an array', payload: '[1, 2, 3]' },
  { name: 'a number', payload: '42' },
  { name: 'wrong types', payload: JSON.stringify(Object.fromEntries(FIELDS.map((f, i) => [f, [true, { nested: [i] }, 12.5, null][i % 4]]))) },
  { name: 'oversized strings', payload: JSON.stringify(Object.fromEntries(FIELDS.map((f) => [f, BIG]))) },
  { name: 'unknown and prototype fields', payload: '{"__proto__": {"admin": true}, "constructor": {"prototype": {}}, "unknownField": 1, "walletBalance": 1e9}' },
  { name: 'hostile strings', payload: JSON.stringify(Object.fromEntries(FIELDS.map((f) => [f, "'; drop table users; -- <script>\u0000"]))) },
];

const routes = (await registeredRoutes()).map(({ key, method, url }) => {
  return { key, method, url: url.replace(/:id/g, randomUUID()).replace('*', 'x/../../etc/passwd') };
});

describe.each(ENGINES)('no route answers 500 to bad input on %s', (engine) => {
  let t: TestApp;
  let admin: UserRow;
  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.makeUser('admin');
  });
  afterAll(() => t.close());

  for (const route of routes) {
    it(route.key, async () => {
      for (const body of BODIES) {
        for (const as of [null, admin]) {
          const response = await t.request({ method: route.method, url: route.url, as, payload: body.payload, headers: { 'content-type': 'application/json' } });
          expect({ body: body.name, status: response.statusCode }).toEqual({ body: body.name, status: expect.any(Number) });
          expect(response.statusCode, `${route.key} with ${body.name}`).toBeLessThan(500);
          if (response.statusCode >= 400) expect(response.json().error.code, `${route.key} with ${body.name}`).toEqual(expect.any(String));
        }
      }
      const query = await t.request({ method: route.method, url: `${route.url}?usertype[]=x&channel=${BIG.slice(0, 5000)}&token=%00`, as: admin });
      expect(query.statusCode).toBeLessThan(500);
    });
  }

  it('a body over the size limit is refused with a 4xx', async () => {
    const response = await t.request({ method: 'POST', url: '/api/auth/login', payload: JSON.stringify({ email: 'x'.repeat(9 * 1024 * 1024) }), headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('validation_error');
  });
});
