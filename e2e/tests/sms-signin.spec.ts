import { expect, test } from '@playwright/test';
import { startTwilioStandIn, type TwilioStandIn } from '../../apps/server/test/stand-ins/twilio';
import { startPlatform } from '../support/platform';
import { SMS_PORT } from '../support/ports';
import { apiSignIn } from '../support/session';

/**
 * Issue 19: phone sign-in end to end, on a platform of its own whose SMS go through Twilio's
 * official SDK pointed at a local Twilio stand-in (TWILIO_API_URL). The code the stand-in
 * received is the one typed into the app, and it signs the rider in.
 */
const origin = `http://127.0.0.1:${String(SMS_PORT)}`;
test.use({ baseURL: origin });
test.describe.configure({ mode: 'serial' });

let twilio: TwilioStandIn;
let platform: { stop: () => void } | undefined;

test.beforeAll(async ({ request }) => {
  // A platform of its own starts (migrations, demo data) in this hook.
  test.setTimeout(120_000);
  twilio = await startTwilioStandIn();
  platform = await startPlatform(SMS_PORT, { TWILIO_ACCOUNT_SID: twilio.accountSid, TWILIO_AUTH_TOKEN: twilio.authToken, TWILIO_FROM: '+15005550006', TWILIO_API_URL: twilio.url, PUBLIC_URL: origin });
  const admin = await apiSignIn(request, 'admin@rideway.demo');
  expect((await request.patch(`${origin}/api/settings`, { headers: admin, data: { MobileLoginEnabled: true } })).status()).toBe(200);
});

test.afterAll(async () => {
  platform?.stop();
  await twilio.close();
});

/** Waits for the SMS Twilio accepted for this number after `since` messages, and reads the code in it. */
async function codeSentTo(to: string, since: number): Promise<string> {
  let body = '';
  await expect.poll(() => {
    body = twilio.accepted.slice(since).find((message) => message.to === to)?.body ?? '';
    return body;
  }, { timeout: 15_000 }).toMatch(/\d{6}/);
  return /\d{6}/.exec(body)?.[0] ?? '';
}

for (const [width, rider, national] of [[1280, 'Rita', '70000201'], [375, 'Ravi', '70000202']] as const) {
  test(`a rider signs in with the code Twilio delivered by SMS (${String(width)} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: width === 375 ? 740 : 800 });
    await page.goto('/login');
    await page.getByRole('tab', { name: 'Mobile number' }).click();
    await page.getByLabel('Mobile number').fill(national);
    const since = twilio.accepted.length;
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(page.getByLabel('Verification code')).toBeVisible();
    // The server's relay hands the outbox row to Twilio's SDK; the stand-in got it in E.164, from our sender.
    const code = await codeSentTo(`+44${national}`, since);
    const message = twilio.accepted.slice(since).find((m) => m.to === `+44${national}`);
    expect(message).toMatchObject({ from: '+15005550006', messagingServiceSid: null });
    expect(message?.body).toContain(`code is ${code}`);
    await page.getByLabel('Verification code').fill(code);
    await page.screenshot({ path: `/tmp/sms-shots/signin-code-${String(width)}.png`, animations: 'disabled' });
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).not.toHaveURL(/\/login/);
    const me = await page.evaluate(async () => (await fetch('/api/me')).json() as Promise<{ user?: { firstName: string }; firstName?: string }>);
    expect(me.user?.firstName ?? me.firstName).toBe(rider);
    await page.screenshot({ path: `/tmp/sms-shots/signed-in-${String(width)}.png`, animations: 'disabled' });
  });
}

test('a code other than the one Twilio delivered does not sign in', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('tab', { name: 'Mobile number' }).click();
  await page.getByLabel('Mobile number').fill('70000201');
  const since = twilio.accepted.length;
  await page.getByRole('button', { name: 'Send code' }).click();
  const code = await codeSentTo('+4470000201', since);
  const wrong = code === '000000' ? '111111' : '000000';
  await page.getByLabel('Verification code').fill(wrong);
  await page.getByRole('button', { name: 'Verify' }).click();
  // Refused on the code field; the rider stays signed out on the login page.
  await expect(page.getByLabel('Verification code')).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/\/login/);
  expect((await page.request.get('/api/me')).status()).toBe(401);
});
