import { expect, test, type Page } from '@playwright/test';
import { fillTrip, signIn } from '../support/session';

/**
 * Issue 17, points 5 and 10: a form's error shows on its field (translated, aria-invalid), a
 * success is a short notice that blocks nothing, and what loads shows its shape (skeletons) while
 * busy buttons show their progress.
 */
const SHOTS = '/tmp/forms-shots';
const unique = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

/** Holds the answers of the API paths matching `pattern` back by `ms`, as a slow network would. */
async function slowDown(page: Page, pattern: string | RegExp, ms: number): Promise<void> {
  await page.route(pattern, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.fallback();
  });
}

/** Registers a rider through the API and signs the page in as that rider. */
async function newRider(page: Page): Promise<string> {
  const id = unique();
  const email = `forms${id}@example.com`;
  const answer = await page.request.post('/api/auth/register', {
    data: { firstName: 'Fay', lastName: 'Forms', email, password: 'secret1', mobile: `77${id.slice(-8)}`, usertype: 'rider' },
  });
  expect(answer.status()).toBe(201);
  await signIn(page, email, 'secret1');
  return email;
}

for (const width of [375, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
    });

    test('register with a bad email shows the error on the email field, translated, and no dialog', async ({ page }) => {
      await page.goto('/register');
      await page.getByLabel('First name').fill('Grace');
      await page.getByLabel('Last name').fill('Hopper');
      const email = page.getByLabel('Email');
      await email.fill('grace@nowhere');
      await page.getByLabel('Password').fill('Secret123');
      await page.getByLabel('Mobile number').fill(`78${unique().slice(-8)}`);
      await expect(email).toHaveAttribute('aria-invalid', 'false');
      await page.getByRole('button', { name: 'Register' }).click();
      await expect(email).toHaveAttribute('aria-invalid', 'true');
      await expect(email).toHaveAccessibleDescription('Enter a valid email address.');
      await expect(email).toBeFocused();
      await expect(page.getByLabel('First name')).toHaveAttribute('aria-invalid', 'false');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await page.screenshot({ path: `${SHOTS}/register-email-error-${width}.png`, fullPage: true, animations: 'disabled' });
      // Typing again clears the error; a taken email or number is the form's, shown above the buttons.
      await email.fill('rider1@rideway.demo');
      await expect(email).toHaveAttribute('aria-invalid', 'false');
      await page.getByRole('button', { name: 'Register' }).click();
      await expect(page.getByTestId('form-error')).toHaveText('An account with this email or mobile number already exists.');
      await page.screenshot({ path: `${SHOTS}/register-form-error-${width}.png`, fullPage: true, animations: 'disabled' });
      await expect(page.getByLabel('First name')).toHaveValue('Grace');
    });

    test('the field error is in the chosen language', async ({ page }) => {
      await page.addInitScript(() => { localStorage.setItem('rideway.language', 'es'); });
      await page.goto('/register');
      const email = page.locator('input[autocomplete="email"]');
      await email.fill('grace@nowhere');
      await page.locator('input[autocomplete="given-name"]').fill('Grace');
      await page.locator('input[autocomplete="family-name"]').fill('Hopper');
      await page.locator('input[autocomplete="new-password"]').fill('Secret123');
      await page.locator('input[type="tel"]').fill(`79${unique().slice(-8)}`);
      await page.locator('form button[type="submit"]').click();
      await expect(email).toHaveAttribute('aria-invalid', 'true');
      await expect(email).toHaveAccessibleDescription('Introduce un correo electrónico válido.');
    });

    test('profile save shows a notice that blocks nothing and goes away by itself', async ({ page }) => {
      await newRider(page);
      await page.goto('/profile');
      await page.getByLabel('First name').fill(`Faye${width}`);
      await page.getByRole('button', { name: 'Save' }).click();
      const notice = page.getByRole('status').filter({ hasText: 'Profile updated.' });
      await expect(notice).toBeVisible();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await page.screenshot({ path: `${SHOTS}/profile-notice-${width}.png`, animations: 'disabled' });
      // The page stays usable while it shows.
      await page.getByLabel('Last name').fill('Notified');
      await expect(page.getByLabel('Last name')).toHaveValue('Notified');
      await expect(notice).toBeHidden({ timeout: 10_000 });
      expect((await (await page.request.get('/api/me')).json()).user.firstName).toBe(`Faye${width}`);
    });

    test("an admin dialog's server error lands on its field", async ({ page }) => {
      await signIn(page, 'admin@rideway.demo');
      await page.goto('/promos');
      await page.getByRole('button', { name: 'Add promo' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add promo' });
      await dialog.getByLabel('Promo code').fill(`F${unique().slice(-6)}`);
      await dialog.getByRole('combobox', { name: 'Discount type' }).click();
      await page.getByRole('option', { name: 'Percentage' }).click();
      const discount = dialog.getByRole('spinbutton', { name: /^Discount/ });
      // A percentage above 100: the server refuses it and names the field.
      await discount.fill('150');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(discount).toHaveAttribute('aria-invalid', 'true');
      await expect(discount).toHaveAccessibleDescription('The request is not valid.');
      await expect(dialog.getByLabel('Promo code')).toHaveAttribute('aria-invalid', 'false');
      await expect(page.getByRole('dialog', { name: 'Alert' })).toHaveCount(0);
      await page.screenshot({ path: `${SHOTS}/promo-field-error-${width}.png`, animations: 'disabled' });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    });

    test('a slow network shows skeletons, and busy Sign in and Book buttons show progress', async ({ page }) => {
      // The landing page: the form's shape while the session is asked for.
      await slowDown(page, '**/api/session', 1500);
      await page.goto('/');
      await expect(page.getByTestId('form-skeleton')).toBeVisible();
      await expect(page.getByRole('status', { name: 'Loading' }).first()).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/landing-skeleton-${width}.png`, animations: 'disabled' });
      await expect(page.getByRole('form', { name: 'Book a ride' })).toBeVisible();
      await expect(page.getByTestId('form-skeleton')).toHaveCount(0);
      await page.unroute('**/api/session');

      // Sign in: the button shows its progress while the answer comes.
      const email = `forms${unique()}@example.com`;
      const mobile = `76${unique().slice(-8)}`;
      expect((await page.request.post('/api/auth/register', { data: { firstName: 'Bo', lastName: 'Busy', email, password: 'secret1', mobile, usertype: 'rider' } })).status()).toBe(201);
      await slowDown(page, '**/api/auth/login', 1500);
      await page.goto('/login');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('secret1');
      const signInButton = page.getByRole('button', { name: 'Sign in' });
      await signInButton.click();
      await expect(signInButton.getByRole('progressbar')).toBeVisible();
      await expect(signInButton).toBeDisabled();
      await page.screenshot({ path: `${SHOTS}/sign-in-busy-${width}.png`, animations: 'disabled' });
      await expect(page).toHaveURL(/\/$/);

      // The bookings list: cards' shapes while it loads.
      await slowDown(page, /\/api\/bookings(\?.*)?$/, 1500);
      await page.goto('/bookings');
      await expect(page.getByTestId('list-skeleton')).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/bookings-skeleton-${width}.png`, animations: 'disabled' });
      await expect(page.getByText('No bookings yet.')).toBeVisible();

      // Book: the button shows its progress while the estimate is asked for.
      await slowDown(page, '**/api/estimates', 2000);
      await page.goto('/');
      await fillTrip(page);
      const book = page.getByRole('button', { name: 'Book', exact: true });
      await book.click();
      await expect(book.getByRole('progressbar')).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/book-busy-${width}.png`, animations: 'disabled' });
      await expect(page.getByRole('dialog', { name: 'Your fare estimate' })).toBeVisible();
    });

    test('admin tables and the dashboard show skeletons while they load', async ({ page }) => {
      await signIn(page, 'admin@rideway.demo');
      await slowDown(page, '**/api/promos', 1500);
      await page.goto('/promos');
      await expect(page.locator('.MuiDataGrid-root .MuiSkeleton-root').first()).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/promos-skeleton-${width}.png`, animations: 'disabled' });
      await expect(page.locator('.MuiDataGrid-root .MuiSkeleton-root')).toHaveCount(0);
      await slowDown(page, '**/api/dashboard**', 1500);
      await page.goto('/dashboard');
      await expect(page.getByTestId('figure-skeleton').first()).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/dashboard-skeleton-${width}.png`, animations: 'disabled' });
      await expect(page.getByTestId('earnings-total')).toBeVisible();
    });
  });
}
