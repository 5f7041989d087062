/**
 * Security-critical: a provider's notification (issue 18). The adapter verifies its signature on
 * the raw body; one that does not verify is answered 400 and nothing is recorded. A verified one
 * goes through the shared confirmation path, which records it once (a replay changes nothing).
 * A provider that could not be asked (PayPal's verification call) answers 502, so the provider
 * sends it again later.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { AppContext } from '../../context';
import { AppError } from '../../http/app-error';
import { NotificationSignatureError, ProviderUnavailableError, type PaymentEvent, type PaymentProviderPort } from '../../providers/payments/port';
import { applyPaymentEvent, type EventOutcome } from './confirm';

export async function receiveNotification(ctx: AppContext, provider: PaymentProviderPort, raw: Buffer, headers: IncomingHttpHeaders): Promise<EventOutcome> {
  const parse = provider.parseNotification;
  if (!parse) throw new AppError('not_found');
  let event: PaymentEvent;
  try {
    event = await parse(raw, headers);
  } catch (error) {
    if (error instanceof ProviderUnavailableError) throw new AppError('payment_provider_error');
    if (error instanceof NotificationSignatureError) throw new AppError('validation_error', 'signature');
    throw new AppError('validation_error', 'body');
  }
  return applyPaymentEvent(ctx, provider.name, event, 'notification');
}
