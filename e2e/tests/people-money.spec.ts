import { expect, test } from '@playwright/test';
import { apiSignIn, signIn } from '../support/session';

/** Issue 7, sections 2, 3 and 6: users, wallets and withdraws from the console. */
test('a fleet admin sees only its drivers and adds one, who joins its fleet', async ({ page, request }) => {
  await signIn(page, 'fleet@rideway.demo');
  await page.getByRole('navigation').getByRole('link', { name: 'Drivers' }).click();
  await expect(page).toHaveURL(/\/drivers$/);
  const rows = page.getByRole('row').filter({ has: page.getByRole('gridcell') });
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'Dan' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Dora' })).toHaveCount(1);
  await page.getByRole('button', { name: 'Add user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add user' });
  const stamp = Date.now();
  await dialog.getByLabel('First name').fill('Fred');
  await dialog.getByLabel('Last name').fill('Fleetwood');
  await dialog.getByLabel('Email').fill(`fred.${stamp}@example.com`);
  await dialog.getByLabel('Mobile number').fill(`77${String(stamp).slice(-8)}`);
  await dialog.getByLabel('Vehicle type').click();
  await page.getByRole('option', { name: 'Comfort' }).click();
  await dialog.getByLabel('Vehicle number').fill('LF24 FLT');
  await page.screenshot({ path: 'screenshots/drivers-add-1280.png', animations: 'disabled' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: 'Fleetwood' })).toContainText('LF24 FLT');
  await page.screenshot({ path: 'screenshots/drivers-fleet-1280.png', animations: 'disabled' });
  const fleet = await apiSignIn(request, 'fleet@rideway.demo');
  const me = (await (await request.get('/api/me', { headers: fleet })).json()).user as { id: string };
  const listed = (await (await request.get('/api/users', { headers: fleet })).json()).users as { lastName: string; fleetadmin: string; usertype: string }[];
  expect(listed.find((user) => user.lastName === 'Fleetwood')).toMatchObject({ usertype: 'driver', fleetadmin: me.id });
});

test('an admin credits a wallet and the user sees it in their wallet', async ({ page, browser }) => {
  await signIn(page, 'admin@rideway.demo');
  await page.goto('/addtowallet');
  // Section 5: a user and an amount above 0, else no_details_error.
  await page.getByRole('button', { name: 'Add to wallet' }).click();
  await expect(page.getByRole('combobox', { name: 'User' })).toHaveAttribute('aria-invalid', 'true');
  const rider = await (await browser.newContext()).newPage();
  await signIn(rider, 'rider2@rideway.demo');
  await rider.goto('/profile');
  await expect(rider.getByTestId('wallet-balance')).toHaveText(/^£[\d,]+\.\d{2}$/);
  const before = Number((await rider.getByTestId('wallet-balance').textContent())?.replace(/[^\d.]/g, ''));
  await page.getByRole('combobox', { name: 'User' }).fill('rider2');
  await page.getByRole('option', { name: /rider2@rideway\.demo/ }).click();
  await page.getByLabel('Amount').fill('25');
  await page.getByRole('button', { name: 'Add to wallet' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Wallet credited. New balance: £${(before + 25).toFixed(2)}` })).toBeVisible();
  await page.screenshot({ path: 'screenshots/addtowallet-1280.png', animations: 'disabled' });
  // The rider's wallet shows it live, with the entry.
  await expect(rider.getByTestId('wallet-balance')).toHaveText(`£${(before + 25).toFixed(2)}`);
  await expect(rider.getByRole('list', { name: 'Wallet history' })).toContainText('+£25.00');
  await rider.screenshot({ path: 'screenshots/profile-wallet-1280.png', fullPage: true, animations: 'disabled' });
});

test('an admin processes a withdraw, and then it cannot be processed again', async ({ page, request }) => {
  const admin = await apiSignIn(request, 'admin@rideway.demo');
  const driver = await apiSignIn(request, 'driver5@rideway.demo');
  const me = (await (await request.get('/api/me', { headers: driver })).json()).user as { id: string };
  expect((await request.post('/api/wallet/credit', { headers: admin, data: { uid: me.id, amount: 40 } })).status()).toBe(200);
  expect((await request.post('/api/withdraws', { headers: driver, data: { amount: 12.5, bankName: 'Demo Bank', bankAccount: '12345678' } })).status()).toBe(201);
  await signIn(page, 'admin@rideway.demo');
  await page.goto('/withdraws');
  const row = page.getByRole('row').filter({ hasText: 'Oscar' }).filter({ hasText: '£12.50' }).first();
  const process = row.getByRole('menuitem', { name: 'Process' });
  await expect(process).toBeEnabled();
  await process.click();
  // Issue 17: a payout is confirmed first.
  const confirm = page.getByRole('dialog', { name: 'Pay out this withdrawal?' });
  await expect(confirm).toContainText('£12.50');
  await confirm.getByRole('button', { name: 'Process' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(process).toBeDisabled();
  await expect(row.getByRole('menuitem', { name: 'Reject' })).toBeDisabled();
  await page.screenshot({ path: 'screenshots/withdraws-1280.png', animations: 'disabled' });
  const listed = (await (await request.get('/api/withdraws', { headers: driver })).json()).withdraws as { amount: number; processed: boolean; procesDate: number | null }[];
  expect(listed.find((withdraw) => withdraw.amount === 12.5)).toMatchObject({ processed: true, procesDate: expect.any(Number) });
});
