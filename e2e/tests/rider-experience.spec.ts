import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiSignIn, fillTrip, signIn } from '../support/session';
import { driverOffered } from '../support/trips';

/**
 * Issue 17, points 3 and 8, in the browser: a promo code's Apply in the estimate dialog (a
 * refused code at its field, an accepted one's discount and total), the live page's driver card
 * with tap to call (and the driver's call to the rider), and the finished trip's fare breakdown
 * and rating with a comment, as the rider, in the booking list and for an admin.
 */

const PASSWORD = 'Secret123';
/** What a rider typed into the comment: stored and shown as text, never as markup. */
const COMMENT = 'Great <b>driver</b> & spotless car <img src=x onerror=alert(1)>';

/** A fresh rider (each may use a promo once), signed in on the page. */
async function newRider(page: Page, request: APIRequestContext, tag: string): Promise<string> {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const email = `promo-${tag}-${stamp}@example.com`;
  const registered = await request.post('/api/auth/register', { data: { firstName: 'Pat', lastName: 'Promo', email, mobile: `77${stamp.slice(-8)}`, password: PASSWORD, usertype: 'rider' } });
  expect(registered.status(), await registered.text()).toBe(201);
  await signIn(page, email, PASSWORD);
  return email;
}

/** A promo an admin adds for the test: 2 off any trip, valid tomorrow too. */
async function addPromo(request: APIRequestContext): Promise<string> {
  const admin = await apiSignIn(request, 'admin@rideway.demo');
  const name = `RIDE${String(Date.now()).slice(-6)}${String(Math.floor(Math.random() * 100))}`;
  const created = await request.post('/api/promos', { headers: admin, data: { promo_name: name, promo_description: '2 off', promo_discount_type: 'flat', promo_discount_value: 2, promo_validity: Date.now() + 86_400_000, promo_usage_limit: 0 } });
  expect(created.status(), await created.text()).toBe(201);
  return name;
}


/** The driver's own page of the trip: the rider's number is a tap to call. */
async function driverCallsRider(browser: Browser, email: string, bookingId: string, width: number): Promise<void> {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  try {
    const page = await context.newPage();
    await signIn(page, email);
    await page.goto(`/bookings/${bookingId}`);
    const call = page.getByRole('link', { name: 'Call Pat Promo' });
    await expect(call).toHaveAttribute('href', /^tel:\d{6,}$/);
  } finally {
    await context.close();
  }
}

