import { expect, test, type Browser } from '@playwright/test';
import { apiSignIn, signIn } from '../support/session';

/**
 * Issues 16 and 17 in the browser: the driver's offer shows its countdown and the drive to the
 * pickup, the driver declines one and accepts the next, the rider's live page says how far the
 * driver is, and the rider's cancel reaches the driver with an alert.
 */
const PHONE = { width: 375, height: 800 };
const DESKTOP = { width: 1280, height: 900 };
const PICKUP = { lat: 51.5308, lng: -0.1238, add: "King's Cross Station, London" };
const DROP = { lat: 51.5081, lng: -0.0759, add: 'Tower of London, London' };
/** Dan (driver1, Economy) waits a few streets from the pickup, nearer than any other demo driver. */
const NEAR_PICKUP = { latitude: 51.5322, longitude: -0.1262 };

async function driverPhone(browser: Browser) {
  const context = await browser.newContext({ viewport: PHONE, permissions: ['geolocation'], geolocation: NEAR_PICKUP });
  const page = await context.newPage();
  // Offers arrive live: the page follows the driver's own topic before anything is booked.
  const following = new Promise<void>((resolve) => {
    page.on('websocket', (socket) => {
      socket.on('framereceived', ({ payload }) => {
        if (String(payload).includes('"subscribed"') && String(payload).includes('"user:me"')) resolve();
      });
    });
  });
  await signIn(page, 'driver1@rideway.demo');
  await expect(page).toHaveURL(/\/bookings$/);
  const toggle = page.getByRole('switch', { name: 'Online' });
  if (!(await toggle.isChecked())) {
    const reported = page.waitForRequest((request) => request.url().endsWith('/api/driver/location'));
    await toggle.click();
    await reported;
  }
  await expect(page.locator('[data-sharing="sharing"]')).toBeVisible();
  await following;
  return { context, page };
}

test('a driver sees an offer with its countdown and drive to the pickup, declines it, accepts the next; the rider sees the ETA; a cancel alerts the driver', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const rider = await apiSignIn(request, 'rider1@rideway.demo');
  const dan = await apiSignIn(request, 'driver1@rideway.demo');
  const tasksOfDan = async () => ((await (await request.get('/api/driver/tasks', { headers: dan })).json()).tasks as { id: string }[]).map((task) => task.id);
  const book = async () => {
    const booked = await request.post('/api/bookings', { headers: rider, data: { pickup: PICKUP, drop: DROP, carType: 'Economy', payment_mode: 'cash' } });
    expect(booked.status(), await booked.text()).toBe(201);
    return (await booked.json()) as { id: string; booking_id: string };
  };
  const { context, page: driver } = await driverPhone(browser);

  // The offer: its countdown and the drive to the pickup.
  const first = await book();
  await expect.poll(tasksOfDan).toContain(first.id);
  const offer = driver.getByRole('article', { name: `Trip offer ${first.booking_id}` });
  await expect(offer.getByTestId('offer-countdown')).toHaveText(/^Expires in 0:\d\d$/);
  await expect(offer.getByTestId('pickup-leg')).toHaveText(/^\d+\.\d (km|mi) · \d+ min to the pickup$/);
  await driver.screenshot({ path: 'screenshots/driver-offer-countdown-375.png', fullPage: true, animations: 'disabled' });
  await driver.setViewportSize(DESKTOP);
  await driver.screenshot({ path: 'screenshots/driver-offer-countdown-1280.png', fullPage: true, animations: 'disabled' });
  await driver.setViewportSize(PHONE);

  // Declined: off the list at once, and never offered to Dan again.
  const declined = driver.waitForResponse((response) => response.url().endsWith(`/api/bookings/${first.id}/decline`));
  await offer.getByRole('button', { name: 'Decline' }).click();
  expect((await declined).status()).toBe(200);
  await expect(offer).toHaveCount(0);
  expect(await tasksOfDan()).not.toContain(first.id);

  // The next offer is accepted; the rider's live page says how far the driver is.
  const second = await book();
  const next = driver.getByRole('article', { name: `Trip offer ${second.booking_id}` });
  await next.getByRole('button', { name: 'Accept' }).click();
  await expect(driver).toHaveURL(new RegExp(`/bookings/${second.id}$`));
  const riderContext = await browser.newContext({ viewport: DESKTOP });
  const riderPage = await riderContext.newPage();
  await signIn(riderPage, 'rider1@rideway.demo');
  await riderPage.goto(`/bookings/${second.id}`);
  const eta = riderPage.getByTestId('driver-eta');
  await expect(eta).toHaveText(/^Your driver is \d+ min away \(\d+\.\d (km|mi)\)$/);
  await riderPage.screenshot({ path: 'screenshots/rider-driver-eta-1280.png', fullPage: true, animations: 'disabled' });
  await riderPage.setViewportSize(PHONE);
  await expect(eta).toBeVisible();
  await riderPage.screenshot({ path: 'screenshots/rider-driver-eta-375.png', fullPage: true, animations: 'disabled' });

  // The rider cancels: the driver is told, not just shown a Cancelled chip.
  const cancelled = await request.post(`/api/bookings/${second.id}/cancel`, { headers: rider, data: { reason: 'Changed my plans' } });
  expect(cancelled.status()).toBe(200);
  const alert = driver.getByRole('dialog', { name: 'Alert' });
  await expect(alert).toContainText(`The rider cancelled trip ${second.booking_id}. Reason for cancelling: Changed my plans`);
  await driver.screenshot({ path: 'screenshots/driver-trip-cancelled-375.png', fullPage: true, animations: 'disabled' });
  await alert.getByRole('button', { name: 'Close' }).click();

  await request.post(`/api/bookings/${first.id}/cancel`, { headers: rider, data: { reason: 'Changed my plans' } });
  await riderContext.close();
  await context.close();
});
