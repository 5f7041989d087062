import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiSignIn, fillTrip, signIn } from '../support/session';

/**
 * Issue 17, point 6: "The demo city is London, but money is in USD, distances in km and the phone
 * default is +1: a UK user was stored as 1770…. Changing the currency in Settings relabels every
 * past trip." The demo is in pounds, miles, +44 and London time; a record keeps its currency.
 */

const DEMO_ZONE = 'Europe/London';

/** The code the server texted to a mobile, read from the outbox as the demo admin. */
async function textedCode(request: APIRequestContext, mobile: string): Promise<string> {
  const admin = await apiSignIn(request, 'admin@rideway.demo');
  const answer = await (await request.get(`/api/outbox?channel=sms&recipient=${mobile}`, { headers: admin })).json();
  const text = (answer.messages as { payload: { text: string } }[])[0]?.payload.text ?? '';
  return /\b(\d{6})\b/.exec(text)?.[1] ?? '';
}

/** An instant's wall-clock minute in a zone, as a datetime-local field takes it. */
const wallClock = (at: number, timeZone: string): string =>
  new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at).replace(' ', 'T');

test('the demo speaks its city: the phone picker starts on +44, fares are in pounds and miles', async ({ page, request }) => {
  await page.goto('/register');
  await expect(page.getByRole('combobox', { name: 'Country' })).toHaveValue('United Kingdom (+44)');
  await expect(page.getByText('+44', { exact: true })).toBeVisible();
  await page.screenshot({ path: 'screenshots/locale-register-1280.png', animations: 'disabled' });

  // Phone sign-in: Rita Rider's number typed the way a Briton says it, without the 44.
  await page.goto('/login');
  await page.getByRole('tab', { name: 'Mobile number' }).click();
  await expect(page.getByRole('combobox', { name: 'Country' })).toHaveValue('United Kingdom (+44)');
  await page.getByRole('textbox', { name: 'Mobile number' }).fill('70000201');
  await page.screenshot({ path: 'screenshots/locale-phone-sign-in-1280.png', animations: 'disabled' });
  await page.getByRole('button', { name: 'Send code' }).click();
  const code = page.getByRole('textbox', { name: 'Verification code' });
  await expect(code).toBeVisible();
  await code.fill(await textedCode(request, '4470000201'));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect((await (await page.request.get('/api/me')).json()).user.email).toBe('rider1@rideway.demo');

  await fillTrip(page);
  await page.getByRole('button', { name: 'Book', exact: true }).click();
  const estimate = page.getByRole('dialog', { name: 'Your fare estimate' });
  await expect(estimate.getByTestId('estimate-fare')).toHaveText(/^£\d+\.\d{2} GBP$/);
  await expect(estimate.getByText(/^\d+\.\d mi$/)).toBeVisible();
  await page.screenshot({ path: 'screenshots/locale-estimate-1280.png', animations: 'disabled' });
  await estimate.getByRole('button', { name: 'Cancel' }).click();
  await expect(estimate).toHaveCount(0);
});

