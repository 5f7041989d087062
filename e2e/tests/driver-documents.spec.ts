import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiSignIn, signIn } from '../support/session';

/**
 * Issue 20 point 3, in the browser: a driver's expired insurance takes it offline with a message
 * naming its car; the driver sends a new one for that car on its Documents page (phone width); the
 * admin approves it on the Documents review page (desktop width), seeing which car it is for; the
 * driver goes online again.
 *
 * The server's clock cannot be moved, so the expiry comes from the operator's calendar: the
 * insurance ends "today" in Etc/GMT+12, and the operator then moves to Pacific/Kiritimati
 * (UTC+14), where that day is always over. The expiry job runs every minute.
 */
const PHONE = { width: 375, height: 800 };
const DESKTOP = { width: 1280, height: 900 };
const PASSWORD = 'demo123';
const PNG = fileURLToPath(new URL('../../apps/web/public/icons/icon-192.png', import.meta.url));
const KINDS = ['licence_front', 'licence_back', 'id', 'registration', 'insurance'] as const;
/** How the server names the driver's car in its texts (no make or model: the car type). */
const CAR = 'Economy (DD20 DOC)';

const imageData = async (request: APIRequestContext): Promise<string> => {
  const bytes = await (await request.get('/icons/icon-192.png')).body();
  return `data:image/png;base64,${bytes.toString('base64')}`;
};

