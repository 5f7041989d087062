import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiSignIn, choosePlace, signIn } from '../support/session';

/**
 * Issue 16, point 6: the admin draws the service area on the settings map with the drawing
 * toolbar and saves it; a rider whose pickup lies outside is told so at the pickup field before
 * Book, and Book answers it without asking the server; a pickup inside books as before.
 */

// The admin's browser is at King's Cross: the settings map opens on the admin's city.
test.use({ geolocation: { latitude: 51.5308, longitude: -0.1238 }, permissions: ['geolocation'] });

/** The map's zoom once it is on the admin's city (ServiceAreaMap's CITY_ZOOM). */
const CITY_ZOOM = 11;
/** Half the drawn square's side, in pixels: at zoom 11 about 11 km across, so King's Cross is inside and Canary Wharf (146 px east) outside. */
const HALF = 80;

/** Clicks the map at an offset from its centre, as a person draws a corner. */
async function clickAt(page: Page, map: Locator, dx: number, dy: number): Promise<void> {
  const box = await map.boundingBox();
  if (!box) throw new Error('the map has no box');
  const x = box.x + box.width / 2 + dx;
  const y = box.y + box.height / 2 + dy;
  await page.mouse.move(x, y, { steps: 4 });
  await page.mouse.click(x, y);
}

// Whatever happens in the test (a timeout too), the other specs on this server find no area.
test.afterEach(async ({ request }) => {
  const admin = await apiSignIn(request, 'admin@rideway.demo');
  await request.patch('/api/settings', { headers: admin, data: { serviceArea: [] } });
});

test('an admin draws the service area; a rider outside it is told before Book, one inside books', async ({ page, request, browser }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, 'admin@rideway.demo');
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'Service area', exact: true });
  await expect(section.getByRole('status')).toHaveText('No area drawn: the service runs everywhere.');
  const map = section.getByRole('region', { name: 'Service area map' });
  await map.scrollIntoViewIfNeeded();
  // The map has moved to the browser's position (its tiles are asked for at the city zoom).
  await expect(map.locator(`img.leaflet-tile[src*="/${String(CITY_ZOOM)}/"]`).first()).toBeAttached();

  // Draw a square with the toolbar: four corners, then the first again to close it.
  await section.getByTitle('Draw an area').click();
  const corners: [number, number][] = [[-HALF, -HALF], [HALF, -HALF], [HALF, HALF], [-HALF, HALF], [-HALF, -HALF]];
  for (const [dx, dy] of corners) await clickAt(page, map, dx, dy);
  await expect(section.getByRole('status')).toHaveText('Areas drawn: 1');
  await expect(map.locator('path.leaflet-interactive')).toHaveCount(1);
  await page.screenshot({ path: 'screenshots/service-area-admin-1280.png', animations: 'disabled' });

  await page.getByRole('button', { name: 'Save' }).click();
  const updated = page.getByRole('status').filter({ hasText: 'Updated.' });
  await expect(updated).toBeVisible();
  const saved = (await (await request.get('/api/settings')).json()).settings.serviceArea as { lat: number; lng: number }[][];
  expect(saved).toHaveLength(1);
  expect(saved[0]).toHaveLength(4);

  // The rider, on a phone.
  const phone = await browser.newContext({ viewport: { width: 375, height: 812 } });
  const rider = await phone.newPage();
  const asked: string[] = [];
  rider.on('request', (sent) => { if (sent.method() === 'POST' && /\/api\/(estimates|bookings)$/.test(sent.url())) asked.push(sent.url()); });
  await signIn(rider, 'rider1@rideway.demo');
  const form = rider.getByRole('form', { name: 'Book a ride' });
  const outside = 'Sorry, we do not serve this pickup location yet. Please choose a pickup inside our service area.';
  await choosePlace(rider, 'Pickup location', 'canary', 'Canary Wharf, London');
  await expect(form.getByRole('alert')).toHaveText(outside);
  await choosePlace(rider, 'Drop location', 'tower of', 'Tower of London, London');
  await rider.getByRole('combobox', { name: 'Vehicle type' }).click();
  await rider.getByRole('option', { name: 'Economy' }).click();
  await form.getByRole('combobox', { name: 'Pickup location' }).scrollIntoViewIfNeeded();
  await rider.screenshot({ path: 'screenshots/service-area-rider-outside-375.png', animations: 'disabled' });
  await form.getByRole('button', { name: 'Book', exact: true }).click();
  const riderAlert = rider.getByRole('dialog', { name: 'Alert' });
  await expect(riderAlert).toContainText(outside);
  await rider.screenshot({ path: 'screenshots/service-area-rider-book-375.png', animations: 'disabled' });
  await riderAlert.getByRole('button', { name: 'Close' }).click();
  expect(asked).toEqual([]);

  // A pickup inside: the notice goes, and the booking is made as before.
  await form.getByRole('combobox', { name: 'Pickup location' }).click();
  await form.getByRole('button', { name: 'Clear' }).click();
  await expect(form.getByRole('alert')).toHaveCount(0);
  await choosePlace(rider, 'Pickup location', 'kings cr', "King's Cross Station, London");
  await expect(form.getByRole('alert')).toHaveCount(0);
  await form.getByRole('button', { name: 'Book', exact: true }).click();
  const estimate = rider.getByRole('dialog', { name: 'Your fare estimate' });
  await expect(estimate.getByTestId('estimate-fare')).toBeVisible();
  await estimate.getByRole('radio', { name: 'Cash' }).check();
  await estimate.getByRole('button', { name: 'Confirm booking' }).click();
  await expect(riderAlert).toContainText(/Booking confirmed\. Your booking id is [A-Z0-9]+/);
  const reference = (await riderAlert.locator('#alert-message').textContent())?.match(/booking id is ([A-Z0-9]+)$/)?.[1];
  // This booking is cancelled again, so no demo driver stays offered it for the specs after this one.
  const riderAuth = await apiSignIn(request, 'rider1@rideway.demo');
  const mine = (await (await request.get('/api/bookings', { headers: riderAuth })).json()).bookings as { id: string; booking_id: string }[];
  const made = mine.find((booking) => booking.booking_id === reference);
  expect(made).toBeDefined();
  expect((await request.post(`/api/bookings/${made?.id ?? ''}/cancel`, { headers: riderAuth, data: { reason: 'Service area test' } })).status()).toBe(200);
  await phone.close();

  // The admin removes the area with the toolbar: the service runs everywhere again.
  await section.getByTitle('Remove areas').click();
  await clickAt(page, map, 0, 0);
  await expect(section.getByRole('status')).toHaveText('No area drawn: the service runs everywhere.');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(updated).toBeVisible();
  expect((await (await request.get('/api/settings')).json()).settings.serviceArea).toEqual([]);
});
