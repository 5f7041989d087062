import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiSignIn, signIn } from '../support/session';
import { driverOffered } from '../support/trips';

/**
 * Issue 20 point 2 in the browser: the profile's password, photo and account deletion. Each test
 * makes its own rider; a demo driver plays the other side of the trip.
 */

const PHOTO = fileURLToPath(new URL('../../apps/web/public/icons/icon-192.png', import.meta.url));
const pickup = { lat: 51.5308, lng: -0.1238, add: "King's Cross Station, London" };
const drop = { lat: 51.5081, lng: -0.0759, add: 'Tower of London, London' };

let people = 0;
/** A new rider, registered through the API: its email and password. */
async function newRider(request: APIRequestContext, firstName: string): Promise<{ email: string; password: string; mobile: string }> {
  people += 1;
  const stamp = `${String(Date.now()).slice(-6)}${String(people)}`;
  const rider = { email: `privacy.${stamp}@example.com`, password: 'first123', mobile: `557${stamp}` };
  const registered = await request.post('/api/auth/register', { data: { firstName, lastName: 'Private', ...rider } });
  expect(registered.status()).toBe(201);
  return rider;
}

const profileCard = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

test('a rider changes the password: the old one fails, another browser is signed out, this one stays', async ({ page, browser, request }) => {
  test.setTimeout(90_000);
  const rider = await newRider(request, 'Pam');
  // The same rider on another device.
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await signIn(other, rider.email, rider.password);
  await other.goto('/bookings');

  await signIn(page, rider.email, rider.password);
  await page.goto('/profile');
  const card = profileCard(page, 'Change password');
  await card.getByLabel('Current password').fill('wrong123');
  await card.getByLabel('New password').fill('second123');
  await card.getByRole('button', { name: 'Change password' }).click();
  await expect(card.getByLabel('Current password')).toHaveAccessibleDescription('The current password is not correct.');
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'screenshots/privacy-password-error-1280.png', animations: 'disabled' });
  await card.getByLabel('Current password').fill(rider.password);
  await card.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed. You were signed out on your other devices.')).toBeVisible();
  await page.setViewportSize({ width: 375, height: 800 });
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'screenshots/privacy-password-375.png', animations: 'disabled' });

  // The other device is out; this one still works.
  await expect(other).toHaveURL(/\/login/, { timeout: 10_000 });
  await page.reload();
  await expect(page).toHaveURL(/\/profile$/);
  expect((await request.post('/api/auth/login', { data: { email: rider.email, password: rider.password } })).status()).toBe(401);
  expect((await request.post('/api/auth/login', { data: { email: rider.email, password: 'second123' } })).status()).toBe(200);
  await elsewhere.close();
});

test("a rider's photo shows in the top bar and on the driver's trip page", async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  const rider = await newRider(request, 'Phoebe');
  await signIn(page, rider.email, rider.password);
  await page.goto('/profile');
  const card = profileCard(page, 'Photo');
  await expect(card).toContainText('No photo yet.');
  await card.getByLabel('Choose photo').setInputFiles(PHOTO);
  await expect(page.getByText('Photo saved.')).toBeVisible();
  const photo = card.getByTestId('profile-photo').locator('img');
  await expect(photo).toHaveAttribute('src', /^\/api\/files\/profiles\/[0-9a-f-]+\.jpg$/);
  const src = (await photo.getAttribute('src')) ?? '';
  await expect(page.getByTestId('top-bar-avatar').locator('img')).toHaveAttribute('src', src);
  // The picture is really served (256 px square, drawn by the server).
  const size = await photo.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]);
  expect(size).toEqual([256, 256]);
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'screenshots/privacy-photo-1280.png', animations: 'disabled' });
  await page.setViewportSize({ width: 375, height: 800 });
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'screenshots/privacy-photo-375.png', animations: 'disabled' });

  // A trip: the rider books through the API, a demo driver accepts and opens it in its browser.
  const riderAuth = await apiSignIn(request, rider.email, rider.password);
  const booked = await request.post('/api/bookings', { headers: riderAuth, data: { pickup, drop, carType: 'Economy' } });
  expect(booked.status()).toBe(201);
  const { id } = (await booked.json()) as { id: string };
  try {
    const driver = await driverOffered(request, id);
    expect((await request.post(`/api/bookings/${id}/accept`, { headers: driver.headers, data: {} })).status()).toBe(200);
    const driverContext = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const driverPage = await driverContext.newPage();
    await signIn(driverPage, driver.email);
    await driverPage.goto(`/bookings/${id}`);
    const riderCard = driverPage.getByTestId('rider-card');
    await expect(riderCard).toContainText('Phoebe Private');
    await expect(riderCard.locator('img')).toHaveAttribute('src', src);
    await expect.poll(() => riderCard.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(256);
    await driverPage.screenshot({ path: 'screenshots/privacy-rider-photo-driver-375.png', animations: 'disabled' });
    await driverPage.setViewportSize({ width: 1280, height: 900 });
    await driverPage.screenshot({ path: 'screenshots/privacy-rider-photo-driver-1280.png', animations: 'disabled' });
    await driverContext.close();
    // An admin sees it in the riders table.
    const adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const adminPage = await adminContext.newPage();
    await signIn(adminPage, 'admin@rideway.demo');
    await adminPage.goto('/riders');
    const row = adminPage.getByRole('row').filter({ hasText: rider.email });
    await expect(row.locator('img')).toHaveAttribute('src', src);
    await row.scrollIntoViewIfNeeded();
    await adminPage.screenshot({ path: 'screenshots/privacy-admin-riders-1280.png', animations: 'disabled' });
    await adminContext.close();
  } finally {
    await request.post(`/api/bookings/${id}/cancel`, { headers: riderAuth, data: { reason: 'Test over' } });
  }
});

