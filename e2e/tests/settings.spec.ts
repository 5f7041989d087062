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

/** Issue 20 point 4: how long a finished trip's locations and chat are kept, set under Privacy. */
for (const width of [375, 1280]) {
  test(`the location history period is refused out of range on its field and saved in range (${width} px)`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: 800 });
    await signIn(page, 'admin@rideway.demo');
    await page.goto('/settings');
    const privacy = page.getByRole('region', { name: 'Privacy' });
    const days = privacy.getByLabel('Keep trip locations and chat for (days)');
    await expect(days).toHaveValue('730');
    await days.fill('10');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(days).toHaveAttribute('aria-invalid', 'true');
    await expect(days).toHaveAccessibleDescription('Enter a whole number of days from 30 to 3650.');
    await privacy.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `screenshots/settings-privacy-error-${width}.png`, animations: 'disabled' });
    const admin = await apiSignIn(request, 'admin@rideway.demo');
    const stored = async () => ((await (await request.get('/api/settings', { headers: admin })).json()) as { settings: { locationHistoryDays: number } }).settings.locationHistoryDays;
    expect(await stored()).toBe(730);
    try {
      await days.fill('1095');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Updated.' })).toBeVisible();
      expect(await stored()).toBe(1095);
    } finally {
      await request.patch('/api/settings', { headers: admin, data: { locationHistoryDays: 730 } });
    }
  });
}
