import { expect, test } from '@playwright/test';
import { withSettings } from '../support/session';

/** Issue 6, sections 2 and 5: registration, sign-in and the own profile, in the browser. */
test('a visitor registers with a country and dial code, is sent to login after 3 s, and signs in', async ({ page }) => {
  const email = `web-rider-${Date.now()}@example.com`;
  await page.setViewportSize({ width: 375, height: 900 });
  await page.goto('/login');
  await page.getByRole('link', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/register$/);
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill('Hopper');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('Secret123');
  await page.getByRole('combobox', { name: 'Country' }).click();
  // Section 3: about 240 countries with dial codes.
  expect(await page.getByRole('option').count()).toBeGreaterThanOrEqual(230);
  await page.getByRole('combobox', { name: 'Country' }).fill('Ireland');
  await page.getByRole('option', { name: 'Ireland (+353)' }).click();
  await page.getByLabel('Mobile number').fill('861234567');
  await page.screenshot({ path: 'screenshots/register-375.png', fullPage: true });
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('Your account was created. Please sign in.')).toBeVisible();
  const shown = Date.now();
  await expect(page).toHaveURL(/\/login$/, { timeout: 6000 });
  expect(Date.now() - shown).toBeGreaterThanOrEqual(2500);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('Secret123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/$/);
  // The dial code was stored in front of the number, digits only (section 5).
  const me = await (await page.request.get('/api/me')).json();
  expect(me.user.mobile).toBe('353861234567');
});

test('registration refused by section 5 shows the key in the form and keeps it', async ({ page }) => {
  await page.goto('/register');
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill('Hopper');
  await page.getByLabel('Email').fill('rider1@rideway.demo');
  await page.getByLabel('Password').fill('Secret123');
  await page.getByLabel('Mobile number').fill('7700900999');
  await page.getByRole('button', { name: 'Register' }).click();
  // Issue 17: user_exists is no one field's: it shows above the buttons.
  await expect(page.getByTestId('form-error')).toContainText('already exists');
  await page.screenshot({ path: 'screenshots/register-error-1280.png' });
  await expect(page.getByLabel('First name')).toHaveValue('Grace');
  await expect(page).toHaveURL(/\/register$/);
});

test('a visitor opening /profile is sent to /login', async ({ page }) => {
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login\?next=%2Fprofile$/);
});

for (const width of [375, 1280]) {
  test(`a rider edits the profile; email and mobile stay fixed for an email login (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/login');
    await page.getByLabel('Email').fill('rider2@rideway.demo');
    await page.getByLabel('Password').fill('demo123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/profile');
    await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
    await expect(page.getByLabel('Email')).toBeDisabled();
    await expect(page.getByLabel('Mobile number')).toBeDisabled();
    await page.getByLabel('First name').fill(`Rita${width}`);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Profile updated.' })).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.screenshot({ path: `screenshots/profile-${width}.png`, fullPage: true });
    expect((await (await page.request.get('/api/me')).json()).user.firstName).toBe(`Rita${width}`);
    // The server closes this tab's socket (4401) as it ends the session; holding the logout's
    // answer back makes that close arrive first, as it often does on a loaded machine. The page must
    // still land on /login, not on /login?next=/profile.
    await page.route('**/api/auth/logout', async (route) => {
      const response = await route.fetch();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.fulfill({ response });
    });
    // The side menu: open it on a narrow screen, then log out.
    if (width < 992) await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });
}

test('with FacebookLoginEnabled a visitor signs in with Facebook and lands home as a new rider', async ({ page, request }) => {
  await page.goto('/login');
  await expect(page.getByRole('link', { name: 'Continue with Facebook' })).toHaveCount(0);
  await withSettings(request, { FacebookLoginEnabled: true }, async () => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Continue with Facebook' }).click();
    // Facebook's dialog (played locally), then back through the server's callback.
    await expect(page.getByRole('heading', { name: 'Log in with Facebook' })).toBeVisible();
    await page.getByRole('link', { name: 'Continue as Fiona' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('form', { name: 'Book a ride' })).toBeVisible();
    const me = (await (await page.request.get('/api/me')).json()).user;
    expect(me).toMatchObject({ firstName: 'Fiona', lastName: 'Facebook', usertype: 'rider', loginType: 'facebook', email: 'fiona.facebook@example.com' });
    // A forged return is refused at /login with the message.
    await page.goto('/api/auth/facebook/callback?code=code-5550001&state=forged');
    await expect(page).toHaveURL(/\/login\?error=login_error$/);
    await expect(page.getByTestId('arrival')).toContainText('Sign-in failed');
    await page.screenshot({ path: 'screenshots/login-facebook-error-1280.png', animations: 'disabled' });
  });
});

test.describe('logout from a page opened directly', () => {
  // page.route sees the page's own requests only when no service worker answers them.
  test.use({ serviceWorkers: 'block' });
  test('lands on /login even while the login page is still loading', async ({ page }) => {
    // Signed in without the login page, whose code this tab then has never loaded: the move to
    // /login waits for it (held back here, as a slow network would). The user must not be dropped
    // before the move is done, or the profile page sends itself to /login?next=/profile.
    const signIn = await page.request.post('/api/auth/login', { data: { email: 'rider2@rideway.demo', password: 'demo123' } });
    expect(signIn.status()).toBe(200);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/profile');
    await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
    let held = 0;
    await page.route('**/assets/LoginPage-*.js', async (route) => {
      held += 1;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByLabel('Email')).toBeVisible();
    expect(held).toBe(1);
  });
});