test('an expired insurance takes the driver offline; a new one, approved, lets it go online again', async ({ browser, request }) => {
  test.setTimeout(240_000);
  const admin = await apiSignIn(request, 'admin@rideway.demo');
  const stamp = String(Date.now()).slice(-8);
  const email = `doris.${stamp}@example.com`;
  const lastName = `Documents${stamp}`;
  const added = await request.post('/api/users', { headers: admin, data: { firstName: 'Doris', lastName, email, mobile: `78${stamp}`, usertype: 'driver', password: PASSWORD, carType: 'Economy', vehicleNumber: 'DD20 DOC' } });
  expect(added.status(), await added.text()).toBe(201);
  const driver = await apiSignIn(request, email, PASSWORD);
  const before = (await (await request.get('/api/settings', { headers: admin })).json()).settings as { timezone: string; RequireDriverDocuments: boolean };
  try {
    expect((await request.patch('/api/settings', { headers: admin, data: { timezone: 'Etc/GMT+12', RequireDriverDocuments: true } })).status()).toBe(200);
    // Without documents the driver may not go online, and is told which are missing.
    const refused = await request.patch('/api/driver/status', { headers: driver, data: { driverActiveStatus: true } });
    expect(refused.status()).toBe(409);
    expect((await refused.json()).error.details.problems).toHaveLength(5);

    // Every document sent and approved (the registration and insurance for its car); the insurance
    // ends today on the operator's calendar.
    const today = new Date(Date.now() - 12 * 60 * 60 * 1000).toISOString().slice(0, 10);
    const image = await imageData(request);
    const car = ((await (await request.get('/api/driver/vehicles', { headers: driver })).json()).vehicles as { id: string; active: boolean }[]).find((vehicle) => vehicle.active);
    expect(car).toBeDefined();
    for (const kind of KINDS) {
      const vehicleId = kind === 'registration' || kind === 'insurance' ? car?.id : undefined;
      const sent = await request.put(`/api/driver/documents/${kind}`, { headers: driver, data: { image, expiresOn: kind === 'insurance' ? today : '2031-06-30', vehicleId } });
      expect(sent.status(), await sent.text()).toBe(201);
      expect((await request.post(`/api/documents/${(await sent.json()).document.id}/approve`, { headers: admin, data: {} })).status()).toBe(200);
    }
    expect((await request.patch('/api/driver/status', { headers: driver, data: { driverActiveStatus: true } })).status()).toBe(200);

    // The operator's day moves on: the insurance has expired, and within a minute the job takes the driver offline.
    expect((await request.patch('/api/settings', { headers: admin, data: { timezone: 'Pacific/Kiritimati' } })).status()).toBe(200);
    await expect.poll(async () => ((await (await request.get('/api/me', { headers: driver })).json()).user as { driverActiveStatus: boolean }).driverActiveStatus, { timeout: 100_000, intervals: [2000] }).toBe(false);

    // The driver's phone: offline, and why, with the way to the documents page.
    const phone = await browser.newContext({ viewport: PHONE, permissions: ['geolocation'], geolocation: { latitude: 51.515, longitude: -0.13 } });
    const page = await phone.newPage();
    await signIn(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/bookings$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are offline');
    const problems = page.getByTestId('document-problems');
    await expect(problems).toContainText('You cannot go online yet');
    await expect(problems).toContainText(`Vehicle insurance – ${CAR}: expired, send a new one`);
    // The notice it was sent says so too.
    await page.getByRole('button', { name: /Notifications/ }).click();
    await expect(page.getByText(/Your Vehicle insurance – Economy \(DD20 DOC\) expired on .* You are offline until a new one is approved\./).first()).toBeVisible();
    await page.keyboard.press('Escape');
    await page.screenshot({ path: 'screenshots/documents-offline-375.png', fullPage: true, animations: 'disabled' });
    await page.getByRole('switch', { name: 'Online' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Your documents must be sent, approved and in date' })).toBeVisible();

    // A new insurance, sent from the Documents page.
    await problems.getByRole('link', { name: 'Open my documents' }).click();
    await expect(page).toHaveURL(/\/documents$/);
    // The insurance is sent from its car's card, among the vehicles.
    const carCard = page.getByRole('article', { name: 'Economy · DD20 DOC' });
    const insurance = carCard.locator('section[data-kind="insurance"]');
    const showCar = () => carCard.evaluate((element) => { element.scrollIntoView({ block: 'start' }); });
    await insurance.getByLabel('Choose image – Vehicle insurance').setInputFiles(PNG);
    await insurance.getByLabel('Expiry date – Vehicle insurance').fill('2031-12-31');
    await insurance.getByRole('button', { name: 'Send' }).click();
    await expect(insurance.getByText('Waiting for review')).toBeVisible();
    await expect(page.getByTestId('document-problems')).toContainText(`Vehicle insurance – ${CAR}: waiting for review`);
    await page.evaluate(() => { window.scrollTo(0, 0); });
    await page.screenshot({ path: 'screenshots/documents-driver-375.png', fullPage: true, animations: 'disabled' });
    await showCar();
    await page.screenshot({ path: 'screenshots/documents-vehicle-papers-375.png', animations: 'disabled' });
    await page.setViewportSize(DESKTOP);
    await page.evaluate(() => { window.scrollTo(0, 0); });
    await page.screenshot({ path: 'screenshots/documents-driver-1280.png', fullPage: true, animations: 'disabled' });
    await showCar();
    await page.screenshot({ path: 'screenshots/documents-vehicle-papers-1280.png', animations: 'disabled' });
    await page.setViewportSize(PHONE);

    // The admin approves it on the review page, after a confirmation.
    const desk = await browser.newContext({ viewport: DESKTOP });
    const review = await desk.newPage();
    await signIn(review, 'admin@rideway.demo');
    await review.goto('/documentreview');
    const card = review.getByRole('article', { name: `Vehicle insurance · Doris ${lastName}` });
    await expect(card).toBeVisible();
    await expect(card.getByTestId('document-vehicle')).toHaveText(`Vehicle: ${CAR}`);
    await expect(card.getByRole('img')).toHaveJSProperty('complete', true);
    expect(await card.getByRole('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await review.screenshot({ path: 'screenshots/documents-review-1280.png', fullPage: true, animations: 'disabled' });
    await review.setViewportSize(PHONE);
    await review.screenshot({ path: 'screenshots/documents-review-375.png', fullPage: true, animations: 'disabled' });
    await review.setViewportSize(DESKTOP);
    await card.getByRole('button', { name: 'Approve' }).click();
    const dialog = review.getByRole('dialog', { name: 'Approve this document?' });
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await expect(review.getByText('Document approved.')).toBeVisible();
    await expect(card).toHaveCount(0);

    // The driver goes online again.
    await page.goto('/bookings');
    await expect(page.getByTestId('document-problems')).toHaveCount(0);
    const saved = page.waitForResponse((response) => response.url().endsWith('/api/driver/status') && response.ok());
    await page.getByRole('switch', { name: 'Online' }).click();
    await saved;
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are online');
    await page.screenshot({ path: 'screenshots/documents-online-375.png', fullPage: true, animations: 'disabled' });
    await request.patch('/api/driver/status', { headers: driver, data: { driverActiveStatus: false } });
    await phone.close();
    await desk.close();
  } finally {
    await request.patch('/api/settings', { headers: admin, data: { timezone: before.timezone, RequireDriverDocuments: before.RequireDriverDocuments } });
  }
});
