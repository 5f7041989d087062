import { currencySymbol, formatMoney } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { bookings } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { renderFor } from '../messages/render';
import { getSettings } from '../settings/service';
import type { ProviderCheckout } from '@rideway/contract';
import type { PaymentProviderPort } from '../../providers/payments/port';
import { autoPostPage, clientPage, type CheckoutSummary } from './checkout-page';
import { startCheckout, type AttemptPaid } from './checkout';

/**
 * What a checkout page tells the rider, from what startCheckout has just recorded: the
 * amount and currency the server holds (never the browser's), the booking's reference or a
 * top-up, and where "Cancel and go back" leads (where the provider's return sends the rider too:
 * return.ts). In the signed-in rider's language (issue 19), which also formats the amount.
 */
export async function checkoutSummary(ctx: AppContext, actor: Actor, attempt: AttemptPaid): Promise<CheckoutSummary> {
  const [settings, render] = await Promise.all([getSettings(ctx.db), renderFor(ctx.db, actor.uid)]);
  // In the attempt's own currency (issue 17), with the settings' symbol when it is the one in force.
  const amount = formatMoney(attempt.amountMinor, { symbol: currencySymbol(attempt.currency, settings), code: attempt.currency }, { withCode: true, locale: render.language });
  const base = { render, appName: settings.appName, amount };
  if (attempt.purpose !== 'booking') return { ...base, paying: { kind: 'topup' }, backPath: '/profile' };
  const booking = (await ctx.db.select({ reference: bookings.reference }).from(bookings).where(eq(bookings.id, attempt.reference)).limit(1))[0];
  return { ...base, paying: { kind: 'booking', reference: booking?.reference ?? attempt.reference }, backPath: `/bookings/${encodeURIComponent(attempt.reference)}` };
}

/**
 * The rider's checkout with a provider: where to go (a provider's own page), or the page this
 * server shows around the provider's form or browser script, with what is paid.
 */
export async function openCheckout(ctx: AppContext, actor: Actor, provider: PaymentProviderPort, form: ProviderCheckout): Promise<{ redirect: string } | { html: string }> {
  const { checkout, attemptId, attempt } = await startCheckout(ctx, actor, provider, form);
  if (checkout.kind === 'redirect') return { redirect: checkout.url };
  const summary = await checkoutSummary(ctx, actor, attempt);
  return { html: checkout.kind === 'form' ? autoPostPage(provider.name, checkout, summary) : clientPage(provider.name, checkout, attemptId, summary) };
}
