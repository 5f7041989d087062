import { expect, test } from '@playwright/test';
import { DEMO_PORT } from '../support/ports';
import { apiSignIn, signIn } from '../support/session';

/**
 * Issue 7, section 6: with AllowCriticalEditsAdmin off, critical edits answer demo_mode, emails
 * and mobiles are hidden and export is off. Run on a platform of its own: demo mode cannot be left.
 */
test.use({ baseURL: `http://127.0.0.1:${DEMO_PORT}` });

test('demo mode blocks a delete, hides emails and mobiles, and turns export off', async ({ page, request }) => {
  const admin = await apiSignIn(request, 'admin@rideway.demo');
  expect((await request.patch('/api/settings', { headers: admin, data: { AllowCriticalEditsAdmin: false } })).status()).toBe(200);
  await signIn(page, 'admin@rideway.demo');
  await page.goto('/cartypes');
  const economy = page.getByRole('row').filter({ hasText: 'Economy' });
  await expect(economy).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export' })).toHaveCount(0);
  await economy.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete' }).getByRole('button', { name: 'Delete' }).click();
  // Issue 17: a refused action on a row is an error notice, closed by hand.
  const refused = page.getByTestId('notice').filter({ hasText: 'This change is not allowed in demo mode.' });
  await expect(refused).toBeVisible();
  await page.screenshot({ path: 'screenshots/demo-delete-1280.png', animations: 'disabled' });
  await refused.getByRole('button', { name: 'Close' }).click();
  await expect(economy).toBeVisible();
  const names = ((await (await request.get('/api/cartypes')).json()).cartypes as { name: string }[]).map((type) => type.name);
  expect(names).toContain('Economy');

  await page.goto('/riders');
  const rider = page.getByRole('row').filter({ hasText: 'Hidden for Demo' }).first();
  await expect(rider).toBeVisible();
  await expect(rider.getByRole('gridcell', { name: 'Hidden', exact: true })).toBeVisible();
  await expect(page.getByRole('gridcell', { name: /@rideway\.demo/ })).toHaveCount(0);
  await page.screenshot({ path: 'screenshots/demo-riders-1280.png', animations: 'disabled' });

  // A settings change is a critical edit too.
  await page.goto('/settings');
  await page.getByLabel('Company name').fill('Demo Changed Ltd');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('form-error')).toContainText('This change is not allowed in demo mode.');
  expect((await (await request.get('/api/settings', { headers: admin })).json()).settings).not.toMatchObject({ CompanyName: 'Demo Changed Ltd' });
});
