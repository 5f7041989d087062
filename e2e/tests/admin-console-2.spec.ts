import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiSignIn } from '../support/session';

/**
 * Issue 17, point 9: the admin console at the widths of common laptops (1280 and 1366 px). The
 * tables keep their actions in view; a row is edited in a dialog and confirmed; a withdraw is
 * processed or rejected after a confirmation (a rejection credits the wallet back); the booking
 * history names rider and driver and is searched and filtered; a deep link survives signing in.
 */

const PASSWORD = 'demo123';
let people = 0;
const stamp = () => `${String(Date.now()).slice(-7)}${String((people += 1))}`;

/** A fresh, approved account made by the admin: its id, name and Bearer header. */
async function newAccount(request: APIRequestContext, usertype: 'rider' | 'driver', firstName: string, lastName: string, extra: Record<string, unknown> = {}) {
  const admin = await apiSignIn(request, 'admin@rideway.demo');
  const id = stamp();
  const email = `${firstName.toLowerCase()}.${id}@example.com`;
  const added = await request.post('/api/users', { headers: admin, data: { firstName, lastName, email, mobile: `79${id.padStart(8, '0').slice(-8)}`, usertype, password: PASSWORD, ...extra } });
  expect(added.status(), await added.text()).toBe(201);
  const user = (await added.json()).user as { id: string };
  return { id: user.id, email, lastName, admin, headers: await apiSignIn(request, email, PASSWORD) };
}

/** Signs in on the login page where the app sent us (keeping its ?next=). */
async function signInHere(page: Page, email: string, password = PASSWORD) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

async function signInAs(page: Page, email: string, password = PASSWORD) {
  await page.goto('/login');
  await signInHere(page, email, password);
}

/** The grid's columns all fit: the grid scrolls nothing sideways and its last column (the actions) ends on the screen. */
async function expectActionsInView(page: Page, path: string, width: number) {
  const grid = page.locator('.MuiDataGrid-root').first();
  await expect(grid, path).toBeVisible();
  await expect(page.getByRole('progressbar'), path).toHaveCount(0);
  await expect(grid.locator('.MuiSkeleton-root'), path).toHaveCount(0);
  const scrolls = await grid.evaluate((root) => (root as HTMLElement).style.getPropertyValue('--DataGrid-hasScrollX').trim());
  expect(scrolls, `${path} scrolls sideways`).toBe('0');
  await expect(grid.locator('.MuiDataGrid-scrollbar--horizontal'), path).toHaveCount(0);
  const table = await grid.boundingBox();
  const last = await grid.locator('.MuiDataGrid-columnHeader').last().boundingBox();
  const end = (last?.x ?? Infinity) + (last?.width ?? 0);
  expect(end, `${path}: the last column ends past the table`).toBeLessThanOrEqual((table?.x ?? 0) + (table?.width ?? 0) + 1);
  expect(end, `${path}: the last column ends past the screen`).toBeLessThanOrEqual(width);
}

