import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookings, paymentAttempts, paymentEvents, payments, refunds, users, walletEntries } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { sedan } from '../fixtures';
import { cardDelivery as cardDeliveryOf, reachedCardTrip, FORM, unescapeHtml } from '../card-trips';
import { checkoutPageFacts, expectNothingReflected, expectStylesheetServed, MARKUP_APP_NAME, pageAmount } from '../checkout-pages';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';
import { startCulqi, type CulqiStandIn } from '../stand-ins/culqi';

const CHECKOUT = '/api/payments/culqi/checkout';
const COMPLETE = '/api/payments/culqi/complete';
const WEBHOOK = '/api/payments/culqi/webhook';
const PUBLIC_URL = 'https://rides.example';

/**
 * Issue 22: Culqi through the real adapter and the app's routes, against the Culqi stand-in. Culqi
 * Checkout's card widget runs only on Culqi's domain: here the stand-in makes the token it would
 * give the browser, and the rider's page posts it to our `complete`, which charges it server-side.
 * Culqi's events are unsigned: each is confirmed by fetching its charge. Every case runs on each engine.
 */
describe.each(ENGINES)('Culqi through the API on %s (issue 22)', (engine) => {
  let standIn: CulqiStandIn;
  let t: TestApp;
  let admin: UserRow;
  let driver: UserRow;

  beforeAll(async () => {
    standIn = await startCulqi();
    t = await createTestApp(engine, { CULQI_PUBLIC_KEY: standIn.publicKey, CULQI_SECRET_KEY: standIn.secretKey, CULQI_API_URL: standIn.url, PAYMENT_TIMEOUT_MS: '800', PUBLIC_URL });
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
    driver = await t.makeUser('driver', { carType: 'Sedan' });
  });
  beforeEach(async () => {
    standIn.mode = 'ok';
    await t.setSettings({ appcat: 'delivery', code: 'PEN' });
    await t.goOnline(driver);
  });
  afterAll(async () => {
    await t.close();
    await standIn.close();
  });

  const cardDelivery = (rider: UserRow) => cardDeliveryOf(t, rider);

  const reachedTrip = (rider: UserRow) => reachedCardTrip(t, driver, rider, { code: 'PEN' });

  /** The checkout page: Culqi Checkout's script and settings, and the attempt our form posts back. */
  async function started(rider: UserRow, id: string) {
    const answer = await t.request({ method: 'POST', url: CHECKOUT, as: rider, payload: new URLSearchParams({ order_id: id, amount: '0.01', currency: 'EUR' }).toString(), headers: FORM });
    expect(answer.statusCode, answer.body).toBe(200);
    const settings = JSON.parse(unescapeHtml(/data-client-token="([^"]*)"/.exec(answer.body)?.[1] ?? '{}')) as { publicKey: string; amount: number; currency: string };
    const attempt = /name="attempt" value="([^"]+)"/.exec(answer.body)?.[1] ?? '';
    return { page: answer.body, settings, attempt, csp: JSON.stringify(answer.headers['content-security-policy'] ?? '') };
  }

  const complete = (rider: UserRow, attempt: string, token: string, extra: Record<string, string> = {}) =>
    t.request({ method: 'POST', url: COMPLETE, as: rider, payload: new URLSearchParams({ attempt, payment_method_nonce: token, ...extra }).toString(), headers: FORM });

  async function payThrough(rider: UserRow, id: string) {
    const { attempt } = await started(rider, id);
    const token = await standIn.tokenize();
    const answer = await complete(rider, attempt, token);
    expect([answer.statusCode, answer.headers.location]).toEqual([303, `/bookings/${id}?payment=paid`]);
    const charge = [...standIn.charges.values()].find((candidate) => candidate.token === token);
    if (!charge) throw new Error('no charge');
    return charge.id;
  }

  async function runAllJobs() {
    for (let round = 0; round < 50; round += 1) if ((await t.runJobs()).done === 0) return;
    throw new Error('jobs keep coming');
  }

  const postWebhook = (rawBody: Buffer | string, headers: Record<string, string>) => t.request({ method: 'POST', url: WEBHOOK, payload: rawBody, headers });
  const rowsOf = async (id: string) => ({
    status: (await t.db.select().from(bookings).where(eq(bookings.id, id)))[0]?.status,
    payments: await t.db.select().from(payments).where(eq(payments.bookingId, id)),
    ledger: await t.db.select().from(walletEntries).where(eq(walletEntries.bookingId, id)),
    events: await t.db.select().from(paymentEvents).where(eq(paymentEvents.reference, id)),
    attempts: await t.db.select({ status: paymentAttempts.status }).from(paymentAttempts).where(eq(paymentAttempts.reference, id)),
  });

  it("is listed; the checkout page offers Culqi Checkout with the public key (never the secret) and the booking's own amount in céntimos", async () => {
    expect((await t.request({ method: 'GET', url: '/get_providers' })).json()).toContainEqual({ name: 'culqi', link: CHECKOUT });
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { page, settings, csp } = await started(rider, b.id);
    expect(settings).toMatchObject({ publicKey: standIn.publicKey, amount: b.paidMinor, currency: 'PEN' });
    expect(page).toContain('<script src="https://checkout.culqi.com/js/v4" defer></script>');
    expect(page).not.toContain(standIn.secretKey);
    expect(csp).toContain('https://checkout.culqi.com');
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], attempts: [{ status: 'open' }] });
    // Nothing is asked of Culqi before the rider gives a card.
    expect(standIn.requests).toEqual([]);
  });

  it("the page says who charges, for which booking and how much, with Pay and a way back, in the rider's language (Spanish here), styled from this origin", async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const reference = (await t.db.select({ reference: bookings.reference }).from(bookings).where(eq(bookings.id, b.id)))[0]?.reference ?? '';
    const english = checkoutPageFacts((await started(rider, b.id)).page);
    expect(english).toMatchObject({
      lang: 'en',
      dir: 'ltr',
      title: 'Rideway: payment',
      brand: 'Rideway',
      heading: 'Pay for your booking',
      summary: [['Booking', reference], ['Amount', pageAmount(b.paidMinor, '$', 'PEN')]],
      button: `Pay ${pageAmount(b.paidMinor, '$', 'PEN')}`,
      back: { href: `/bookings/${b.id}`, text: 'Cancel and go back' },
      alert: { scriptFailed: expect.stringContaining('could not be loaded'), cardFailed: expect.stringContaining('Your card could not be used') },
    });
    await expectStylesheetServed(t, english.stylesheet);

    // A rider who reads Spanish, and an app name with markup in it (an admin's typing): escaped, never markup.
    await t.db.update(users).set({ language: 'es' }).where(eq(users.id, rider.id));
    await t.setSettings({ appcat: 'delivery', code: 'PEN', appName: MARKUP_APP_NAME });
    const { page } = await started(rider, (await cardDelivery(rider)).id);
    expectNothingReflected(page);
    // Nothing the browser posted (its amount 0.01 EUR) is on the page: only the server's amount.
    expect(page).not.toContain('EUR');
    const spanish = checkoutPageFacts(page);
    expect(spanish).toMatchObject({ lang: 'es', dir: 'ltr', brand: MARKUP_APP_NAME, heading: 'Paga tu reserva', back: { text: 'Cancelar y volver' } });
    expect(spanish.summary.map(([label]) => label)).toEqual(['Reserva', 'Importe']);
    expect(spanish.summary[1]?.[1]).toMatch(/^\$\d+,\d\d PEN$/);
    expect(spanish.button).toBe(`Pagar ${spanish.summary[1]?.[1] ?? ''}`);
    expect(spanish.alert?.cardFailed).toContain('No se pudo usar tu tarjeta');
  });

  it("the rider's token is charged for the server's amount, whatever the browser posts; the booking is paid once", async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { attempt } = await started(rider, b.id);
    const token = await standIn.tokenize('rosa@example.pe');
    const answer = await complete(rider, attempt, token, { amount_minor: '1', currency: 'USD', reference: randomUUID() });
    expect([answer.statusCode, answer.headers.location]).toEqual([303, `/bookings/${b.id}?payment=paid`]);
    const charge = [...standIn.charges.values()].find((candidate) => candidate.token === token);
    expect(charge).toMatchObject({ amount: b.paidMinor, currency: 'PEN', email: 'rosa@example.pe', metadata: { rideway_reference: b.id } });
    const paid = await rowsOf(b.id);
    expect(paid.status).toBe('NEW');
    expect(paid.payments).toEqual([expect.objectContaining({ provider: 'culqi', transactionId: charge?.id, amountMinor: b.paidMinor, currency: 'PEN', outcome: 'succeeded' })]);
    // The same page posted again: nothing more is charged.
    const again = await complete(rider, attempt, token);
    expect(again.headers.location).toBe(`/bookings/${b.id}?payment=paid`);
    expect(standIn.charges.size).toBeGreaterThanOrEqual(1);
    expect([...standIn.charges.values()].filter((candidate) => candidate.metadata.rideway_reference === b.id)).toHaveLength(1);
  });

  it("another rider cannot complete someone's checkout", async () => {
    const rider = await t.makeUser('rider');
    const other = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { attempt } = await started(rider, b.id);
    const answer = await complete(other, attempt, await standIn.tokenize());
    expect([answer.statusCode, codeOf(answer)]).toEqual([404, 'not_found']);
    expect(standIn.charges.size === 0 || ![...standIn.charges.values()].some((candidate) => candidate.metadata.rideway_reference === b.id)).toBe(true);
  });

  it('a declined card leaves the booking payable; the rider then pays', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { attempt } = await started(rider, b.id);
    const declined = await complete(rider, attempt, await standIn.tokenize('x@example.pe', '4000020000000000'));
    expect(declined.headers.location).toBe(`/bookings/${b.id}?payment=failed`);
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [] });
    await payThrough(rider, b.id);
    expect((await rowsOf(b.id)).status).toBe('NEW');
  });

  it('a lost answer: the event, confirmed by fetching the charge, pays; 10 replays change nothing', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { attempt } = await started(rider, b.id);
    const token = await standIn.tokenize();
    // Culqi charged but its answer was lost on the way back.
    standIn.loseChargeAnswer = true;
    const lost = await complete(rider, attempt, token);
    standIn.loseChargeAnswer = false;
    expect(lost.headers.location).toBe(`/bookings/${b.id}?payment=pending`);
    const charge = [...standIn.charges.values()].find((candidate) => candidate.token === token);
    if (!charge) throw new Error('no charge');
    const { rawBody, headers } = standIn.event('charge.creation.succeeded', standIn.chargeJson(charge.id));
    const first = await postWebhook(rawBody, headers);
    expect([first.statusCode, first.json()]).toEqual([200, { received: true }]);
    const paid = await rowsOf(b.id);
    expect(paid.status).toBe('NEW');
    const replays = await Promise.all(Array.from({ length: 10 }, () => postWebhook(rawBody, headers)));
    expect(replays.map((reply) => reply.statusCode)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(await rowsOf(b.id)).toEqual(paid);
  });

  it('an event naming a charge Culqi does not have (forged) is 400; an altered amount in an event is not believed', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const forged = standIn.event('charge.creation.succeeded', { object: 'charge', id: 'chr_test_forged0001', amount: b.paidMinor, currency_code: 'PEN', outcome: { type: 'venta_exitosa' }, metadata: { rideway_reference: b.id } });
    const reply = await postWebhook(forged.rawBody, forged.headers);
    expect([reply.statusCode, codeOf(reply)]).toEqual([400, 'validation_error']);
    expect(await rowsOf(b.id)).toMatchObject({ status: 'PAYMENT_PENDING', payments: [], ledger: [], events: [] });
  });

  it.each([
    ['amount', (charge: { amount: number; currency: string }) => { charge.amount -= 100; }],
    ['currency', (charge: { amount: number; currency: string }) => { charge.currency = 'USD'; }],
  ] as const)('a charge of another %s than the booking owes is recorded, not paid', async (_what, tamper) => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    const { attempt } = await started(rider, b.id);
    const token = await standIn.tokenize();
    standIn.loseChargeAnswer = true;
    await complete(rider, attempt, token);
    standIn.loseChargeAnswer = false;
    const charge = [...standIn.charges.values()].find((candidate) => candidate.token === token);
    if (!charge) throw new Error('no charge');
    tamper(charge);
    const { rawBody, headers } = standIn.event('charge.creation.succeeded', standIn.chargeJson(charge.id));
    expect((await postWebhook(rawBody, headers)).statusCode).toBe(200);
    const rows = await rowsOf(b.id);
    expect(rows.status).toBe('PAYMENT_PENDING');
    expect(rows.ledger).toEqual([]);
    expect(rows.payments).toEqual([expect.objectContaining({ outcome: 'mismatch', amountMinor: charge.amount, currency: charge.currency })]);
  });

  it('an admin refunds a Culqi-paid trip in part: one refund, found again by its key on a retry', async () => {
    const rider = await t.makeUser('rider');
    const b = await reachedTrip(rider);
    const chargeId = await payThrough(rider, b.id);
    expect((await rowsOf(b.id)).status).toBe('PAID');
    const part = await t.request({ method: 'POST', url: `/api/bookings/${b.id}/refunds`, as: admin, payload: { amount: 1.5, reason: 'Detour' }, headers: { 'idempotency-key': randomUUID() } });
    expect(part.statusCode, part.body).toBe(200);
    await runAllJobs();
    const made = () => [...standIn.refunds.values()].filter((refund) => refund.chargeId === chargeId);
    expect(made()).toMatchObject([{ amount: 150, reason: 'solicitud_comprador' }]);
    expect((await t.db.select().from(refunds).where(eq(refunds.bookingId, b.id)))[0]).toMatchObject({ status: 'succeeded', providerRefundId: made()[0]?.id, amountMinor: 150 });
    t.advance(24 * 3600_000);
    await runAllJobs();
    expect(made()).toHaveLength(1);
  });

  it('a settings currency Culqi does not take: not listed, no checkout, and the admins are told why', async () => {
    const rider = await t.makeUser('rider');
    const b = await cardDelivery(rider);
    await t.setSettings({ appcat: 'delivery', code: 'EUR' });
    expect((await t.request({ method: 'GET', url: '/get_providers' })).json()).not.toContainEqual(expect.objectContaining({ name: 'culqi' }));
    const answer = await t.request({ method: 'POST', url: CHECKOUT, as: rider, payload: new URLSearchParams({ order_id: b.id }).toString(), headers: FORM });
    expect([answer.statusCode, codeOf(answer)]).toEqual([404, 'not_found']);
    const listed = await t.request({ method: 'GET', url: '/api/payments/providers', as: admin });
    expect(listed.json()).toMatchObject({ currency: 'EUR', providers: expect.arrayContaining([expect.objectContaining({ name: 'culqi', takesCurrency: false, currencies: ['PEN', 'USD'] })]) });
  });
});
