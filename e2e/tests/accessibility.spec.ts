import { mkdirSync, readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { apiSignIn, fillTrip, signIn } from '../support/session';

/**
 * Issue 17, accessibility: axe-core with the WCAG 2.1 AA rules on every page of the route table,
 * for a visitor and each role, at 1280 px and 375 px, and in the open states that matter (the side
 * menus on a phone, dialogs). A serious or critical violation fails the test.
 */

type Role = 'visitor' | 'rider' | 'driver' | 'fleetadmin' | 'admin';

const SIGNED_IN = ['rider', 'driver', 'fleetadmin', 'admin'] as const;
const EVERYONE = ['visitor', ...SIGNED_IN] as const;
const ACCOUNTS: Record<(typeof SIGNED_IN)[number], string> = {
  rider: 'rider1@rideway.demo',
  driver: 'driver1@rideway.demo',
  fleetadmin: 'fleet@rideway.demo',
  admin: 'admin@rideway.demo',
};

/**
 * Section 2's routes and who can open them. Public pages are visited by everyone (the header and
 * the home page change with the role); '*' is the not-found page, ':id' a booking the role can see.
 */
const ROUTES: Record<string, readonly Role[]> = {
  '/': EVERYONE,
  '/about-us': EVERYONE,
  '/privacy-policy': EVERYONE,
  '/terms': EVERYONE,
  '/login': ['visitor'],
  '/register': ['visitor'],
  '/reset-password': ['visitor'],
  // Issue 20 point 5: the second step of a staff member's sign-in.
  '/login/2fa': ['visitor'],
  '*': EVERYONE,
  '/bookings': SIGNED_IN,
  '/bookings/:id': SIGNED_IN,
  '/profile': SIGNED_IN,
  '/dashboard': ['admin', 'fleetadmin'],
  '/drivers': ['admin', 'fleetadmin'],
  '/driverearning': ['admin', 'fleetadmin'],
  '/cartypes': ['admin'],
  '/cancelreasons': ['admin'],
  '/addbookings': ['admin'],
  '/promos': ['admin'],
  '/riders': ['admin'],
  '/fleetadmins': ['admin'],
  '/notifications': ['admin'],
  '/earningreports': ['admin'],
  '/addtowallet': ['admin'],
  '/withdraws': ['admin'],
  '/settings': ['admin'],
  '/payments': ['admin'],
  '/messages': ['admin'],
  // Issue 23 point 8: the audit log.
  '/audit': ['admin'],
  // Issue 20: a driver's documents, and their review.
  '/documents': ['driver'],
  '/documentreview': ['admin', 'fleetadmin'],
  // Issue 20 point 6: a user's page (':id' a driver the role manages).
  '/users/:id': ['admin', 'fleetadmin'],
};

/** Every path the web app's route table serves: its own entries and the screens it maps in. */
function routeTablePaths(): string[] {
  const app = new URL('../../apps/web/src/app/', import.meta.url);
  const table = readFileSync(new URL('route-table.tsx', app), 'utf8');
  const screens = readFileSync(new URL('screens.ts', app), 'utf8');
  const own = [...table.matchAll(/\bpath: '([^']+)'/g)].map(([, path = '']) => (path === '*' ? path : `/${path}`));
  const index = /\bindex: true\b/.test(table) ? ['/'] : [];
  const screenPaths = [...screens.matchAll(/^\s+'(\/[a-z-]*)':/gm)].map(([, path = '']) => path);
  return [...index, ...own, ...screenPaths];
}

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const SHOTS = '/tmp/a11y-shots';
mkdirSync(SHOTS, { recursive: true });

/** axe on the whole page; fails on a serious or critical violation, naming the rule and the elements. */
async function expectAccessible(page: Page, what: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  const blocking = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect.soft(blocking.map(({ id, impact, nodes }) => `${id} (${String(impact)}): ${nodes.map((node) => node.target.join(' ')).join(' | ')}`), what).toEqual([]);
}

/**
 * The page has drawn its content: the main landmark is there, the top bar shows the app's name
 * (the settings have loaded) and nothing is still loading (no spinner, no skeleton).
 */
async function settled(page: Page): Promise<void> {
  const { settings } = (await (await page.request.get('/api/settings')).json()) as { settings: { appName: string } };
  await expect(page.locator('main')).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('header').first()).toContainText(settings.appName, { timeout: 15_000 });
  await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 15_000 });
  await expect(page.locator('.MuiSkeleton-root')).toHaveCount(0, { timeout: 15_000 });
}

