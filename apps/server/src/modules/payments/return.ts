/**
 * The rider comes back from a provider's page (issue 18): the server asks the provider itself
 * (`complete`: PayPal's capture, Braintree's sale with the nonce; else `lookup`), confirms through
 * the shared path, and sends the rider to the booking's page (or the profile, for a top-up) with
 * the result. What the browser brings is never taken as a payment: the attempt's own record
 * names the checkout, and the server's amount goes to the provider.
 */
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { paymentAttempts } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import type { PaymentEvent, PaymentProviderPort } from '../../providers/payments/port';
import { applyPaymentEvent, type EventOutcome } from './confirm';

type Attempt = typeof paymentAttempts.$inferSelect;
export type ReturnResult = 'paid' | 'failed' | 'pending' | 'cancelled' | 'refunded';

const resultOf = (outcome: EventOutcome['outcome']): ReturnResult =>
  outcome === 'paid' || outcome === 'credited' || outcome === 'duplicate' ? 'paid' : outcome === 'failed' || outcome === 'mismatch' ? 'failed' : outcome === 'refunded_late' ? 'refunded' : 'pending';

/** Where the web app shows the result. */
export const landingOf = (attempt: Pick<Attempt, 'purpose' | 'reference'> | undefined, result: ReturnResult): string =>
  attempt?.purpose === 'booking' ? `/bookings/${encodeURIComponent(attempt.reference)}?payment=${result}` : `/profile?topup=${result}`;

const findAttempt = async (ctx: AppContext, provider: string, id: string): Promise<Attempt | undefined> =>
  (await ctx.db.select().from(paymentAttempts).where(and(eq(paymentAttempts.id, id), eq(paymentAttempts.provider, provider))).limit(1))[0];

/** The state of an attempt already closed. */
const closedResult = (attempt: Attempt): ReturnResult => (attempt.status === 'succeeded' ? 'paid' : attempt.status === 'open' ? 'pending' : 'failed');

async function settle(ctx: AppContext, provider: PaymentProviderPort, attempt: Attempt, ask: () => Promise<PaymentEvent | undefined>, source: 'complete' | 'lookup'): Promise<ReturnResult> {
  let event: PaymentEvent | undefined;
  try {
    event = await ask();
  } catch {
    // Not answered (unreachable, or not approved yet): the lookup job settles it later.
    return 'pending';
  }
  if (!event) return 'pending';
  const { outcome } = await applyPaymentEvent(ctx, provider.name, event, source);
  return resultOf(outcome);
}

/** GET /api/payments/:provider/return: the provider's redirect back (or its cancel link). */
export async function returnFromProvider(ctx: AppContext, provider: PaymentProviderPort, query: { attempt: string; cancelled?: string | undefined; status?: string | undefined }): Promise<string> {
  const attempt = await findAttempt(ctx, provider.name, query.attempt);
  if (!attempt) return landingOf(undefined, 'pending');
  if (attempt.status !== 'open' || !attempt.checkoutId) return landingOf(attempt, attempt.status === 'open' ? 'pending' : closedResult(attempt));
  const checkoutId = attempt.checkoutId;
  // Our own cancel link, or Flutterwave's redirect after Cancel: the provider is still asked what happened.
  if (query.cancelled === '1' || query.status === 'cancelled') {
    const result = provider.lookup ? await settle(ctx, provider, attempt, () => provider.lookup?.(checkoutId) ?? Promise.resolve(undefined), 'lookup') : 'pending';
    return landingOf(attempt, result === 'pending' ? 'cancelled' : result);
  }
  const complete = provider.complete;
  const result = complete
    ? await settle(ctx, provider, attempt, () => complete(checkoutId, expectedOf(attempt), `${attempt.id}:complete`), 'complete')
    : provider.lookup
      ? await settle(ctx, provider, attempt, () => provider.lookup?.(checkoutId) ?? Promise.resolve(undefined), 'lookup')
      : 'pending';
  return landingOf(attempt, result);
}

/** The server's own record of what the checkout charges, over anything the browser posted under these names. */
const expectedOf = (attempt: Attempt): Record<string, string> => ({ amount_minor: String(attempt.amountMinor), currency: attempt.currency, reference: attempt.reference });

/**
 * POST /api/payments/:provider/complete: the nonce a provider's browser script gave (Braintree
 * Drop-in), posted from our own page by the attempt's rider; charged for the attempt's amount.
 */
export async function completeClientCheckout(ctx: AppContext, actor: Actor, provider: PaymentProviderPort, body: { attempt: string; payment_method_nonce: string; device_data?: string | undefined }, customerIp?: string): Promise<string> {
  const attempt = await findAttempt(ctx, provider.name, body.attempt);
  const complete = provider.complete;
  if (attempt?.uid !== actor.uid || !complete) throw new AppError('not_found');
  if (attempt.status !== 'open' || !attempt.checkoutId) return landingOf(attempt, closedResult(attempt));
  const checkoutId = attempt.checkoutId;
  // The rider's address (behind a proxy, with TRUST_PROXY): a provider's fraud screening reads it (SecurePay requires it).
  const browser = { payment_method_nonce: body.payment_method_nonce, ...(body.device_data ? { device_data: body.device_data } : {}), ...(customerIp ? { customer_ip: customerIp } : {}) };
  const result = await settle(ctx, provider, attempt, () => complete(checkoutId, { ...browser, ...expectedOf(attempt) }, `${attempt.id}:complete`), 'complete');
  return landingOf(attempt, result);
}
