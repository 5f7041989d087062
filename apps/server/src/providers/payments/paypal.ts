import type { Order } from '@paypal/paypal-server-sdk';
import { toProviderDecimal } from '@rideway/domain';
import type { Config } from '../../config';
import {
  describeFailure,
  isApiError,
  isMalformedAnswer,
  isTransientStatus,
  loadSdk,
  paypalIssue,
  PaypalCredentialsError,
  paypalSettings,
  sdkClient,
  TokenKeeper,
} from './paypal-client';
import { captureOutcome, MalformedPaypalAnswer, orderFailed } from './paypal-events';
import { verifiedNotification } from './paypal-notifications';
import { ProviderUnavailableError, RetryableRefundError, type Checkout, type CheckoutRequest, type PaymentEvent, type PaymentProviderPort, type RefundRequest, type RefundResult } from './port';

/**
 * PayPal, Orders v2 through the official `@paypal/paypal-server-sdk` (paypal-client.ts says how it
 * is reached, and how tests route it to their stand-in):
 * 1. `createCheckout`: an order (intent CAPTURE, one purchase unit whose `custom_id` and
 *    `reference_id` are our reference, the amount as PayPal's decimal string, the return and cancel
 *    URLs in `payment_source.paypal.experience_context`), created once per idempotency key
 *    (`PayPal-Request-Id`). The rider is sent to its `payer-action` link (`approve` for an order
 *    made the older way).
 * 2. `complete`: the rider came back to the return URL; the server captures the order (again once
 *    per key). What the browser brings (`token`, `PayerID`) is not read: the order id is the one
 *    recorded at checkout, and the money is what PayPal's capture answer says.
 * 3. `parseNotification`: webhooks verified by PayPal (paypal-notifications.ts).
 * 4. `lookup`: the order as PayPal has it now.
 * 5. `refund`: a refund of the capture, in full or in part, once per key.
 * No cards on file: PayPal's vault is not used.
 */

/** `complete` on an order the rider has not approved (yet): nothing was taken and the order stays open. A refusal, not an outage. */
export class PaypalOrderNotApprovedError extends Error {
  constructor(readonly orderId: string) {
    super(`paypal: order ${orderId} is not approved by the payer yet`);
    this.name = 'PaypalOrderNotApprovedError';
  }
}

/** PayPal said no for good (a 4xx other than 401, 408 and 429). */
export class PaypalRefusalError extends Error {
  constructor(
    what: string,
    readonly status: number,
    readonly issue: string | undefined,
  ) {
    super(`paypal: ${what} refused: HTTP ${status}${issue ? ` ${issue}` : ''}`);
    this.name = 'PaypalRefusalError';
  }
}

/** PayPal's hosted pages, for the security policy's form-action (the checkout route redirects a posted form there). */
export function paypalCheckoutOrigins(config: Config): string[] {
  const origins = [config.PAYPAL_ENVIRONMENT === 'live' ? 'https://www.paypal.com' : 'https://www.sandbox.paypal.com'];
  if (config.PAYPAL_API_URL) origins.push(new URL(config.PAYPAL_API_URL).origin);
  return origins;
}

