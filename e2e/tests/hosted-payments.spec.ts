import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { startFlutterwave, type FlutterwaveStandIn } from '../../apps/server/test/stand-ins/flutterwave';
import { startPaystack, type PaystackStandIn } from '../../apps/server/test/stand-ins/paystack';
import { startPlatform } from '../support/platform';
import { HOSTED_PAYMENTS_PORT } from '../support/ports';
import { apiSignIn, signIn } from '../support/session';
import { pendingCardTrip } from '../support/trips';

/**
 * Issue 22's browser test: one test, parametrised over the providers whose checkout is a hosted
 * page (the local stand-in's), the embedded test provider included. On a platform of its own with
 * every such provider configured against its stand-in, a rider pays one card trip through each
 * provider's page and comes back to the booking paid.
 */
const origin = `http://127.0.0.1:${String(HOSTED_PAYMENTS_PORT)}`;
test.use({ baseURL: origin });

let paystack: PaystackStandIn;
let flutterwave: FlutterwaveStandIn;
let platform: { stop: () => void } | undefined;

test.beforeAll(async () => {
  paystack = await startPaystack();
  flutterwave = await startFlutterwave();
  platform = await startPlatform(HOSTED_PAYMENTS_PORT, {
    PAYSTACK_SECRET_KEY: paystack.secretKey,
    PAYSTACK_API_URL: paystack.url,
    FLUTTERWAVE_SECRET_KEY: flutterwave.secretKey,
    FLUTTERWAVE_SECRET_HASH: flutterwave.secretHash,
    FLUTTERWAVE_API_URL: flutterwave.url,
    PAYMENT_TIMEOUT_MS: '5000',
    PUBLIC_URL: origin,
  });
});

test.afterAll(async () => {
  platform?.stop();
  await paystack.close();
  await flutterwave.close();
});

type HostedProvider = {
  name: string;
  label: string;
  /** A settings currency the provider takes (the demo's GBP is not one of Paystack's). */
  currency: { code: string; symbol: string };
  /** Pays on the provider's page; the browser is sent back to the platform. */
  pay: (page: Page, amount: string) => Promise<void>;
  /** What the provider recorded for this booking's payment. */
  check?: (bookingId: string, amount: string) => void;
};

const shot = (provider: string, name: string) => `screenshots/hosted-${provider}-${name}-1280.png`;

const PROVIDERS: HostedProvider[] = [
  {
    name: 'test',
    label: 'Test provider',
    currency: { code: 'USD', symbol: '$' },
    pay: async (page, amount) => {
      await expect(page.getByRole('heading', { name: 'Test checkout' })).toBeVisible();
      await expect(page.locator('.amount')).toHaveText(`${amount} USD`);
      await page.screenshot({ path: shot('test', 'page'), animations: 'disabled' });
      await page.getByRole('button', { name: 'Pay' }).click();
      await expect(page.locator('#payment-result')).toHaveText('Payment received');
      await page.getByRole('link', { name: 'Back to your bookings' }).click();
    },
  },
  {
    name: 'paystack',
    label: 'Paystack',
    currency: { code: 'USD', symbol: '$' },
    pay: async (page, amount) => {
      await page.waitForURL(`${paystack.url}/checkout/*`);
      await expect(page.locator('#total')).toHaveText(`USD ${amount}`);
      await page.screenshot({ path: shot('paystack', 'page'), animations: 'disabled' });
      await page.getByRole('button', { name: `Pay USD ${amount}` }).click();
    },
    check: (bookingId, amount) => {
      const paid = [...paystack.transactions.values()].filter((transaction) => (transaction.metadata as { rideway_reference?: string } | null)?.rideway_reference === bookingId);
      expect(paid.map((transaction) => [transaction.status, transaction.amount, transaction.currency])).toEqual([['success', Math.round(Number(amount) * 100), 'USD']]);
    },
  },
  {
    name: 'flutterwave',
    label: 'Flutterwave',
    currency: { code: 'USD', symbol: '$' },
    pay: async (page, amount) => {
      // Flutterwave takes the amount as a JSON number in dollars: 12.5, not 12.50.
      const total = `USD ${String(Number(amount))}`;
      await page.waitForURL(`${flutterwave.url}/v3/hosted/pay/*`);
      await expect(page.locator('#total')).toHaveText(total);
      await page.screenshot({ path: shot('flutterwave', 'page'), animations: 'disabled' });
      await page.getByRole('button', { name: `Pay ${total}` }).click();
    },
    check: (bookingId, amount) => {
      const taken = [...flutterwave.transactions.values()].filter((transaction) => (transaction.meta as { rideway_reference?: string } | null)?.rideway_reference === bookingId);
      expect(taken.map((transaction) => [transaction.status, transaction.amount, transaction.currency])).toEqual([['successful', Number(amount), 'USD']]);
    },
  },
];

