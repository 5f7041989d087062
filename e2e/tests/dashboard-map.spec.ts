import { expect, test } from '@playwright/test';
import { signIn } from '../support/session';

/**
 * Issue 16, point 5: the dashboard's driver labels do not pile up. At section 2's zoom 10 the
 * demo drivers are a few pixels apart; their labels are laid out around them, each readable.
 */
test.use({ geolocation: { latitude: 51.5074, longitude: -0.1278 }, permissions: ['geolocation'] });

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

for (const width of [1280, 375]) {
  test(`the demo drivers' labels are all readable, none over another, at ${String(width)} px`, async ({ page }) => {
    await page.route('https://tile.openstreetmap.org/**', (route) => route.fulfill({ status: 503, body: '' }));
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, 'admin@rideway.demo');
    await expect(page).toHaveURL(/\/dashboard$/);
    const map = page.getByRole('region', { name: 'Map of active drivers' });
    await expect(map.locator('.rideway-driver-marker')).toHaveCount(5);
    const labels = map.locator('.rideway-driver-label');
    await expect(map.locator('.rideway-driver-label[data-placed="yes"]')).toHaveCount(5);
    const boxes: Box[] = [];
    for (const label of await labels.all()) {
      await expect(label).toBeVisible();
      await expect(label).toHaveText(/^\p{L}+ \p{L}+ · [A-Z0-9 ]+$/u);
      boxes.push((await label.boundingBox())!);
    }
    for (const [index, box] of boxes.entries()) {
      for (const other of boxes.slice(index + 1)) expect(overlaps(box, other)).toBe(false);
    }
    // The note for the missing tiles does not hide the drivers.
    await expect(map.getByRole('status')).toBeVisible();
    await map.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `screenshots/dashboard-map-${String(width)}.png`, fullPage: true, animations: 'disabled' });
  });
}
