import { expect, test } from '@playwright/test';
import { apiSignIn, fillTrip, signIn, withSettings } from '../support/session';
import { driverOffered } from '../support/trips';

/**
 * Issue 6, sections 2, 4, 5 and 8: a rider's trip from search to rating in the browser, with the
 * driver's side played through the API by a demo driver.
 */


test('a visitor who tries to book is asked to sign in', async ({ page }) => {
  await page.goto('/');
  const form = page.getByRole('form', { name: 'Book a ride' });
  await expect(form).toBeVisible();
  // Place search is a signed-in call: the visitor is told so rather than shown nothing.
  await page.getByRole('combobox', { name: 'Pickup location' }).fill('kings');
  await expect(page.getByText('Sign in to search places')).toBeVisible();
  await form.getByRole('button', { name: 'Book', exact: true }).click();
  const alert = page.getByRole('dialog', { name: 'Alert' });
  await expect(alert).toContainText('Please sign in to book.');
  await page.screenshot({ path: 'screenshots/book-visitor-1280.png', animations: 'disabled' });
  await alert.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('a rider registers, books, watches the driver accept live, chats, pays cash and rates', async ({ page, request }) => {
  test.setTimeout(90_000);
  const email = `trip-rider-${Date.now()}@example.com`;
  await page.goto('/register');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('Secret123');
  await page.getByLabel('Mobile number').fill('7700900123');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/login$/, { timeout: 6000 });
  await signIn(page, email, 'Secret123');
  await expect(page).toHaveURL(/\/$/);

  await fillTrip(page);
  await page.screenshot({ path: 'screenshots/book-form-1280.png', animations: 'disabled' });
  await page.getByRole('button', { name: 'Book', exact: true }).click();
  const estimate = page.getByRole('dialog', { name: 'Your fare estimate' });
  await expect(estimate.getByTestId('estimate-fare')).toHaveText(/^£\d+\.\d{2} GBP$/);
  await page.screenshot({ path: 'screenshots/book-estimate-1280.png', animations: 'disabled' });
  await estimate.getByRole('radio', { name: 'Cash' }).check();
  await estimate.getByRole('button', { name: 'Confirm booking' }).click();
  const success = page.getByRole('dialog', { name: 'Alert' });
  await expect(success).toContainText(/Booking confirmed\. Your booking id is [A-Z0-9]+/);
  const reference = (await success.locator('#alert-message').textContent())?.match(/booking id is ([A-Z0-9]+)$/)?.[1] ?? '';
  await success.getByRole('button', { name: 'Close' }).click();
  await expect(page).toHaveURL(/\/bookings$/);

  const card = page.getByRole('article', { name: `Booking ${reference}` });
  await expect(card).toContainText('Finding a driver');
  await page.screenshot({ path: 'screenshots/bookings-1280.png', animations: 'disabled' });
  const bookingId = (await card.getAttribute('data-booking')) ?? '';
  await card.getByRole('link', { name: 'Open' }).click();
  await expect(page).toHaveURL(new RegExp(`/bookings/${bookingId}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Booking ${reference}`);

  // The driver accepts: the page turns ACCEPTED without a reload.
  const driver = (await driverOffered(request, bookingId)).headers;
  expect((await request.post(`/api/bookings/${bookingId}/accept`, { headers: driver, data: {} })).status()).toBe(200);
  await expect(page.locator('[data-status]')).toHaveAttribute('data-status', 'ACCEPTED');
  await expect(page.getByText('Driver on the way')).toBeVisible();
  // The driver's position on the way to the pickup reaches the map.
  await request.post('/api/driver/location', { headers: driver, data: { lat: 51.5301, lng: -0.1231 } });
  await expect(page.getByRole('region', { name: "Driver's position" })).toHaveAttribute('data-driver', '51.5301,-0.1231');

  // Chat both ways, live.
  await page.getByLabel('Message').fill('I am by the main entrance');
  await page.getByRole('button', { name: 'Send' }).click();
  const log = page.getByRole('log');
  await expect(log).toContainText('I am by the main entrance');
  expect((await request.post(`/api/bookings/${bookingId}/chat`, { headers: driver, data: { message: 'Two minutes away' } })).status()).toBe(201);
  await expect(log).toContainText('Two minutes away');
  await page.screenshot({ path: 'screenshots/trip-accepted-1280.png', fullPage: true, animations: 'disabled' });

  for (const step of ['arrive', 'start', 'reach']) {
    expect((await request.post(`/api/bookings/${bookingId}/${step}`, { headers: driver, data: {} })).status(), step).toBe(200);
  }
  await expect(page.locator('[data-status]')).toHaveAttribute('data-status', 'REACHED');
  await expect(page.getByText(/Please pay £\d+\.\d{2} in cash to your driver\./)).toBeVisible();
  await page.screenshot({ path: 'screenshots/trip-reached-1280.png', fullPage: true, animations: 'disabled' });
  // The rider hands over the cash; the driver confirms it.
  expect((await request.post(`/api/bookings/${bookingId}/pay`, { headers: driver, data: { payment_mode: 'cash' } })).status()).toBe(200);
  await expect(page.locator('[data-status]')).toHaveAttribute('data-status', 'PAID');

  await page.locator('label', { hasText: '5 Stars' }).click();
  await expect(page.getByRole('radio', { name: '5 Stars' })).toBeChecked();
  await page.getByRole('button', { name: 'Submit rating' }).click();
  await expect(page.getByText('You rated this trip 5 of 5. Thank you!')).toBeVisible();
  await expect(page.locator('[data-status]')).toHaveAttribute('data-status', 'COMPLETE');
  await page.screenshot({ path: 'screenshots/trip-rated-1280.png', fullPage: true, animations: 'disabled' });
  const done = await (await request.get(`/api/bookings/${bookingId}`, { headers: driver })).json();
  expect(done).toMatchObject({ status: 'COMPLETE', rating: 5, payment_mode: 'cash' });
});

test('booking later too soon shows past_booking_error', async ({ page }) => {
  await signIn(page, 'rider2@rideway.demo');
  await fillTrip(page);
  await page.getByRole('combobox', { name: 'Booking type' }).click();
  await page.getByRole('option', { name: 'Book later' }).click();
  const when = page.getByLabel('Date and time');
  // Section 5: at least 15 minutes ahead; the default (now) is too soon.
  await expect(when).not.toHaveValue('');
  await page.getByRole('button', { name: 'Book', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Alert' })).toContainText('A later booking must be at least 15 minutes from now.');
  await page.screenshot({ path: 'screenshots/book-later-too-soon-1280.png', animations: 'disabled' });
});

test('a rider cancels a booking with a reason from the list', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signIn(page, 'rider2@rideway.demo');
  await fillTrip(page);
  await page.getByRole('button', { name: 'Book', exact: true }).click();
  await page.getByRole('dialog', { name: 'Your fare estimate' }).getByRole('button', { name: 'Confirm booking' }).click();
  await expect(page.locator('#alert-message')).toContainText('booking id is');
  const reference = ((await page.locator('#alert-message').textContent())?.match(/booking id is ([A-Z0-9]+)$/)?.[1]) ?? '';
  await page.getByRole('dialog', { name: 'Alert' }).getByRole('button', { name: 'Close' }).click();
  const card = page.getByRole('article', { name: `Booking ${reference}` });
  await card.getByRole('button', { name: 'Cancel booking' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reason for cancelling' });
  await dialog.getByRole('radio').first().check();
  await page.screenshot({ path: 'screenshots/bookings-cancel-375.png', animations: 'disabled' });
  await dialog.getByRole('button', { name: 'Cancel booking' }).click();
  await expect(card).toContainText('Cancelled');
  await expect(card.getByRole('button', { name: 'Cancel booking' })).toHaveCount(0);
});

test('a signed-in rider opening /dashboard is sent to /login', async ({ page }) => {
  await signIn(page, 'rider1@rideway.demo');
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login\?next=%2Fdashboard$/);
});

test('the booking form follows the right-to-left layout in Arabic', async ({ page }) => {
  await signIn(page, 'rider1@rideway.demo');
  await page.getByLabel('Language').click();
  await page.getByRole('option', { name: 'العربية' }).click();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  const form = page.getByRole('form', { name: 'احجز رحلة' });
  await expect(form).toBeVisible();
  // Right to left: the form sits left of the slogan, and its labels start at the right.
  const slogan = await page.getByRole('heading', { level: 1 }).boundingBox();
  const formBox = await form.boundingBox();
  expect(formBox!.x).toBeLessThan(slogan!.x);
  await page.screenshot({ path: 'screenshots/home-rtl-1280.png', animations: 'disabled' });
  await page.getByLabel('اللغة').click();
  await page.getByRole('option', { name: 'English' }).click();
});

for (const width of [375, 1280]) {
  test(`a rider's home, bookings and booking screens at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await signIn(page, 'rider1@rideway.demo');
    await expect(page.getByRole('form', { name: 'Book a ride' })).toBeVisible();
    await page.screenshot({ path: `screenshots/home-rider-${width}.png`, fullPage: true, animations: 'disabled' });
    await page.goto('/bookings');
    const first = page.getByRole('article').first();
    await expect(first).toBeVisible();
    await page.screenshot({ path: `screenshots/bookings-${width}.png`, fullPage: true, animations: 'disabled' });
    await first.getByRole('link', { name: 'Open' }).click();
    await expect(page.getByRole('region', { name: "Driver's position" })).toBeVisible();
    await page.screenshot({ path: `screenshots/booking-${width}.png`, fullPage: true, animations: 'disabled' });
  });
}

test('with otp_secure the rider sees the start code, and the driver starts the trip with it', async ({ page, request }) => {
  await withSettings(request, { otp_secure: true }, async () => {
    const rider = await apiSignIn(request, 'rider2@rideway.demo');
    const pickup = { lat: 51.5308, lng: -0.1238, add: "King's Cross Station, London" };
    const drop = { lat: 51.5081, lng: -0.0759, add: 'Tower of London, London' };
    const booked = await request.post('/api/bookings', { headers: rider, data: { pickup, drop, carType: 'Economy' } });
    expect(booked.status()).toBe(201);
    const { id } = await booked.json();
    const driver = (await driverOffered(request, id)).headers;
    expect((await request.post(`/api/bookings/${id}/accept`, { headers: driver, data: {} })).status()).toBe(200);
    await signIn(page, 'rider2@rideway.demo');
    await page.goto(`/bookings/${id}`);
    const otp = page.getByTestId('trip-otp');
    await expect(otp).toContainText(/Tell your driver this code to start the trip: \d{5}/);
    await page.screenshot({ path: 'screenshots/trip-otp-1280.png', animations: 'disabled' });
    const code = Number((await otp.textContent())?.match(/\d{5}/)?.[0]);
    await request.post(`/api/bookings/${id}/arrive`, { headers: driver, data: {} });
    expect((await request.post(`/api/bookings/${id}/start`, { headers: driver, data: { otp: code === 10000 ? 10001 : 10000 } })).status()).toBe(400);
    expect((await request.post(`/api/bookings/${id}/start`, { headers: driver, data: { otp: code } })).status()).toBe(200);
    await expect(page.locator('[data-status]')).toHaveAttribute('data-status', 'STARTED');
    await expect(otp).toHaveCount(0);
    // Leave the demo driver free for the other tests.
    await request.post(`/api/bookings/${id}/reach`, { headers: driver, data: {} });
    await request.post(`/api/bookings/${id}/pay`, { headers: driver, data: { payment_mode: 'cash' } });
  });
});
