import { expect, test } from '@playwright/test';
import { apiSignIn, signIn } from '../support/session';

/** Issue 7, section 2: the dashboard's earnings cards and live map of active drivers. */
const marker = (name: string) => `.rideway-driver-marker[title="${name}"]`;

test.describe('with the browser position allowed', () => {
  test.use({ geolocation: { latitude: 51.5074, longitude: -0.1278 }, permissions: ['geolocation'] });

  test('an admin sees the earnings and a driver who goes online appear on the map, live', async ({ page, request }) => {
    const driver = await apiSignIn(request, 'driver3@rideway.demo');
    await request.patch('/api/driver/status', { headers: driver, data: { driverActiveStatus: false } });
    await signIn(page, 'admin@rideway.demo');
    // Section 2: an admin lands on the dashboard.
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('earnings-total')).toHaveText(/^£\d[\d,]*\.\d{2}$/);
    const map = page.getByRole('region', { name: 'Map of active drivers' });
    await expect(map.locator(marker('Dan Driver'))).toBeVisible();
    await expect(map.locator(marker('Omar Online'))).toHaveCount(0);
    await request.patch('/api/driver/status', { headers: driver, data: { driverActiveStatus: true } });
    await request.post('/api/driver/location', { headers: driver, data: { lat: 51.509, lng: -0.118 } });
    await expect(map.locator(marker('Omar Online'))).toBeVisible();
    // Section 2: markers are 35 by 25 and show the name and vehicle number.
    const box = await map.locator(marker('Omar Online')).boundingBox();
    expect([box?.width, box?.height]).toEqual([35, 25]);
    await expect(map.locator(marker('Omar Online'))).toContainText('Omar Online · LC70 GHJ');
    await page.screenshot({ path: 'screenshots/dashboard-1280.png', animations: 'disabled' });
    await request.patch('/api/driver/status', { headers: driver, data: { driverActiveStatus: false } });
    await expect(map.locator(marker('Omar Online'))).toHaveCount(0);
    await request.patch('/api/driver/status', { headers: driver, data: { driverActiveStatus: true } });
  });

  test('a fleet admin sees only its own drivers', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await signIn(page, 'fleet@rideway.demo');
    await expect(page).toHaveURL(/\/dashboard$/);
    const map = page.getByRole('region', { name: 'Map of active drivers' });
    await expect(map.locator(marker('Dan Driver'))).toBeVisible();
    await expect(map.locator(marker('Dora Driver'))).toBeVisible();
    await expect(map.locator('.rideway-driver-marker')).toHaveCount(2);
    await page.screenshot({ path: 'screenshots/dashboard-fleet-375.png', fullPage: true, animations: 'disabled' });
  });
});

test('without the browser position the dashboard says allow_location', async ({ page }) => {
  await signIn(page, 'admin@rideway.demo');
  await expect(page.getByText('Allow location access to see the map around you.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Map of active drivers' })).toBeVisible();
});
