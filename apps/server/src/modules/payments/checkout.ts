/**
 * Security-critical: starting a checkout at a payment provider (issue 18). Only the signed-in
 * rider's own card-payable booking (or own pending top-up) is checked out, for the amount the
 * server holds (the booking's customer_paid), never one the browser sent. The intent is recorded
 * before the provider is called and the provider's checkout id after, each in its own short
 * write, never with a transaction open around the call (ARCHITECTURE rule 2); the lookup job
 * (lookup.ts) settles an attempt whose answer was lost.
 */
import { randomUUID } from 'node:crypto';
import type { ProviderCheckout } from '@rideway/contract';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { paymentAttempts, topups } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import { schedule } from '../../jobs/runner';
import { ProviderUnavailableError, type Checkout, type PaymentProviderPort, type PaymentPurpose } from '../../providers/payments/port';
import { getSettings } from '../settings/service';
import { LOOKUP_JOB, lookupDelayMs } from './lookup';
import { ownCardPayableBooking } from './service';

/** The app's own address, for the URLs a provider sends the rider back to. */
export const publicBase = (ctx: AppContext): string => (ctx.config.PUBLIC_URL ?? `http://${ctx.config.HOST}:${String(ctx.config.PORT)}`).replace(/\/$/, '');

/** True for a provider that can keep a card and charge it later (card on file). */
export const savesCards = (provider: PaymentProviderPort): boolean => provider.chargeSavedCard !== undefined;

type Payable = { purpose: PaymentPurpose; reference: string; amountMinor: number; currency: string; description: string };

async function payableOf(ctx: AppContext, actor: Actor, provider: PaymentProviderPort, form: ProviderCheckout): Promise<Payable> {
  const settings = await getSettings(ctx.db);
  if (form.topup_id !== undefined) {
    const topup = (await ctx.db.select().from(topups).where(and(eq(topups.id, form.topup_id), eq(topups.uid, actor.uid))).limit(1))[0];
    if (!topup || topup.provider !== provider.name) throw new AppError('not_found');
    if (topup.status !== 'pending') throw new AppError('invalid_transition');
    return { purpose: { kind: 'topup', topupId: topup.id }, reference: topup.id, amountMinor: topup.amountMinor, currency: topup.currency, description: `${settings.appName} wallet top-up` };
  }
  const booking = await ownCardPayableBooking(ctx, actor, form.order_id);
  return { purpose: { kind: 'booking', bookingId: booking.id }, reference: booking.id, amountMinor: booking.customerPaidMinor, currency: booking.currency, description: `${settings.appName} ${booking.reference}` };
}

/** What an attempt pays, as recorded: for the checkout page (checkout-summary.ts). */
export type AttemptPaid = { purpose: string; reference: string; amountMinor: number; currency: string };

/** Starts the provider's checkout of the rider's booking or top-up: the intent first, the provider's checkout id after. */
export async function startCheckout(ctx: AppContext, actor: Actor, provider: PaymentProviderPort, form: ProviderCheckout): Promise<{ checkout: Checkout; attemptId: string; attempt: AttemptPaid }> {
  const create = provider.createCheckout;
  if (!create) throw new AppError('not_found');
  const payable = await payableOf(ctx, actor, provider, form);
  const saveCard = form.save_card === '1' && savesCards(provider);
  const id = randomUUID();
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    await tx.insert(paymentAttempts).values({ id, provider: provider.name, purpose: payable.purpose.kind, reference: payable.reference, uid: actor.uid, amountMinor: payable.amountMinor, currency: payable.currency, status: 'open', saveCard, createdAt: now, updatedAt: now });
    await schedule(tx, LOOKUP_JOB, now + lookupDelayMs(0), { attemptId: id, round: 0 });
  });
  const back = `${publicBase(ctx)}/api/payments/${provider.name}/return?attempt=${id}`;
  let checkout: Checkout;
  try {
    checkout = await create({
      purpose: payable.purpose,
      reference: payable.reference,
      amountMinor: payable.amountMinor,
      currency: payable.currency,
      description: payable.description,
      customer: { uid: actor.uid, email: actor.user.email ?? '', firstName: actor.user.firstName, lastName: actor.user.lastName, mobile: actor.user.mobile ?? '' },
      returnUrl: back,
      cancelUrl: `${back}&cancelled=1`,
      idempotencyKey: id,
      saveCard,
    });
  } catch (error) {
    // Unknown outcome: the attempt stays open for the lookup job. A refusal closes it.
    if (!(error instanceof ProviderUnavailableError)) {
      const message = error instanceof Error ? error.message.slice(0, 500) : 'refused';
      await ctx.db.update(paymentAttempts).set({ status: 'error', lastError: message, updatedAt: ctx.now() }).where(eq(paymentAttempts.id, id));
    }
    throw new AppError('payment_provider_error');
  }
  await ctx.db.update(paymentAttempts).set({ checkoutId: checkout.checkoutId, updatedAt: ctx.now() }).where(eq(paymentAttempts.id, id));
  return { checkout, attemptId: id, attempt: { purpose: payable.purpose.kind, reference: payable.reference, amountMinor: payable.amountMinor, currency: payable.currency } };
}
