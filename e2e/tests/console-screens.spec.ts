import { expect, test } from '@playwright/test';
import { signIn } from '../support/session';

/**
 * Issue 7: every page of the side menu, for an admin and a fleet admin, at a phone's width and a
 * desktop's, opens on its heading without a script error. The screenshots are looked at by hand.
 */
const CONSOLES = [
  // Section 2's sixteen admin pages, issue 18's payments page, issue 19's messages page, issue
  // 20's documents review (which a fleet admin has too, for its own drivers) and issue 23's audit log.
  { email: 'admin@rideway.demo', role: 'admin', pages: 20 },
  { email: 'fleet@rideway.demo', role: 'fleet', pages: 6 },
];

for (const { email, role, pages } of CONSOLES) {
  test(`every menu page of the ${role} console, at 375 and 1280 px`, async ({ page }) => {
    test.setTimeout(120_000);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signIn(page, email);
    // The side menu of the signed-in layout, once it has replaced the public header.
    const menu = page.getByRole('navigation', { name: 'Main menu' }).getByRole('link');
    await expect(menu.filter({ hasText: 'Profile' })).toBeVisible();
    const paths = [...new Set(await menu.evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname)))].filter((path) => path !== '/');
    expect(paths).toHaveLength(pages);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      for (const path of paths) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 }).first(), path).toBeVisible();
        await expect(page.getByRole('progressbar'), path).toHaveCount(0);
        // Loading shows skeletons (issue 17): the page is drawn once they are gone.
        await expect(page.locator('.MuiSkeleton-root'), path).toHaveCount(0);
        const name = path.slice(1).replaceAll('/', '-');
        await page.screenshot({ path: `screenshots/console-${role}-${name}-${width}.png`, fullPage: true, animations: 'disabled' });
      }
    }
    expect(errors).toEqual([]);
  });
}
