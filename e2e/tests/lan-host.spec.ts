import { chromium, expect, test } from '@playwright/test';
import { PORT } from '../support/ports';

/**
 * Issue 15, point 14: opened over plain http at a network name (a phone on the LAN reaching
 * HOST=0.0.0.0), the app loads and signs in: no upgrade-insecure-requests rewrites its scripts to https.
 * rideway.lan is mapped to 127.0.0.1 inside Chromium.
 */
test('the app loads over plain http at a non-loopback hostname and signs in', async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--host-resolver-rules=MAP rideway.lan 127.0.0.1'],
  });
  try {
    const origin = `http://rideway.lan:${String(PORT)}`;
    const page = await browser.newPage({ baseURL: origin });
    const problems: string[] = [];
    page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
    page.on('pageerror', (error) => { problems.push(error.message); });
    const https: string[] = [];
    page.on('request', (request) => { if (request.url().startsWith('https://rideway.lan')) https.push(request.url()); });

    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Login / Sign up' }).first()).toBeVisible();
    await page.goto('/login');
    await page.getByLabel('Email').fill('admin@rideway.demo');
    await page.getByLabel('Password').fill('demo123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(`${origin}/dashboard`);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await page.screenshot({ path: 'test-results/lan-host-dashboard-1280.png', animations: 'disabled' });
    expect(https).toEqual([]);
    expect(problems.filter((text) => /content security policy|mixed content|err_ssl|https/i.test(text))).toEqual([]);
  } finally {
    await browser.close();
  }
});