export function paypalProvider(config: Config): PaymentProviderPort {
  const settings = paypalSettings(config);
  const tokens = new TokenKeeper(settings);

  /** Sorts a failed call: unknown outcome (ProviderUnavailableError) or a refusal. */
  const sorted = (what: string, error: unknown): Error => {
    if (error instanceof PaypalCredentialsError || error instanceof PaypalOrderNotApprovedError || error instanceof PaypalRefusalError) return error;
    if (error instanceof ProviderUnavailableError) return error;
    if (isApiError(error)) {
      if (error.statusCode === 401 || isTransientStatus(error.statusCode)) return new ProviderUnavailableError('paypal', `paypal: ${what}: ${describeFailure(error)}`);
      return new PaypalRefusalError(what, error.statusCode, paypalIssue(error));
    }
    if (error instanceof MalformedPaypalAnswer) return new ProviderUnavailableError('paypal', `paypal: ${what}: ${error.message.replace(/^paypal: /, '')}`);
    if (error instanceof RangeError) return error;
    return new ProviderUnavailableError('paypal', `paypal: ${what}: ${describeFailure(error)}`);
  };

  /**
   * Runs one SDK call with the kept token. A 401 (a token PayPal revoked or expired early) drops it
   * and the call is made once more with a new one: PayPal did nothing with the refused call, and
   * every call that creates something carries its PayPal-Request-Id, so asking again is safe.
   */
  async function withSdk<T>(run: (sdk: Awaited<ReturnType<typeof loadSdk>>, client: Awaited<ReturnType<typeof sdkClient>>) => Promise<T>, retried = false): Promise<T> {
    const [sdk, token] = await Promise.all([loadSdk(), tokens.get()]);
    const client = await sdkClient(settings, token);
    try {
      return await run(sdk, client);
    } catch (error) {
      if (!isApiError(error) || error.statusCode !== 401) throw error;
      tokens.forget();
      if (retried) throw error;
      return withSdk(run, true);
    }
  }

  const getOrder = (orderId: string): Promise<Order> => withSdk(async (sdk, client) => (await new sdk.OrdersController(client).getOrder({ id: orderId })).result);

  async function createCheckout(request: CheckoutRequest): Promise<Checkout> {
    const currency = request.currency.toUpperCase();
    const value = toProviderDecimal(request.amountMinor, currency);
    try {
      const order = await withSdk(async (sdk, client) => {
        const answer = await new sdk.OrdersController(client).createOrder({
          body: {
            intent: sdk.CheckoutPaymentIntent.Capture,
            purchaseUnits: [{ referenceId: request.reference, customId: request.reference, description: request.description.slice(0, 127), amount: { currencyCode: currency, value } }],
            paymentSource: {
              paypal: {
                experienceContext: {
                  returnUrl: request.returnUrl,
                  cancelUrl: request.cancelUrl,
                  userAction: sdk.PaypalExperienceUserAction.PayNow,
                  shippingPreference: sdk.PaypalWalletContextShippingPreference.NoShipping,
                },
              },
            },
          },
          paypalRequestId: request.idempotencyKey,
          prefer: 'return=minimal',
        });
        return answer.result;
      });
      const link = order.links?.find((candidate) => candidate.rel === 'payer-action') ?? order.links?.find((candidate) => candidate.rel === 'approve');
      if (!order.id || !link?.href.startsWith('http')) throw new MalformedPaypalAnswer('an order without an id or a payer-action link');
      return { kind: 'redirect', url: link.href, checkoutId: order.id };
    } catch (error) {
      throw sorted('creating the order', error);
    }
  }

  async function complete(orderId: string, _browserPayload: Record<string, string>, idempotencyKey: string): Promise<PaymentEvent> {
    try {
      const order = await withSdk(async (sdk, client) => (await new sdk.OrdersController(client).captureOrder({ id: orderId, paypalRequestId: idempotencyKey, prefer: 'return=representation' })).result);
      return captureOutcome(order);
    } catch (error) {
      if (isApiError(error) && error.statusCode === 422) {
        const issue = paypalIssue(error);
        // The rider came back without approving (or cancelled): nothing happened, the order stays payable.
        if (issue === 'ORDER_NOT_APPROVED' || issue === 'PAYER_ACTION_REQUIRED') throw new PaypalOrderNotApprovedError(orderId);
        try {
          // The funding source was declined: a failed payment (the rider may pay again). Read the order for its reference and amount.
          if (issue === 'INSTRUMENT_DECLINED' || issue === 'REDIRECT_PAYER_FOR_ALTERNATE_FUNDING') return orderFailed(await getOrder(orderId), `${issue}:${idempotencyKey}`);
          // Captured already (an earlier return, or another key): what that capture took.
          if (issue === 'ORDER_ALREADY_CAPTURED') return captureOutcome(await getOrder(orderId));
        } catch (lookupError) {
          throw sorted('reading the order after its capture', lookupError);
        }
      }
      throw sorted('capturing the order', error);
    }
  }

  async function lookup(orderId: string): Promise<PaymentEvent | undefined> {
    try {
      const order = await getOrder(orderId);
      const status: string | undefined = order.status;
      switch (status) {
        case 'COMPLETED':
          return captureOutcome(order);
        case 'VOIDED':
          return orderFailed(order, 'VOIDED');
        case 'CREATED':
        case 'SAVED':
        case 'APPROVED':
        case 'PAYER_ACTION_REQUIRED':
          return undefined;
        default:
          throw new MalformedPaypalAnswer('an order without a status');
      }
    } catch (error) {
      throw sorted('reading the order', error);
    }
  }

  async function refund(request: RefundRequest): Promise<RefundResult> {
    const currency = request.currency.toUpperCase();
    const value = toProviderDecimal(request.amountMinor, currency);
    try {
      const answer = await withSdk(async (sdk, client) =>
        (
          await new sdk.PaymentsController(client).refundCapturedPayment({
            captureId: request.transactionId,
            paypalRequestId: request.idempotencyKey,
            prefer: 'return=representation',
            body: { amount: { currencyCode: currency, value } },
          })
        ).result,
      );
      const status: string | undefined = answer.status;
      if (status === 'COMPLETED' && answer.id) return { status: 'succeeded', providerRefundId: answer.id };
      // PENDING (an eCheck, a balance to fund): asked again later with the same key, PayPal answers this refund again.
      if (status === 'PENDING') throw new RetryableRefundError(`paypal: refund ${answer.id ?? ''} is pending at PayPal`);
      if (status === 'FAILED' || status === 'CANCELLED') return { status: 'failed', reason: `${status}${answer.statusDetails?.reason ? ` ${answer.statusDetails.reason}` : ''}` };
      throw new RetryableRefundError('paypal: refund: a malformed answer');
    } catch (error) {
      if (error instanceof RetryableRefundError) throw error;
      if (isApiError(error) && error.statusCode !== 401 && !isTransientStatus(error.statusCode)) {
        return { status: 'failed', reason: `HTTP ${error.statusCode}${paypalIssue(error) ? ` ${paypalIssue(error) ?? ''}` : ''}` };
      }
      // Unknown outcome: the network, a timeout, 401, 429, 5xx, a malformed answer, or the credentials (fixed by the operator, then asked again).
      throw new RetryableRefundError(`paypal: refund: ${isMalformedAnswer(error) ? 'a malformed answer' : describeFailure(error)}`);
    }
  }

  return {
    name: 'paypal',
    checkoutLink: '/api/payments/paypal/checkout',
    testMode: !settings.live,
    createCheckout,
    complete,
    lookup,
    parseNotification: (rawBody, headers) => verifiedNotification(settings, tokens, rawBody, headers),
    refund,
    policy: { formAction: paypalCheckoutOrigins(config) },
  };
}
