import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, paymentEvents, payments, walletEntries } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { drop, pickup, sedan } from '../fixtures';
import { createTestApp, ENGINES, type TestApp } from '../harness';
import { startStripe, type StripeStandIn } from '../stand-ins/stripe';
import { FORM } from '../card-trips';

const CHECKOUT = '/api/payments/stripe/checkout';
const WEBHOOK = '/api/payments/stripe/webhook';
const delivery = { pickup, drop, carType: 'Sedan', deliveryPerson: 'Sam', deliveryPersonPhone: '555 0100', payment_mode: 'card' };

/**
 * Issue 18, point 2 and "Must show": Stripe Checkout through the real adapter and the app's
 * routes, against the Stripe stand-in. The booking is paid only by Stripe's signed
 * `checkout.session.completed`; a replay (20 at once) pays once; a bad signature changes nothing.
 */
describe.each(ENGINES)('Stripe Checkout through the API on %s (issue 18)', (engine) => {
  let standIn: StripeStandIn;
  let t: TestApp;
  let rider: UserRow;

  beforeAll(async () => {
    standIn = await startStripe();
    t = await createTestApp(engine, { STRIPE_SECRET_KEY: standIn.key, STRIPE_WEBHOOK_SECRET: standIn.webhookSecret, STRIPE_API_URL: standIn.url, PUBLIC_URL: 'https://rides.example' });
    const admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
    await t.setSettings({ appcat: 'delivery' });
    await t.goOnline(await t.makeUser('driver', { carType: 'Sedan' }));
    rider = await t.makeUser('rider');
  });
  afterAll(async () => {
    await t.close();
    await standIn.close();
  });

  /** A prepaid card booking and its Stripe Checkout, started through the app. */
  async function checkout() {
    const booking = (await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: delivery })).json<{ id: string; status: string; customer_paid: number }>();
    const started = await t.request({ method: 'POST', url: CHECKOUT, as: rider, payload: new URLSearchParams({ order_id: booking.id }).toString(), headers: FORM });
    return { booking, started };
  }
  const postEvent = (body: string, signature: string) => t.request({ method: 'POST', url: WEBHOOK, payload: body, headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature } });
  const rowsOf = async (bookingId: string) => ({
    status: (await t.db.select().from(bookings).where(eq(bookings.id, bookingId)))[0]?.status,
    payments: await t.db.select().from(payments).where(eq(payments.bookingId, bookingId)),
    ledger: await t.db.select().from(walletEntries).where(eq(walletEntries.bookingId, bookingId)),
    events: await t.db.select().from(paymentEvents).where(eq(paymentEvents.reference, bookingId)),
  });

  it("is listed, and a rider's checkout redirects to the session's url", async () => {
    expect((await t.request({ method: 'GET', url: '/get_providers' })).json()).toContainEqual({ name: 'stripe', link: CHECKOUT });
    const { booking, started } = await checkout();
    expect(started.statusCode).toBe(303);
    const location = started.headers.location ?? '';
    expect(location).toMatch(new RegExp(`^${standIn.url}/c/pay/cs_test_\\w+$`));
    const session = standIn.session(location.split('/').pop() ?? '');
    expect(session).toMatchObject({ client_reference_id: booking.id, metadata: { booking_id: booking.id }, status: 'open' });
    expect(await rowsOf(booking.id)).toMatchObject({ status: 'PAYMENT_PENDING', ledger: [] });
  });

  it('a signed checkout.session.completed pays the booking once; 20 replays at once change nothing', async () => {
    const { booking, started } = await checkout();
    const sessionId = (started.headers.location ?? '').split('/').pop() ?? '';
    const session = standIn.completeSession(sessionId);
    const { body, signature } = standIn.signed(standIn.event('checkout.session.completed', session));

    const first = await postEvent(body, signature);
    expect([first.statusCode, first.json()]).toEqual([200, { received: true }]);
    const paid = await rowsOf(booking.id);
    expect(paid.status).not.toBe('PAYMENT_PENDING');
    expect(paid.payments).toHaveLength(1);
    expect(paid.events).toMatchObject([{ provider: 'stripe', type: 'payment_succeeded', source: 'notification', transactionId: session.payment_intent, currency: 'USD', outcome: 'paid' }]);

    const replays = await Promise.all(Array.from({ length: 20 }, () => postEvent(body, signature)));
    expect(replays.map((reply) => reply.statusCode)).toEqual(Array.from({ length: 20 }, () => 200));
    const after = await rowsOf(booking.id);
    expect(after.payments).toEqual(paid.payments);
    expect(after.events).toEqual(paid.events);
    expect(after.ledger).toEqual(paid.ledger);
    expect(after.status).toBe(paid.status);
  });

  it('20 deliveries of one event at once, before any was recorded, pay once', async () => {
    const { booking, started } = await checkout();
    const session = standIn.completeSession((started.headers.location ?? '').split('/').pop() ?? '');
    const { body, signature } = standIn.signed(standIn.event('checkout.session.completed', session));
    const replies = await Promise.all(Array.from({ length: 20 }, () => postEvent(body, signature)));
    expect(replies.map((reply) => reply.statusCode)).toEqual(Array.from({ length: 20 }, () => 200));
    const rows = await rowsOf(booking.id);
    expect(rows.payments).toHaveLength(1);
    expect(rows.events).toHaveLength(1);
    expect(rows.status).not.toBe('PAYMENT_PENDING');
  });

  it('a bad signature (another secret, a changed body, none) is 400 and changes nothing', async () => {
    const { booking, started } = await checkout();
    const session = standIn.completeSession((started.headers.location ?? '').split('/').pop() ?? '');
    const event = standIn.event('checkout.session.completed', session);
    const forged = standIn.signed(event, { secret: 'whsec_notTheEndpointsSecret' });
    const { body, signature } = standIn.signed(event);
    for (const [payload, header] of [[forged.body, forged.signature], [body.replace(/"amount_total": \d+/, '"amount_total": 1'), signature], [body, '']] as const) {
      const reply = await postEvent(payload, header);
      expect(reply.statusCode).toBe(400);
    }
    expect(await rowsOf(booking.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], events: [] });
  });
});
