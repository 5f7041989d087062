import { randomUUID } from 'node:crypto';
import { toMinor } from '@rideway/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookings, outbox, paymentAttempts, payments, refunds, savedCards, topups, walletEntries } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import type { PaymentEvent } from '../../src/providers/payments/port';
import { fakeProvider, type FakeProvider } from '../fake-payment-provider';
import { drop, pickup, sedan } from '../fixtures';
import { codeOf, createTestApp, driveTrip, ENGINES, type TestApp } from '../harness';
import { FORM } from '../card-trips';

const formBody = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();
const CARD = { customerId: 'cus_1', paymentMethodId: 'pm_visa', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 };

/**
 * Issue 18: cards on file, wallet top-ups, admin refunds and receipts through an in-test adapter
 * of the payment port; money is conserved for every booking.
 */
describe.each(ENGINES)('cards on file, top-ups, refunds and receipts on %s (issue 18)', (engine) => {
  let t: TestApp;
  let fake: FakeProvider;
  let admin: UserRow;
  let driver: UserRow;
  const name = 'paystack';
  const touched = new Set<string>();

  beforeAll(async () => {
    fake = fakeProvider(name);
    t = await createTestApp(engine, {}, { paymentProviders: [fake] });
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
    driver = await t.makeUser('driver', { carType: 'Sedan' });
  });
  beforeEach(async () => {
    fake.state.down = false;
    fake.state.charge = 'succeeded';
    await t.setSettings({});
    await t.goOnline(driver);
  });
  afterAll(async () => {
    // Money conserved, for every booking these tests touched.
    for (const id of touched) await expectMoneyConserved(id);
    await t.close();
  });

  const notify = (event: PaymentEvent) => {
    const { payload, headers } = fake.sign(event);
    return t.request({ method: 'POST', url: `/api/payments/${name}/webhook`, payload, headers });
  };
  const statusOf = async (id: string) => (await t.db.select({ status: bookings.status }).from(bookings).where(eq(bookings.id, id)))[0]?.status;
  const wallet = async (user: UserRow) => (await t.request({ method: 'GET', url: '/api/wallet', as: user })).json<{ walletBalance: number }>().walletBalance;

  /**
   * For a booking: what providers and the wallet took, less every refund not refused, is what
   * the booking keeps: its customer_paid less admin refunds once paid, what the cancel kept once
   * cancelled; and the ledger's wallet refunds are the wallet's refund records.
   */
  async function expectMoneyConserved(id: string) {
    const b = (await t.db.select().from(bookings).where(eq(bookings.id, id)))[0];
    if (!b) return;
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
    const taken = await t.db.select().from(payments).where(eq(payments.bookingId, id));
    const ledger = await t.db.select().from(walletEntries).where(and(eq(walletEntries.bookingId, id), eq(walletEntries.uid, b.customer)));
    const back = (await t.db.select().from(refunds).where(eq(refunds.bookingId, id))).filter((r) => r.status !== 'failed');
    const applied = sum(taken.filter((p) => p.outcome === 'succeeded').map((p) => p.amountMinor)) + -sum(ledger.filter((e) => e.txRef === 'TripPayment').map((e) => e.amountMinor));
    const late = sum(taken.filter((p) => p.outcome === 'unapplied').map((p) => p.amountMinor));
    expect(sum(ledger.filter((e) => e.txRef === 'Refund').map((e) => e.amountMinor)), id).toBe(sum(back.filter((r) => r.provider === 'wallet').map((r) => r.amountMinor)));
    expect(sum(back.filter((r) => r.kind === 'unapplied').map((r) => r.amountMinor)), id).toBe(late);
    const kept = applied - sum(back.filter((r) => r.kind !== 'unapplied').map((r) => r.amountMinor));
    const adminRefunds = sum(back.filter((r) => r.kind === 'admin').map((r) => r.amountMinor));
    const expected = b.status === 'PAID' || b.status === 'COMPLETE' ? b.customerPaidMinor - adminRefunds : b.status === 'CANCELLED' ? applied - b.refundAmountMinor : b.prepaid ? b.customerPaidMinor : 0;
    expect([id, b.status, kept]).toEqual([id, b.status, expected]);
  }

  /** A taxi card trip at REACHED (the rider may pay it by card, or the driver hand it over). */
  async function reachedTrip(rider: UserRow, mode: 'card' | 'wallet' = 'card') {
    const created = await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', payment_mode: mode } });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: string }>().id;
    touched.add(id);
    await t.db.update(bookings).set({ requestedDrivers: { [driver.id]: true } }).where(eq(bookings.id, id));
    const accepted = await t.request({ method: 'POST', url: `/api/bookings/${id}/accept`, as: driver, payload: {} });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const reached = await driveTrip(t, driver, id, [drop]);
    return { id, paidMinor: toMinor(reached.customer_paid) };
  }

  async function checkout(rider: UserRow, fields: Record<string, string>) {
    const answer = await t.request({ method: 'POST', url: `/api/payments/${name}/checkout`, as: rider, payload: formBody(fields), headers: FORM });
    expect(answer.statusCode, answer.body).toBe(303);
    return String(answer.headers.location).split('/c/')[1] ?? '';
  }

  /** A card trip paid through the provider's checkout (PAID). */
  async function paidCardTrip(rider: UserRow, saveCard = false) {
    const b = await reachedTrip(rider);
    const checkoutId = await checkout(rider, { order_id: b.id, ...(saveCard ? { save_card: '1' } : {}) });
    const event = { ...fake.pay(checkoutId), ...(saveCard ? { savedCard: { ...CARD, paymentMethodId: `pm_${rider.id}` } } : {}) };
    expect((await notify(event)).statusCode).toBe(200);
    expect(await statusOf(b.id)).toBe('PAID');
    return { ...b, transactionId: event.transactionId };
  }

  describe('cards on file', () => {
    it('a card kept at a checkout is listed; a card trip handed over (PENDING) is charged with no rider action', async () => {
      const rider = await t.makeUser('rider');
      await paidCardTrip(rider, true);
      expect(fake.state.requests.at(-1)?.saveCard).toBe(true);
      const cards = (await t.request({ method: 'GET', url: '/api/me/cards', as: rider })).json();
      expect(cards).toEqual({ cards: [expect.objectContaining({ provider: name, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 })] });
      expect(JSON.stringify(cards)).not.toContain('pm_');
      const b = await reachedTrip(rider);
      const handOver = await t.request({ method: 'POST', url: `/api/bookings/${b.id}/pay`, as: driver, payload: { payment_mode: 'card' } });
      expect(handOver.json().status).toBe('PENDING');
      // The charge waits for the step to commit: the job runs it.
      expect(fake.state.charges.filter((c) => c.reference === b.id)).toEqual([]);
      await t.runJobs();
      expect(fake.state.charges.filter((c) => c.reference === b.id)).toEqual([expect.objectContaining({ amountMinor: b.paidMinor, card: expect.objectContaining({ paymentMethodId: `pm_${rider.id}` }) })]);
      expect(await statusOf(b.id)).toBe('PAID');
      // The job again charges nothing more.
      await t.runJobs();
      expect(await t.db.select().from(payments).where(eq(payments.bookingId, b.id))).toHaveLength(1);
    });

    it('a charge the bank wants authenticated leaves the booking payable and tells the rider to pay now', async () => {
      const rider = await t.makeUser('rider');
      await paidCardTrip(rider, true);
      fake.state.charge = 'requires_action';
      const b = await reachedTrip(rider);
      await t.request({ method: 'POST', url: `/api/bookings/${b.id}/pay`, as: driver, payload: { payment_mode: 'card' } });
      await t.runJobs();
      expect(await statusOf(b.id)).toBe('PENDING');
      const notices = await t.db.select().from(outbox).where(and(eq(outbox.recipient, rider.id), eq(outbox.channel, 'push')));
      expect(notices.map((n) => (n.payload as { msg: string }).msg).join('\n')).toContain('Pay now');
      // The rider pays now through the checkout.
      const checkoutId = await checkout(rider, { order_id: b.id });
      await notify(fake.pay(checkoutId));
      expect(await statusOf(b.id)).toBe('PAID');
    });

    it('a rider removes a card: gone here and at the provider; another rider\'s card is not found', async () => {
      const rider = await t.makeUser('rider');
      const other = await t.makeUser('rider');
      await paidCardTrip(rider, true);
      const card = (await t.db.select().from(savedCards).where(eq(savedCards.uid, rider.id)))[0];
      const foreign = await t.request({ method: 'DELETE', url: `/api/me/cards/${card?.id ?? 0}`, as: other });
      expect([foreign.statusCode, codeOf(foreign)]).toEqual([404, 'not_found']);
      const removed = await t.request({ method: 'DELETE', url: `/api/me/cards/${card?.id ?? 0}`, as: rider });
      expect(removed.json()).toEqual({ ok: true });
      expect(await t.db.select().from(savedCards).where(eq(savedCards.uid, rider.id))).toEqual([]);
      expect(fake.state.removed.at(-1)).toMatchObject({ paymentMethodId: `pm_${rider.id}` });
    });
  });

  describe('wallet top-ups', () => {
    it('a top-up is credited only on the provider\'s confirmation, once', async () => {
      const rider = await t.makeUser('rider');
      const started = await t.request({ method: 'POST', url: '/api/wallet/topup', as: rider, payload: { amount: 20, provider: name }, headers: { 'idempotency-key': randomUUID() } });
      expect(started.statusCode, started.body).toBe(200);
      const { topup_id, redirect, fields } = started.json<{ topup_id: string; redirect: string; fields: Record<string, string> }>();
      expect(redirect).toBe(`/api/payments/${name}/checkout`);
      const checkoutId = await checkout(rider, fields);
      expect(fake.state.requests.at(-1)).toMatchObject({ purpose: { kind: 'topup', topupId: topup_id }, amountMinor: 2000 });
      expect(await wallet(rider)).toBe(0);
      const event = fake.pay(checkoutId);
      await notify(event);
      await notify(event);
      await notify({ ...event, eventId: `${event.eventId}-again` });
      expect(await wallet(rider)).toBe(20);
      expect((await t.db.select().from(walletEntries).where(eq(walletEntries.uid, rider.id))).map((e) => [e.type, e.amountMinor, e.txRef])).toEqual([['Credit', 2000, 'TopUp']]);
      // A paid top-up is not checked out again; another rider's is not found.
      const again = await t.request({ method: 'POST', url: `/api/payments/${name}/checkout`, as: rider, payload: formBody(fields), headers: FORM });
      expect(codeOf(again)).toBe('invalid_transition');
      const other = await t.request({ method: 'POST', url: `/api/payments/${name}/checkout`, as: await t.makeUser('rider'), payload: formBody(fields), headers: FORM });
      expect(codeOf(other)).toBe('not_found');
    });

    it('a failed or mismatched top-up credits nothing', async () => {
      const rider = await t.makeUser('rider');
      const { fields } = (await t.request({ method: 'POST', url: '/api/wallet/topup', as: rider, payload: { amount: 10, provider: name } })).json<{ fields: Record<string, string> }>();
      const checkoutId = await checkout(rider, fields);
      await notify(fake.pay(checkoutId, { amountMinor: 100_000, currency: 'USD' }));
      expect(await wallet(rider)).toBe(0);
      expect((await t.db.select().from(topups).where(eq(topups.uid, rider.id)))[0]?.status).toBe('pending');
    });

    it('limits per rider and day answer 429 and 409 with their keys; a flood starts no more than the count', async () => {
      await t.setSettings({ topupCountPerDay: 3, topupMaxPerDay: 50 });
      const rider = await t.makeUser('rider');
      const over = await t.request({ method: 'POST', url: '/api/wallet/topup', as: rider, payload: { amount: 60, provider: name } });
      expect([over.statusCode, codeOf(over)]).toEqual([409, 'topup_amount_exceeded']);
      const flood = await Promise.all(Array.from({ length: 10 }, () => t.request({ method: 'POST', url: '/api/wallet/topup', as: rider, payload: { amount: 5, provider: name } })));
      expect(flood.filter((answer) => answer.statusCode === 200)).toHaveLength(3);
      expect(flood.filter((answer) => answer.statusCode !== 200).map((answer) => [answer.statusCode, codeOf(answer)])).toEqual(Array.from({ length: 7 }, () => [429, 'topup_limit_reached']));
      t.advance(24 * 3600_000 + 1);
      expect((await t.request({ method: 'POST', url: '/api/wallet/topup', as: rider, payload: { amount: 5, provider: name } })).statusCode).toBe(200);
      const driverTopup = await t.request({ method: 'POST', url: '/api/wallet/topup', as: driver, payload: { amount: 5, provider: name } });
      expect(driverTopup.statusCode).toBe(403);
    });
  });

  describe('admin refunds and receipts', () => {
    it('an admin refunds a card trip in part then in full, through its provider, never above what was paid', async () => {
      const rider = await t.makeUser('rider');
      const b = await paidCardTrip(rider);
      const refund = (amount: number, as: UserRow = admin) => t.request({ method: 'POST', url: `/api/bookings/${b.id}/refunds`, as, payload: { amount, reason: 'Detour' }, headers: { 'idempotency-key': randomUUID() } });
      expect((await refund(1, rider)).statusCode).toBe(403);
      expect((await refund(1, await t.makeUser('fleetadmin'))).statusCode).toBe(403);
      const part = await refund(1.5);
      expect(part.statusCode, part.body).toBe(200);
      expect(part.json()).toMatchObject({ refunds: [expect.objectContaining({ kind: 'admin', amount: 1.5, status: 'requested', reason: 'Detour' })], refundable: (b.paidMinor - 150) / 100 });
      const tooMuch = await refund((b.paidMinor - 150) / 100 + 0.01);
      expect([tooMuch.statusCode, codeOf(tooMuch)]).toEqual([409, 'refund_exceeds_paid']);
      const rest = await refund((b.paidMinor - 150) / 100);
      expect(rest.json().refundable).toBe(0);
      expect(codeOf(await refund(0.01))).toBe('refund_exceeds_paid');
      await t.runJobs();
      expect(fake.state.refunds.filter((r) => r.transactionId === b.transactionId).map((r) => r.amountMinor)).toEqual([150, b.paidMinor - 150]);
      const view = (await t.request({ method: 'GET', url: `/api/bookings/${b.id}/payments`, as: rider })).json();
      expect(view.refunds.map((r: { status: string }) => r.status)).toEqual(['succeeded', 'succeeded']);
      expect((await t.request({ method: 'GET', url: `/api/bookings/${b.id}/payments`, as: await t.makeUser('rider') })).statusCode).toBe(404);
    });

    it('two admins refunding at once never refund more than was paid', async () => {
      const rider = await t.makeUser('rider');
      const b = await paidCardTrip(rider);
      const half = Math.ceil(b.paidMinor / 2 + 1) / 100;
      const answers = await Promise.all([0, 1, 2].map(() => t.request({ method: 'POST', url: `/api/bookings/${b.id}/refunds`, as: admin, payload: { amount: half, reason: 'Twice' } })));
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.statusCode !== 200).map(codeOf)).toEqual(['refund_exceeds_paid', 'refund_exceeds_paid']);
    });

    it('a wallet trip is refunded to the wallet at once, on the ledger', async () => {
      const rider = await t.makeUser('rider');
      await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: rider.id, amount: 100 } });
      const b = await reachedTrip(rider, 'wallet');
      const paid = await t.request({ method: 'POST', url: `/api/bookings/${b.id}/pay`, as: rider, payload: { payment_mode: 'wallet' } });
      expect(paid.json().status, paid.body).toBe('PAID');
      const before = await wallet(rider);
      const answer = await t.request({ method: 'POST', url: `/api/bookings/${b.id}/refunds`, as: admin, payload: { amount: 2, reason: 'Late' } });
      expect(answer.json().refunds).toEqual([expect.objectContaining({ provider: 'wallet', status: 'succeeded', amount: 2 })]);
      expect(await wallet(rider)).toBe(before + 2);
      const unpaid = await reachedTrip(rider, 'wallet');
      expect(codeOf(await t.request({ method: 'POST', url: `/api/bookings/${unpaid.id}/refunds`, as: admin, payload: { amount: 1, reason: 'x' } }))).toBe('invalid_transition');
      expect((await t.request({ method: 'POST', url: `/api/bookings/${unpaid.id}/pay`, as: rider, payload: { payment_mode: 'wallet' } })).json().status).toBe('PAID');
    });

    it('on PAID the rider is mailed an HTML receipt, and can download it; another rider cannot', async () => {
      await t.setSettings({ CompanyName: 'Rideway Ltd', CompanyWebsite: 'https://rideway.example', contact_email: 'help@rideway.example' });
      const rider = await t.makeUser('rider');
      const b = await paidCardTrip(rider);
      const mails = await t.db.select().from(outbox).where(and(eq(outbox.recipient, rider.email ?? ''), eq(outbox.channel, 'mail')));
      const mail = mails.map((m) => m.payload as { subject: string; html?: string }).find((p) => p.subject.includes('receipt'));
      expect(mail?.html).toContain('Total paid');
      expect(mail?.html).toContain(`Card (${name})`);
      expect(mail?.html).toContain('Rideway Ltd');
      const download = await t.request({ method: 'GET', url: `/api/bookings/${b.id}/receipt`, as: rider });
      expect([download.statusCode, String(download.headers['content-type'])]).toEqual([200, 'text/html; charset=utf-8']);
      expect(download.body).toContain('help@rideway.example');
      expect((await t.request({ method: 'GET', url: `/api/bookings/${b.id}/receipt`, as: await t.makeUser('rider') })).statusCode).toBe(404);
      expect((await t.request({ method: 'GET', url: `/api/bookings/${b.id}/receipt`, as: admin })).statusCode).toBe(200);
    });

    it('the admins see the providers with their webhook URLs and the latest events', async () => {
      const providers = (await t.request({ method: 'GET', url: '/api/payments/providers', as: admin })).json();
      expect(providers.providers).toEqual([expect.objectContaining({ name, testMode: true, webhookUrl: expect.stringMatching(new RegExp(`/api/payments/${name}/webhook$`)), savesCards: true })]);
      const events = (await t.request({ method: 'GET', url: '/api/payments/events?limit=5', as: admin })).json();
      expect(events.events.length).toBeGreaterThan(0);
      expect(events.events[0]).toEqual(expect.objectContaining({ provider: name, outcome: expect.any(String) }));
      expect((await t.request({ method: 'GET', url: '/api/payments/events', as: await t.makeUser('rider') })).statusCode).toBe(403);
      const attempts = await t.db.select().from(paymentAttempts);
      expect(attempts.length).toBeGreaterThan(0);
    });
  });
});
