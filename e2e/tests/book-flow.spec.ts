import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { BOOK_FLOW_PORT } from '../support/ports';
import { startPlatform } from '../support/platform';
import { apiSignIn, choosePlace, signIn } from '../support/session';
import { driverOffered } from '../support/trips';

/**
 * Issue 17, points 1, 2 and 4, in the browser at a phone's and a laptop's width: every car type's
 * price on the form from one request once pickup and drop are set; book later's 15-minute rule on
 * its field before Book; after booking, the success alert, then the list led by the new booking
 * with its live search state (searching, offered to the next drivers, found) one tap from its live
 * page; and on a platform whose no-taker timer is seconds, a booking nobody took and its retry.
 */

const PASSWORD = 'Secret123';
const SHOTS = '/tmp/bookflow-shots';

/** A fresh rider, so the list holds only this test's bookings; signed in on the page. */
async function newRider(page: Page, request: APIRequestContext, tag: string): Promise<{ email: string; headers: Record<string, string> }> {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const email = `bookflow-${tag}-${stamp}@example.com`;
  const registered = await request.post('/api/auth/register', { data: { firstName: 'Bo', lastName: 'Flow', email, mobile: `78${stamp.slice(-8)}`, password: PASSWORD, usertype: 'rider' } });
  expect(registered.status(), await registered.text()).toBe(201);
  await signIn(page, email, PASSWORD);
  return { email, headers: await apiSignIn(request, email, PASSWORD) };
}