test('a rider deletes the account after a trip: it cannot sign in again, and the trip still counts in the reports', async ({ page, request }) => {
  test.setTimeout(120_000);
  const rider = await newRider(request, 'Dell');
  const riderAuth = await apiSignIn(request, rider.email, rider.password);
  const admin = await apiSignIn(request, 'admin@rideway.demo');
  // A trip run to the end, paid by card-free cash and rated.
  const booked = await request.post('/api/bookings', { headers: riderAuth, data: { pickup, drop, carType: 'Economy' } });
  expect(booked.status()).toBe(201);
  const { id } = (await booked.json()) as { id: string };
  const driver = await driverOffered(request, id);
  for (const step of ['accept', 'arrive', 'start', 'reach']) {
    expect((await request.post(`/api/bookings/${id}/${step}`, { headers: driver.headers, data: {} })).status(), step).toBe(200);
  }
  expect((await request.post(`/api/bookings/${id}/pay`, { headers: driver.headers, data: { payment_mode: 'cash' } })).status()).toBe(200);
  expect((await request.post(`/api/bookings/${id}/complete`, { headers: riderAuth, data: { rating: 5 } })).status()).toBe(200);
  const report = async () => (await (await request.get('/api/reports/earnings', { headers: admin })).json()).rows as unknown[];
  const before = await report();

  await signIn(page, rider.email, rider.password);
  await page.goto('/profile');
  // First a copy of the own data, as a JSON file with the trip in it.
  const downloading = page.waitForEvent('download');
  await profileCard(page, 'Your data').getByRole('button', { name: 'Download my data' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^rideway-my-data-\d{4}-\d{2}-\d{2}\.json$/);
  const copy = JSON.parse(readFileSync(await download.path(), 'utf8')) as { profile: { email: string }; trips: { id: string }[] };
  expect([copy.profile.email, copy.trips.map((trip) => trip.id)]).toEqual([rider.email, [id]]);
  await expect(page.getByText('Your data was downloaded.')).toBeVisible();
  const card = profileCard(page, 'Delete account');
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'screenshots/privacy-danger-zone-1280.png', animations: 'disabled' });
  await card.getByRole('button', { name: 'Delete account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete account' });
  const confirm = dialog.getByRole('button', { name: 'Delete my account' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Type DELETE').fill('delete');
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Type DELETE').fill('DELETE');
  await expect(confirm).toBeEnabled();
  await page.screenshot({ path: 'screenshots/privacy-delete-dialog-1280.png', animations: 'disabled' });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: 'screenshots/privacy-delete-dialog-375.png', animations: 'disabled' });
  await confirm.click();
  // On /login itself, told why: not sent back to /login?next=/profile by the page left behind.
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('status').filter({ hasText: 'Your account was deleted.' })).toBeVisible();

  // Signed out, and no way back in.
  await page.getByLabel('Email').fill(rider.email);
  await page.getByLabel('Password').fill(rider.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Sign-in failed. Check your details and try again.')).toBeVisible();
  await page.screenshot({ path: 'screenshots/privacy-deleted-signin-375.png', animations: 'disabled' });
  // The trip is still in the books, under the name stored on it.
  expect(await report()).toEqual(before);
  const trip = (await (await request.get(`/api/bookings/${id}`, { headers: admin })).json()) as { status: string; customer_name: string };
  expect(trip).toMatchObject({ status: 'COMPLETE', customer_name: 'Dell Private' });
  const riders = (await (await request.get('/api/users?usertype=rider', { headers: admin })).json()).users as { email: string }[];
  expect(riders.map((user) => user.email)).not.toContain(rider.email);
});
