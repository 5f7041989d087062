import { expect, test } from '@playwright/test';
import { withSettings } from '../support/session';

/**
 * Issue 20, point 1: sign in with Google in Chromium, against the local OpenID provider
 * (support/fake-oidc.ts) the platform's GOOGLE_ISSUER points at: the login page's button, the
 * provider's page, the return through the server's callback with state, nonce and PKCE.
 */
test('with GoogleLoginEnabled a visitor signs in with Google, returns to the page asked for, and a forged return is refused', async ({ page, request }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Continue with Google' })).toHaveCount(0);
  await withSettings(request, { GoogleLoginEnabled: true }, async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/login');
    const google = page.getByRole('link', { name: 'Continue with Google' });
    await expect(google).toBeVisible();
    // The server offers Apple only with its client configured: not on this platform.
    await expect(page.getByRole('link', { name: 'Continue with Apple' })).toHaveCount(0);
    await page.screenshot({ path: 'screenshots/login-google-375.png', fullPage: true, animations: 'disabled' });
    await google.click();
    // The provider's page (played locally), then back through the server's callback.
    await expect(page.getByRole('heading', { name: 'Sign in with Google' })).toBeVisible();
    await page.getByRole('link', { name: 'Continue as Gina' }).click();
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
    await expect(page.getByRole('form', { name: 'Book a ride' })).toBeVisible();
    const me = (await (await page.request.get('/api/me')).json()).user;
    expect(me).toMatchObject({ firstName: 'Gina', lastName: 'Google', usertype: 'rider', loginType: 'google', email: 'gina.google@example.com', approved: true, walletBalance: 0 });
    const cookies = await page.context().cookies();
    expect(cookies.find((cookie) => cookie.name === 'rideway_session')).toMatchObject({ httpOnly: true });

    // Signed out, a returning Google user asked for /bookings goes back there, the same account.
    await page.context().clearCookies();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/login?next=%2Fbookings');
    await page.screenshot({ path: 'screenshots/login-google-1280.png', fullPage: true, animations: 'disabled' });
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await page.getByRole('link', { name: 'Continue as Gina' }).click();
    await expect(page).toHaveURL(/\/bookings$/);
    expect((await (await page.request.get('/api/me')).json()).user.id).toBe(me.id);

    // A forged return is refused at /login with the message, and signs no one in.
    await page.context().clearCookies();
    await page.goto('/api/auth/google/callback?code=anything&state=forged');
    await expect(page).toHaveURL(/\/login\?error=login_error$/);
    await expect(page.getByTestId('arrival')).toContainText('Sign-in failed');
    expect((await page.request.get('/api/me')).status()).toBe(401);
    await page.screenshot({ path: 'screenshots/login-google-error-1280.png', animations: 'disabled' });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: 'screenshots/login-google-error-375.png', animations: 'disabled' });
  });
});
