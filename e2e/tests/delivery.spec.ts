import { expect, test } from '@playwright/test';
import { apiSignIn, fillTrip, signIn, withSettings } from '../support/session';

/** Issue 6, sections 2, 4 and 5: a parcel in the delivery category, paid before dispatch. */
test('in delivery mode a rider picks the parcel, names the recipient, pays by card first, and the search starts', async ({ page, request }) => {
  await withSettings(request, { appcat: 'delivery' }, async () => {
    await signIn(page, 'rider2@rideway.demo');
    await fillTrip(page);
    await page.getByRole('button', { name: 'Book', exact: true }).click();
    // Section 4: the car type has parcel types and options, so the chooser comes first.
    const chooser = page.getByRole('dialog', { name: 'Parcel type and options' });
    await chooser.getByRole('radio', { name: /^Small box/ }).check();
    await chooser.getByRole('radio', { name: /^Fragile handling/ }).check();
    await page.screenshot({ path: 'screenshots/delivery-chooser-1280.png', animations: 'disabled' });
    await chooser.getByRole('button', { name: 'Continue' }).click();
    const estimate = page.getByRole('dialog', { name: 'Your fare estimate' });
    await expect(estimate.getByRole('radio', { name: 'Card' })).toBeChecked();
    // Section 5: the recipient is required (deliveryDetailMissing).
    await estimate.getByRole('button', { name: 'Confirm booking' }).click();
    const alert = page.getByRole('dialog', { name: 'Alert' });
    await expect(alert).toContainText("Enter the recipient's name and a valid phone number.");
    await alert.getByRole('button', { name: 'Close' }).click();
    await estimate.getByLabel('Recipient name').fill('Grace Hopper');
    await estimate.getByLabel('Recipient phone').fill('020 7946 0958');
    await estimate.getByLabel('Delivery instructions').fill('Leave with the concierge');
    await page.screenshot({ path: 'screenshots/delivery-estimate-1280.png', animations: 'disabled' });
    await estimate.getByRole('button', { name: 'Confirm booking' }).click();
    // PAYMENT_PENDING: the provider chooser, then the provider's page with the posted form.
    await page.getByRole('dialog', { name: 'Choose how to pay' }).getByRole('button', { name: 'Pay with Test provider' }).click();
    await expect(page.getByRole('heading', { name: 'Test checkout' })).toBeVisible();
    await page.getByRole('button', { name: 'Pay' }).click();
    await expect(page.locator('#payment-result')).toHaveText('Payment received');
    await page.getByRole('link', { name: 'Back to your bookings' }).click();
    const card = page.getByRole('article').first();
    await expect(card).toContainText('Finding a driver');
    const id = (await card.getAttribute('data-booking')) ?? '';
    const booking = await (await request.get(`/api/bookings/${id}`, { headers: await apiSignIn(request, 'rider2@rideway.demo') })).json();
    expect(booking).toMatchObject({ status: 'NEW', prepaid: true, payment_mode: 'card', deliveryPerson: 'Grace Hopper', deliveryInstructions: 'Leave with the concierge', parcelTypeSelected: { description: 'Small box' }, optionSelected: { description: 'Fragile handling' } });
  });
});

test('an unpaid parcel booking is cancelled from the list after a short delay, with the fixed reason', async ({ page, request }) => {
  await withSettings(request, { appcat: 'delivery' }, async () => {
    await signIn(page, 'rider2@rideway.demo');
    await fillTrip(page);
    await page.getByRole('button', { name: 'Book', exact: true }).click();
    await page.getByRole('dialog', { name: 'Parcel type and options' }).getByRole('button', { name: 'Continue' }).click();
    const estimate = page.getByRole('dialog', { name: 'Your fare estimate' });
    await estimate.getByLabel('Recipient name').fill('Alan Turing');
    await estimate.getByLabel('Recipient phone').fill('+44 20 7946 0000');
    await estimate.getByRole('button', { name: 'Confirm booking' }).click();
    // The rider leaves the payment for later.
    await page.getByRole('dialog', { name: 'Choose how to pay' }).getByRole('button', { name: 'Cancel' }).click();
    await page.goto('/bookings');
    const card = page.getByRole('article').first();
    await expect(card).toContainText('Awaiting payment');
    // Section 4: no reason dialog; the cancel is sent after about 1.5 s with the fixed reason.
    await card.getByRole('button', { name: 'Cancel booking' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(card).toContainText('Cancelled', { timeout: 5000 });
    const id = (await card.getAttribute('data-booking')) ?? '';
    const booking = await (await request.get(`/api/bookings/${id}`, { headers: await apiSignIn(request, 'rider2@rideway.demo') })).json();
    expect(booking).toMatchObject({ status: 'CANCELLED', reason: 'Incomplete booking: payment not completed', cancelledBy: 'rider' });
  });
});

test('an admin assigns a driver of the same car type to a NEW booking when autoDispatch is off', async ({ page, request }) => {
  await withSettings(request, { autoDispatch: false }, async () => {
    const pickup = { lat: 51.5308, lng: -0.1238, add: "King's Cross Station, London" };
    const drop = { lat: 51.5081, lng: -0.0759, add: 'Tower of London, London' };
    const created = await request.post('/api/bookings', { headers: await apiSignIn(request, 'rider2@rideway.demo'), data: { pickup, drop, carType: 'Economy' } });
    expect(created.status()).toBe(201);
    const booking = await created.json();
    await signIn(page, 'admin@rideway.demo');
    await page.goto('/bookings');
    const card = page.getByRole('article', { name: `Booking ${booking.booking_id}` });
    await card.getByRole('button', { name: 'Assign driver' }).click();
    const dialog = page.getByRole('dialog', { name: 'Assign driver' });
    // Only approved drivers of the booking's car type are offered: the demo's two Economy drivers
    // (and any Economy driver an earlier spec approved), never the demo's drivers of other types.
    const offered = dialog.getByRole('list').getByRole('button');
    await expect(offered.filter({ hasText: 'Dan Driver' })).toHaveCount(1);
    await expect(offered.filter({ hasText: 'Omar Online' })).toHaveCount(1);
    for (const other of ['Olga Online', 'Oscar Online', 'Dora Driver']) await expect(offered.filter({ hasText: other })).toHaveCount(0);
    await page.screenshot({ path: 'screenshots/assign-driver-1280.png', animations: 'disabled' });
    await dialog.getByRole('button', { name: /Dan Driver/ }).click();
    await expect(page.getByRole('dialog', { name: 'Alert' })).toContainText('Driver assigned successfully and notified.');
    const driver = await apiSignIn(request, 'driver1@rideway.demo');
    const tasks = (await (await request.get('/api/driver/tasks', { headers: driver })).json()).tasks as { id: string }[];
    expect(tasks.map((task) => task.id)).toContain(booking.id);
  });
});
