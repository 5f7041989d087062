import { expect, test } from '@playwright/test';
import { apiSignIn, signIn } from '../support/session';

/** Issue 7, sections 3 and 5: every setting, refused with its key when bad, saved when right. */
test('settings refuse bad values with their keys and save good ones', async ({ page, request }) => {
  await signIn(page, 'admin@rideway.demo');
  await page.goto('/settings');
  const bonus = page.getByLabel('Referral bonus');
  await expect(bonus).toHaveValue('5');
  // Section 5: bonus must not be empty (proper_bonus); letters empty the field.
  await bonus.fill('abc');
  await expect(bonus).toHaveValue('');
  await page.getByRole('button', { name: 'Save' }).click();
  // Issue 17: on the field, not in a dialog.
  await expect(bonus).toHaveAttribute('aria-invalid', 'true');
  await expect(bonus).toHaveAccessibleDescription('Enter a referral bonus of 0 or more.');
  await page.screenshot({ path: 'screenshots/settings-error-1280.png', animations: 'disabled' });
  const admin = await apiSignIn(request, 'admin@rideway.demo');
  const stored = async () => (await (await request.get('/api/settings', { headers: admin })).json()).settings as Record<string, unknown>;
  expect(await stored()).toMatchObject({ bonus: 5 });
  await bonus.fill('7.5');
  await page.getByLabel('Company name').fill('Rideway Demo Group');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Updated.' })).toBeVisible();
  expect(await stored()).toMatchObject({ bonus: 7.5, CompanyName: 'Rideway Demo Group' });
  await page.screenshot({ path: 'screenshots/settings-1280.png', fullPage: true, animations: 'disabled' });
  // Put the demo back as it was.
  await request.patch('/api/settings', { headers: admin, data: { bonus: 5, CompanyName: 'Rideway Demo Ltd' } });
});
