import { expect, test } from '@playwright/test';
import { startPaypal, type PaypalStandIn } from '../../apps/server/test/stand-ins/paypal';
import { startPlatform } from '../support/platform';
import { PAYPAL_PORT } from '../support/ports';
import { apiSignIn, signIn } from '../support/session';
import { pendingCardTrip } from '../support/trips';

/**
 * Issue 18's browser test for PayPal, on a platform of its own with PayPal configured against the
 * local PayPal stand-in (its REST API and its hosted approval page): a rider pays a card trip on
 * PayPal's page, comes back paid (the platform captures the approved order) and reads the receipt.
 */
const origin = `http://127.0.0.1:${String(PAYPAL_PORT)}`;
test.use({ baseURL: origin });

const shot = (name: string) => `test-results/paypal-${name}-1280.png`;

let paypal: PaypalStandIn;
let platform: { stop: () => void } | undefined;

test.beforeAll(async () => {
  paypal = await startPaypal();
  platform = await startPlatform(PAYPAL_PORT, {
    PAYPAL_CLIENT_ID: paypal.clientId,
    PAYPAL_CLIENT_SECRET: paypal.clientSecret,
    PAYPAL_WEBHOOK_ID: paypal.webhookId,
    PAYPAL_ENVIRONMENT: 'sandbox',
    PAYPAL_API_URL: paypal.url,
    PUBLIC_URL: origin,
  });
});

test.afterAll(async () => {
  platform?.stop();
  await paypal.close();
});

test('a rider pays a card trip on PayPal\'s hosted approval page, comes back paid and opens the receipt', async ({ page, request }) => {
  const booking = await pendingCardTrip(request, 'rider1@rideway.demo');
  expect(booking.status).toBe('PENDING');
  await signIn(page, 'rider1@rideway.demo');

  await page.goto('/bookings');
  const card = page.locator(`[data-booking="${booking.id}"]`);
  await expect(card).toContainText('Payment due');
  await card.getByRole('button', { name: 'Pay now' }).click();
  const chooser = page.getByRole('dialog', { name: 'Choose how to pay' });
  await chooser.getByRole('button', { name: 'Pay with PayPal' }).click();

  // PayPal's hosted approval page (the stand-in's), for the server's amount.
  await page.waitForURL(`${paypal.url}/checkoutnow?token=*`);
  await expect(page.locator('#total')).toHaveText(`${booking.customer_paid.toFixed(2)} GBP`);
  await page.screenshot({ path: shot('approval'), animations: 'disabled' });
  await page.getByRole('button', { name: 'Pay with PayPal' }).click();

  // Back through the platform's return URL (which captures the approved order) to the booking's page.
  await page.waitForURL(`${origin}/bookings/${booking.id}?payment=paid`);
  await expect(page.getByRole('alert').filter({ hasText: 'Payment received. Thank you!' })).toBeVisible();
  await expect(page.getByTestId('receipt-link')).toBeVisible();
  await page.screenshot({ path: shot('paid'), animations: 'disabled', fullPage: true });

  const riderAuth = await apiSignIn(request, 'rider1@rideway.demo');
  const paid = await (await request.get(`/api/bookings/${booking.id}`, { headers: riderAuth })).json();
  expect(paid).toMatchObject({ status: 'PAID', payment_mode: 'card' });
  // The stand-in's order for this booking was approved and captured once, for the booking's amount.
  const orders = [...paypal.orders.values()].filter((order) => order.status === 'COMPLETED');
  expect(orders).toHaveLength(1);
  expect(orders[0]?.unit.amount).toEqual({ currency_code: 'GBP', value: booking.customer_paid.toFixed(2) });
  expect(paypal.captures.get(orders[0]?.captureIds[0] ?? '')).toMatchObject({ status: 'COMPLETED' });

  const [receipt] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('receipt-link').click()]);
  await expect(receipt.locator('#receipt')).toContainText(`£${booking.customer_paid.toFixed(2)} GBP`);
  await expect(receipt.locator('#receipt')).toContainText('Card (paypal)');
  await receipt.screenshot({ path: shot('receipt'), animations: 'disabled' });
});
