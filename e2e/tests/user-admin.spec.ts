import { expect, test } from '@playwright/test';
import { apiSignIn, signIn } from '../support/session';

const SHOTS = 'test-results';

/**
 * Issue 20 point 6 in the browser: the admin finds a rider by phone number (typed with spaces),
 * the search survives a reload, the rider's page opens, and a suspension with a reason signs the
 * rider out of its open page and refuses its sign-in (section 5, require_approval) until the
 * admin approves the account again.
 */
test('an admin finds a user by phone, suspends it with a reason, and approves it again', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const stamp = String(Date.now()).slice(-6);
  const email = `susie.${stamp}@example.com`;
  const mobile = `557${stamp}`;
  const registered = await page.request.post('/api/auth/register', { data: { firstName: 'Susie', lastName: `Suspended${stamp}`, email, mobile, password: 'pass123' } });
  expect(registered.status()).toBe(201);

  // The rider is signed in elsewhere, with its bookings open.
  const riderContext = await browser.newContext();
  const riderPage = await riderContext.newPage();
  await signIn(riderPage, email, 'pass123');
  await riderPage.goto('/bookings');

  await signIn(page, 'admin@rideway.demo');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/riders');
    await page.getByLabel('Search name, email or phone').fill(`${mobile.slice(0, 3)} ${mobile.slice(3)}`);
    await expect(page).toHaveURL(/search=557/);
    await expect(page.getByRole('link', { name: 'Susie' })).toBeVisible();
    await expect(page.getByRole('row')).toHaveCount(2);
    await page.reload();
    await expect(page.getByLabel('Search name, email or phone')).toHaveValue(`${mobile.slice(0, 3)} ${mobile.slice(3)}`);
    await expect(page.getByRole('link', { name: 'Susie' })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/user-admin-search-${String(width)}.png` });
  }

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole('link', { name: 'Susie' }).click();
  await expect(page).toHaveURL(/\/users\/[\w-]+$/);
  await expect(page.getByRole('heading', { level: 1, name: `Susie Suspended${stamp}` })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByTestId('approval-status')).toHaveText('Approved');

  await page.getByRole('button', { name: 'Suspend' }).click();
  const dialog = page.getByRole('dialog', { name: 'Suspend this account?' });
  await dialog.getByRole('button', { name: 'Suspend' }).click();
  await expect(dialog.getByText('Give the reason for the suspension; the user reads it.')).toBeVisible();
  await dialog.getByLabel('Reason').fill('Repeated no-shows');
  await page.screenshot({ path: `${SHOTS}/user-admin-suspend-dialog-1280.png` });
  await dialog.getByRole('button', { name: 'Suspend' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('approval-status')).toHaveText('Suspended');
  await expect(page.getByTestId('status-history')).toContainText('Suspended: Repeated no-shows');

  // The rider's open page signs out, and signing in again is refused.
  await expect(riderPage).toHaveURL(/\/login/, { timeout: 15_000 });
  await riderPage.getByLabel('Email').fill(email);
  await riderPage.getByLabel('Password').fill('pass123');
  await riderPage.getByRole('button', { name: 'Sign in' }).click();
  await expect(riderPage.getByText('Your account is waiting for approval.')).toBeVisible();
  await expect(riderPage).toHaveURL(/\/login/);

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/user-admin-detail-${String(width)}.png`, fullPage: true });
  }

  await page.getByRole('button', { name: 'Approve' }).click();
  const approve = page.getByRole('dialog', { name: 'Approve this account?' });
  await approve.getByRole('button', { name: 'Approve' }).click();
  await expect(approve).toBeHidden();
  await expect(page.getByTestId('approval-status')).toHaveText('Approved');
  await expect(page.getByTestId('status-history').getByRole('listitem')).toHaveCount(2);

  await signIn(riderPage, email, 'pass123');
  await riderContext.close();
});

test("a driver's page shows its documents as images, its wallet and ratings, at both widths", async ({ page, request }) => {
  const admin = await apiSignIn(request, 'admin@rideway.demo');
  const stamp = String(Date.now()).slice(-8);
  const email = `dina.${stamp}@example.com`;
  const added = await request.post('/api/users', { headers: admin, data: { firstName: 'Dina', lastName: `Detail${stamp}`, email, mobile: `79${stamp}`, usertype: 'driver', password: 'pass123', carType: 'Economy', vehicleNumber: 'DD24 PGE' } });
  expect(added.status(), await added.text()).toBe(201);
  const driver = await apiSignIn(request, email, 'pass123');
  const image = `data:image/png;base64,${(await (await request.get('/icons/icon-192.png')).body()).toString('base64')}`;
  expect((await request.put('/api/driver/documents/licence_front', { headers: driver, data: { image, expiresOn: '2031-06-30' } })).status()).toBe(201);
  expect((await request.post('/api/wallet/credit', { headers: admin, data: { uid: (await added.json()).user.id, amount: 7.5 } })).status()).toBe(200);

  await signIn(page, 'admin@rideway.demo');
  await page.goto(`/drivers?search=${encodeURIComponent(email)}`);
  await page.getByRole('link', { name: 'Dina' }).click();
  await expect(page).toHaveURL(/\/users\/[\w-]+$/);
  for (const title of ['Profile', 'Wallet', 'Documents', 'Vehicles', 'Trips', 'Ratings', 'Approval history']) await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible();
  // The thumbnail is the stored image, served by the files route to the admin.
  const thumbnail = page.getByRole('img', { name: `Driving licence (front) of Dina Detail${stamp}` });
  await expect(thumbnail).toBeVisible();
  await expect.poll(() => thumbnail.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);
  await expect(page.getByText('Waiting for review')).toBeVisible();
  await expect(page.getByText('+£7.50')).toBeVisible();
  // The car typed in when the admin added the driver is its active vehicle, approved with the account.
  const vehicles = page.getByRole('region', { name: 'Vehicles' });
  await expect(vehicles.getByText('DD24 PGE')).toBeVisible();
  // No make or model was given: the car is named once, by its type.
  await expect(vehicles.getByText('Economy', { exact: true })).toBeVisible();
  await expect(vehicles.getByText('Active')).toBeVisible();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/user-admin-driver-${String(width)}.png`, fullPage: true });
  }
});
