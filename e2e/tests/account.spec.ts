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
