import { expect, test } from '@playwright/test';
import { startPlatform, startTileServer } from '../support/platform';
import { TILES_PORT } from '../support/ports';
import { signIn } from '../support/session';

/**
 * Issue 15, point 14: the map tiles come from the configured MAP_TILE_URL (here a local tile
 * server), the web app reads it from the public settings, and the security policy lets them in.
 */
test.use({ baseURL: `http://127.0.0.1:${String(TILES_PORT)}` });

let tiles: Awaited<ReturnType<typeof startTileServer>>;
let platform: Awaited<ReturnType<typeof startPlatform>>;

test.beforeAll(async () => {
  tiles = await startTileServer();
  platform = await startPlatform(TILES_PORT, { MAP_TILE_URL: `http://127.0.0.1:${String(tiles.port)}/{z}/{x}/{y}.png`, MAP_TILE_ATTRIBUTION: 'Local test tiles' });
});

test.afterAll(async () => {
  platform.stop();
  await tiles.close();
});

test('the dashboard map loads its tiles from the configured tile server with no security-policy violation', async ({ page, request }) => {
  const settings = (await (await request.get('/api/settings')).json()).settings as Record<string, unknown>;
  expect(settings).toMatchObject({ mapTileUrl: `http://127.0.0.1:${String(tiles.port)}/{z}/{x}/{y}.png`, mapTileAttribution: 'Local test tiles' });

  const messages: string[] = [];
  page.on('console', (message) => { messages.push(message.text()); });
  page.on('pageerror', (error) => { messages.push(error.message); });
  await signIn(page, 'admin@rideway.demo');
  await expect(page).toHaveURL(/\/dashboard$/);
  const map = page.locator('.leaflet-container');
  await expect(map).toBeVisible();
  await expect(map.locator('img.leaflet-tile-loaded').first()).toBeVisible();
  await expect(map.getByText('Local test tiles')).toBeVisible();
  await expect.poll(() => tiles.requests.length).toBeGreaterThan(3);
  await map.scrollIntoViewIfNeeded();
  await map.screenshot({ path: 'test-results/dashboard-map-local-tiles-1280.png', animations: 'disabled' });
  expect(messages.filter((text) => /content security policy/i.test(text))).toEqual([]);
});
