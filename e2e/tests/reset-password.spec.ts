import { expect, test } from '@playwright/test';
import { apiSignIn, signIn } from '../support/session';

/**
 * Issue 15, point 16: the reset link mailed as /reset-password?token=... opens a page that sets a
 * new password; the old one stops working, and the used link says so when opened again.
 */
test('the reset link from the outbox sets a new password and the old one stops working', async ({ page, request }) => {
  const stamp = String(Date.now()).slice(-6);
  const email = `reset.${stamp}@example.com`;
  const registered = await request.post('/api/auth/register', { data: { firstName: 'Rhea', lastName: 'Reset', email, mobile: `555${stamp}`, password: 'old123' } });
  expect(registered.status()).toBe(201);

  await page.goto('/login');
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await page.getByRole('dialog').getByLabel('Email').fill(email);
  await page.getByRole('dialog').getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'reset link' })).toBeVisible();

  const admin = await apiSignIn(request, 'admin@rideway.demo');
  const outbox = await request.get('/api/outbox', { headers: admin, params: { channel: 'mail', recipient: email } });
  expect(outbox.status()).toBe(200);
  const mails = (await outbox.json()).messages as { payload: { text: string } }[];
  const link = /https?:\/\/\S+\/reset-password\?token=\S+/.exec(mails[0]?.payload.text ?? '')?.[0];
  expect(link, 'the mailed reset link').toBeTruthy();
  const { pathname, search } = new URL(link ?? '');

  await page.goto(`${pathname}${search}`);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  // The spec's rules are checked before anything is sent.
  await page.getByLabel('New password').fill('no');
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByText(/6 to 30|alphanumeric|letters/i).first()).toBeVisible();
  await page.getByLabel('New password').fill('new456');
  await page.screenshot({ path: 'test-results/reset-password-1280.png', animations: 'disabled' });
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByText('Your password has been changed.')).toBeVisible();
  await page.screenshot({ path: 'test-results/reset-password-done-1280.png', animations: 'disabled' });

  expect((await request.post('/api/auth/login', { data: { email, password: 'old123' } })).status()).toBeGreaterThanOrEqual(400);
  expect((await request.post('/api/auth/login', { data: { email, password: 'new456' } })).status()).toBe(200);

  // The link works once.
  await page.goto(`${pathname}${search}`);
  await page.getByLabel('New password').fill('again789');
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByText('This link has expired or was already used.')).toBeVisible();

  await signIn(page, email, 'new456');
});
