import { toMinor } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, walletEntries } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { drop, pickup, sedan } from '../fixtures';
import { codeOf, createTestApp, driveTrip, ENGINES, type TestApp } from '../harness';
import { FORM } from '../card-trips';

const formBody = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();

/** The hidden fields of the checkout page's form whose button reads `label`. */
function formFields(html: string, label: 'Pay' | 'Decline'): Record<string, string> {
  const form = [...html.matchAll(/<form[^>]*>(.*?)<\/form>/g)].find((m) => m[1]?.includes(`>${label}</button>`))?.[1] ?? '';
  return Object.fromEntries([...form.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1] ?? '', m[2] ?? '']));
}

describe.each(ENGINES)('card payments through the embedded test provider on %s (issue 4 item 5)', (engine) => {
  let t: TestApp;
  let admin: UserRow;
  let driver: UserRow;
  beforeAll(async () => {
    // The embedded test provider is off without demo data; these tests switch it on (issue 15).
    t = await createTestApp(engine, { PAYMENT_TEST_PROVIDER: '1' });
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
    driver = await t.makeUser('driver', { carType: 'Sedan' });
  });
  afterAll(() => t.close());

  async function reachedCardTrip(rider: UserRow) {
    await t.goOnline(driver);
    const created = await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', payment_mode: 'card' } });
    expect(created.statusCode, created.body).toBe(201);
    const b = created.json();
    await t.db.update(bookings).set({ requestedDrivers: { [driver.id]: true } }).where(eq(bookings.id, b.id));
    const accepted = await t.request({ method: 'POST', url: `/api/bookings/${b.id}/accept`, as: driver, payload: {} });
    expect(accepted.statusCode, accepted.body).toBe(200);
    return driveTrip(t, driver, b.id, [drop]);
  }

  async function checkout(rider: UserRow, id: string) {
    const form = await t.request({ method: 'POST', url: `/api/bookings/${id}/pay`, as: rider, payload: { payment_mode: 'card', provider: 'test' } });
    expect(form.statusCode).toBe(200);
    const { redirect, fields } = form.json();
    const page = await t.request({ method: 'POST', url: redirect, as: rider, payload: formBody(fields), headers: FORM });
    expect(page.statusCode).toBe(200);
    return { fields, html: page.body };
  }

  it('the driver hands a card trip to the rider (PENDING); the rider pays through the checkout once', async () => {
    const rider = await t.makeUser('rider');
    const b = await reachedCardTrip(rider);
    const handOver = await t.request({ method: 'POST', url: `/api/bookings/${b.id}/pay`, as: driver, payload: { payment_mode: 'card' } });
    expect(handOver.json().status).toBe('PENDING');
    const { fields, html } = await checkout(rider, b.id);
    expect(Object.keys(fields)).toEqual(['order_id', 'amount', 'currency', 'product_name', 'first_name', 'last_name', 'quantity', 'cust_id', 'mobile_no', 'email']);
    expect(fields).toMatchObject({ order_id: b.id, amount: b.customer_paid.toFixed(2), currency: 'USD', quantity: '1', cust_id: rider.id });
    expect(html).toContain('Test checkout');
    const pay = formFields(html, 'Pay');
    const done = await t.request({ method: 'POST', url: '/api/payments/test/complete', as: rider, payload: formBody(pay), headers: FORM });
    expect(done.body).toContain('Payment received');
    const paid = (await t.request({ method: 'GET', url: `/api/bookings/${b.id}`, as: rider })).json();
    expect(paid).toMatchObject({ status: 'PAID', cardPaymentAmount: b.customer_paid, gateway: 'test' });
    const ledger = async () => t.db.select().from(walletEntries).where(eq(walletEntries.bookingId, b.id));
    expect((await ledger()).map((e) => e.amountMinor)).toEqual([toMinor(b.driver_share)]);
    // The same confirmation again changes nothing.
    const again = await t.request({ method: 'POST', url: '/api/payments/test/complete', as: rider, payload: formBody(pay), headers: FORM });
    expect(again.statusCode).toBe(200);
    expect((await ledger())).toHaveLength(1);
  });

  it('a declined payment leaves the booking payable; a tampered confirmation is refused', async () => {
    const rider = await t.makeUser('rider');
    const b = await reachedCardTrip(rider);
    const { html } = await checkout(rider, b.id);
    const declined = await t.request({ method: 'POST', url: '/api/payments/test/complete', as: rider, payload: formBody(formFields(html, 'Decline')), headers: FORM });
    expect(declined.body).toContain('Payment declined');
    expect((await t.db.select().from(bookings).where(eq(bookings.id, b.id)))[0]?.status).toBe('REACHED');
    const pay = formFields(html, 'Pay');
    for (const tampered of [{ ...pay, amount_minor: '1' }, { ...pay, signature: pay.signature?.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) ?? '' }, { ...pay, outcome: 'refunded' }]) {
      const response = await t.request({ method: 'POST', url: '/api/payments/test/complete', as: rider, payload: formBody(tampered), headers: FORM });
      expect([response.statusCode, codeOf(response), response.json().error.field]).toEqual([400, 'validation_error', 'signature']);
    }
    const wrongAmount = await t.request({ method: 'POST', url: '/api/payments/test/checkout', as: rider, payload: formBody({ order_id: b.id, amount: '0.01', currency: 'USD' }), headers: FORM });
    expect([wrongAmount.statusCode, codeOf(wrongAmount)]).toEqual([400, 'amount_mismatch']);
    const wrongCurrency = await t.request({ method: 'POST', url: '/api/payments/test/checkout', as: rider, payload: formBody({ order_id: b.id, amount: b.customer_paid.toFixed(2), currency: 'EUR' }), headers: FORM });
    expect(codeOf(wrongCurrency)).toBe('amount_mismatch');
    // The declined transaction stays declined; a new checkout pays.
    expect((await t.request({ method: 'POST', url: '/api/payments/test/complete', as: rider, payload: formBody(pay), headers: FORM })).body).toContain('Payment declined');
    const retry = await checkout(rider, b.id);
    expect((await t.request({ method: 'POST', url: '/api/payments/test/complete', as: rider, payload: formBody(formFields(retry.html, 'Pay')), headers: FORM })).body).toContain('Payment received');
    expect((await t.db.select().from(bookings).where(eq(bookings.id, b.id)))[0]?.status).toBe('PAID');
  });

  it('another rider cannot start a payment of a booking that is not theirs', async () => {
    const rider = await t.makeUser('rider');
    const other = await t.makeUser('rider');
    const b = await reachedCardTrip(rider);
    const response = await t.request({ method: 'POST', url: `/api/bookings/${b.id}/pay`, as: other, payload: { payment_mode: 'card' } });
    expect(response.statusCode).toBe(404);
  });

  it('a delivery in PAYMENT_PENDING paid by card becomes NEW and prepaid', async () => {
    await t.setSettings({ appcat: 'delivery' });
    // The earlier tests' driver is still on a trip: a free courier takes this one.
    await t.goOnline(await t.makeUser('driver', { carType: 'Sedan' }));
    const rider = await t.makeUser('rider');
    const b = (await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', payment_mode: 'card', deliveryPerson: 'Sam', deliveryPersonPhone: '5550100' } })).json();
    expect(b.status).toBe('PAYMENT_PENDING');
    const { html } = await checkout(rider, b.id);
    await t.request({ method: 'POST', url: '/api/payments/test/complete', as: rider, payload: formBody(formFields(html, 'Pay')), headers: FORM });
    expect((await t.request({ method: 'GET', url: `/api/bookings/${b.id}`, as: rider })).json()).toMatchObject({ status: 'NEW', prepaid: true, payment_mode: 'card' });
    await t.setSettings({});
  });
});
