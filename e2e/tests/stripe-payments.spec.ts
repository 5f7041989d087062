import { expect, test, type Page } from '@playwright/test';
import { startStripe, type StripeStandIn } from '../../apps/server/test/stand-ins/stripe';
import { startPlatform } from '../support/platform';
import { STRIPE_PORT } from '../support/ports';
import { apiSignIn, signIn } from '../support/session';
import { pendingCardTrip } from '../support/trips';

/**
 * Issue 18's browser tests, on a platform of its own with Stripe configured against the local
 * Stripe stand-in (its hosted Checkout page, its API, and its signed webhooks posted to the
 * platform): a rider pays on Stripe's page and reads the receipt, an admin refunds part of that
 * trip, and a rider's saved card pays a later trip at the end with no action.
 */
const origin = `http://127.0.0.1:${String(STRIPE_PORT)}`;
test.use({ baseURL: origin });
test.describe.configure({ mode: 'serial' });

const shot = (name: string) => `test-results/stripe-${name}-1280.png`;

let stripe: StripeStandIn;
let platform: { stop: () => void } | undefined;
/** The trip the rider paid in the first test and the admin refunds in the second. */
let paidTrip: { id: string; customer_paid: number } | undefined;

test.beforeAll(async () => {
  stripe = await startStripe();
  stripe.webhookUrl = `${origin}/api/payments/stripe/webhook`;
  platform = await startPlatform(STRIPE_PORT, { STRIPE_SECRET_KEY: stripe.key, STRIPE_WEBHOOK_SECRET: stripe.webhookSecret, STRIPE_API_URL: stripe.url, PUBLIC_URL: origin });
});

test.afterAll(async () => {
  platform?.stop();
  await stripe.close();
});

/** From the rider's bookings: Pay now, Stripe (optionally keeping the card), Stripe's page with the success card, and back. */
async function payWithStripe(page: Page, booking: { id: string; customer_paid: number }, name: string, saveCard = false): Promise<void> {
  await page.goto('/bookings');
  const card = page.locator(`[data-booking="${booking.id}"]`);
  await expect(card).toContainText('Payment due');
  await card.getByRole('button', { name: 'Pay now' }).click();
  const chooser = page.getByRole('dialog', { name: 'Choose how to pay' });
  await expect(chooser.getByRole('button', { name: 'Pay with Stripe' })).toBeVisible();
  if (saveCard) await chooser.getByRole('checkbox', { name: 'Save this card for later trips' }).check();
  await page.screenshot({ path: shot(`${name}-chooser`), animations: 'disabled' });
  await chooser.getByRole('button', { name: 'Pay with Stripe' }).click();
  // Stripe Checkout's hosted page (the stand-in's), for the server's amount in cents.
  await page.waitForURL(`${stripe.url}/c/pay/**`);
  await expect(page.locator('#amount')).toHaveText(`${String(Math.round(booking.customer_paid * 100))} GBP`);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.screenshot({ path: shot(`${name}-hosted`), animations: 'disabled' });
  await page.getByRole('button', { name: 'Pay' }).click();
  // Back through the platform's return URL to the booking's page, paid by the signed webhook.
  await page.waitForURL(`${origin}/bookings/${booking.id}?payment=paid`);
  await expect(page.getByRole('alert').filter({ hasText: 'Payment received. Thank you!' })).toBeVisible();
}

test('a rider pays a card trip on Stripe\'s hosted checkout, comes back paid and opens the receipt', async ({ page, request }) => {
  const booking = await pendingCardTrip(request, 'rider1@rideway.demo');
  expect(booking.status).toBe('PENDING');
  await signIn(page, 'rider1@rideway.demo');
  await payWithStripe(page, booking, 'pay');
  await expect(page.getByTestId('receipt-link')).toBeVisible();
  await page.screenshot({ path: shot('paid'), animations: 'disabled', fullPage: true });

  const paid = await (await request.get(`/api/bookings/${booking.id}`, { headers: await apiSignIn(request, 'rider1@rideway.demo') })).json();
  expect(paid).toMatchObject({ status: 'PAID', payment_mode: 'card' });
  // The stand-in's session for this booking was paid for the booking's amount.
  const created = stripe.requests.find((seen) => seen.method === 'POST' && seen.path === '/v1/checkout/sessions' && seen.form.get('client_reference_id') === booking.id);
  expect(created?.form.get('line_items[0][price_data][unit_amount]')).toBe(String(Math.round(booking.customer_paid * 100)));

  const [receipt] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('receipt-link').click()]);
  await expect(receipt.locator('#receipt')).toContainText(`£${booking.customer_paid.toFixed(2)} GBP`);
  await expect(receipt.locator('#receipt')).toContainText('Card (stripe)');
  await expect(receipt.locator('body')).toContainText('Rideway Demo Ltd');
  await receipt.screenshot({ path: shot('receipt'), animations: 'disabled' });
  paidTrip = booking;
});