async function useCurrency(request: APIRequestContext, currency: { code: string; symbol: string }) {
  const admin = await apiSignIn(request, 'admin@rideway.demo');
  const saved = await request.patch('/api/settings', { headers: admin, data: currency });
  expect(saved.status(), await saved.text()).toBe(200);
}

for (const provider of PROVIDERS) {
  test(`a rider pays a card trip through ${provider.label}'s hosted page and comes back paid`, async ({ page, request }) => {
    await useCurrency(request, provider.currency);
    const booking = await pendingCardTrip(request, 'rider1@rideway.demo');
    expect(booking.status).toBe('PENDING');
    const amount = booking.customer_paid.toFixed(2);
    await signIn(page, 'rider1@rideway.demo');

    await page.goto('/bookings');
    const card = page.locator(`[data-booking="${booking.id}"]`);
    await expect(card).toContainText('Payment due');
    await card.getByRole('button', { name: 'Pay now' }).click();
    const chooser = page.getByRole('dialog', { name: 'Choose how to pay' });
    await chooser.getByRole('button', { name: `Pay with ${provider.label}` }).click();

    await provider.pay(page, amount);

    if (provider.name === 'test') {
      await expect(page).toHaveURL(`${origin}/bookings`);
      await expect(page.locator(`[data-booking="${booking.id}"]`)).toContainText('Paid');
    } else {
      await page.waitForURL(`${origin}/bookings/${booking.id}?payment=paid`);
      await expect(page.getByRole('alert').filter({ hasText: 'Payment received. Thank you!' })).toBeVisible();
    }
    await page.screenshot({ path: shot(provider.name, 'paid'), animations: 'disabled', fullPage: true });

    const paid = await (await request.get(`/api/bookings/${booking.id}`, { headers: await apiSignIn(request, 'rider1@rideway.demo') })).json();
    expect(paid).toMatchObject({ status: 'PAID', payment_mode: 'card' });
    provider.check?.(booking.id, amount);
  });
}

test("the admins' payments page says which configured provider cannot take the settings currency", async ({ page, request }) => {
  // The demo's GBP: Flutterwave takes it, Paystack does not.
  await useCurrency(request, { code: 'GBP', symbol: '£' });
  const listed = await (await request.get('/get_providers')).json();
  expect(listed.map((provider: { name: string }) => provider.name)).toEqual(expect.arrayContaining(['test', 'flutterwave']));
  expect(listed.map((provider: { name: string }) => provider.name)).not.toContain('paystack');
  await signIn(page, 'admin@rideway.demo');
  await page.goto('/payments');
  await expect(page.getByTestId('provider-currency-paystack')).toContainText('Paystack does not take GBP');
  await expect(page.getByTestId('provider-currency-flutterwave')).toHaveCount(0);
  await expect(page.getByRole('grid').first()).toContainText('NGN, GHS, ZAR, KES, USD');
  await page.screenshot({ path: 'screenshots/hosted-admin-payments-1280.png', animations: 'disabled', fullPage: true });
});