for (const width of [375, 1280]) {
  test(`promo Apply, the driver card, the fare breakdown and a rating with a comment (${width} px)`, async ({ page, request, browser }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 800 });
    await newRider(page, request, String(width));
    const promo = await addPromo(request);

    // Apply in the estimate dialog: FLAT3 is refused at its field (the trip is below its minimum order).
    await fillTrip(page);
    await page.getByRole('button', { name: 'Book', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Your fare estimate' });
    await expect(dialog.getByTestId('estimate-fare')).toBeVisible();
    const code = dialog.getByRole('textbox', { name: 'Promo code' });
    await code.fill('flat3');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await expect(dialog.getByText('The trip is below the minimum order for this promo.')).toBeVisible();
    await expect(code).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByTestId('promo-discount')).toHaveCount(0);
    await page.screenshot({ path: `screenshots/promo-refused-${width}.png`, animations: 'disabled' });

    // A code the trip qualifies for: the server's discount and the new total.
    await code.fill(promo.toLowerCase());
    await expect(dialog.getByText('The trip is below the minimum order for this promo.')).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Apply' }).click();
    const discount = dialog.getByTestId('promo-discount');
    await expect(discount).toHaveText('−£2.00');
    await expect(dialog.getByText(`Discount (${promo})`)).toBeVisible();
    const total = (await dialog.getByTestId('promo-total').textContent()) ?? '';
    expect(total).toMatch(/^£\d+\.\d{2} GBP$/);
    await page.screenshot({ path: `screenshots/promo-applied-${width}.png`, animations: 'disabled' });
    await dialog.getByRole('radio', { name: 'Cash' }).check();
    await dialog.getByRole('button', { name: 'Confirm booking' }).click();
    const success = page.getByRole('dialog', { name: 'Alert' });
    await expect(success).toContainText(/booking id is [A-Z0-9]+/);
    const reference = (await success.locator('#alert-message').textContent())?.match(/booking id is ([A-Z0-9]+)$/)?.[1] ?? '';
    await success.getByRole('button', { name: 'Close' }).click();
    const card = page.getByRole('article', { name: `Booking ${reference}` });
    // The booking charges what Apply said.
    await expect(card).toContainText(total.replace(' GBP', ''));
    const bookingId = (await card.getAttribute('data-booking')) ?? '';
    await card.getByRole('link', { name: 'Open' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Booking ${reference}`);
    await expect(page.locator('[data-status]')).toHaveAttribute('data-status', 'NEW');

    // The driver accepts: the live page shows who is coming, in what, and how to call.
    const driver = await driverOffered(request, bookingId);
    expect((await request.post(`/api/bookings/${bookingId}/accept`, { headers: driver.headers, data: {} })).status()).toBe(200);
    const driverCard = page.getByRole('region', { name: 'Your driver' });
    // Live: the page turns ACCEPTED without a reload (a loaded machine may take a while).
    await expect(driverCard).toBeVisible({ timeout: 15_000 });
    await expect(driverCard.getByTestId('driver-plate')).toHaveText(/^L[CD]\d{2} [A-Z]{3}$/);
    await expect(driverCard).toContainText('Toyota');
    await expect(driverCard.getByRole('link', { name: /^Call / })).toHaveAttribute('href', /^tel:\+?\d{6,}$/);
    await expect(page.getByText('Driver on the way')).toBeVisible();
    await page.screenshot({ path: `screenshots/trip-driver-card-${width}.png`, fullPage: true, animations: 'disabled' });
    if (width === 1280) await driverCallsRider(browser, driver.email, bookingId, width);

    // The trip runs and is paid in cash; the page shows how the fare is made up.
    for (const step of ['arrive', 'start', 'reach']) {
      expect((await request.post(`/api/bookings/${bookingId}/${step}`, { headers: driver.headers, data: {} })).status(), step).toBe(200);
    }
    expect((await request.post(`/api/bookings/${bookingId}/pay`, { headers: driver.headers, data: { payment_mode: 'cash' } })).status()).toBe(200);
    await expect(page.locator('[data-status]')).toHaveAttribute('data-status', 'PAID');
    const breakdown = page.getByRole('region', { name: 'Fare breakdown' });
    await expect(breakdown).toContainText('Base fare');
    await expect(breakdown).toContainText('Convenience fee');
    await expect(breakdown).toContainText(`Discount (${promo})`);
    await expect(breakdown).toContainText('Paid by Cash');
    await expect(breakdown.getByTestId('fare-note')).toContainText('The fare is for the trip as driven');
    await expect(driverCard.getByRole('link', { name: /^Call / })).toHaveCount(0);

    // A rating with a comment; the markup in it is shown as typed.
    await page.locator('label', { hasText: '4 Stars' }).click();
    await page.getByRole('textbox', { name: 'Comment (optional)' }).fill(COMMENT);
    await page.getByRole('button', { name: 'Submit rating' }).click();
    await expect(page.getByText('You rated this trip 4 of 5. Thank you!')).toBeVisible();
    await expect(page.getByTestId('rating-comment')).toHaveText(COMMENT);
    await expect(page.locator('[data-testid="rating-comment"] img, [data-testid="rating-comment"] b')).toHaveCount(0);
    await expect(page.locator('[data-status]')).toHaveAttribute('data-status', 'COMPLETE');
    await page.evaluate(() => { window.scrollTo(0, 0); });
    await page.screenshot({ path: `screenshots/trip-fare-rating-${width}.png`, fullPage: true, animations: 'disabled' });

    // The booking list folds the same breakdown under each booking.
    await page.goto('/bookings');
    const listed = page.getByRole('article', { name: `Booking ${reference}` });
    await listed.getByRole('button', { name: 'Fare breakdown' }).click();
    await expect(listed).toContainText(`Discount (${promo})`);
    await expect(listed.getByTestId('rating-comment')).toHaveText(COMMENT);
    await page.evaluate(() => { window.scrollTo(0, 0); });
    await page.screenshot({ path: `screenshots/bookings-fare-${width}.png`, fullPage: true, animations: 'disabled' });

    // An admin sees the rating and the comment where ratings are shown.
    if (width === 1280) {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      const admin = await context.newPage();
      await signIn(admin, 'admin@rideway.demo');
      await admin.goto(`/bookings/${bookingId}`);
      await expect(admin.getByText("Rider's rating")).toBeVisible();
      await expect(admin.getByTestId('rating-comment')).toHaveText(COMMENT);
      await admin.screenshot({ path: 'screenshots/admin-rating-comment-1280.png', fullPage: true, animations: 'disabled' });
      await context.close();
    }
    const seen = await (await request.get(`/api/bookings/${bookingId}`, { headers: driver.headers })).json();
    expect(seen).toMatchObject({ status: 'COMPLETE', rating: 4, promo_applied: true });
    expect(seen.rating_comment).toBeUndefined();
  });
}
