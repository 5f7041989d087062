import { expect, test } from '@playwright/test';

for (const width of [375, 1280]) {
  test(`the start page names the product and shows the API running (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/');
    await expect(page).toHaveTitle('Rideway');
    await expect(page.getByRole('heading', { name: 'Rideway' })).toBeVisible();
    await expect(page.locator('#health')).toHaveText('running');
    await page.screenshot({ path: `screenshots/start-page-${width}.png`, fullPage: true });
  });
}
