import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiSignIn, signIn } from '../support/session';

/**
 * Issue 19 points 4 and 7: the admin's Push notifications page counts the devices of each kind a
 * notification goes to (browsers, FCM phones, Expo apps), and a rider who turns promotions off on
 * the profile drops out of it. This server runs the offline default (no FCM, Expo off): the
 * devices are addressed and counted, nothing leaves the machine; delivery through FCM and Expo is
 * shown at their stand-ins in apps/server/test/live/phone-push.test.ts.
 */

const RIDER = 'rider1@rideway.demo';
const SHOTS = '/tmp/pushphone-shots';
type Counts = { webpush: number; fcm: number; expo: number };
type Sent = { id: string; title: string; recipients: number; devices: Counts; delivered: Counts };

const promotionsOf = async (request: APIRequestContext, headers: Record<string, string>) =>
  ((await (await request.get('/api/me/notification-preferences', { headers })).json()) as { preferences: { promotions: boolean } }).preferences.promotions;

async function compose(page: Page, title: string): Promise<void> {
  await page.getByRole('button', { name: 'Send notification' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send notification' });
  await dialog.getByLabel('Audience').click();
  await page.getByRole('option', { name: 'Riders' }).click();
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Message').fill('A free upgrade on your next ride.');
  await dialog.getByRole('button', { name: 'Send' }).click();
}

for (const width of [1280, 375]) {
  test(`the admin's notification counts each kind of device; a rider turns promotions off and on from the profile (${String(width)} px)`, async ({ page, request }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: 800 });
    const stamp = `${String(width)}-${String(Date.now())}`;
    const rider = await apiSignIn(request, RIDER);
    const other = await apiSignIn(request, 'rider2@rideway.demo');
    const admin = await apiSignIn(request, 'admin@rideway.demo');
    // Whatever an earlier run left, this rider takes promotions now.
    await request.put('/api/me/notification-preferences', { headers: rider, data: { promotions: true } });
    // The rider's phones: an Android and an iPhone by FCM, and the Expo app; another rider's phone.
    const phones = [{ kind: 'fcm', token: `e2e-reach-android-${stamp}` }, { kind: 'apns', token: `e2e-reach-iphone-${stamp}` }, { kind: 'expo', token: `ExponentPushToken[e2e-reach-${stamp}]`, platform: 'ANDROID' }];
    const otherPhone = { kind: 'fcm', token: `e2e-reach-other-${stamp}` };
    for (const data of phones) expect((await request.post('/api/push/subscriptions', { headers: rider, data })).status()).toBe(201);
    expect((await request.post('/api/push/subscriptions', { headers: other, data: otherPhone })).status()).toBe(201);
    try {

      await signIn(page, 'admin@rideway.demo');
      await page.goto('/notifications');
      await expect(page.getByRole('heading', { name: 'Push notifications' })).toBeVisible();
      const first = `Upgrade week ${stamp}`;
      await compose(page, first);
      const alert = page.getByRole('dialog', { name: 'Alert' });
      await expect(alert).toContainText(/Notification sent\. Recipients: \d+ \(devices: \d+ browsers, \d+ FCM phones, \d+ Expo apps\)/);
      const listed = async () => ((await (await request.get('/api/notifications', { headers: admin })).json()) as { notifications: Sent[] }).notifications;
      const sent = (await listed()).find((entry) => entry.title === first);
      if (!sent) throw new Error('the notification is not in the list');
      expect(sent.devices.fcm).toBeGreaterThanOrEqual(2);
      expect(sent.devices.expo).toBeGreaterThanOrEqual(1);
      await expect(alert).toContainText(`Recipients: ${String(sent.recipients)} (devices: ${String(sent.devices.webpush)} browsers, ${String(sent.devices.fcm)} FCM phones, ${String(sent.devices.expo)} Expo apps)`);
      await page.screenshot({ path: `${SHOTS}/admin-sent-${String(width)}.png` });
      await alert.getByRole('button', { name: 'Close' }).click();
      await expect(page.getByRole('row').filter({ hasText: first })).toBeVisible();
      // The grid draws only the columns in view: scroll it to the counts (at 375 px they are off to
      // the side, and the title with them), and find the row by the notification's id.
      const row = page.locator(`[role="row"][data-id="${sent.id}"]`);
      await page.locator('.MuiDataGrid-virtualScroller').evaluate((grid) => { grid.scrollLeft = grid.scrollWidth; });
      await expect(row.locator('[data-field="devices"]')).toHaveText(`Web ${String(sent.devices.webpush)} · FCM ${String(sent.devices.fcm)} · Expo ${String(sent.devices.expo)}`);
      await expect(row.locator('[data-field="delivered"]')).toHaveText(/^Web \d+ · FCM \d+ · Expo \d+$/);
      await row.locator('[data-field="devices"]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/admin-list-${String(width)}.png` });

      // The rider turns promotions off on the profile.
      await page.context().clearCookies();
      await signIn(page, RIDER);
      await page.goto('/profile');
      const toggle = page.getByRole('switch', { name: 'Offers and announcements' });
      await expect(toggle).toBeChecked();
      await expect(page.getByText('Trip notices always reach you.')).toBeVisible();
      await toggle.click();
      await expect(page.getByText('You will no longer get offers and announcements.')).toBeVisible();
      await expect(toggle).not.toBeChecked();
      expect(await promotionsOf(request, rider)).toBe(false);
      await toggle.evaluate((element) => { element.scrollIntoView({ block: 'center' }); });
      await page.screenshot({ path: `${SHOTS}/profile-off-${String(width)}.png` });
      // Still off after a reload: it is stored on the user.
      await page.reload();
      await expect(page.getByRole('switch', { name: 'Offers and announcements' })).not.toBeChecked();

      // The admin's next notification to riders leaves the rider's three phones out.
      const second = `Quiet check ${stamp}`;
      const answer = await request.post('/api/notifications', { headers: admin, data: { usertype: 'rider', devicetype: 'All', title: second, body: 'Not for rider1' } });
      expect(answer.status()).toBe(201);
      const without = ((await answer.json()) as { notification: Sent }).notification;
      expect(without.devices.fcm).toBe(sent.devices.fcm - 2);
      expect(without.devices.expo).toBe(sent.devices.expo - 1);

      // And back on.
      await page.getByRole('switch', { name: 'Offers and announcements' }).click();
      await expect(page.getByText('You will get offers and announcements.')).toBeVisible();
      await expect(page.getByRole('switch', { name: 'Offers and announcements' })).toBeChecked();
      expect(await promotionsOf(request, rider)).toBe(true);
    } finally {
      // Leave no phones, and promotions on, for the specs after this one.
      await request.put('/api/me/notification-preferences', { headers: rider, data: { promotions: true } });
      for (const { token } of phones) await request.delete('/api/push/subscriptions', { headers: rider, data: { token } });
      await request.delete('/api/push/subscriptions', { headers: other, data: { token: otherPhone.token } });
    }
  });
}
