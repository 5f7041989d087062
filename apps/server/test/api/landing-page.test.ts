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
import { LandingPages, type LandingData, type LandingRequest, type LandingView } from '../../src/http/landing-page';
import { registerWebApp } from '../../src/http/web-app';
import { ar } from '../../src/modules/languages/messages/ar';
import { en } from '../../src/modules/languages/messages/en';
import { DEFAULT_SETTINGS } from '../../src/modules/settings/defaults';
import type { UserRow } from '../../src/modules/users/accounts';
import { createTestApp, ENGINES, type TestApp } from '../harness';

/**
 * The header as app/landing-shell.tsx draws it, in short: appName, a social link and the language
 * selector each in a part the server keeps only where it applies, and the menu button. Emotion's
 * style element for the icon buttons stands in the first part, before its first use.
 */
const HEADER =
  '<header><a href="/">%%setting:appName%%</a><nav aria-label="%%nav_main%%"><a href="/bookings">%%nav_login_signup%%</a></nav>' +
  '%%if:setting:FacebookHandle%%<style data-emotion="mui icon">.mui-icon{}</style><a class="mui-icon" href="%%link:FacebookHandle%%" aria-label="Facebook"></a>%%end:setting:FacebookHandle%%' +
  '%%if:setting:TwitterHandle%%<a class="mui-icon" href="%%link:TwitterHandle%%" aria-label="Twitter"></a>%%end:setting:TwitterHandle%%' +
  '%%if:languages%%<div role="combobox" aria-label="%%language%%">%%language:name%%</div><input value="%%language:code%%">%%end:languages%%' +
  '<button class="mui-icon" aria-label="%%open_menu%%"></button></header>';
/** A web build as vite-plugins/landing-shell.ts leaves it: the plain page and a draft per writing direction. */
const draft = (name: string, heading = 'h1') =>
  `<!doctype html><html lang="en"><head><title>%%setting:appName%%</title></head><body><div id="root"><div data-draft="${name}">${HEADER}<${heading}>%%hero_slogan%%</${heading}><p>%%hero_subtitle%%</p><div role="status" aria-label="%%loading%%"></div></div></div></body></html>`;
const DRAFTS = ['ltr-visitor', 'rtl-visitor', 'ltr-member', 'rtl-member'];
const HOSTILE = '<img src=x onerror=alert(1)> & "quoted" \'single\'';
const HOSTILE_ESCAPED = '&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quoted&quot; &#39;single&#39;';

