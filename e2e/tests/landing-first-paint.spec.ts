import { expect, test, type Page } from '@playwright/test';
import { signIn } from '../support/session';

/**
 * Issue 21 point 5: the landing page arrives drawn by the server (the header bar with appName, its
 * links and language selector; the slogan, the booking form's placeholder) in the visitor's
 * language, so a phone paints it before the app's script has arrived; the app then takes over
 * where everything stands, with no layout shift.
 */
// The app's service worker serves the scripts it has cached from its own cache, where a page's
// routes never see them: once it controlled the page, "without the app" still had the app (a driver's
// page rendered by the app, in one CI run). These tests are about what the server sends.
test.use({ serviceWorkers: 'block' });

const withoutTheApp = async (page: Page) => {
  // The app's own scripts never arrive: what shows is the server's page alone.
  await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
};

/** Sums the page's layout shifts from its first paint on (the browser's layout-shift entries, as CLS counts them). */
type Shifts = { total: number; sources: string[] };
/** Sums the page's layout shifts from its first paint, naming what moved (a failure says which element it was). */
const watchLayoutShifts = (page: Page) =>
  page.addInitScript(() => {
    const shifts: Shifts = { total: 0, sources: [] };
    Object.assign(window, { layoutShifts: shifts });
    type Entry = { value: number; hadRecentInput: boolean; sources?: { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[] };
    const describe = (node: Node | null | undefined) => (node instanceof Element ? `${node.tagName.toLowerCase()}${node.getAttribute('data-testid') ? `[${node.getAttribute('data-testid') ?? ''}]` : ''}.${(node.getAttribute('class') ?? '').slice(0, 60)} "${node.textContent.slice(0, 30)}"` : String(node?.nodeName));
    const box = (rect: DOMRectReadOnly) => `${String(Math.round(rect.x))},${String(Math.round(rect.y))} ${String(Math.round(rect.width))}x${String(Math.round(rect.height))}`;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as Entry[]) {
        if (entry.hadRecentInput) continue;
        shifts.total += entry.value;
        for (const source of entry.sources ?? []) shifts.sources.push(`${entry.value.toFixed(4)} ${describe(source.node)} ${box(source.previousRect)} -> ${box(source.currentRect)}`);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
/** Where a box stands, to the pixel. */
const rounded = (box: { x: number; y: number; width: number; height: number } | null) => box && Object.fromEntries(Object.entries(box).map(([key, value]) => [key, Math.round(value)]));
/** The header's items that a visitor sees at `width`: appName, the language selector, and the links (on a phone, the menu button they open from). */
const headerItems = (page: Page, width: number) => {
  const header = page.getByRole('banner');
  return {
    appName: header.getByRole('link', { name: 'Rideway', exact: true }),
    language: header.getByRole('combobox', { name: /^Language/ }),
    links: width < 768 ? header.getByRole('button', { name: 'Open menu' }) : header.getByRole('navigation').getByRole('link', { name: 'Login / Sign up' }),
  };
};
/** The page's summed layout shift; under 0.01, or the failure lists what moved. */
const expectStill = async (page: Page) => {
  const shifts = await page.evaluate(() => (window as unknown as { layoutShifts: Shifts }).layoutShifts);
  expect(shifts.total, shifts.sources.join('\n')).toBeLessThan(0.01);
};

for (const width of [375, 1280]) {
  test(`the slogan and the form's place show before the app's script, and nothing moves when it arrives, at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await withoutTheApp(page);
    await page.goto('/');
    const slogan = page.getByRole('heading', { level: 1, name: 'Your ride, your parcel, right on time.' });
    await expect(slogan).toBeVisible();
    await expect(page.getByRole('status', { name: 'Loading' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    // The header is the app's too: appName from the settings, the visitor's language in the
    // selector, the links (a phone's behind the menu button); the controls wait for the app.
    const header = headerItems(page, width);
    await expect(header.appName).toBeVisible();
    await expect(page).toHaveTitle('Rideway');
    await expect(header.language).toHaveText('English');
    await expect(header.language).toBeDisabled();
    await expect(header.links).toBeVisible();
    if (width < 768) await expect(header.links).toBeDisabled();
    await page.screenshot({ path: `screenshots/landing-before-the-app-${width}.png` });
    await page.screenshot({ path: `test-results/landing-first-paint/before-the-app-${width}.png` });
    const drawn = await slogan.boundingBox();
    const drawnHeader = await Promise.all([header.appName.boundingBox(), header.language.boundingBox(), header.links.boundingBox()]);

    const app = await page.context().newPage();
    await app.setViewportSize({ width, height: 800 });
    await watchLayoutShifts(app);
    await app.goto('/');
    await expect(app.getByRole('button', { name: 'Book', exact: true })).toBeVisible();
    const appHeader = headerItems(app, width);
    // The app's own header is in once its selector works.
    await expect(appHeader.language).toBeEnabled();
    await expect(appHeader.links).toBeVisible();
    // Where the server drew it, to the pixel (the form's button is a quarter pixel taller than its placeholder).
    expect(rounded(await app.getByRole('heading', { level: 1 }).boundingBox())).toEqual(rounded(drawn));
    const appHeaderBoxes = await Promise.all([appHeader.appName.boundingBox(), appHeader.language.boundingBox(), appHeader.links.boundingBox()]);
    expect(appHeaderBoxes.map(rounded)).toEqual(drawnHeader.map(rounded));
    await expectStill(app);
    await app.screenshot({ path: `screenshots/landing-with-the-app-${width}.png` });
  });
}

test("a rider's page is drawn with the map's place in the form, and nothing moves when the form and its map arrive", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, 'rider1@rideway.demo');
  await withoutTheApp(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Your ride, your parcel, right on time.' })).toBeVisible();
  await expect(page.getByTestId('form-skeleton')).toBeVisible();
  await page.screenshot({ path: 'screenshots/landing-before-the-app-rider-1280.png' });
  const drawn = await page.getByRole('heading', { level: 1 }).boundingBox();
  await page.unroute(/\/assets\/.*\.js$/);
  await watchLayoutShifts(page);
  await page.goto('/');
  await expect(page.getByRole('region', { name: 'Map of the pickup and drop' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Book', exact: true })).toBeVisible();
  const at = (box: { x: number; y: number } | null) => box && [Math.round(box.x), Math.round(box.y)];
  expect(at(await page.getByRole('heading', { level: 1 }).boundingBox())).toEqual(at(drawn));
  // Spec section 2's rider sees the whole form; the shift measured is the page's own, from its first paint.
  await expectStill(page);
  await page.screenshot({ path: 'screenshots/landing-with-the-app-rider-1280.png' });
});

test("the server draws it in the visitor's chosen language and direction, and a driver's page is the app's alone", async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Language').click();
  await page.getByRole('option', { name: 'العربية' }).click();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await withoutTheApp(page);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('heading', { level: 1, name: 'رحلتك وطردك، في الوقت المناسب تمامًا.' })).toBeVisible();
  // The header in Arabic, mirrored: appName at the right, the selector saying Arabic.
  const header = page.getByRole('banner');
  const appName = header.getByRole('link', { name: 'Rideway', exact: true });
  await expect(appName).toBeVisible();
  await expect(header.getByRole('navigation').getByRole('link', { name: 'الدخول / التسجيل' })).toBeVisible();
  await expect(header.getByRole('combobox', { name: /^اللغة/ })).toHaveText('العربية');
  // Right to left, the bar starts at the right: appName ends at the bar's right padding.
  const nameBox = await appName.boundingBox();
  expect((page.viewportSize()?.width ?? 0) - ((nameBox?.x ?? 0) + (nameBox?.width ?? 0))).toBeLessThan(40);
  await page.screenshot({ path: 'screenshots/landing-before-the-app-rtl.png' });
  await page.screenshot({ path: 'test-results/landing-first-paint/before-the-app-rtl-1280.png' });
  await page.unroute(/\/assets\/.*\.js$/);
  await page.evaluate(() => { localStorage.setItem('rideway.language', 'en'); });
  await page.context().clearCookies({ name: 'rideway_language' });

  // A driver gets the slogan alone, across the page: the server leaves that page to the app.
  await signIn(page, 'driver1@rideway.demo');
  await withoutTheApp(page);
  await page.goto('/');
  await expect(page.locator('#root')).toBeEmpty();
});
