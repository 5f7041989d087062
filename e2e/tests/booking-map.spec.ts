import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { startTileServer } from '../support/platform';
import { choosePlace, signIn, withSettings } from '../support/session';

/**
 * Issue 16, points 4 and 5: the booking form's map (pins, pin-drop, "use my location", the route
 * with its distance and duration) and the maps' plain background with a note when the tiles
 * cannot load. The server runs the offline maps adapter: straight routes, the demo city's places.
 */

const OSM_TILES = 'https://tile.openstreetmap.org/**';
const KINGS_CROSS = { latitude: 51.5308, longitude: -0.1238 };

const bookingMap = (page: Page) => page.getByRole('region', { name: 'Map of the pickup and drop' });
const pickupField = (page: Page) => page.getByRole('combobox', { name: 'Pickup location' });
const dropField = (page: Page) => page.getByRole('combobox', { name: 'Drop location' });

/** The map's tiles answer 503, as a tile server that is down (this machine has no network either way). */
const failTiles = (page: Page) => page.route(OSM_TILES, (route) => route.fulfill({ status: 503, body: '' }));

/** An axe scan of the map regions: names, roles and the attribution's links (link-in-text-block). */
async function axeOnMaps(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).include('.rideway-map-frame').analyze();
  expect(violations.map(({ id, nodes }) => `${id}: ${nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function chooseTrip(page: Page): Promise<void> {
  await choosePlace(page, 'Pickup location', 'kings cr', "King's Cross Station, London");
  await choosePlace(page, 'Drop location', 'tower of', 'Tower of London, London');
}

test('a visitor sees the booking form without the map (the maps calls need a session)', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('form', { name: 'Book a ride' })).toBeVisible();
  await expect(bookingMap(page)).toHaveCount(0);
});

for (const width of [1280, 375]) {
  test(`a rider chooses pickup and drop and sees both pins, the route line, its distance and duration at ${String(width)} px`, async ({ page }) => {
    await failTiles(page);
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, 'rider1@rideway.demo');
    const map = bookingMap(page);
    await expect(map).toBeVisible();
    await expect(page.getByRole('button', { name: 'Use my location' })).toBeVisible();
    await chooseTrip(page);

    await expect(map.locator('.rideway-pin-pickup')).toBeVisible();
    await expect(map.locator('.rideway-pin-drop')).toBeVisible();
    // The route line: an SVG path drawn from the decoded polyline, and its figures below the map.
    await expect(map).not.toHaveAttribute('data-route-points', '0');
    await expect(map.locator('.leaflet-overlay-pane path')).toHaveCount(1);
    expect(await map.locator('.leaflet-overlay-pane path').getAttribute('d')).toMatch(/^M[\d.-]+ [\d.-]+L[\d.-]+ [\d.-]+$/);
    await expect(page.getByTestId('route-summary')).toHaveText(/^Distance: \d+\.\d (km|mi) · Duration: \d+ min$/);
    // The places are named on the map, readable without tiles.
    await expect(map.locator('.leaflet-tooltip', { hasText: "King's Cross Station, London" }).first()).toBeVisible();
    await expect(map.locator('.leaflet-tooltip', { hasText: 'Tower of London, London' })).toBeVisible();
    await page.getByRole('form', { name: 'Book a ride' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `screenshots/booking-map-${String(width)}.png`, fullPage: true, animations: 'disabled' });
    await page.getByRole('form', { name: 'Book a ride' }).screenshot({ path: `screenshots/booking-map-form-${String(width)}.png`, animations: 'disabled' });
    await axeOnMaps(page);
  });
}

test('the distance is in the settings unit: miles with convert_to_mile, else km', async ({ page, request }) => {
  await failTiles(page);
  await signIn(page, 'rider1@rideway.demo');
  for (const [convert, distance] of [[true, '3.4 mi'], [false, '5.4 km']] as const) {
    await withSettings(request, { convert_to_mile: convert }, async () => {
      await page.goto('/');
      await chooseTrip(page);
      // King's Cross to the Tower: 4.17 km as the crow flies, times the offline adapter's road factor 1.3, at 25 km/h.
      await expect(page.getByTestId('route-summary')).toHaveText(`Distance: ${distance} · Duration: 13 min`);
    });
  }
});

test('a tap on the map sets the drop once the pickup is chosen; dragging a pin moves it', async ({ page }) => {
  await failTiles(page);
  await signIn(page, 'rider1@rideway.demo');
  await chooseTrip(page);
  const map = bookingMap(page);
  const summary = page.getByTestId('route-summary');
  await expect(summary).toContainText('Distance');
  const before = await summary.textContent();

  // A tap well away from both pins: the drop moves there, named by reverse geocoding.
  const box = (await map.locator('.leaflet-container').boundingBox())!;
  await page.mouse.click(box.x + box.width * 0.12, box.y + box.height * 0.8);
  await expect(dropField(page)).not.toHaveValue('Tower of London, London');
  await expect(dropField(page)).toHaveValue(/London/);
  await expect(pickupField(page)).toHaveValue("King's Cross Station, London");
  await expect(summary).not.toHaveText(before ?? '');
  await expect(summary).toHaveText(/^Distance: \d+\.\d (km|mi) · Duration: \d+ min$/);

  // Dragging the pickup pin to the drop's side renames the pickup.
  // The map refits its view after the tap: read the pin's place once it has stopped moving.
  let last = '';
  await expect.poll(async () => {
    const now = JSON.stringify(await map.locator('.rideway-pin-pickup').boundingBox());
    const settled = now === last;
    last = now;
    return settled;
  }, { intervals: [300] }).toBe(true);
  const pin = (await map.locator('.rideway-pin-pickup').boundingBox())!;
  await page.mouse.move(pin.x + pin.width / 2, pin.y + pin.height - 4);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.55, box.y + box.height * 0.75, { steps: 12 });
  await page.mouse.up();
  await expect(pickupField(page)).not.toHaveValue("King's Cross Station, London");
  await expect(pickupField(page)).toHaveValue(/London/);
  // The drop stays where the tap put it (its name may be refined once the tap's lookup settles).
  await expect(dropField(page)).not.toHaveValue('Tower of London, London');
  await expect(dropField(page)).toHaveValue(/^near |London/);
  await page.screenshot({ path: 'screenshots/booking-map-pin-drop-1280.png', animations: 'disabled' });
});

test('with only the drop chosen, a tap on the map sets the pickup', async ({ page }) => {
  await failTiles(page);
  await signIn(page, 'rider1@rideway.demo');
  await choosePlace(page, 'Drop location', 'tower of', 'Tower of London, London');
  const map = bookingMap(page);
  await expect(map.locator('.rideway-pin-drop')).toBeVisible();
  const box = (await map.locator('.leaflet-container').boundingBox())!;
  await page.mouse.click(box.x + box.width * 0.2, box.y + box.height * 0.75);
  await expect(pickupField(page)).toHaveValue(/London/);
  await expect(dropField(page)).toHaveValue('Tower of London, London');
  await expect(page.getByTestId('route-summary')).toContainText('Distance');
});

test.describe('with the browser position allowed', () => {
  test.use({ permissions: ['geolocation'] });

  test('"Use my location" fills the pickup with the address of the browser position', async ({ page, context }) => {
    await failTiles(page);
    await context.setGeolocation(KINGS_CROSS);
    await signIn(page, 'rider1@rideway.demo');
    await expect(pickupField(page)).toHaveValue('');
    await page.getByRole('button', { name: 'Use my location' }).click();
    await expect(pickupField(page)).toHaveValue("King's Cross Station, London");
    await expect(bookingMap(page).locator('.rideway-pin-pickup')).toBeVisible();
    await page.screenshot({ path: 'screenshots/booking-map-my-location-1280.png', animations: 'disabled' });
  });
});

test('"Use my location" without the permission says how to allow it', async ({ page }) => {
  await failTiles(page);
  await signIn(page, 'rider1@rideway.demo');
  await page.getByRole('button', { name: 'Use my location' }).click();
  await expect(page.getByRole('alert')).toContainText('Location access is blocked');
  await expect(pickupField(page)).toHaveValue('');
});

test('the booking map in Arabic keeps the right-to-left form and translated figures', async ({ page }) => {
  await failTiles(page);
  await signIn(page, 'rider2@rideway.demo');
  await chooseTrip(page);
  await page.getByLabel('Language').click();
  await page.getByRole('option', { name: 'العربية' }).click();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  const map = page.getByRole('region', { name: 'خريطة موقع الانطلاق والوصول' });
  await expect(map).toBeVisible();
  await expect(page.getByTestId('route-summary')).toContainText('المسافة');
  await expect(map.getByRole('status')).toHaveText('خرائط الخلفية غير متاحة؛ ما زالت الأماكن والمسار معروضة.');
  await page.getByRole('form', { name: 'احجز رحلة' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'screenshots/booking-map-rtl-1280.png', animations: 'disabled' });
  await page.getByLabel('اللغة').click();
  await page.getByRole('option', { name: 'English' }).click();
});

test.describe('map tiles', () => {
  test('tiles that fail leave a plain background with a note; pins, names and the route stay', async ({ page }) => {
    const failed: string[] = [];
    await page.route(OSM_TILES, (route) => {
      failed.push(route.request().url());
      return route.fulfill({ status: 503, body: '' });
    });
    await signIn(page, 'rider1@rideway.demo');
    await chooseTrip(page);
    const map = bookingMap(page);
    await expect(map).toHaveAttribute('data-tiles', 'unavailable');
    await expect(map.getByRole('status')).toHaveText('Map tiles are unavailable; places and route are still shown.');
    expect(failed.length).toBeGreaterThan(1);
    await expect(map.locator('.leaflet-container')).toHaveCSS('background-color', 'rgb(242, 239, 233)');
    await expect(map.locator('.rideway-pin-pickup')).toBeVisible();
    await expect(map.locator('.leaflet-tooltip', { hasText: 'Tower of London, London' })).toBeVisible();
    await expect(map.locator('.leaflet-overlay-pane path')).toHaveCount(1);
    await map.scrollIntoViewIfNeeded();
    await map.screenshot({ path: 'screenshots/booking-map-tiles-unavailable-1280.png', animations: 'disabled' });
  });

  test('tiles that load show no note, and the attribution link is underlined', async ({ page }) => {
    const tiles = await startTileServer();
    try {
      // The configured OpenStreetMap tiles, served from the local tile server.
      await page.route(OSM_TILES, async (route) => {
        const { pathname } = new URL(route.request().url());
        await route.fulfill({ response: await route.fetch({ url: `http://127.0.0.1:${String(tiles.port)}${pathname}` }) });
      });
      await signIn(page, 'rider1@rideway.demo');
      await chooseTrip(page);
      const map = bookingMap(page);
      await expect(map.locator('img.leaflet-tile-loaded').first()).toBeVisible();
      await expect(map).toHaveAttribute('data-tiles', 'ok');
      await expect(map.getByRole('status')).toHaveCount(0);
      const link = map.locator('.leaflet-control-attribution a', { hasText: 'OpenStreetMap' });
      await expect(link).toHaveCSS('text-decoration-line', 'underline');
      await map.scrollIntoViewIfNeeded();
      await map.screenshot({ path: 'screenshots/booking-map-tiles-1280.png', animations: 'disabled' });
      await axeOnMaps(page);
    } finally {
      await tiles.close();
    }
  });
});