/** The demo operator's time zone (settings `timezone`): the trip time field is on its clock. */
const OPERATOR_ZONE = 'Europe/London';
const ZONE_CLOCK = new Intl.DateTimeFormat('sv-SE', { timeZone: OPERATOR_ZONE, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** yyyy-mm-ddThh:mm on the operator's clock, as the datetime-local field holds it. */
const localText = (ms: number) => ZONE_CLOCK.format(ms).replace(' ', 'T');

for (const width of [375, 1280]) {
  test(`prices for every car type, the book-later rule, and the booked trip's live search state (${width} px)`, async ({ page, request }) => {
    test.setTimeout(150_000);
    await page.setViewportSize({ width, height: 820 });
    await newRider(page, request, String(width));
    const priceRequests: string[] = [];
    page.on('request', (sent) => { if (sent.url().endsWith('/api/estimates/car-types')) priceRequests.push(sent.method()); });

    // Point 4: no prices until both places are set, then one request prices every car type.
    await choosePlace(page, 'Pickup location', 'kings cr', "King's Cross Station, London");
    await choosePlace(page, 'Drop location', 'tower of', 'Tower of London, London');
    await page.getByRole('combobox', { name: 'Vehicle type' }).click();
    const options = page.getByRole('option');
    await expect(options.first()).toHaveText('Select car');
    for (const name of ['Economy', 'Comfort', 'XL']) await expect(page.getByRole('option', { name })).toContainText(/£\d+\.\d{2}/);
    await page.screenshot({ path: `${SHOTS}/prices-${width}.png`, animations: 'disabled' });
    expect(priceRequests).toEqual(['POST']);
    const economyPrice = (await page.getByRole('option', { name: 'Economy' }).getByTestId('car-type-price').textContent()) ?? '';
    await page.getByRole('option', { name: 'Economy' }).click();
    await expect(page.getByRole('combobox', { name: 'Vehicle type' })).toContainText(economyPrice);

    // Point 2: book later starts at the current time, the picker's minimum is 15 minutes ahead, and the rule shows before Book.
    await page.getByRole('combobox', { name: 'Booking type' }).click();
    await page.getByRole('option', { name: 'Book later' }).click();
    const when = page.getByLabel('Date and time');
    const opened = Date.now();
    expect([localText(opened - 60_000), localText(opened)]).toContain(await when.inputValue());
    const min = (await when.getAttribute('min')) ?? '';
    expect([localText(opened + 15 * 60_000), localText(opened + 16 * 60_000), localText(opened + 17 * 60_000)]).toContain(min);
    // The earliest time in the app's time format (the picker's own follows the browser's).
    await expect(page.getByTestId('trip-time-rule')).toHaveText(/^At least 15 minutes from now: \d{1,2}:\d{2}(\s?[AP]M)? or later$/);
    await expect(when).toHaveAttribute('aria-invalid', 'false');
    await when.fill(localText(Date.now() + 5 * 60_000));
    await expect(when).toHaveAttribute('aria-invalid', 'true');
    await expect(when).toHaveJSProperty('validity.rangeUnderflow', true);
    await expect(page.getByText('A later booking must be at least 15 minutes from now.')).toBeVisible();
    await when.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/book-later-rule-${width}.png`, animations: 'disabled' });
    await when.fill(localText(Date.now() + 40 * 60_000));
    await expect(when).toHaveAttribute('aria-invalid', 'false');

    // Point 1: book now; the success alert stays until closed, then the list leads with the new booking.
    await page.getByRole('combobox', { name: 'Booking type' }).click();
    await page.getByRole('option', { name: 'Book now' }).click();
    await page.getByRole('button', { name: 'Book', exact: true }).click();
    const estimate = page.getByRole('dialog', { name: 'Your fare estimate' });
    await expect(estimate.getByTestId('estimate-fare')).toContainText(economyPrice);
    await estimate.getByRole('button', { name: 'Confirm booking' }).click();
    const success = page.getByRole('dialog', { name: 'Alert' });
    await expect(success).toContainText(/Booking confirmed\. Your booking id is [A-Z0-9]+/);
    const reference = (await success.locator('#alert-message').textContent())?.match(/booking id is ([A-Z0-9]+)$/)?.[1] ?? '';
    await page.waitForTimeout(1500);
    await expect(success).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/booked-alert-${width}.png`, animations: 'disabled' });
    await success.getByRole('button', { name: 'Close' }).click();
    await expect(page).toHaveURL(/\/bookings$/);

    const card = page.getByRole('article', { name: `Booking ${reference}` });
    await expect(page.getByRole('article').first()).toHaveAttribute('aria-label', `Booking ${reference}`);
    const state = card.getByTestId('search-state');
    await expect(state).toContainText('Looking for a driver');
    await page.screenshot({ path: `${SHOTS}/list-searching-${width}.png`, animations: 'disabled' });
    const bookingId = (await card.getAttribute('data-booking')) ?? '';

    // The first round's offers time out (20 s on this platform): the next drivers are asked, live.
    await expect(state).toContainText('Offered to the next drivers', { timeout: 40_000 });
    await page.screenshot({ path: `${SHOTS}/list-next-drivers-${width}.png`, animations: 'disabled' });
    const driver = await driverOffered(request, bookingId);
    expect((await request.post(`/api/bookings/${bookingId}/accept`, { headers: driver.headers, data: {} })).status()).toBe(200);
    await expect(state).toContainText(/Driver found: \S+/);
    await page.screenshot({ path: `${SHOTS}/list-found-${width}.png`, animations: 'disabled' });

    // One tap to the live page.
    await state.getByRole('link', { name: 'Follow live' }).click();
    await expect(page).toHaveURL(new RegExp(`/bookings/${bookingId}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Booking ${reference}`);
    // The driver is let go: the rider cancels the trip.
    await apiCancel(request, bookingId, await apiSignIn(request, 'admin@rideway.demo'));
  });
}

async function apiCancel(request: APIRequestContext, id: string, headers: Record<string, string>): Promise<void> {
  expect((await request.post(`/api/bookings/${id}/cancel`, { headers, data: { reason: 'Test over' } })).status()).toBe(200);
}

test.describe('a booking nobody takes, and its retry', () => {
  const origin = `http://127.0.0.1:${String(BOOK_FLOW_PORT)}`;
  test.use({ baseURL: origin });
  let platform: { stop: () => void } | undefined;
  test.beforeAll(async () => {
    // A platform of its own starts in the hook (up to a minute on a busy machine).
    test.setTimeout(90_000);
    platform = await startPlatform(BOOK_FLOW_PORT, { OFFER_TIMEOUT_S: '3', NO_TAKER_CANCEL_S: '10' });
  });
  test.afterAll(() => { platform?.stop(); });

  for (const width of [375, 1280]) {
    test(`no driver accepted: the list says so and Try again books the trip anew (${width} px)`, async ({ page, request }) => {
      test.setTimeout(90_000);
      await page.setViewportSize({ width, height: 820 });
      const rider = await newRider(page, request, `retry${String(width)}`);
      const booked = await request.post('/api/bookings', {
        headers: rider.headers,
        data: { pickup: { lat: 51.5308, lng: -0.1238, add: "King's Cross Station, London" }, drop: { lat: 51.5081, lng: -0.0759, add: 'Tower of London, London' }, carType: 'Comfort' },
      });
      expect(booked.status(), await booked.text()).toBe(201);
      const { id, booking_id: reference } = (await booked.json()) as { id: string; booking_id: string };
      await page.goto('/bookings');
      const card = page.getByRole('article', { name: `Booking ${reference}` });
      const state = card.getByTestId('search-state');
      await expect(state).toContainText(/Looking for a driver|Offered to the next drivers/);
      await expect(state).toContainText('Offered to the next drivers', { timeout: 15_000 });
      // Nobody accepts within the no-taker time: the system cancels, and the list says so with a retry.
      await expect(state).toContainText('No driver accepted in time.', { timeout: 30_000 });
      await page.screenshot({ path: `${SHOTS}/list-no-driver-${width}.png`, animations: 'disabled' });
      await state.getByRole('button', { name: 'Try again' }).click();

      // The new booking leads the list, searching; the old one names it and offers no second retry.
      await expect(state.getByRole('link', { name: 'Booked again' })).toBeVisible();
      await expect(state.getByRole('button', { name: 'Try again' })).toHaveCount(0);
      const first = page.getByRole('article').first();
      await expect(first).not.toHaveAttribute('aria-label', `Booking ${reference}`);
      await expect(first.getByTestId('search-state')).toContainText(/Looking for a driver|Offered to the next drivers/);
      const fresh = (await first.getAttribute('data-booking')) ?? '';
      await expect(state.getByRole('link', { name: 'Booked again' })).toHaveAttribute('href', `/bookings/${fresh}`);
      await page.screenshot({ path: `${SHOTS}/list-retried-${width}.png`, fullPage: true, animations: 'disabled' });
      // A replay from the API books nothing more.
      const replay = await request.post(`/api/bookings/${id}/retry`, { headers: rider.headers });
      expect(replay.status()).toBe(409);
      await first.getByTestId('search-state').getByRole('link', { name: 'Follow live' }).click();
      await expect(page).toHaveURL(new RegExp(`/bookings/${fresh}$`));
      await apiCancel(request, fresh, rider.headers);
    });
  }
});