for (const width of [1280, 1366]) {
  test.describe(`the admin console at ${String(width)} px`, () => {
    test.use({ viewport: { width, height: 800 } });
    // Each test signs in two or three people and makes its own data.
    test.describe.configure({ timeout: 120_000 });

    test('a deep link to an admin page comes back after signing in; a link to another site is ignored', async ({ page }) => {
      await page.goto('/withdraws');
      await expect(page).toHaveURL(/\/login\?next=%2Fwithdraws$/);
      await signInHere(page, 'admin@rideway.demo');
      await expect(page).toHaveURL(/\/withdraws$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Withdraws' })).toBeVisible();

      // Signed out, a link with a query keeps it.
      await page.context().clearCookies();
      await page.goto('/riders?x=1');
      await expect(page).toHaveURL(/\/login\?next=%2Friders%3Fx%3D1$/);
      await signInHere(page, 'admin@rideway.demo');
      await expect(page).toHaveURL(/\/riders\?x=1$/);

      // Never an open redirect: ?next= naming another site goes to the role's home on this one.
      const origin = new URL(page.url()).origin;
      for (const next of ['https://evil.example', '//evil.example/withdraws', '/\\evil.example']) {
        await page.context().clearCookies();
        await page.goto(`/login?next=${encodeURIComponent(next)}`);
        await signInHere(page, 'admin@rideway.demo');
        await expect(page).toHaveURL(`${origin}/dashboard`);
      }
      // A page of another role's: the fleet admin goes home.
      await page.context().clearCookies();
      await page.goto('/login?next=%2Fwithdraws');
      await signInHere(page, 'fleet@rideway.demo');
      await expect(page).toHaveURL(`${origin}/dashboard`);
    });

    test('an admin rejects a withdraw after confirming; the driver is credited back, on the ledger', async ({ page, browser, request }) => {
      const driver = await newAccount(request, 'driver', 'Wanda', `Withdraw${stamp()}`, { carType: 'Economy', vehicleNumber: 'WD17 REJ' });
      expect((await request.post('/api/wallet/credit', { headers: driver.admin, data: { uid: driver.id, amount: 40 } })).status()).toBe(200);
      const asked = await request.post('/api/withdraws', { headers: driver.headers, data: { amount: 15.75, bankName: 'Demo Bank', bankCode: '040004', bankAccount: '99887766' } });
      expect(asked.status()).toBe(201);
      const withdrawId = (await asked.json()).withdraw.id as string;
      // A second request, to be paid out.
      expect((await request.post('/api/withdraws', { headers: driver.headers, data: { amount: 4.25, bankName: 'Demo Bank', bankCode: '040004', bankAccount: '99887766' } })).status()).toBe(201);

      await signInAs(page, 'admin@rideway.demo');
      await page.goto('/withdraws');
      await page.getByPlaceholder('Search…').fill(driver.lastName);
      const mine = page.getByRole('row').filter({ hasText: driver.lastName });
      const row = mine.filter({ hasText: '£15.75' });
      await expect(row.locator('[data-field="state"]')).toHaveText('Waiting');
      await expectActionsInView(page, '/withdraws', width);

      // Reject asks first; Cancel leaves the request as it was.
      await row.getByRole('menuitem', { name: 'Reject' }).click();
      const confirm = page.getByRole('dialog', { name: 'Reject this withdrawal?' });
      await expect(confirm).toContainText('Reject the withdrawal of £15.75 by Wanda');
      await expect(confirm).toContainText('The amount goes back to their wallet.');
      await page.screenshot({ path: `screenshots/withdraw-reject-confirm-${String(width)}.png`, animations: 'disabled' });
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expect(confirm).toHaveCount(0);
      await expect(row.locator('[data-field="state"]')).toHaveText('Waiting');

      await row.getByRole('menuitem', { name: 'Reject' }).click();
      await confirm.getByRole('button', { name: 'Reject' }).click();
      await expect(confirm).toHaveCount(0);
      await expect(row.locator('[data-field="state"]')).toHaveText('Rejected');
      await expect(row.getByRole('menuitem', { name: 'Reject' })).toBeDisabled();
      await expect(row.getByRole('menuitem', { name: 'Process' })).toBeDisabled();

      // The other is paid out, after its own confirmation.
      const payout = mine.filter({ hasText: '£4.25' });
      await payout.getByRole('menuitem', { name: 'Process' }).click();
      const pay = page.getByRole('dialog', { name: 'Pay out this withdrawal?' });
      await expect(pay).toContainText('Demo Bank 99887766');
      await page.screenshot({ path: `screenshots/withdraw-process-confirm-${String(width)}.png`, animations: 'disabled' });
      await pay.getByRole('button', { name: 'Process' }).click();
      await expect(payout.locator('[data-field="state"]')).toHaveText('Processed');
      await page.screenshot({ path: `screenshots/withdraws-decided-${String(width)}.png`, animations: 'disabled' });

      // The wallet: 40 - 15.75 - 4.25 + 15.75, with a credit naming the rejected request.
      const wallet = await (await request.get('/api/wallet', { headers: driver.headers })).json();
      expect(wallet.walletBalance).toBe(35.75);
      expect(wallet.walletHistory).toContainEqual(expect.objectContaining({ type: 'Credit', amount: 15.75, txRef: `WithdrawRejected:${withdrawId}` }));
      const listed = (await (await request.get('/api/withdraws', { headers: driver.headers })).json()).withdraws as { id: string; rejected: boolean; processed: boolean }[];
      expect(listed.find((withdraw) => withdraw.id === withdrawId)).toMatchObject({ rejected: true, processed: false });

      // The driver sees it returned on the profile.
      const driverPage = await (await browser.newContext({ viewport: { width, height: 900 } })).newPage();
      await signInAs(driverPage, driver.email);
      await driverPage.goto('/profile');
      await expect(driverPage.getByTestId('wallet-balance')).toHaveText('£35.75');
      await expect(driverPage.getByRole('list', { name: 'Wallet history' })).toContainText('Withdrawal returned');
      await expect(driverPage.getByRole('list', { name: 'Withdraws' })).toContainText('Rejected');
      await driverPage.screenshot({ path: `screenshots/withdraw-rejected-driver-${String(width)}.png`, fullPage: true, animations: 'disabled' });
      await driverPage.close();
    });

    test('a driver is edited in a dialog and saved only once the changes are confirmed', async ({ page, request }) => {
      const lastName = `Editable${stamp()}`;
      const driver = await newAccount(request, 'driver', 'Eddie', lastName, { carType: 'Economy', vehicleNumber: 'ED17 OLD' });
      await signInAs(page, 'admin@rideway.demo');
      await page.goto('/drivers');
      // The table's own search finds the new driver, whatever page it would be on.
      await page.getByPlaceholder('Search…').fill(lastName);
      const row = page.getByRole('row').filter({ hasText: lastName });
      await expect(row).toContainText('ED17 OLD');
      await expectActionsInView(page, '/drivers', width);
      await page.screenshot({ path: `screenshots/drivers-${String(width)}.png`, animations: 'disabled' });

      // A double click no longer edits a cell.
      await row.locator('[data-field="lastName"]').dblclick();
      await expect(row.locator('input')).toHaveCount(0);

      await row.getByRole('menuitem', { name: 'Edit' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit' });
      await dialog.getByLabel('Vehicle number').fill('ED17 NEW');
      await dialog.getByRole('switch', { name: 'Approved' }).click();
      await dialog.getByRole('button', { name: 'Save' }).click();
      const confirm = page.getByRole('dialog', { name: 'Confirm the changes' });
      await expect(confirm.getByRole('row', { name: /Vehicle number/ })).toContainText('ED17 OLDED17 NEW');
      await expect(confirm.getByRole('row', { name: /Approved/ })).toContainText('YesNo');
      await page.screenshot({ path: `screenshots/driver-edit-confirm-${String(width)}.png`, animations: 'disabled' });
      const stored = async () => ((await (await request.get('/api/users?usertype=driver', { headers: driver.admin })).json()).users as { id: string; vehicleNumber: string; approved: boolean }[]).find((user) => user.id === driver.id);
      // Nothing is written before Confirm: Back, then leave the approval as it was.
      expect(await stored()).toMatchObject({ vehicleNumber: 'ED17 OLD', approved: true });
      await confirm.getByRole('button', { name: 'Back' }).click();
      await expect(dialog.getByLabel('Vehicle number')).toHaveValue('ED17 NEW');
      await dialog.getByRole('switch', { name: 'Approved' }).click();
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(confirm.getByRole('row')).toHaveCount(2);
      await confirm.getByRole('button', { name: 'Confirm' }).click();
      await expect(confirm).toHaveCount(0);
      await expect(row).toContainText('ED17 NEW');
      expect(await stored()).toMatchObject({ vehicleNumber: 'ED17 NEW', approved: true });

      // Cancel sends nothing.
      await row.getByRole('menuitem', { name: 'Edit' }).click();
      await dialog.getByLabel('First name').fill('Edward');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(row).toContainText('Eddie');
    });

    test('the booking history names rider and driver, and is searched and filtered on the server', async ({ page, request }) => {
      const lastName = `Quarry${stamp()}`;
      const rider = await newAccount(request, 'rider', 'Zelda', lastName);
      const place = { pickup: { lat: 51.5308, lng: -0.1238, add: "King's Cross" }, drop: { lat: 51.5081, lng: -0.0759, add: 'Tower of London' }, carType: 'Economy', bookLater: true };
      const book = async (hours: number) => {
        const booked = await request.post('/api/bookings', { headers: rider.headers, data: { ...place, tripdate: Date.now() + hours * 3600_000 } });
        expect(booked.status(), await booked.text()).toBe(201);
        return (await booked.json()) as { id: string; booking_id: string; tripdate: number };
      };
      const soon = await book(2);
      const later = await book(72);
      expect((await request.post(`/api/bookings/${soon.id}/cancel`, { headers: rider.headers, data: { reason: 'Plans changed' } })).status()).toBe(200);

      await signInAs(page, 'admin@rideway.demo');
      await page.goto('/bookings');
      const cards = page.getByRole('article');
      const search = page.getByRole('searchbox', { name: 'Search by reference or name' });
      await search.fill(lastName.toLowerCase());
      await expect(cards).toHaveCount(2);
      for (const card of await cards.all()) await expect(card.getByTestId('booking-parties')).toHaveText(`Rider: Zelda ${lastName} · Driver: No driver yet`);
      await page.screenshot({ path: `screenshots/bookings-search-${String(width)}.png`, fullPage: true, animations: 'disabled' });

      await page.getByRole('combobox', { name: 'Status' }).click();
      await page.getByRole('option', { name: 'Cancelled' }).click();
      await expect(cards).toHaveCount(1);
      await expect(cards.first()).toHaveAttribute('data-booking', soon.id);

      // The date range: the later trip's day only.
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await expect(search).toHaveValue('');
      await search.fill(lastName);
      await expect(cards).toHaveCount(2);
      const day = await page.evaluate((at) => { const d = new Date(at); return `${String(d.getFullYear())}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`; }, later.tripdate);
      await page.getByLabel('From').fill(day);
      await page.getByLabel('To').fill(day);
      await expect(cards).toHaveCount(1);
      await expect(cards.first()).toHaveAttribute('data-booking', later.id);
      await page.screenshot({ path: `screenshots/bookings-filters-${String(width)}.png`, fullPage: true, animations: 'disabled' });

      // By reference, in any case.
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await search.fill(later.booking_id.toLowerCase());
      await expect(cards).toHaveCount(1);
      await expect(cards.first()).toContainText(later.booking_id);

      // A driver's name finds the trips driven.
      const answered = page.waitForResponse((response) => response.url().includes('/api/bookings?q=Dora'));
      await search.fill('Dora Driver');
      await answered;
      await expect(page.getByTestId('bookings-updating')).toHaveCount(0);
      await expect(cards.first()).toBeVisible();
      for (const card of await cards.all()) await expect(card.getByTestId('booking-parties')).toContainText('Driver: Dora Driver');
    });

    test("a fleet admin's booking history is searched within its fleet, with names", async ({ page }) => {
      await signInAs(page, 'fleet@rideway.demo');
      await page.goto('/bookings');
      const cards = page.getByRole('article');
      const answered = page.waitForResponse((response) => response.url().includes('/api/bookings?q=Rita'));
      await page.getByRole('searchbox', { name: 'Search by reference or name' }).fill('Rita');
      await answered;
      await expect(page.getByTestId('bookings-updating')).toHaveCount(0);
      await expect(cards.first()).toBeVisible();
      for (const card of await cards.all()) {
        const parties = (await card.getByTestId('booking-parties').textContent()) ?? '';
        expect(parties).toContain('Rider: Rita Rider');
        expect(parties).toMatch(/Driver: (Dan Driver|Dora Driver)$/);
      }
      await page.screenshot({ path: `screenshots/bookings-fleet-search-${String(width)}.png`, fullPage: true, animations: 'disabled' });
      // The menu names the page as its title does.
      await page.getByRole('navigation').getByRole('link', { name: 'Driver earnings' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Driver earnings' })).toBeVisible();
      await expect(page.getByRole('navigation').getByRole('link', { name: 'Earning reports' })).toHaveCount(0);
      await expectActionsInView(page, '/driverearning', width);
      await page.goto('/drivers');
      await expectActionsInView(page, '/drivers (fleet)', width);
      await page.screenshot({ path: `screenshots/drivers-fleet-${String(width)}.png`, animations: 'disabled' });
    });

    test('every admin table fits the screen with its actions in view', async ({ page }) => {
      await signInAs(page, 'admin@rideway.demo');
      for (const path of ['/riders', '/drivers', '/fleetadmins', '/withdraws', '/promos', '/cartypes', '/cancelreasons', '/notifications', '/earningreports', '/driverearning', '/payments']) {
        await page.goto(path);
        await expectActionsInView(page, path, width);
        await page.screenshot({ path: `screenshots/fit-${path.slice(1)}-${String(width)}.png`, animations: 'disabled' });
      }
      // A car type's edit is confirmed too.
      await page.goto('/cartypes');
      const row = page.getByRole('row').filter({ hasText: 'Economy' }).first();
      await row.getByRole('menuitem', { name: 'Edit' }).click();
      const dialog = page.getByRole('dialog', { name: 'Economy' });
      const minFare = dialog.getByLabel(/^Minimum fare/);
      const before = await minFare.inputValue();
      await minFare.fill(String(Number(before) + 1));
      await dialog.getByRole('button', { name: 'Save' }).click();
      const confirm = page.getByRole('dialog', { name: 'Confirm the changes' });
      await expect(confirm.getByRole('row', { name: /Minimum fare/ })).toContainText(`${before}${String(Number(before) + 1)}`);
      await confirm.getByRole('button', { name: 'Back' }).click();
      await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
      await expect(dialog).toHaveCount(0);
    });
  });
}
