import { expect, test } from '@playwright/test';
import { signIn } from '../support/session';

/**
 * Issue 15, point 6 in the browser: when the session ends on the server (here a logout from
 * another tab of the same browser), the server closes the live socket with 4401 and the open
 * page signs out instead of reconnecting with a dead session and showing stale data.
 */
test('a page whose session ended elsewhere signs out and stops reconnecting', async ({ page }) => {
  const stamp = String(Date.now()).slice(-6);
  const email = `ended.${stamp}@example.com`;
  const registered = await page.request.post('/api/auth/register', { data: { firstName: 'Ena', lastName: 'Ended', email, mobile: `556${stamp}`, password: 'pass123' } });
  expect(registered.status()).toBe(201);
  const sockets: string[] = [];
  page.on('websocket', (socket) => { sockets.push(socket.url()); });

  await signIn(page, email, 'pass123');
  await page.goto('/bookings');
  await expect.poll(() => sockets.length).toBe(1);

  // Another tab signs out: it shares this page's cookie.
  expect((await page.request.post('/api/auth/logout')).status()).toBeLessThan(300);
  await expect(page).toHaveURL(/\/login/);
  await page.screenshot({ path: 'test-results/session-ended-1280.png', animations: 'disabled' });
  // No reconnect with the ended session: the live client waited for a new sign-in.
  await page.waitForTimeout(1500);
  expect(sockets).toHaveLength(1);
});