/** A slide-in drawer or a fading dialog has finished moving, so colours are measured at rest. */
async function atRest(locator: Locator): Promise<void> {
  await expect(locator).toBeVisible();
  await expect(locator).toHaveCSS('opacity', '1');
  await expect(locator).toHaveCSS('transform', 'none');
}

/** A booking the role can open: its newest in the API's scope. */
async function bookingOf(request: APIRequestContext, email: string): Promise<string> {
  const headers = await apiSignIn(request, email);
  const { bookings } = (await (await request.get('/api/bookings', { headers })).json()) as { bookings: { id: string }[] };
  const id = bookings[0]?.id;
  if (!id) throw new Error(`${email} has no booking to open`);
  return id;
}

/** A driver the role manages (an admin: any; a fleet admin: its own), for its user page. */
async function driverOf(request: APIRequestContext, email: string): Promise<string> {
  const headers = await apiSignIn(request, email);
  const { users } = (await (await request.get('/api/users?usertype=driver', { headers })).json()) as { users: { id: string }[] };
  const id = users[0]?.id;
  if (!id) throw new Error(`${email} manages no driver`);
  return id;
}

const pathFor = (route: string, ids: { bookingId: string; userId: string }): string =>
  route === '*' ? '/no-such-page' : route === '/users/:id' ? `/users/${ids.userId}` : route.replace(':id', ids.bookingId);
const slug = (route: string): string => (route === '/' ? 'home' : route === '*' ? 'not-found' : route.slice(1).replaceAll(/[/:]/g, '-'));

// Every test signs in and scans whole pages, several times over: more than the default 30 s.
test.describe.configure({ timeout: 120_000 });

test.beforeEach(async ({ page }) => {
  // No network here: the map tiles fail at once instead of waiting, as a tile server that is down.
  await page.route('https://tile.openstreetmap.org/**', (route) => route.fulfill({ status: 503, body: '' }));
});

test('the list above covers every route of the web app\'s route table', () => {
  expect(routeTablePaths().sort()).toEqual(Object.keys(ROUTES).sort());
});

for (const role of EVERYONE) {
  for (const width of [1280, 375]) {
    test(`every page a ${role} can open passes axe's WCAG 2.1 AA rules at ${String(width)} px`, async ({ page, request }) => {
      // The admin's 28 pages, each scanned whole, take minutes on a busy machine.
      test.setTimeout(360_000);
      await page.setViewportSize({ width, height: 900 });
      const bookingId = role === 'visitor' ? '' : await bookingOf(request, ACCOUNTS[role]);
      const userId = role === 'admin' || role === 'fleetadmin' ? await driverOf(request, ACCOUNTS[role]) : '';
      if (role !== 'visitor') await signIn(page, ACCOUNTS[role]);
      for (const [route, roles] of Object.entries(ROUTES)) {
        if (!roles.includes(role)) continue;
        await test.step(route, async () => {
          await page.goto(pathFor(route, { bookingId, userId }));
          await settled(page);
          await page.screenshot({ path: `${SHOTS}/${role}-${slug(route)}-${String(width)}.png` });
          await expectAccessible(page, `${role} on ${route} at ${String(width)} px`);
        });
      }
    });
  }
}

