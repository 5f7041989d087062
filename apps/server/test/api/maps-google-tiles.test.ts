import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { googleMaps } from '../../src/providers/maps/google';
import { createTestApp, ENGINES, type TestApp } from '../harness';
import { STAND_IN_COPYRIGHT, startGoogleMaps, type GoogleStandIn, type GoogleStandInMode } from '../stand-ins/google-maps';

/**
 * Issue 16: with MAPS_PROVIDER=google and a browser key, every web map draws Google's 2D tiles
 * (Map Tiles API), published in the public settings, and the security policy lets them in; when
 * no session can be had, the settings keep MAP_TILE_URL's tiles and the page still loads.
 */
describe.each(ENGINES)("Google's map in the public settings (MAPS_PROVIDER=google) on %s", (engine) => {
  let t: TestApp;
  let google: GoogleStandIn;
  const FALLBACK = 'http://127.0.0.1:9/{z}/{x}/{y}.png';

  const settings = async (headers: Record<string, string> = {}) => {
    const response = await t.request({ method: 'GET', url: '/api/settings', headers });
    expect(response.statusCode).toBe(200);
    return { response, settings: response.json<{ settings: { mapTileUrl: string; mapTileAttribution: string } }>().settings };
  };
  const sessionCalls = () => google.requests.filter((request) => request.path === '/v1/createSession');
  /** The server as freshly started: no session held, no failure remembered. */
  const restart = () => {
    t.app.ctx.maps = googleMaps(t.config);
  };

  beforeAll(async () => {
    google = await startGoogleMaps();
    google.tileReferer = 'https://rides.example.com/';
    t = await createTestApp(engine, {
      MAPS_PROVIDER: 'google',
      GOOGLE_MAPS_API_KEY: google.key,
      GOOGLE_MAPS_API_URL: google.url,
      GOOGLE_MAP_TILES_API_KEY: google.tileKey,
      GOOGLE_MAP_TILES_LANGUAGE: 'en-GB',
      GOOGLE_MAP_TILES_REGION: 'GB',
      PUBLIC_URL: 'https://rides.example.com',
      MAP_TILE_URL: FALLBACK,
      MAP_TILE_ATTRIBUTION: 'Fallback tiles',
      // Long enough for a loaded machine to reach the stand-in; 'hang' waits it out once.
      MAPS_TIMEOUT_MS: '1500',
    });
  });
  afterAll(async () => {
    await t.close();
    await google.close();
  });
  beforeEach(() => {
    google.mode = 'ok';
    google.requests.length = 0;
    restart();
  });

  it("publishes Google's tile URL (session and browser key) and attribution to everyone, and the policy lets the tiles in", async () => {
    const { response, settings: open } = await settings();
    const session = google.sessions.at(-1) ?? '';
    expect(open.mapTileUrl).toBe(`${google.url}/v1/2dtiles/{z}/{x}/{y}?session=${session}&key=${google.tileKey}`);
    expect(open.mapTileAttribution).toBe(`Google Maps · ${STAND_IN_COPYRIGHT.replace('<', '&#60;').replace('>', '&#62;')}`);
    // The server key never leaves the server.
    expect(response.body).not.toContain(google.key);
    const [created] = sessionCalls();
    expect(created?.body).toEqual({ mapType: 'roadmap', language: 'en-GB', region: 'GB' });
    expect(created?.headers.referer).toBe('https://rides.example.com/');
    const policy = String(response.headers['content-security-policy']);
    expect(policy).toMatch(new RegExp(`img-src [^;]*${google.url.replace(/[.:/]/g, '\\$&')}`));
    expect(policy).toContain('http://127.0.0.1:9');
    // One session for every reader, until it nears its end (google.test.ts follows it there).
    expect((await settings()).settings.mapTileUrl).toBe(open.mapTileUrl);
    expect(sessionCalls()).toHaveLength(1);
  });

  it('a flood of page loads creates one session, not one each', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, () => t.request({ method: 'GET', url: '/api/settings' })));
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    expect(new Set(answers.map((answer) => answer.json<{ settings: { mapTileUrl: string } }>().settings.mapTileUrl)).size).toBe(1);
    expect(sessionCalls()).toHaveLength(1);
  });

  it.each<[string, GoogleStandInMode]>([
    ['refused (403, the Map Tiles API not enabled)', 'blocked'],
    ['refused (429, a quota)', 'quota'],
    ['timing out', 'hang'],
    ['failing (5xx)', 'fail'],
    ['answering something that is not JSON', 'garbage'],
    ['answering without a session', 'wrongShape'],
  ])('Google %s: the settings answer 200 with MAP_TILE_URL, and the next reads do not ask (or wait on) Google', async (_name, mode) => {
    google.mode = mode;
    const { settings: first } = await settings();
    expect(first).toMatchObject({ mapTileUrl: FALLBACK, mapTileAttribution: 'Fallback tiles' });
    expect((await settings()).settings.mapTileUrl).toBe(FALLBACK);
    expect((await settings()).settings.mapTileUrl).toBe(FALLBACK);
    expect(sessionCalls()).toHaveLength(1);
  });

  it('a referrer restriction the server does not meet falls back too (the key is restricted to another site)', async () => {
    google.tileReferer = 'https://elsewhere.example/';
    try {
      expect((await settings()).settings.mapTileUrl).toBe(FALLBACK);
    } finally {
      google.tileReferer = 'https://rides.example.com/';
    }
  });
});
