import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { apiSignIn, signIn } from '../support/session';

/**
 * Issue 23 point 8 in the browser: an admin changes a setting and credits a wallet, opens the
 * Audit log, searches, finds each change and reads its values before and after in the entry's
 * dialog, at a laptop's width and a phone's, without sideways scrolling and with axe's WCAG 2.1
 * AA rules met. Fleet admins have no such page.
 */
const SHOTS = 'screenshots';
mkdirSync(SHOTS, { recursive: true });
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

async function expectAccessible(page: Page, what: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  const blocking = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(blocking.map(({ id, nodes }) => `${id}: ${nodes.map((node) => node.target.join(' ')).join(' | ')}`), what).toEqual([]);
}

/** Neither the page nor the table scrolls sideways: the columns kept fit the screen. */
async function expectNoSidewaysScroll(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  const grid = page.locator('.MuiDataGrid-root').first();
  expect(await grid.evaluate((root) => (root as HTMLElement).style.getPropertyValue('--DataGrid-hasScrollX').trim()), 'the audit table scrolls sideways').toBe('0');
  const last = await grid.locator('.MuiDataGrid-columnHeader').last().boundingBox();
  expect((last?.x ?? Infinity) + (last?.width ?? 0)).toBeLessThanOrEqual(width);
}

for (const width of [1280, 375] as const) {
  test(`an admin's settings change and wallet credit are in the audit log, found by search, with their values before and after (${String(width)} px)`, async ({ page, request }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: width === 375 ? 740 : 800 });
    const admin = await apiSignIn(request, 'admin@rideway.demo');
    const { settings } = (await (await request.get('/api/settings', { headers: admin })).json()) as { settings: { CompanyName: string } };
    const stamp = String(Date.now()).slice(-6);
    const company = `Audit Co ${stamp}`;
    // A rider of this test's own, so no other test's wallet changes.
    const riderEmail = `audra.${stamp}@example.com`;
    const added = await request.post('/api/users', { headers: admin, data: { firstName: 'Audra', lastName: `Audit${stamp}`, email: riderEmail, mobile: `447${stamp}${String(width).slice(0, 2)}`, usertype: 'rider' } });
    expect(added.status(), await added.text()).toBe(201);
    try {
      await signIn(page, 'admin@rideway.demo');
      // The admin changes a setting in the settings page...
      await page.goto('/settings');
      await page.getByLabel('Company name').fill(company);
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Updated.' })).toBeVisible();
      // ...and credits a rider's wallet.
      await page.goto('/addtowallet');
      await page.getByRole('combobox', { name: 'User' }).fill(`Audit${stamp}`);
      await page.getByRole('option', { name: new RegExp(riderEmail.replaceAll('.', '\\.')) }).click();
      await page.getByLabel('Amount').fill('4.5');
      await page.getByRole('button', { name: 'Add to wallet' }).click();
      const credited = page.getByRole('status').filter({ hasText: 'Wallet credited.' });
      await expect(credited).toBeVisible();
      const balance = Number(/New balance: £([\d,.]+)/.exec((await credited.textContent()) ?? '')?.[1]?.replaceAll(',', ''));

      if (width === 1280) {
        // In the admin menu, after Messages.
        await page.getByRole('navigation').getByRole('link', { name: 'Audit log' }).click();
      } else {
        await page.goto('/audit');
      }
      await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();

      // The settings change: searched by its kind, newest first.
      const search = page.getByRole('searchbox', { name: 'Search name, email, id or action' });
      await search.fill('settings');
      const settingsRow = page.getByRole('row').filter({ has: page.getByRole('button', { name: 'Settings changed' }) }).first();
      await expect(settingsRow).toBeVisible();
      await expect(settingsRow).toContainText('Ada Admin');
      if (width === 1280) await expect(settingsRow).toContainText('CompanyName');
      await expectNoSidewaysScroll(page, width);
      await page.screenshot({ path: `${SHOTS}/audit-log-settings-${String(width)}.png`, animations: 'disabled' });
      await expectAccessible(page, `the audit log at ${String(width)} px`);

      await settingsRow.getByRole('button', { name: 'Settings changed' }).click();
      const dialog = page.getByRole('dialog', { name: 'Settings changed' });
      // A table at 1280 px, a list at 375 px: each field's line carries its values by side.
      const companyLine = dialog.locator('[data-field="CompanyName"]');
      await expect(companyLine.locator('[data-side="before"]')).toHaveText(settings.CompanyName || '(none)');
      await expect(companyLine.locator('[data-side="after"]')).toHaveText(company);
      await expect(dialog).toContainText('Ada Admin');
      await page.screenshot({ path: `${SHOTS}/audit-log-settings-dialog-${String(width)}.png`, animations: 'disabled' });
      await expectAccessible(page, `the entry dialog at ${String(width)} px`);
      await dialog.getByRole('button', { name: 'Close' }).click();
      await expect(dialog).toHaveCount(0);

      // The wallet credit: searched by the rider's name, and narrowed to wallet credits.
      await search.fill(`Audra Audit${stamp}`);
      await page.getByRole('combobox', { name: 'Action' }).click();
      await page.getByRole('option', { name: 'Wallet credited' }).click();
      const creditRow = page.getByRole('row').filter({ has: page.getByRole('button', { name: 'Wallet credited' }) }).first();
      await expect(creditRow).toBeVisible();
      await expectNoSidewaysScroll(page, width);
      await page.screenshot({ path: `${SHOTS}/audit-log-wallet-${String(width)}.png`, animations: 'disabled' });
      await creditRow.getByRole('button', { name: 'Wallet credited' }).click();
      const credit = page.getByRole('dialog', { name: 'Wallet credited' });
      const walletLine = credit.locator('[data-field="walletBalance"]');
      await expect(walletLine.locator('[data-side="after"]')).toHaveText(String(balance));
      await expect(walletLine.locator('[data-side="before"]')).toHaveText(String(Math.round((balance - 4.5) * 100) / 100));
      await expect(credit.locator('[data-field="amount"] [data-side="after"]')).toHaveText('4.5');
      await page.screenshot({ path: `${SHOTS}/audit-log-wallet-dialog-${String(width)}.png`, animations: 'disabled' });
    } finally {
      await request.patch('/api/settings', { headers: admin, data: { CompanyName: settings.CompanyName } });
    }
  });
}

test('fleet admins neither see nor open the audit log', async ({ page, request }) => {
  const fleet = await apiSignIn(request, 'fleet@rideway.demo');
  expect((await request.get('/api/audit', { headers: fleet })).status()).toBe(403);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, 'fleet@rideway.demo');
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Driver earnings' })).toBeVisible();
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Audit log' })).toHaveCount(0);
  await page.goto('/audit');
  await expect(page).not.toHaveURL(/\/audit$/);
});
