import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { languages } from '../../src/db/schema';
import { dataChanged } from '../../src/db/read-cache';
import type { LandingView } from '../../src/http/landing-page';
import { registerWebApp } from '../../src/http/web-app';
import { ar } from '../../src/modules/languages/messages/ar';
import { en } from '../../src/modules/languages/messages/en';
import type { UserRow } from '../../src/modules/users/accounts';
import { createTestApp, ENGINES, type TestApp } from '../harness';

/** A web build as vite-plugins/landing-shell.ts leaves it: the plain page and a draft per writing direction. */
const draft = (name: string, heading = 'h1') =>
  `<!doctype html><html lang="en"><head><title>Rideway</title></head><body><div id="root"><div data-draft="${name}"><${heading}>%%hero_slogan%%</${heading}><p>%%hero_subtitle%%</p><div role="status" aria-label="%%loading%%"></div></div></div></body></html>`;
const DRAFTS = ['ltr-visitor', 'rtl-visitor', 'ltr-member', 'rtl-member'];

function webBuild(): string {
  const root = mkdtempSync(join(tmpdir(), 'rideway-landing-'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><html lang="en"><head><title>Rideway</title></head><body><div id="root"></div></body></html>');
  for (const name of DRAFTS) writeFileSync(join(root, `landing-${name}.html`), draft(name));
  return root;
}

const page = { method: 'GET' as const, url: '/', headers: { accept: 'text/html' } };

/**
 * Issue 21 point 5: the landing page arrives with its hero drawn (a phone paints the slogan before
 * the app's script has loaded), in the visitor's chosen language, for those who get the booking
 * form on it (spec section 2: visitors, riders and admins). Admins' texts are escaped.
 */
describe.each(ENGINES)('the landing page drawn by the server on %s', (engine) => {
  let t: TestApp;
  let rider: UserRow;
  let driver: UserRow;
  const root = webBuild();
  const get = async (headers: Record<string, string> = {}, as: UserRow | null = null) => {
    const response = await t.request({ ...page, headers: { ...page.headers, ...headers }, as });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    return response;
  };

  beforeAll(async () => {
    t = await createTestApp(engine, {}, { webRoot: root });
    rider = await t.makeUser('rider');
    driver = await t.makeUser('driver');
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("writes a visitor's page in the default language, left to right, with no mark left", async () => {
    const html = (await get()).body;
    expect(html).toContain('<html lang="en" dir="ltr">');
    expect(html).toContain('data-draft="ltr-visitor"');
    expect(html).toContain(`<h1>${en.hero_slogan}</h1>`);
    expect(html).toContain(`<p>${en.hero_subtitle}</p>`);
    expect(html).toContain(`aria-label="${en.loading}"`);
    expect(html).not.toContain('%%');
  });

  it('writes it in the language the visitor chose (the app\'s cookie), right to left for Arabic', async () => {
    const html = (await get({ cookie: 'rideway_language=ar' })).body;
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain('data-draft="rtl-visitor"');
    expect(html).toContain(`<h1>${ar.hero_slogan}</h1>`);
    expect((await get({ cookie: 'rideway_language=es' })).body).toContain('<html lang="es" dir="ltr">');
  });

  it('takes a language that is not here, or an object property, as no choice', async () => {
    for (const cookie of ['rideway_language=xx', 'rideway_language=__proto__', 'rideway_language=constructor', `rideway_language=${'a'.repeat(3000)}`]) {
      const html = (await get({ cookie })).body;
      expect(html).toContain('<html lang="en" dir="ltr">');
      expect(html).toContain(`<h1>${en.hero_slogan}</h1>`);
    }
  });

  it('draws a rider\'s page with the signed-in form\'s shape (it has a map) and leaves a driver\'s plain: its hero has no form', async () => {
    const riders = (await get({ cookie: 'rideway_language=ar' }, rider)).body;
    expect(riders).toContain('data-draft="rtl-member"');
    expect(riders).toContain(`<h1>${ar.hero_slogan}</h1>`);
    const plain = (await get({}, driver)).body;
    expect(plain).toContain('<div id="root"></div>');
    expect(plain).not.toContain('<h1>');
  });

  it("escapes an admin's text and follows its change on the next request", async () => {
    const [row] = await t.db.select({ messages: languages.messages }).from(languages).where(eq(languages.code, 'en'));
    const hostile = '<img src=x onerror=alert(1)> & "quoted" \'single\'';
    await t.db.update(languages).set({ messages: { ...row?.messages, hero_slogan: hostile } }).where(eq(languages.code, 'en'));
    await dataChanged('languages');
    try {
      const html = (await get()).body;
      expect(html).toContain('<h1>&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quoted&quot; &#39;single&#39;</h1>');
      expect(html).not.toContain('<img');
    } finally {
      await t.db.update(languages).set({ messages: row?.messages ?? {} }).where(eq(languages.code, 'en'));
      await dataChanged('languages');
    }
    expect((await get()).body).toContain(`<h1>${en.hero_slogan}</h1>`);
  });

  it('sends it compressed as the browser accepts, never kept by a cache, varying with the cookie', async () => {
    const plain = (await get()).body;
    const brotli = await get({ 'accept-encoding': 'gzip, deflate, br' });
    expect([brotli.headers['content-encoding'], brotli.headers['cache-control'], brotli.headers.vary]).toEqual(['br', 'no-cache', 'accept-encoding, cookie']);
    expect(brotliDecompressSync(brotli.rawPayload).toString('utf8')).toBe(plain);
    const gzip = await get({ 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe(plain);
  });
});

describe('the landing page without its drafts or its language', () => {
  const withApp = async (root: string, landingView: () => Promise<LandingView | null>) => {
    const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await registerWebApp(app, () => Promise.resolve('status'), root, landingView);
    return app;
  };

  it('serves the plain page when the language cannot be read (a database down): a 200, never a 500', async () => {
    const root = webBuild();
    const app = await withApp(root, () => Promise.reject(new Error('connection terminated')));
    try {
      const response = await app.inject(page);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<div id="root"></div>');
    } finally {
      await app.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('serves the drawing of a web app built again while it runs, and the plain page for a drawing it cannot use', async () => {
    const root = webBuild();
    const path = join(root, 'landing-ltr-visitor.html');
    const later = (seconds: number) => { utimesSync(path, new Date(), new Date(Date.now() + seconds * 1000)); };
    const app = await withApp(root, () => Promise.resolve({ language: { code: 'en', dir: 'ltr', messages: { hero_slogan: 'Hello' } }, signedIn: false }));
    try {
      expect((await app.inject(page)).body).toContain('<h1>Hello</h1>');
      writeFileSync(path, draft('ltr-visitor', 'h2'));
      later(10);
      expect((await app.inject(page)).body).toContain('<h2>Hello</h2>');
      writeFileSync(path, '<!doctype html><html><body>half written');
      later(20);
      const plain = await app.inject(page);
      expect([plain.statusCode, plain.body]).toEqual([200, expect.stringContaining('<div id="root"></div>')]);
    } finally {
      await app.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('serves the plain page from a build without drafts', async () => {
    const root = webBuild();
    rmSync(join(root, 'landing-rtl-member.html'));
    const app = await withApp(root, () => Promise.reject(new Error('never asked')));
    try {
      expect((await app.inject(page)).body).toContain('<div id="root"></div>');
    } finally {
      await app.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