function webBuild(): string {
  const root = mkdtempSync(join(tmpdir(), 'rideway-landing-'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><html lang="en"><head><title>Rideway</title></head><body><div id="root"></div></body></html>');
  for (const name of DRAFTS) writeFileSync(join(root, `landing-${name}.html`), draft(name));
  return root;
}

const page = { method: 'GET' as const, url: '/', headers: { accept: 'text/html' } };

/**
 * Issue 21 point 5: the landing page arrives with its header and hero drawn (a phone paints appName
 * and the slogan before the app's script has loaded), in the visitor's chosen language, for those
 * who get the booking form on it (spec section 2: visitors, riders and admins). Admins' texts and
 * settings are escaped.
 */
describe.each(ENGINES)('the landing page drawn by the server on %s', (engine) => {
  let t: TestApp;
  let rider: UserRow;
  let driver: UserRow;
  let admin: UserRow;
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
    admin = await t.makeUser('admin');
  });
  /** An admin's save of the settings, through the API as the settings page makes it. */
  const saveSettings = async (changes: Record<string, string>) => {
    expect((await t.request({ method: 'PATCH', url: '/api/settings', as: admin, payload: changes })).statusCode).toBe(200);
  };
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

  it("draws the header as the app shows it to a visitor: appName from the settings, the links and the language selector in the visitor's language", async () => {
    const html = (await get()).body;
    expect(html).toContain('<title>Rideway</title>');
    expect(html).toContain(`<header><a href="/">Rideway</a><nav aria-label="${en.nav_main}"><a href="/bookings">${en.nav_login_signup}</a></nav>`);
    expect(html).toContain(`<div role="combobox" aria-label="${en.language}">English</div><input value="en">`);
    expect(html).toContain(`<button class="mui-icon" aria-label="${en.open_menu}"></button></header>`);
    const arabic = (await get({ cookie: 'rideway_language=ar' })).body;
    expect(arabic).toContain(`<header><a href="/">Rideway</a><nav aria-label="${ar.nav_main}"><a href="/bookings">${ar.nav_login_signup}</a></nav>`);
    expect(arabic).toContain(`<div role="combobox" aria-label="${ar.language}">العربية</div><input value="ar">`);
  });

  it("leaves out a social link whose setting is empty but keeps the styles the elements after it use, and links only to a web address", async () => {
    const none = (await get()).body;
    expect(none).not.toContain('aria-label="Facebook"');
    expect(none).not.toContain('aria-label="Twitter"');
    expect(none).toContain('<style data-emotion="mui icon">.mui-icon{}</style><div role="combobox"');
    await saveSettings({ FacebookHandle: 'https://facebook.com/rideway?a=1&b=2', TwitterHandle: 'javascript:alert(1)' });
    try {
      const html = (await get()).body;
      expect(html).toContain('<style data-emotion="mui icon">.mui-icon{}</style><a class="mui-icon" href="https://facebook.com/rideway?a=1&amp;b=2" aria-label="Facebook"></a>');
      expect(html).toContain('<a class="mui-icon" href="#" aria-label="Twitter"></a>');
      expect(html).not.toContain('javascript:');
    } finally {
      await saveSettings({ FacebookHandle: '', TwitterHandle: '' });
    }
  });

  it("follows an admin's change of appName on the next request, escaped in the header and the title", async () => {
    await saveSettings({ appName: 'Cabs & Parcels' });
    try {
      const changed = (await get()).body;
      expect(changed).toContain('<title>Cabs &amp; Parcels</title>');
      expect(changed).toContain('<header><a href="/">Cabs &amp; Parcels</a>');
      // A rider's page (the other draft) follows it too.
      expect((await get({}, rider)).body).toContain('<header><a href="/">Cabs &amp; Parcels</a>');
      await saveSettings({ appName: HOSTILE });
      const hostile = (await get()).body;
      expect(hostile).toContain(`<header><a href="/">${HOSTILE_ESCAPED}</a>`);
      expect(hostile).toContain(`<title>${HOSTILE_ESCAPED}</title>`);
      expect(hostile).not.toContain('<img');
    } finally {
      await saveSettings({ appName: 'Rideway' });
    }
    expect((await get()).body).toContain('<header><a href="/">Rideway</a>');
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
    await t.db.update(languages).set({ messages: { ...row?.messages, hero_slogan: HOSTILE } }).where(eq(languages.code, 'en'));
    await dataChanged('languages');
    try {
      const html = (await get()).body;
      expect(html).toContain(`<h1>${HOSTILE_ESCAPED}</h1>`);
      expect(html).not.toContain('<img');
    } finally {
      await t.db.update(languages).set({ messages: row?.messages ?? {} }).where(eq(languages.code, 'en'));
      await dataChanged('languages');
    }
    expect((await get()).body).toContain(`<h1>${en.hero_slogan}</h1>`);
  });

  it('serves the drawing of a web app built again while it runs, and the plain page for a drawing it cannot use', async () => {
    const path = join(root, 'landing-ltr-visitor.html');
    const later = (seconds: number) => { utimesSync(path, new Date(), new Date(Date.now() + seconds * 1000)); };
    try {
      expect((await get()).body).toContain(`<h1>${en.hero_slogan}</h1>`);
      writeFileSync(path, draft('ltr-visitor', 'h2'));
      later(10);
      expect((await get()).body).toContain(`<h2>${en.hero_slogan}</h2>`);
      writeFileSync(path, '<!doctype html><html><body>half written');
      later(20);
      expect((await get()).body).toContain('<div id="root"></div>');
      // A drawing with a mark this server does not fill (a build from another version) is not served half filled.
      writeFileSync(path, draft('ltr-visitor').replace('%%setting:appName%%</a>', '%%setting:license%%</a>'));
      later(30);
      expect((await get()).body).toContain('<div id="root"></div>');
    } finally {
      writeFileSync(path, draft('ltr-visitor'));
      later(40);
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

describe("filling the landing page's draft", () => {
  const view: LandingView = { language: { code: 'en', dir: 'ltr', messages: { language: 'Language' } }, signedIn: false };
  const data = (offered: LandingData['languages']): LandingData => ({ settings: DEFAULT_SETTINGS, languages: offered });

  it('draws the language selector only where more than one language is offered, and keeps the styles inside the parts it leaves out', async () => {
    const root = webBuild();
    try {
      const pages = LandingPages.find(root);
      const one = await pages?.fill(view, data([{ code: 'en', name: 'English' }]));
      expect(one).not.toContain('combobox');
      expect(one).toContain('<style data-emotion="mui icon">.mui-icon{}</style><button class="mui-icon"');
      const two = await pages?.fill(view, data([{ code: 'en', name: 'English' }, { code: 'ar', name: 'العربية' }]));
      expect(two).toContain('<div role="combobox" aria-label="Language">English</div><input value="en">');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('writes public settings only: a draft naming an admin-only one is refused', async () => {
    const root = webBuild();
    try {
      writeFileSync(join(root, 'landing-ltr-visitor.html'), draft('ltr-visitor').replace('%%setting:appName%%</a>', '%%setting:license%%</a>'));
      await expect(LandingPages.find(root)?.fill(view, data([]))).rejects.toThrow(/does not fill: setting license/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the landing page without its drafts or its language', () => {
  const withApp = async (root: string, landingView: () => Promise<LandingRequest | null>) => {
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
