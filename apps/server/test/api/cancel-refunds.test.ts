import { toMinor } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, outbox, payments, refunds, walletEntries } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { drop, pickup, sedan } from '../fixtures';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';
import { FORM } from '../card-trips';

const formBody = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();
const payFields = (html: string): Record<string, string> => {
  const form = [...html.matchAll(/<form[^>]*>(.*?)<\/form>/g)].find((m) => m[1]?.includes('>Pay</button>'))?.[1] ?? '';
  return Object.fromEntries([...form.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1] ?? '', m[2] ?? '']));
};

/**
 * Issue 15, point 9: "Prepaid delivery cancelled: money kept. 11.39 debited, never refunded."
 * Cancelling a prepaid booking gives back what the cancelSlab does not keep: to the wallet in the
 * cancel's transaction, or through the card provider that took it, recorded when it confirms.
 */
describe.each(ENGINES)('refunds of prepaid bookings on cancel on %s (issue 15, point 9)', (engine) => {
  let t: TestApp;
  let admin: UserRow;

  const ledgerOf = (user: UserRow) => t.db.select().from(walletEntries).where(eq(walletEntries.uid, user.id));
  const wallet = async (user: UserRow) => (await t.request({ method: 'GET', url: '/api/wallet', as: user })).json<{ walletBalance: number }>().walletBalance;
  const refundOf = async (id: string) => t.db.select().from(refunds).where(eq(refunds.bookingId, id));
  const cancel = (as: UserRow, id: string) => t.request({ method: 'POST', url: `/api/bookings/${id}/cancel`, as, payload: { reason: 'Changed my plans' } });
  /** The rider's ledger adds up to the balance the API shows. */
  const expectLedgerIsBalance = async (user: UserRow) => {
    const sum = (await ledgerOf(user)).reduce((total, entry) => total + entry.amountMinor, 0);
    expect(toMinor(await wallet(user))).toBe(sum);
  };

  async function onlineDriver() {
    const driver = await t.makeUser('driver', { carType: 'Sedan' });
    await t.goOnline(driver);
    return driver;
  }

  /** A delivery the rider paid ahead (wallet or card): NEW and prepaid, offered to the driver. */
  async function prepaidDelivery(rider: UserRow, driver: UserRow, mode: 'wallet' | 'card') {
    const created = await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', payment_mode: mode, deliveryPerson: 'Sam', deliveryPersonPhone: '555 0100' } });
    expect(created.statusCode, created.body).toBe(201);
    const booking = created.json<{ id: string; customer_paid: number; status: string }>();
    expect(booking.status).toBe('PAYMENT_PENDING');
    if (mode === 'wallet') {
      const paid = await t.request({ method: 'POST', url: `/api/bookings/${booking.id}/pay`, as: rider, payload: { payment_mode: 'wallet' } });
      expect(paid.json()).toMatchObject({ status: 'NEW', prepaid: true });
    } else {
      const form = (await t.request({ method: 'POST', url: `/api/bookings/${booking.id}/pay`, as: rider, payload: { payment_mode: 'card' } })).json<{ redirect: string; fields: Record<string, string> }>();
      const page = await t.request({ method: 'POST', url: form.redirect, as: rider, payload: formBody(form.fields), headers: FORM });
      const done = await t.request({ method: 'POST', url: '/api/payments/test/complete', as: rider, payload: formBody(payFields(page.body)), headers: FORM });
      expect(done.body).toContain('Payment received');
    }
    await t.db.update(bookings).set({ requestedDrivers: { [driver.id]: true } }).where(eq(bookings.id, booking.id));
    return { id: booking.id, paidMinor: toMinor(booking.customer_paid) };
  }

  beforeAll(async () => {
    t = await createTestApp(engine, { PAYMENT_TEST_PROVIDER: '1' });
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: { ...sedan, cancelSlab: [{ minsDelayed: 2, amount: 3 }] } });
    await t.setSettings({ appcat: 'delivery' });
  });
  afterAll(() => t.close());

  it('wallet: a cancel before any driver took it gives everything back, in the same transaction, with one ledger entry', async () => {
    const rider = await t.makeUser('rider');
    const driver = await onlineDriver();
    await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: rider.id, amount: 50 } });
    const b = await prepaidDelivery(rider, driver, 'wallet');
    expect(toMinor(await wallet(rider))).toBe(5000 - b.paidMinor);
    const cancelled = await cancel(rider, b.id);
    expect(cancelled.json()).toMatchObject({ status: 'CANCELLED', cancellationCharge: 0, refundAmount: b.paidMinor / 100 });
    expect(await wallet(rider)).toBe(50);
    const refundsToRider = (await ledgerOf(rider)).filter((entry) => entry.txRef === 'Refund');
    expect(refundsToRider.map((entry) => [entry.type, entry.amountMinor, entry.bookingId])).toEqual([['Credit', b.paidMinor, b.id]]);
    expect(await refundOf(b.id)).toEqual([expect.objectContaining({ provider: 'wallet', amountMinor: b.paidMinor, status: 'succeeded' })]);
    await expectLedgerIsBalance(rider);
    // The rider hears of it live: the ledger entry's wallet event is in the outbox, for the rider's topic.
    const events = await t.db.select().from(outbox).where(eq(outbox.recipient, `user:${rider.id}`));
    expect(events.map((row) => row.payload)).toContainEqual(expect.objectContaining({ event: 'wallet', data: expect.objectContaining({ txRef: 'Refund', bookingId: b.id }) }));
    // A replayed cancel refunds nothing more.
    expect(codeOf(await cancel(rider, b.id))).toBe('invalid_transition');
    expect((await ledgerOf(rider)).filter((entry) => entry.txRef === 'Refund')).toHaveLength(1);
    expect(await wallet(rider)).toBe(50);
  });

  it('wallet: a late cancel keeps the cancelSlab charge for the driver and gives the rest back', async () => {
    const rider = await t.makeUser('rider');
    const driver = await onlineDriver();
    await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: rider.id, amount: 50 } });
    const b = await prepaidDelivery(rider, driver, 'wallet');
    expect((await t.request({ method: 'POST', url: `/api/bookings/${b.id}/accept`, as: driver })).statusCode).toBe(200);
    t.advance(3 * 60_000);
    const cancelled = await cancel(rider, b.id);
    expect(cancelled.json()).toMatchObject({ status: 'CANCELLED', cancellationCharge: 3, refundAmount: (b.paidMinor - 300) / 100 });
    expect(await wallet(rider)).toBe(47);
    expect(await wallet(driver)).toBe(3);
    // Kept from what was paid: the rider is not debited the charge a second time.
    expect((await ledgerOf(rider)).map((entry) => [entry.type, entry.txRef, entry.amountMinor])).toEqual([
      ['Credit', 'AdminCredit', 5000],
      ['Debit', 'TripPayment', -b.paidMinor],
      ['Credit', 'Refund', b.paidMinor - 300],
    ]);
    await expectLedgerIsBalance(rider);
    await expectLedgerIsBalance(driver);
  });

  it('card: the refund goes back through the test provider, requested with the cancel and succeeded when it confirms, once', async () => {
    const rider = await t.makeUser('rider');
    const driver = await onlineDriver();
    const b = await prepaidDelivery(rider, driver, 'card');
    expect((await t.request({ method: 'POST', url: `/api/bookings/${b.id}/accept`, as: driver })).statusCode).toBe(200);
    t.advance(3 * 60_000);
    const cancelled = await cancel(rider, b.id);
    expect(cancelled.json()).toMatchObject({ status: 'CANCELLED', cancellationCharge: 3, refundAmount: (b.paidMinor - 300) / 100 });
    const payment = (await t.db.select().from(payments).where(eq(payments.bookingId, b.id)))[0];
    expect(await refundOf(b.id)).toEqual([expect.objectContaining({ provider: 'test', transactionId: payment?.transactionId, amountMinor: b.paidMinor - 300, status: 'requested', confirmedAt: null })]);
    // The card money is not the wallet's: nothing is credited or debited there for the rider.
    expect(await ledgerOf(rider)).toEqual([]);
    expect(await wallet(driver)).toBe(3);
    await t.runJobs();
    const [settled] = await refundOf(b.id);
    expect(settled).toMatchObject({ status: 'succeeded', providerRefundId: expect.stringMatching(/^test_refund_/), confirmedAt: t.clock.now, attempts: 1 });
    const notices = await t.db.select().from(outbox).where(eq(outbox.recipient, rider.id));
    expect(notices.map((n) => n.payload.msg)).toContainEqual(expect.stringContaining('Your refund of'));
    // Replays refund nothing more: the job again, the cancel again.
    await t.runJobs();
    expect(codeOf(await cancel(rider, b.id))).toBe('invalid_transition');
    expect(await refundOf(b.id)).toEqual([expect.objectContaining({ status: 'succeeded', attempts: 1 })]);
    expect(await ledgerOf(rider)).toEqual([]);
  });

  it('card: a cancel in the free window refunds all of it; an admin cancel after arrival too', async () => {
    const rider = await t.makeUser('rider');
    const driver = await onlineDriver();
    const free = await prepaidDelivery(rider, driver, 'card');
    expect((await cancel(rider, free.id)).json()).toMatchObject({ cancellationCharge: 0, refundAmount: free.paidMinor / 100 });
    expect(await refundOf(free.id)).toEqual([expect.objectContaining({ amountMinor: free.paidMinor, status: 'requested' })]);

    const arrived = await prepaidDelivery(rider, driver, 'card');
    for (const step of ['accept', 'arrive']) expect((await t.request({ method: 'POST', url: `/api/bookings/${arrived.id}/${step}`, as: driver })).statusCode).toBe(200);
    t.advance(15 * 60_000);
    expect((await cancel(admin, arrived.id)).json()).toMatchObject({ cancelledBy: 'admin', cancellationCharge: 0, refundAmount: arrived.paidMinor / 100 });
    await t.runJobs();
    for (const id of [free.id, arrived.id]) expect(await refundOf(id)).toEqual([expect.objectContaining({ status: 'succeeded' })]);
  });

  it('the no-taker cancel (system) gives a prepaid booking back in full', async () => {
    const rider = await t.makeUser('rider');
    const driver = await onlineDriver();
    await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: rider.id, amount: 50 } });
    const b = await prepaidDelivery(rider, driver, 'wallet');
    t.advance((t.config.NO_TAKER_CANCEL_S + 1) * 1000);
    await t.runJobs();
    const row = (await t.db.select().from(bookings).where(eq(bookings.id, b.id)))[0];
    expect(row).toMatchObject({ status: 'CANCELLED', cancelledBy: 'system', refundAmountMinor: b.paidMinor });
    expect(await wallet(rider)).toBe(50);
    await expectLedgerIsBalance(rider);
  });

  it('a refund the provider does not answer stays requested and is asked again later', async () => {
    const rider = await t.makeUser('rider');
    const driver = await onlineDriver();
    const b = await prepaidDelivery(rider, driver, 'card');
    // A provider with no adapter here (not configured any more): its answer is unknown.
    await t.db.update(payments).set({ provider: 'stripe' }).where(eq(payments.bookingId, b.id));
    await cancel(rider, b.id);
    await t.runJobs();
    expect(await refundOf(b.id)).toEqual([expect.objectContaining({ provider: 'stripe', status: 'requested', attempts: 1, lastError: expect.stringContaining('stripe') })]);
    // The adapter is back: the next try, 30 s later, is confirmed.
    await t.db.update(refunds).set({ provider: 'test' }).where(eq(refunds.bookingId, b.id));
    await t.runJobs();
    expect((await refundOf(b.id))[0]?.status).toBe('requested');
    t.advance(30_000);
    await t.runJobs();
    expect(await refundOf(b.id)).toEqual([expect.objectContaining({ status: 'succeeded', attempts: 2 })]);
  });

  it('a rider and an admin cancelling at once refund once', async () => {
    const rider = await t.makeUser('rider');
    const driver = await onlineDriver();
    await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: rider.id, amount: 50 } });
    const b = await prepaidDelivery(rider, driver, 'wallet');
    const answers = await Promise.all([cancel(rider, b.id), cancel(admin, b.id), cancel(rider, b.id)]);
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    expect(answers.every((answer) => answer.statusCode === 200 || codeOf(answer) === 'invalid_transition')).toBe(true);
    expect(await wallet(rider)).toBe(50);
    expect((await ledgerOf(rider)).filter((entry) => entry.txRef === 'Refund')).toHaveLength(1);
  });
});
