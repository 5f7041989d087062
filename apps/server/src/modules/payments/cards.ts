/**
 * Security-critical: cards on file (issue 18). A card is kept when the rider asked for it at a
 * checkout (the provider's `payment_succeeded.savedCard`): the provider's customer and payment
 * method ids, the brand, the last 4 digits and the expiry, never a card number. A card trip handed
 * over to the rider (PENDING) is charged to the newest card on file of a provider in force, by a
 * job after the step commits, with no rider action; when the bank asks the rider to authenticate,
 * or the card is declined, the booking stays PENDING and the rider gets a Pay now notice.
 */
import type { SavedCardView } from '@rideway/contract';
import { and, desc, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { bookings, paymentAttempts, savedCards, users } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import type { JobHandler } from '../../jobs/runner';
import { providersInForce, refundingProvider } from '../../providers/payments/in-force';
import { ProviderUnavailableError, type OffSessionCharge, type SavedCard } from '../../providers/payments/port';
import { CARD_ON_FILE_JOB } from '../bookings';
import { enqueue } from '../outbox/service';
import { getSettings } from '../settings/service';
import { applyPaymentEvent } from './confirm';
import { renderFor } from '../messages/render';

type CardRow = typeof savedCards.$inferSelect;

const portCard = (row: CardRow): SavedCard => ({ customerId: row.customerId, paymentMethodId: row.paymentMethodId, brand: row.brand, last4: row.last4, expMonth: row.expMonth, expYear: row.expYear });

const viewOf = (row: CardRow): SavedCardView => ({ id: row.id, provider: row.provider as SavedCardView['provider'], brand: row.brand, last4: row.last4, expMonth: row.expMonth, expYear: row.expYear, createdAt: row.createdAt });

/** GET /api/me/cards: the caller's own cards, newest first. */
export async function listCards(ctx: AppContext, actor: Actor): Promise<{ cards: SavedCardView[] }> {
  const rows = await ctx.db.select().from(savedCards).where(eq(savedCards.uid, actor.uid)).orderBy(desc(savedCards.id));
  return { cards: rows.map(viewOf) };
}

/** DELETE /api/me/cards/:id: the row goes first (never charged again), then the provider is asked to forget the card. */
export async function removeCard(ctx: AppContext, actor: Actor, id: number): Promise<{ ok: true }> {
  const removed = (await ctx.db.delete(savedCards).where(and(eq(savedCards.id, id), eq(savedCards.uid, actor.uid))).returning())[0];
  if (!removed) throw new AppError('not_found');
  try {
    await refundingProvider(ctx.config, removed.provider)?.removeSavedCard?.(portCard(removed));
  } catch {
    // The card is no longer on file here whatever the provider answered: it is never charged again.
  }
  return { ok: true };
}

/** The card trip's charge to the rider's card on file: once per booking (its idempotency key), outside any transaction. */
export async function chargeCardOnFile(ctx: AppContext, bookingId: string): Promise<void> {
  const booking = (await ctx.db.select().from(bookings).where(eq(bookings.id, bookingId)).limit(1))[0];
  if (booking?.status !== 'PENDING' || booking.paymentMode !== 'card') return;
  const providers = (await providersInForce(ctx.db, ctx.config)).filter((provider) => provider.chargeSavedCard);
  const cards = await ctx.db.select().from(savedCards).where(eq(savedCards.uid, booking.customer)).orderBy(desc(savedCards.id));
  const card = cards.find((row) => providers.some((provider) => provider.name === row.provider));
  const provider = providers.find((candidate) => candidate.name === card?.provider);
  const charge = provider?.chargeSavedCard;
  if (!card || !provider || !charge) return;
  const settings = await getSettings(ctx.db);
  const customer = (await ctx.db.select().from(users).where(eq(users.id, booking.customer)).limit(1))[0];
  const id = `offsession:${booking.id}`;
  const now = ctx.now();
  await ctx.db
    .insert(paymentAttempts)
    .values({ id, provider: provider.name, purpose: 'booking', reference: booking.id, uid: booking.customer, kind: 'off_session', amountMinor: booking.customerPaidMinor, currency: booking.currency, status: 'open', createdAt: now, updatedAt: now })
    .onConflictDoNothing();
  const attempt = (await ctx.db.select({ status: paymentAttempts.status }).from(paymentAttempts).where(eq(paymentAttempts.id, id)).limit(1))[0];
  if (attempt?.status !== 'open') return;
  let result: OffSessionCharge;
  try {
    result = await charge(portCard(card), {
      purpose: { kind: 'booking', bookingId: booking.id },
      reference: booking.id,
      amountMinor: booking.customerPaidMinor,
      currency: booking.currency,
      description: `${settings.appName} ${booking.reference}`,
      customer: { uid: booking.customer, email: customer?.email ?? '', firstName: customer?.firstName ?? '', lastName: customer?.lastName ?? '', mobile: customer?.mobile ?? '' },
      idempotencyKey: id,
    });
  } catch (error) {
    // Unknown outcome: the job asks again with the same key, so the card is charged at most once.
    if (error instanceof ProviderUnavailableError) throw error;
    result = { status: 'failed', reason: error instanceof Error ? error.message : 'refused' };
  }
  if (result.status === 'succeeded') {
    await applyPaymentEvent(ctx, provider.name, result.event, 'off_session');
    return;
  }
  await ctx.db.transaction(async (tx) => {
    const closed = await tx
      .update(paymentAttempts)
      .set({ status: 'failed', lastError: result.status === 'failed' ? result.reason.slice(0, 500) : 'requires_action', updatedAt: ctx.now() })
      .where(and(eq(paymentAttempts.id, id), eq(paymentAttempts.status, 'open')))
      .returning({ id: paymentAttempts.id });
    if (closed.length === 0) return;
    const render = await renderFor(tx, booking.customer);
    const msg = render(result.status === 'requires_action' ? 'push_card_needs_approval' : 'push_card_declined', { reference: booking.reference });
    await enqueue(tx, { channel: 'push', recipient: booking.customer, payload: { title: settings.appName, msg, screen: 'BookedCab', params: { bookingId: booking.id } } }, ctx.now());
  });
}

export function cardJobs(ctx: AppContext): Record<string, JobHandler> {
  return {
    [CARD_ON_FILE_JOB]: async (payload) => {
      if (typeof payload.bookingId !== 'string') throw new Error('card on file job without a bookingId');
      await chargeCardOnFile(ctx, payload.bookingId);
    },
  };
}