for (const role of EVERYONE) {
  test(`the side menu open on a phone passes axe for a ${role}`, async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    if (role !== 'visitor') await signIn(page, ACCOUNTS[role]);
    await page.goto(role === 'visitor' || role === 'rider' ? '/about-us' : '/bookings');
    await settled(page);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.locator('.MuiDrawer-paper');
    await atRest(menu);
    await expect(menu.getByRole('navigation')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/${role}-menu-open-375.png` });
    await expectAccessible(page, `${role}'s side menu open`);
  });
}

for (const width of [1280, 375]) {
  test(`dialogs pass axe at ${String(width)} px: forgot password, add a car type, cancel a booking`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await atRest(page.locator('.MuiDialog-container'));
    await page.screenshot({ path: `${SHOTS}/dialog-forgot-password-${String(width)}.png` });
    await expectAccessible(page, 'the forgot password dialog');

    await signIn(page, 'admin@rideway.demo');
    await page.goto('/cartypes');
    await settled(page);
    await page.getByRole('button', { name: 'Add car type' }).click();
    await atRest(page.locator('.MuiDialog-container'));
    await page.screenshot({ path: `${SHOTS}/dialog-add-car-type-${String(width)}.png` });
    await expectAccessible(page, 'the add car type dialog');

    // A booking of our own to cancel: rider2's, booked for now, cancelled again through the API after.
    const rider = await apiSignIn(request, 'rider2@rideway.demo');
    const booked = await request.post('/api/bookings', {
      headers: rider,
      data: { pickup: { lat: 51.5308, lng: -0.1238, add: "King's Cross Station, London" }, drop: { lat: 51.5081, lng: -0.0759, add: 'Tower of London, London' }, carType: 'Economy', payment_mode: 'cash' },
    });
    expect(booked.status()).toBe(201);
    const { id } = (await booked.json()) as { id: string };
    try {
      await page.goto(`/bookings/${id}`);
      await settled(page);
      await page.getByRole('button', { name: 'Cancel booking' }).click();
      await atRest(page.locator('.MuiDialog-container'));
      await page.screenshot({ path: `${SHOTS}/dialog-cancel-booking-${String(width)}.png` });
      await expectAccessible(page, 'the cancel booking dialog');
    } finally {
      await request.post(`/api/bookings/${id}/cancel`, { headers: rider, data: { reason: 'Accessibility test' } });
    }
  });
}

for (const width of [1280, 375]) {
  test(`the scrolled header, the language menu and the fare estimate pass axe at ${String(width)} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    await settled(page);
    // Past 400 px the public header turns green: its links and language field keep their contrast.
    await page.mouse.wheel(0, 1200);
    await expect(page.locator('header').first()).toHaveAttribute('data-scrolled', 'true');
    await page.screenshot({ path: `${SHOTS}/header-scrolled-${String(width)}.png` });
    await expectAccessible(page, 'the public header after scrolling');
    await page.getByRole('combobox', { name: 'Language' }).click();
    await atRest(page.locator('.MuiPopover-paper'));
    await page.screenshot({ path: `${SHOTS}/language-menu-${String(width)}.png` });
    await expectAccessible(page, 'the language menu open');
    await page.keyboard.press('Escape');

    await signIn(page, 'rider1@rideway.demo');
    await fillTrip(page);
    await page.getByRole('button', { name: 'Book', exact: true }).click();
    const estimate = page.getByRole('dialog', { name: 'Your fare estimate' });
    await expect(estimate.getByTestId('estimate-fare')).toBeVisible();
    await atRest(page.locator('.MuiDialog-container'));
    await page.screenshot({ path: `${SHOTS}/dialog-estimate-${String(width)}.png` });
    await expectAccessible(page, 'the fare estimate dialog');
    // Not booked: the dialog is closed without confirming.
    await estimate.getByRole('button', { name: 'Cancel' }).click();
    await expect(estimate).toHaveCount(0);
  });
}
