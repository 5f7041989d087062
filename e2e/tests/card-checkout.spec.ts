import { expect, test, type APIRequestContext } from '@playwright/test';

const pickup = { lat: 51.5308, lng: -0.1238, add: "King's Cross Station, London" };
const drop = { lat: 51.5081, lng: -0.0759, add: 'Tower of London, London' };

async function signIn(request: APIRequestContext, email: string): Promise<Record<string, string>> {
  const response = await request.post('/api/auth/login', { data: { email, password: 'demo123' } });
  expect(response.status()).toBe(200);
  return { authorization: `Bearer ${(await response.json()).token}` };
}

/** A demo rider's card trip, run by a demo driver to the point where the rider pays (PENDING). */
async function pendingCardTrip(request: APIRequestContext) {
  const rider = await signIn(request, 'rider1@rideway.demo');
  const driver = await signIn(request, 'driver1@rideway.demo');
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
  test(`a rider pays a card trip on the test provider's checkout page (${width} px)`, async ({ page, request, baseURL }) => {
    const { rider, booking } = await pendingCardTrip(request);
    const { redirect, fields } = await (await request.post(`/api/bookings/${booking.id}/pay`, { headers: rider, data: { payment_mode: 'card', provider: 'test' } })).json();
    await page.setViewportSize({ width, height: 760 });
    // Section 4: the payment form is posted to the provider's link with hidden fields.
    const inputs = Object.entries(fields as Record<string, string>).map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`).join('');
    await page.setContent(`<form method="post" action="${baseURL}${redirect}">${inputs}</form>`);
    await Promise.all([page.waitForURL(`**${redirect}`), page.locator('form').evaluate((form: HTMLFormElement) => { form.submit(); })]);
    await expect(page.getByRole('heading', { name: 'Test checkout' })).toBeVisible();
    await expect(page.locator('.amount')).toHaveText(`${booking.customer_paid.toFixed(2)} USD`);
    await page.screenshot({ path: `screenshots/checkout-${width}.png`, fullPage: true });
    await page.getByRole('button', { name: 'Pay' }).click();
    await expect(page.locator('#payment-result')).toHaveText('Payment received');
    await page.screenshot({ path: `screenshots/checkout-paid-${width}.png`, fullPage: true });
    const paid = await (await request.get(`/api/bookings/${booking.id}`, { headers: rider })).json();
    expect(paid).toMatchObject({ status: 'PAID', cardPaymentAmount: booking.customer_paid });
  });
}
