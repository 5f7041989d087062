import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { apiSignIn, signIn } from '../support/session';

/**
 * Issue 20 point 3, in the browser: a driver adds a second vehicle with its photo on its Documents
 * page (phone width); the admin sees the photo on the review page and approves it (desktop width);
 * the driver makes it active, and its car type is the driver's from then on.
 */
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const PASSWORD = 'demo123';
const PNG = fileURLToPath(new URL('../../apps/web/public/icons/icon-192.png', import.meta.url));

test('a driver adds a vehicle, the admin approves it seeing its photo, and the driver drives it', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const admin = await apiSignIn(request, 'admin@rideway.demo');
  const stamp = String(Date.now()).slice(-8);
  const email = `vera.${stamp}@example.com`;
  const lastName = `Vehicles${stamp}`;
  const number = `XL ${stamp.slice(-4)}`;
  // An admin-added driver starts with its car approved and active (Economy).
  const added = await request.post('/api/users', { headers: admin, data: { firstName: 'Vera', lastName, email, mobile: `77${stamp}`, usertype: 'driver', password: PASSWORD, carType: 'Economy', vehicleNumber: `EC ${stamp.slice(-4)}`, vehicleMake: 'Skoda', vehicleModel: 'Octavia' } });
  expect(added.status(), await added.text()).toBe(201);
  const driver = await apiSignIn(request, email, PASSWORD);

  const phone = await browser.newContext({ viewport: PHONE });
  const page = await phone.newPage();
  await signIn(page, email, PASSWORD);
  await page.goto('/documents');
  const vehicles = page.getByRole('region', { name: 'My vehicles' });
  await expect(vehicles.getByRole('article')).toHaveCount(1);
  await expect(vehicles.getByRole('article').first()).toContainText('Active');

  // The second vehicle: car type, make, model, number and a photo.
  const form = vehicles.getByRole('region', { name: 'Add a vehicle' });
  await form.getByRole('combobox', { name: 'Vehicle type' }).click();
  await page.getByRole('option', { name: 'XL' }).click();
  await form.getByLabel('Make').fill('Volvo');
  await form.getByLabel('Model').fill('XC90');
  await form.getByLabel('Vehicle number').fill(number);
  await form.getByLabel('Choose a photo').setInputFiles(PNG);
  await form.getByRole('button', { name: 'Add vehicle' }).click();
  await expect(page.getByText('Vehicle sent for review.')).toBeVisible();
  const second = vehicles.getByRole('article', { name: `Volvo XC90 · ${number}` });
  await expect(second).toContainText('Waiting for review');
  await expect(second.getByRole('button', { name: 'Make active' })).toHaveCount(0);
  await second.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'screenshots/vehicles-driver-390.png', fullPage: true, animations: 'disabled' });

  // The admin's review page shows the photo; the admin approves after a confirmation.
  const desk = await browser.newContext({ viewport: DESKTOP });
  const review = await desk.newPage();
  await signIn(review, 'admin@rideway.demo');
  await review.goto('/documentreview');
  const card = review.getByRole('article', { name: `Volvo XC90 · ${number} · Vera ${lastName}` });
  await expect(card).toBeVisible();
  const photo = card.getByRole('img', { name: `Photo of Volvo XC90 · ${number}` });
  await expect(photo).toHaveJSProperty('complete', true);
  expect(await photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await card.scrollIntoViewIfNeeded();
  await review.screenshot({ path: 'screenshots/vehicles-review-1280.png', fullPage: true, animations: 'disabled' });
  await review.setViewportSize(PHONE);
  await card.scrollIntoViewIfNeeded();
  await review.screenshot({ path: 'screenshots/vehicles-review-390.png', animations: 'disabled' });
  await review.setViewportSize(DESKTOP);
  await card.getByRole('button', { name: 'Approve' }).click();
  await review.getByRole('dialog', { name: 'Approve this vehicle?' }).getByRole('button', { name: 'Approve' }).click();
  await expect(review.getByText('Vehicle approved.')).toBeVisible();
  await expect(card).toHaveCount(0);

  // The driver makes it active: its car type is the driver's now.
  await page.reload();
  await expect(second).toContainText('Approved');
  await second.getByRole('button', { name: 'Make active' }).click();
  await expect(page.getByText('You now drive this vehicle.')).toBeVisible();
  await expect(second).toContainText('Active');
  await expect(second.getByTestId('vehicle-car-type')).toHaveText('Car type: XL');
  await expect(vehicles.getByRole('article', { name: new RegExp(`^Skoda Octavia`) })).not.toContainText('Active');
  const me = (await (await request.get('/api/me', { headers: driver })).json()).user as { carType: string; vehicleNumber: string };
  expect(me).toMatchObject({ carType: 'XL', vehicleNumber: number });
  await second.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'screenshots/vehicles-active-390.png', fullPage: true, animations: 'disabled' });
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: 'screenshots/vehicles-driver-1280.png', fullPage: true, animations: 'disabled' });
  await phone.close();
  await desk.close();
});
