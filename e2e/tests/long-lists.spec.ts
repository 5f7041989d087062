import { expect, test } from '@playwright/test';
import { apiSignIn, signIn } from '../support/session';

/**
 * Issue 21 point 5: a long booking history draws only what the screen shows. A rider with 60
 * bookings (each booked for later and cancelled) opens its history: a screenful of cards is in the
 * page, the page scrolls the whole list, and the oldest comes into view at the bottom.
 * (The e2e server allows 500 bookings an hour per user, RATE_LIMIT_OVERRIDES; the limit itself
 * is the API tests'.)
 */
const PASSWORD = 'longlist123';
const COUNT = 60;

for (const width of [375, 1280]) {
  test(`a rider's history of ${String(COUNT)} bookings is drawn a screenful at a time, and scrolls to the oldest (${String(width)} px)`, async ({ page, request }) => {
    test.setTimeout(120_000);
    const admin = await apiSignIn(request, 'admin@rideway.demo');
    const stamp = `${String(Date.now()).slice(-7)}${String(width).slice(0, 1)}`;
    const email = `longlist.${stamp}@example.com`;
    const added = await request.post('/api/users', { headers: admin, data: { firstName: 'Lola', lastName: 'Longlist', email, mobile: `78${stamp.padStart(8, '0')}`, usertype: 'rider', password: PASSWORD } });
    expect(added.status(), await added.text()).toBe(201);
    const rider = await apiSignIn(request, email, PASSWORD);
    const references: string[] = [];
    for (let i = 0; i < COUNT; i += 1) {
      const booked = await request.post('/api/bookings', {
        headers: rider,
        data: { pickup: { lat: 51.5308, lng: -0.1238, add: "King's Cross Station, London" }, drop: { lat: 51.5081, lng: -0.0759, add: 'Tower of London, London' }, carType: 'Economy', bookLater: true, tripdate: Date.now() + 86_400_000 + i * 60_000 },
      });
      expect(booked.status(), await booked.text()).toBe(201);
      const { id } = (await booked.json()) as { id: string };
      references.push(id);
      expect((await request.post(`/api/bookings/${id}/cancel`, { headers: rider, data: { reason: 'Changed plans' } })).status()).toBe(200);
    }
    await page.setViewportSize({ width, height: 800 });
    await signIn(page, email, PASSWORD);
    await page.goto('/bookings');
    const list = page.getByTestId('virtual-list');
    await expect(list).toBeVisible();
    const drawn = await page.locator('[data-booking]').count();
    expect(drawn).toBeGreaterThan(0);
    expect(drawn).toBeLessThan(COUNT / 2);
    await page.screenshot({ path: `screenshots/long-list-top-${String(width)}.png` });
    // The newest first; the oldest (the first made) comes into view at the very bottom.
    await expect(page.locator(`[data-booking="${references.at(-1) ?? ''}"]`)).toBeVisible();
    await expect(page.locator(`[data-booking="${references[0] ?? ''}"]`)).toHaveCount(0);
    for (let i = 0; i < 40; i += 1) {
      await page.mouse.wheel(0, 2000);
      if (await page.locator(`[data-booking="${references[0] ?? ''}"]`).count()) break;
    }
    await expect(page.locator(`[data-booking="${references[0] ?? ''}"]`)).toBeVisible();
    expect(await page.locator('[data-booking]').count()).toBeLessThan(COUNT / 2);
    await page.screenshot({ path: `screenshots/long-list-bottom-${String(width)}.png` });
  });
}
