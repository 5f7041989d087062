import { expect, test, type Page } from '@playwright/test';
import { withSettings } from '../support/session';

/**
 * Issue 17, point 11: "Get the app" offers the PWA's install where the browser does (its
 * beforeinstallprompt event), and the app store links only for the stores the admin has set.
 */

const SHOTS = '/tmp/a11y-shots';
const section = (page: Page) => page.getByRole('region', { name: 'Get the app' });
const NO_STORES = { AppleStoreLink: '', PlayStoreLink: '' };
const APPLE = 'https://apps.apple.com/app/rideway/id1000000001';
const PLAY = 'https://play.google.com/store/apps/details?id=demo.rideway';

/**
 * Headless Chromium does not offer installs by itself, so the page gets the event Chromium would
 * send: cancelable, with prompt() and userChoice. What the page does with it is kept on window.
 */
async function browserOffersInstall(page: Page, outcome: 'accepted' | 'dismissed'): Promise<void> {
  await page.evaluate((choice) => {
    const seen = window as unknown as { installPrompted: number; offerHeldBack: boolean };
    seen.installPrompted = 0;
    const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt: () => {
        seen.installPrompted += 1;
        return Promise.resolve();
      },
      userChoice: Promise.resolve({ outcome: choice, platform: 'web' }),
    });
    window.dispatchEvent(event);
    seen.offerHeldBack = event.defaultPrevented;
  }, outcome);
}

/** How often the page called prompt(), and whether it held the browser's own offer back. */
const seen = (page: Page) =>
  page.evaluate(() => {
    const { installPrompted, offerHeldBack } = window as unknown as { installPrompted: number; offerHeldBack: boolean };
    return { installPrompted, offerHeldBack };
  });

for (const width of [1280, 375]) {
  test(`the install button shows when the browser offers it, opens its dialog, and goes at ${String(width)} px`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: 900 });
    await withSettings(request, NO_STORES, async () => {
      await page.goto('/');
      const install = section(page).getByRole('button', { name: 'Install the app' });
      await expect(section(page)).toBeVisible();
      await expect(install).toHaveCount(0);

      await browserOffersInstall(page, 'accepted');
      await expect(install).toBeVisible();
      expect(await seen(page)).toEqual({ installPrompted: 0, offerHeldBack: true });
      await section(page).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/get-the-app-install-${String(width)}.png` });

      await install.click();
      await expect(install).toHaveCount(0);
      expect((await seen(page)).installPrompted).toBe(1);
    });
  });
}

test('a dismissed install dialog takes the button away too, until the browser offers again', async ({ page, request }) => {
  await withSettings(request, NO_STORES, async () => {
    await page.goto('/about-us');
    // Offered while the visitor reads another page: the button is there on the home page.
    await browserOffersInstall(page, 'dismissed');
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Home' }).click();
    const install = section(page).getByRole('button', { name: 'Install the app' });
    await install.click();
    await expect(install).toHaveCount(0);
    expect((await seen(page)).installPrompted).toBe(1);
    await browserOffersInstall(page, 'accepted');
    await expect(install).toBeVisible();
  });
});

for (const width of [1280, 375]) {
  test(`store links show only for the stores the admin has set at ${String(width)} px`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: 900 });
    const appStore = section(page).getByRole('link', { name: 'App Store' });
    const googlePlay = section(page).getByRole('link', { name: 'Google Play' });
    await withSettings(request, NO_STORES, async () => {
      await page.goto('/');
      await expect(section(page)).toBeVisible();
      await expect(section(page).getByRole('link')).toHaveCount(0);
    });
    await withSettings(request, { AppleStoreLink: APPLE, PlayStoreLink: '' }, async () => {
      await page.goto('/');
      await expect(appStore).toHaveAttribute('href', APPLE);
      await expect(googlePlay).toHaveCount(0);
    });
    await withSettings(request, { AppleStoreLink: '', PlayStoreLink: PLAY }, async () => {
      await page.goto('/');
      await expect(googlePlay).toHaveAttribute('href', PLAY);
      await expect(appStore).toHaveCount(0);
    });
    await withSettings(request, { AppleStoreLink: APPLE, PlayStoreLink: PLAY }, async () => {
      await page.goto('/');
      await expect(appStore).toHaveAttribute('href', APPLE);
      await expect(googlePlay).toHaveAttribute('href', PLAY);
      await browserOffersInstall(page, 'accepted');
      await expect(section(page).getByRole('button', { name: 'Install the app' })).toBeVisible();
      await section(page).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/get-the-app-stores-${String(width)}.png` });
    });
    // Not a web address: no link, whatever the admin typed.
    await withSettings(request, { AppleStoreLink: 'javascript:alert(1)', PlayStoreLink: '' }, async () => {
      await page.goto('/');
      await expect(section(page)).toBeVisible();
      await expect(section(page).getByRole('link')).toHaveCount(0);
    });
  });
}
