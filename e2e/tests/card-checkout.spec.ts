import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiSignIn, signIn } from '../support/session';

const pickup = { lat: 51.5308, lng: -0.1238, add: "King's Cross Station, London" };
const drop = { lat: 51.5081, lng: -0.0759, add: 'Tower of London, London' };


/** A demo rider's card trip, run by a demo driver to the point where the rider pays (PENDING). */
async function pendingCardTrip(request: APIRequestContext) {
  const rider = await apiSignIn(request, 'rider1@rideway.demo');
  const driver = await apiSignIn(request, 'driver1@rideway.demo');
  const booked = await request.post('/api/bookings', { headers: rider, data: { pickup, drop, carType: 'Economy', payment_mode: 'card' } });
  expect(booked.status()).toBe(201);
  const booking = await booked.json();
  const tasks = (await (await request.get('/api/driver/tasks', { headers: driver })).json()).tasks;
  expect(tasks.map((task: { id: string }) => task.id)).toContain(booking.id);
  for (const step of ['accept', 'arrive', 'start', 'reach']) {
    expect((await request.post(`/api/bookings/${booking.id}/${step}`, { headers: driver, data: {} })).status(), step).toBe(200);
  }
  const handOver = await request.post(`/api/bookings/${booking.id}/pay`, { headers: driver, data: { payment_mode: 'card' } });
  // Section 4: REACHED recomputed the fare from the tracked trip; the rider pays that.
  const pending = await handOver.json();
  expect(pending.status).toBe('PENDING');
  return { rider, booking: pending as { id: string; customer_paid: number } };
}

for (const width of [375, 1280]) {
  test(`a rider pays a card trip with Pay now, on the test provider's checkout page (${width} px)`, async ({ page, request }) => {
    const { booking } = await pendingCardTrip(request);
    await page.setViewportSize({ width, height: 760 });
    await signIn(page, 'rider1@rideway.demo');
    await page.goto('/bookings');
    const card = page.locator(`[data-booking="${booking.id}"]`);
    await expect(card).toContainText('Payment due');
    // Section 4: Pay now (PENDING, rider) opens the provider choice; the form is posted to the provider's link.
    await card.getByRole('button', { name: 'Pay now' }).click();
    await page.getByRole('dialog', { name: 'Choose how to pay' }).getByRole('button', { name: 'Pay with Test provider' }).click();
    await expect(page.getByRole('heading', { name: 'Test checkout' })).toBeVisible();
    await expect(page.locator('.amount')).toHaveText(`${booking.customer_paid.toFixed(2)} GBP`);
    await page.screenshot({ path: `screenshots/checkout-${width}.png`, fullPage: true });
    await page.getByRole('button', { name: 'Pay' }).click();
    await expect(page.locator('#payment-result')).toHaveText('Payment received');
    await page.screenshot({ path: `screenshots/checkout-paid-${width}.png`, fullPage: true });
    await page.getByRole('link', { name: 'Back to your bookings' }).click();
    await expect(page.locator(`[data-booking="${booking.id}"]`)).toContainText('Paid');
    await expect(page.locator(`[data-booking="${booking.id}"]`).getByRole('button', { name: 'Pay now' })).toHaveCount(0);
    const paid = await (await request.get(`/api/bookings/${booking.id}`, { headers: await apiSignIn(request, 'rider1@rideway.demo') })).json();
    expect(paid).toMatchObject({ status: 'PAID', cardPaymentAmount: booking.customer_paid });
  });
}