test('the admin refunds part of that trip with a reason; Stripe refunds that amount', async ({ page, request }) => {
  test.skip(!paidTrip, 'needs the trip paid in the previous test');
  const trip = paidTrip!;
  const part = 2.5;
  expect(trip.customer_paid).toBeGreaterThan(part);
  const admin = await apiSignIn(request, 'admin@rideway.demo');
  // Tall enough for the whole booking page: no scrolling, so the screenshots show it as it is.
  await page.setViewportSize({ width: 1280, height: 1100 });
  await signIn(page, 'admin@rideway.demo');
  await page.goto(`/bookings/${trip.id}`);
  await page.getByLabel('Amount to refund').fill(part.toFixed(2));
  await page.getByLabel('Reason').fill('Detour on a closed road');
  await page.screenshot({ path: shot('refund-form'), animations: 'disabled' });
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(page.getByText('Refund requested.')).toBeVisible();
  const refunds = page.getByRole('list', { name: 'Refunds' });
  await expect(refunds.getByRole('listitem')).toHaveCount(1);
  await expect(refunds).toContainText('£2.50');
  await expect(refunds).toContainText('Detour on a closed road');
  await page.screenshot({ path: shot('refund-requested'), animations: 'disabled' });

  // The refund job asks Stripe after the commit: one refund of 250 cents on the trip's payment intent.
  const asked = () => stripe.requests.filter((seen) => seen.method === 'POST' && seen.path === '/v1/refunds');
  await expect.poll(() => asked().length, { timeout: 15_000 }).toBe(1);
  expect(asked()[0]?.form.get('amount')).toBe('250');
  const intent = stripe.paymentIntent(asked()[0]?.form.get('payment_intent') ?? '');
  expect(intent?.metadata).toMatchObject({ booking_id: trip.id });
  expect(stripe.charge(String(intent?.latest_charge))).toMatchObject({ amount_refunded: 250, refunded: false });
  // Stripe's answer is recorded: the refund is confirmed, and the open page lists it so by itself.
  await expect.poll(async () => (await (await request.get(`/api/bookings/${trip.id}/payments`, { headers: admin })).json()).refunds, { timeout: 15_000 })
    .toEqual([expect.objectContaining({ amount: part, status: 'succeeded', reason: 'Detour on a closed road', provider: 'stripe' })]);
  await expect(refunds).toContainText('refunded');
  await expect(refunds.getByRole('listitem')).toHaveCount(1);
  await page.screenshot({ path: shot('refunded'), animations: 'disabled' });
  // The receipt shows the refund since.
  const receipt = await (await request.get(`/api/bookings/${trip.id}/receipt`, { headers: admin })).text();
  expect(receipt).toContain('-£2.50 GBP');
});

test('a rider saves a card while paying, and a later card trip is charged to it at the end with no action', async ({ page, request }) => {
  const first = await pendingCardTrip(request, 'rider2@rideway.demo');
  await signIn(page, 'rider2@rideway.demo');
  await payWithStripe(page, first, 'save-card', true);
  await page.goto('/profile');
  const cards = page.getByRole('list', { name: 'Saved cards' });
  await expect(cards).toContainText('VISA •••• 4242');
  await page.screenshot({ path: shot('saved-card'), animations: 'disabled', fullPage: true });

  // The next card trip: the driver hands it over (PENDING) and the card on file pays it, off-session.
  const rider = await apiSignIn(request, 'rider2@rideway.demo');
  const second = await pendingCardTrip(request, 'rider2@rideway.demo');
  await expect.poll(async () => (await (await request.get(`/api/bookings/${second.id}`, { headers: rider })).json()).status, { timeout: 20_000 }).toBe('PAID');
  const charged = stripe.requests.find((seen) => seen.method === 'POST' && seen.path === '/v1/payment_intents' && seen.form.get('metadata[booking_id]') === second.id);
  expect(charged?.form.get('off_session')).toBe('true');
  expect(charged?.form.get('amount')).toBe(String(Math.round(second.customer_paid * 100)));
  // No checkout was opened for it: the rider did nothing.
  expect(stripe.requests.filter((seen) => seen.path === '/v1/checkout/sessions' && seen.form.get('client_reference_id') === second.id)).toHaveLength(0);
  await page.goto('/bookings');
  const card = page.locator(`[data-booking="${second.id}"]`);
  await expect(card).toContainText('Paid');
  await expect(card.getByRole('button', { name: 'Pay now' })).toHaveCount(0);
  await page.screenshot({ path: shot('charged-on-file'), animations: 'disabled' });
});
