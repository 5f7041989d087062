import { expect, test } from '@playwright/test';
import { PLACES, startGoogleMaps, type GoogleStandIn } from '../../apps/server/test/stand-ins/google-maps';
import { startPlatform } from '../support/platform';
import { GOOGLE_MAPS_PORT } from '../support/ports';
import { choosePlace, signIn } from '../support/session';

/**
 * Issue 16 with MAPS_PROVIDER=google, on a platform of its own against the local Google
 * stand-in: every map draws Google's 2D tiles (a Map Tiles API session the server made with the
 * browser key, which is restricted to this site's address) under Google's attribution, with no
 * security-policy violation; and a place search is one Places session, its token the same for
 * the suggestions and the chosen place's details, a new one for the next search.
 */
const origin = `http://127.0.0.1:${String(GOOGLE_MAPS_PORT)}`;
test.use({ baseURL: origin });
test.describe.configure({ mode: 'serial' });

const shot = (name: string) => `screenshots/google-maps-${name}-1280.png`;
const [BAKER_221B, , PADDINGTON] = PLACES;

let google: GoogleStandIn;
let platform: { stop: () => void } | undefined;

test.beforeAll(async () => {
  // A platform of its own starts in the hook (up to a minute on a busy machine).
  test.setTimeout(90_000);
  google = await startGoogleMaps();
  // The browser key is restricted to this site: the server's session request and the browser's
  // tile requests both say where they come from.
  google.tileReferer = `${origin}/`;
  platform = await startPlatform(GOOGLE_MAPS_PORT, {
    MAPS_PROVIDER: 'google',
    GOOGLE_MAPS_API_KEY: google.key,
    GOOGLE_MAPS_API_URL: google.url,
    GOOGLE_MAP_TILES_API_KEY: google.tileKey,
    PUBLIC_URL: origin,
  });
});

// Six searches and lookups through the server and the stand-in, on a machine that may be busy.
test.describe.configure({ timeout: 60_000 });

test.afterAll(async () => {
  platform?.stop();
  await google.close();
});

test("the dashboard map draws Google's tiles under Google's attribution, allowed by the security policy", async ({ page }) => {
  const messages: string[] = [];
  page.on('console', (message) => { messages.push(message.text()); });
  page.on('pageerror', (error) => { messages.push(error.message); });
  await signIn(page, 'admin@rideway.demo');
  await expect(page).toHaveURL(/\/dashboard$/);
  const map = page.locator('.leaflet-container').first();
  await expect(map).toBeVisible();
  const tile = map.locator('img.leaflet-tile-loaded').first();
  await expect(tile).toBeVisible();
  const src = new URL((await tile.getAttribute('src')) ?? '');
  expect(src.origin + src.pathname).toMatch(new RegExp(`^${google.url}/v1/2dtiles/\\d+/\\d+/\\d+$`));
  expect(src.searchParams.get('session')).toBe(google.sessions.at(-1));
  expect(src.searchParams.get('key')).toBe(google.tileKey);
  // The server key never reaches the browser.
  expect(await page.content()).not.toContain(google.key);
  await expect(map.locator('.leaflet-control-attribution')).toContainText('Google Maps · Map data ©2025 Google <stand-in>');
  // Tiles came from the stand-in with this site as their referrer, through one session.
  const tileRequests = google.requests.filter((request) => request.path.startsWith('/v1/2dtiles/'));
  expect(tileRequests.length).toBeGreaterThan(3);
  expect(tileRequests.every((request) => request.headers.referer === `${origin}/`)).toBe(true);
  expect(google.requests.filter((request) => request.path === '/v1/createSession')).toHaveLength(1);
  await map.scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot('dashboard'), animations: 'disabled' });
  expect(messages.filter((text) => /content security policy/i.test(text))).toEqual([]);
});

test("a rider's place searches are Places sessions: one token for a field's suggestions and its chosen place, a new one per search", async ({ page }) => {
  const messages: string[] = [];
  page.on('console', (message) => { messages.push(message.text()); });
  await signIn(page, 'rider1@rideway.demo');
  google.requests.length = 0;
  const pickup = `${BAKER_221B?.name ?? ''}, ${BAKER_221B?.formattedAddress ?? ''}`;
  const drop = `${PADDINGTON?.name ?? ''}, ${PADDINGTON?.formattedAddress ?? ''}`;
  await choosePlace(page, 'Pickup location', '221B Bak', pickup);
  await choosePlace(page, 'Drop location', 'Paddingt', drop);

  const searches = google.requests.filter((request) => request.path === '/v1/places:autocomplete').map((request) => request.body as { input: string; sessionToken?: string });
  const details = google.requests.filter((request) => request.path.startsWith('/v1/places/'));
  expect(searches.map((search) => search.input)).toEqual(['221B Bak', 'Paddingt']);
  expect(details.map((request) => request.path)).toEqual([`/v1/places/${BAKER_221B?.id ?? ''}`, `/v1/places/${PADDINGTON?.id ?? ''}`]);
  const [pickupToken, dropToken] = searches.map((search) => search.sessionToken);
  expect(pickupToken).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(details[0]?.query.get('sessionToken')).toBe(pickupToken);
  expect(dropToken).toMatch(/^[0-9a-f-]{36}$/);
  expect(dropToken).not.toBe(pickupToken);
  expect(details[1]?.query.get('sessionToken')).toBe(dropToken);

  // Searching the pickup again, typed over its choice, is a new session.
  await choosePlace(page, 'Pickup location', "King's Cr", "King's Cross, Euston Rd, London N1 9AL, UK");
  const again = google.requests.filter((request) => request.path === '/v1/places:autocomplete').at(-1)?.body as { sessionToken?: string } | undefined;
  expect([pickupToken, dropToken]).not.toContain(again?.sessionToken);
  await page.evaluate(() => { window.scrollTo(0, 0); });
  await page.screenshot({ path: shot('booking-form'), fullPage: true, animations: 'disabled' });
  expect(messages.filter((text) => /content security policy/i.test(text))).toEqual([]);
});
