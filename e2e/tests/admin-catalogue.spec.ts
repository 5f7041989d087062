import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { apiSignIn, signIn } from '../support/session';

/** Issue 7, sections 2 and 3: the car type and cancellation reason tables. */
const PNG = fileURLToPath(new URL('../../apps/web/public/icons/icon-192.png', import.meta.url));

test('an admin creates a car type with an image, edits a fare in its form, and a rider then sees it in the booking form', async ({ page, browser, request }) => {
  await signIn(page, 'admin@rideway.demo');
  await page.getByRole('navigation').getByRole('link', { name: 'Car types' }).click();
  await expect(page).toHaveURL(/\/cartypes$/);
  await expect(page.getByRole('gridcell', { name: 'Economy' })).toBeVisible();
  await page.getByRole('button', { name: 'Add car type' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add car type' });
  await dialog.getByLabel('Name').fill('Van');
  await dialog.getByLabel('Image').setInputFiles(PNG);
  await expect(dialog.locator('img')).toHaveAttribute('src', /^data:image\/png;base64,/);
  await dialog.getByLabel('Base fare').fill('6');
  await dialog.getByLabel('Rate per km or mile').fill('2.4');
  await dialog.getByLabel('Rate per hour').fill('20');
  await dialog.getByLabel('Minimum fare').fill('15');
  await dialog.getByLabel('Convenience fee').fill('10');
  await dialog.getByRole('button', { name: 'Add: Cancellation charges' }).click();
  await dialog.getByLabel('After minutes 1').fill('5');
  await dialog.getByLabel('Amount 1').fill('4');
  await page.screenshot({ path: 'screenshots/cartype-dialog-1280.png', animations: 'disabled' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  const row = page.getByRole('row').filter({ hasText: 'Van' });
  await expect(row).toBeVisible();
  await expect(row).toContainText('£6.00');
  // Edited in its form, confirmed (issue 17), saved through the API.
  await row.getByRole('menuitem', { name: 'Edit' }).click();
  await page.getByRole('dialog', { name: 'Van' }).getByLabel('Base fare').fill('7.5');
  await page.getByRole('dialog', { name: 'Van' }).getByRole('button', { name: 'Save' }).click();
  const confirmFare = page.getByRole('dialog', { name: 'Confirm the changes' });
  await confirmFare.getByRole('button', { name: 'Confirm' }).click();
  await expect(confirmFare).toHaveCount(0);
  await expect(row).toContainText('£7.50');
  await page.screenshot({ path: 'screenshots/cartypes-1280.png', animations: 'disabled' });
  const stored = ((await (await request.get('/api/cartypes')).json()).cartypes as { name: string; base_fare: number; image: string; cancelSlab: unknown[] }[]).find((type) => type.name === 'Van');
  expect(stored).toMatchObject({ base_fare: 7.5, cancelSlab: [{ minsDelayed: 5, amount: 4 }] });
  expect(stored?.image).not.toBe('');

  // A rider's booking form lists it with its image.
  const riderPage = await (await browser.newContext()).newPage();
  await signIn(riderPage, 'rider1@rideway.demo');
  await riderPage.getByRole('combobox', { name: 'Vehicle type' }).click();
  await expect(riderPage.getByRole('option', { name: 'Van' }).locator('img')).toBeVisible();
  await riderPage.close();

  // Search narrows the table; delete asks first.
  await page.getByRole('searchbox').fill('van');
  await expect(page.getByRole('row')).toHaveCount(2);
  await row.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete' }).getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);
  const names = ((await (await request.get('/api/cartypes')).json()).cartypes as { name: string }[]).map((type) => type.name);
  expect(names).not.toContain('Van');
});

test('an admin adds, renames and deletes a cancellation reason; a refused name keeps the stored one', async ({ page, request }) => {
  await signIn(page, 'admin@rideway.demo');
  await page.goto('/cancelreasons');
  await expect(page.getByRole('gridcell', { name: 'Changed my plans' })).toBeVisible();
  await page.getByRole('button', { name: 'Add' }).click();
  await page.getByRole('dialog', { name: 'Add' }).getByLabel('Reason').fill('Wrong pickup point');
  await page.getByRole('dialog', { name: 'Add' }).getByRole('button', { name: 'Save' }).click();
  const row = page.getByRole('row').filter({ hasText: 'Wrong pickup point' });
  await expect(row).toContainText('5');
  // Renamed in the row's dialog and confirmed (issue 17).
  const rename = async (from: string, to: string) => {
    await page.getByRole('row').filter({ hasText: from }).getByRole('menuitem', { name: 'Edit' }).click();
    await page.getByRole('dialog', { name: 'Edit' }).getByLabel('Reason').fill(to);
    await page.getByRole('dialog', { name: 'Edit' }).getByRole('button', { name: 'Save' }).click();
    await page.getByRole('dialog', { name: 'Confirm the changes' }).getByRole('button', { name: 'Confirm' }).click();
  };
  await rename('Wrong pickup point', 'Pickup point was wrong');
  await expect(page.getByRole('gridcell', { name: 'Pickup point was wrong' })).toBeVisible();
  // A blank name is refused: the key on the field (issue 17), and the table keeps what is stored.
  await rename('Pickup point was wrong', '');
  // The refused edit's dialog returns to its fields with what was typed; Cancel leaves it.
  await expect(page.getByRole('dialog', { name: 'Edit' }).getByLabel('Reason')).toHaveAccessibleDescription('The request is not valid.');
  await page.getByRole('dialog', { name: 'Edit' }).getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('gridcell', { name: 'Pickup point was wrong' })).toBeVisible();
  await page.screenshot({ path: 'screenshots/cancelreasons-1280.png', animations: 'disabled' });
  const admin = await apiSignIn(request, 'admin@rideway.demo');
  const labels = async () => ((await (await request.get('/api/cancel-reasons', { headers: admin })).json()).reasons as { label: string }[]).map((reason) => reason.label);
  expect(await labels()).toContain('Pickup point was wrong');
  await page.getByRole('row').filter({ hasText: 'Pickup point was wrong' }).getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('gridcell', { name: 'Pickup point was wrong' })).toHaveCount(0);
  expect(await labels()).not.toContain('Pickup point was wrong');
});

test('a rider opening /cartypes is sent to /login', async ({ page }) => {
  await signIn(page, 'rider1@rideway.demo');
  await page.goto('/cartypes');
  await expect(page).toHaveURL(/\/login\?next=%2Fcartypes$/);
});
