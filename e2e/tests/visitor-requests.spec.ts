import { expect, test } from '@playwright/test';

/**
 * Issue 21 point 5: a visitor's pages make no failing request and log no error. The app used to
 * ask GET /api/me, which answers a visitor 401 (an error in every visitor's console); it asks
 * GET /api/session, which answers `{user: null}`.
 */
for (const path of ['/', '/login', '/register', '/about-us']) {
  test(`a visitor's ${path} makes no failing request and logs no error`, async ({ page }) => {
    const failures: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failures.push(`${String(response.status())} ${response.url()}`);
    });
    page.on('requestfailed', (request) => { failures.push(`failed ${request.url()}`); });
    page.on('console', (message) => {
      if (message.type() === 'error') failures.push(`console: ${message.text()}`);
    });
    const session = page.waitForResponse((response) => response.url().endsWith('/api/session'));
    await page.goto(path);
    expect(await (await session).json()).toEqual({ user: null });
    await page.waitForLoadState('networkidle');
    expect(failures).toEqual([]);
  });
}
