import { expect, test } from '@playwright/test';
import { apiSignIn, signIn } from '../support/session';
import { driverOffered } from '../support/trips';

/**
 * Issue 16, point 5: the live trip page draws the planned route (pickup to drop, section 7's
 * getroute), the path driven so far, and the driver as a car turned to its heading.
 */

const pickup = { lat: 51.5308, lng: -0.1238, add: "King's Cross Station, London" };
const drop = { lat: 51.5081, lng: -0.0759, add: 'Tower of London, London' };


for (const width of [1280, 375]) {
  test(`the rider's trip page shows the planned route, the driven path and the car's heading at ${String(width)} px`, async ({ page, request }) => {
    await page.route('https://tile.openstreetmap.org/**', (route) => route.fulfill({ status: 503, body: '' }));
    await page.setViewportSize({ width, height: 900 });
    const rider = await apiSignIn(request, 'rider2@rideway.demo');
    const booked = await request.post('/api/bookings', { headers: rider, data: { pickup, drop, carType: 'Economy' } });
    expect(booked.status()).toBe(201);
    const { id } = await booked.json();
    const driver = (await driverOffered(request, id)).headers;
    expect((await request.post(`/api/bookings/${id}/accept`, { headers: driver, data: {} })).status()).toBe(200);
    const at = (lat: number, lng: number) => request.post('/api/driver/location', { headers: driver, data: { lat, lng } });
    try {
      await signIn(page, 'rider2@rideway.demo');
      await page.goto(`/bookings/${id}`);
      const map = page.getByRole('region', { name: "Driver's position" });
      await expect(map).toBeVisible();
      // The planned route: getroute's polyline, dashed, between the two named places.
      await expect(map).not.toHaveAttribute('data-planned-points', '0');
      await expect(map.locator('.leaflet-overlay-pane path[stroke-dasharray="8 8"]')).toHaveCount(1);
      await expect(map.locator('.leaflet-tooltip', { hasText: "King's Cross Station, London" })).toBeVisible();
      await expect(map.locator('.leaflet-tooltip', { hasText: 'Tower of London, London' })).toBeVisible();
      await expect(page.getByText('Planned route')).toBeVisible();
      await expect(page.getByText('Route driven')).toHaveCount(0);

      // The driver heads north to the pickup, then east: the car turns with it.
      await at(51.522, -0.1238);
      await expect(map).toHaveAttribute('data-driver', '51.522,-0.1238');
      await expect(map.locator('.rideway-car')).toBeVisible();
      await at(51.5235, -0.1238);
      await expect(map.locator('.rideway-car-body')).toHaveAttribute('data-heading', '0');
      await at(51.5235, -0.121);
      await expect(map.locator('.rideway-car-body')).toHaveAttribute('data-heading', '90');

      // On the trip, the positions are tracked: the path driven is drawn solid over the plan.
      for (const step of ['arrive', 'start']) expect((await request.post(`/api/bookings/${id}/${step}`, { headers: driver, data: {} })).status(), step).toBe(200);
      await expect(page.locator('[data-status]')).toHaveAttribute('data-status', 'STARTED');
      // Steps under 100 m: the platform drops a tracked point that a car could not have driven to in the time.
      for (let step = 1; step <= 8; step += 1) {
        const lat = Number((51.5235 - step * 0.0005).toFixed(4));
        const lng = Number((-0.121 + step * 0.001).toFixed(4));
        await at(lat, lng);
        await expect(map).toHaveAttribute('data-driver', `${String(lat)},${String(lng)}`);
      }
      await expect(map.locator('.leaflet-overlay-pane path:not([stroke-dasharray])')).toHaveAttribute('d', /^M[\d.-]+ [\d.-]+L/);
      await expect(page.getByText('Route driven')).toBeVisible();
      // South-east along the last leg.
      const heading = Number(await map.locator('.rideway-car-body').getAttribute('data-heading'));
      expect(heading).toBeGreaterThan(90);
      expect(heading).toBeLessThan(180);
      await page.screenshot({ path: `screenshots/trip-map-${String(width)}.png`, fullPage: true, animations: 'disabled' });
    } finally {
      // Leave the demo driver free for the other tests.
      for (const step of ['arrive', 'start', 'reach']) await request.post(`/api/bookings/${id}/${step}`, { headers: driver, data: {} });
      await request.post(`/api/bookings/${id}/pay`, { headers: driver, data: { payment_mode: 'cash' } });
    }
  });
}