test('after an admin changes the currency, an old trip and the wallet history still show pounds', async ({ page, browser, request, baseURL }) => {
  test.setTimeout(90_000);
  // The rider in a browser of its own, beside the admin's.
  const riderContext = await browser.newContext({ baseURL });
  const rider = await riderContext.newPage();
  const admin = await apiSignIn(request, 'admin@rideway.demo');
  try {
    await signIn(page, 'admin@rideway.demo');
    await page.goto('/settings');
    await expect(page.getByLabel('Currency symbol')).toHaveValue('£');
    await expect(page.getByLabel('Time zone')).toHaveValue(DEMO_ZONE);
    await page.getByLabel('Currency symbol').fill('$');
    await page.getByLabel('Currency code').fill('USD');
    await page.getByRole('region', { name: 'General' }).screenshot({ path: 'screenshots/locale-settings-usd-1280.png', animations: 'disabled' });
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Updated.' })).toBeVisible();

    await signIn(rider, 'rider1@rideway.demo');
    await rider.goto('/bookings');
    // The demo's past trips were made in pounds: they still say so.
    const past = rider.getByRole('article').filter({ hasText: 'Complete' }).first();
    await expect(past).toContainText(/£\d+\.\d{2}/);
    await expect(past).not.toContainText('$');
    await rider.screenshot({ path: 'screenshots/locale-old-trip-list-1280.png', animations: 'disabled' });
    await past.getByRole('link', { name: 'Open' }).click();
    await expect(rider).toHaveURL(/\/bookings\/[\w-]+$/);
    await expect(rider.getByText(/^£\d+\.\d{2} GBP$/).first()).toBeVisible();
    await rider.screenshot({ path: 'screenshots/locale-old-trip-1280.png', fullPage: true, animations: 'disabled' });
    await rider.goto('/profile');
    const history = rider.getByRole('list', { name: 'Wallet history' });
    await expect(history).toContainText('+£50.00');
    await expect(history).not.toContainText('$');
    await rider.screenshot({ path: 'screenshots/locale-wallet-1280.png', fullPage: true, animations: 'disabled' });
    // A new fare is in the new currency.
    await rider.goto('/');
    await fillTrip(rider);
    await rider.getByRole('button', { name: 'Book', exact: true }).click();
    await expect(rider.getByRole('dialog', { name: 'Your fare estimate' }).getByTestId('estimate-fare')).toHaveText(/^\$\d+\.\d{2} USD$/);
  } finally {
    // The e2e server is shared by every spec of a run: the demo goes back to pounds.
    expect((await request.patch('/api/settings', { headers: admin, data: { symbol: '£', code: 'GBP' } })).status()).toBe(200);
    await riderContext.close();
  }
});

test.describe('a rider abroad', () => {
  // The rider's browser is in New York; the city, and its clock, is London's.
  test.use({ timezoneId: 'America/New_York' });

  test('books later on the city clock, and reads the trip time as the city does', async ({ page, request }) => {
    test.setTimeout(60_000);
    const email = `abroad-${Date.now()}@example.com`;
    const registered = await request.post('/api/auth/register', { data: { firstName: 'Nia', lastName: 'Abroad', email, mobile: `447700${String(Date.now()).slice(-6)}`, password: 'Secret123', usertype: 'rider' } });
    expect(registered.status()).toBe(201);
    await signIn(page, email, 'Secret123');
    await fillTrip(page);
    await page.getByRole('combobox', { name: 'Booking type' }).click();
    await page.getByRole('option', { name: 'Book later' }).click();
    await expect(page.getByText(`Local time in ${DEMO_ZONE}`)).toBeVisible();
    const at = Math.floor((Date.now() + 3 * 3600_000) / 60_000) * 60_000;
    await page.getByLabel('Date and time').fill(wallClock(at, DEMO_ZONE));
    await page.screenshot({ path: 'screenshots/locale-book-later-1280.png', animations: 'disabled' });
    await page.getByRole('button', { name: 'Book', exact: true }).click();
    await page.getByRole('dialog', { name: 'Your fare estimate' }).getByRole('button', { name: 'Confirm booking' }).click();
    const success = page.getByRole('dialog', { name: 'Alert' });
    await expect(success).toContainText(/booking id is [A-Z0-9]+/);
    const reference = (await success.locator('#alert-message').textContent())?.match(/booking id is ([A-Z0-9]+)$/)?.[1] ?? '';
    await success.getByRole('button', { name: 'Close' }).click();
    const rider = await apiSignIn(request, email, 'Secret123');
    const booking = ((await (await request.get('/api/bookings', { headers: rider })).json()).bookings as { id: string; booking_id: string; tripdate: number; currency: string }[]).find((b) => b.booking_id === reference);
    // The time typed is London's, whatever the browser's zone.
    expect(booking).toMatchObject({ tripdate: at, currency: 'GBP' });
    const card = page.getByRole('article', { name: `Booking ${reference}` });
    const londonTime = new Intl.DateTimeFormat('en-US', { timeZone: DEMO_ZONE, hour: 'numeric', minute: '2-digit' }).formatToParts(at).filter((part) => part.type === 'hour' || part.type === 'minute').map((part) => part.value).join(':');
    await expect(card).toContainText(londonTime);
    await page.screenshot({ path: 'screenshots/locale-book-later-listed-1280.png', animations: 'disabled' });
    await request.post(`/api/bookings/${booking?.id ?? ''}/cancel`, { headers: rider, data: { reason: 'Changed my plans' } });
  });
});
