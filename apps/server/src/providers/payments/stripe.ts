import { toProviderUnits } from '@rideway/domain';
import type Stripe from 'stripe';
import type { Config } from '../../config';
import {
  NotificationSignatureError,
  ProviderUnavailableError,
  RetryableRefundError,
  type CheckoutRequest,
  type OffSessionCharge,
  type PaymentEvent,
  type PaymentProviderPort,
  type PaymentPurpose,
} from './port';
import { classifyStripeError, type StripeFailure } from './stripe-errors';
import { malformed, read, sessionEvent, stripeEvent, type StripeLookups } from './stripe-events';
import { ourMoney, paymentIntentWire, referenceOf, refundListWire, refundWire, sessionWire, type PaymentIntentWire } from './stripe-wire';

/**
 * The Stripe adapter, through Stripe's official Node.js SDK (`stripe`), with Stripe's API:
 * - Checkout: `POST /v1/checkout/sessions` (https://docs.stripe.com/api/checkout/sessions/create),
 *   mode `payment`, one line item of `price_data` in the smallest unit; the rider pays on the
 *   session's `url`; `GET /v1/checkout/sessions/:id` (https://docs.stripe.com/api/checkout/sessions/retrieve)
 *   tells what became of it. Asked to keep the card, the session sets
 *   `payment_intent_data.setup_future_usage: off_session` and `customer_creation: always`
 *   (https://docs.stripe.com/payments/checkout/save-during-payment).
 * - Webhooks: the SDK's `webhooks.constructEvent` checks `Stripe-Signature` on the raw body
 *   (https://docs.stripe.com/webhooks#verify-events); stripe-events.ts reads the events.
 * - Card on file: `POST /v1/payment_intents` with `customer`, `payment_method`, `off_session` and
 *   `confirm` (https://docs.stripe.com/payments/save-during-payment#charge-saved-payment-method);
 *   a bank that asks for authentication answers 402 `authentication_required`.
 *   `POST /v1/payment_methods/:id/detach` (https://docs.stripe.com/api/payment_methods/detach).
 * - Refunds: `POST /v1/refunds` with `payment_intent` and `amount` (https://docs.stripe.com/api/refunds/create).
 * Every call that creates something carries our idempotency key as the SDK's `idempotencyKey`
 * request option (`Idempotency-Key`, https://docs.stripe.com/api/idempotent_requests).
 *
 * The SDK is loaded on the first call, so a server without Stripe never loads it.
 */

export const STRIPE_CHECKOUT_PATH = '/api/payments/stripe/checkout';
export const STRIPE_WEBHOOK_PATH = '/api/payments/stripe/webhook';
/** Where Stripe Checkout's hosted page lives: the security policy's form-action and navigation target. */
export const STRIPE_CHECKOUT_ORIGIN = 'https://checkout.stripe.com';

/**
 * Where the browser goes from the checkout route's redirect (`form-action`): Stripe Checkout's
 * page, and with STRIPE_API_URL (a stand-in, which serves its hosted page from the same origin)
 * that origin too. Checkout is a redirect: no script, frame or call of Stripe's in our pages.
 */
export function stripeCheckoutOrigins(config: Pick<Config, 'STRIPE_API_URL'>): string[] {
  return [STRIPE_CHECKOUT_ORIGIN, ...(config.STRIPE_API_URL ? [new URL(config.STRIPE_API_URL).origin] : [])];
}

/**
 * The SDK retries a call once after a lost connection, a 409, a 429 or a 5xx. Safe: every POST
 * carries an idempotency key (ours, or the SDK's own for a retry), so Stripe answers a retry with
 * the first answer. One retry, not more: the caller's own retry (the lookup job, a refund asked
 * again) covers longer outages, and a rider waits at most two timeouts for a checkout.
 */
export const STRIPE_MAX_NETWORK_RETRIES = 1;

const PROVIDER = 'stripe';

/**
 * The SDK's options. STRIPE_API_URL (a test stand-in) is parsed into the SDK's `protocol`, `host`
 * and `port` options: the SDK takes no base URL, and no interceptor is needed.
 */
export function stripeClientOptions(config: Pick<Config, 'STRIPE_API_URL' | 'PAYMENT_TIMEOUT_MS'>): Stripe.StripeConfig {
  const options: Stripe.StripeConfig = { timeout: config.PAYMENT_TIMEOUT_MS, maxNetworkRetries: STRIPE_MAX_NETWORK_RETRIES, telemetry: false, appInfo: { name: 'Rideway' } };
  if (config.STRIPE_API_URL) {
    const url = new URL(config.STRIPE_API_URL);
    options.protocol = url.protocol === 'http:' ? 'http' : 'https';
    options.host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    options.port = url.port || (options.protocol === 'http' ? 80 : 443);
  }
  return options;
}

/**
 * The return URL with `checkout={CHECKOUT_SESSION_ID}` added to its query, which Stripe fills
 * in with the session's id (https://docs.stripe.com/payments/checkout/custom-success-page). The
 * braces stay as they are: Stripe looks for that literal text.
 */
export function successUrl(returnUrl: string): string {
  const url = new URL(returnUrl);
  url.searchParams.delete('checkout');
  const hash = url.hash;
  url.hash = '';
  return `${url.toString()}${url.search ? '&' : '?'}checkout={CHECKOUT_SESSION_ID}${hash}`;
}

/** The metadata that names what a payment is for: `booking_id` or `topup_id`. */
const referenceMetadata = (purpose: PaymentPurpose, reference: string): Record<string, string> => (purpose.kind === 'booking' ? { booking_id: reference } : { topup_id: reference });

const stripeCurrency = (currency: string) => currency.toLowerCase();

type Attempt = { ok: true; value: unknown } | { ok: false; failure: StripeFailure };

/** An unknown outcome as ProviderUnavailableError; a refusal as an Error with Stripe's (masked) message. */
const thrown = (failure: StripeFailure): Error => (failure.kind === 'unavailable' ? new ProviderUnavailableError(PROVIDER, failure.message) : new Error(failure.message));

export function stripeProvider(config: Config): PaymentProviderPort {
  const secretKey = config.STRIPE_SECRET_KEY;
  const webhookSecret = config.STRIPE_WEBHOOK_SECRET;
  if (!secretKey || !webhookSecret) throw new Error('stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
  const options = stripeClientOptions(config);
  let loaded: Promise<Stripe> | undefined;
  const client = () => (loaded ??= import('stripe').then(({ default: StripeClient }) => new StripeClient(secretKey, options)));

  async function attempt(run: (stripe: Stripe) => Promise<unknown>): Promise<Attempt> {
    const stripe = await client();
    try {
      return { ok: true, value: await run(stripe) };
    } catch (error) {
      return { ok: false, failure: classifyStripeError(error) };
    }
  }

  const lookups: StripeLookups = {
    paymentIntent: async (id) => {
      const result = await attempt((stripe) => stripe.paymentIntents.retrieve(id, { expand: ['payment_method'] }));
      if (!result.ok) throw thrown(result.failure);
      return read(paymentIntentWire, result.value, 'payment intent');
    },
    refundsOf: async (chargeId) => {
      const result = await attempt((stripe) => stripe.refunds.list({ charge: chargeId, limit: 100 }));
      if (!result.ok) throw thrown(result.failure);
      return read(refundListWire, result.value, 'refund list').data;
    },
  };

  /** A payment intent's outcome, for a lookup by its id (an off-session charge). */
  function intentEvent(intent: PaymentIntentWire): PaymentEvent | undefined {
    const reference = referenceOf(intent);
    if (!reference) throw new Error(`stripe: payment intent ${intent.id} is not this app's`);
    const money = (units: number) => {
      try {
        return ourMoney(units, intent.currency);
      } catch {
        throw malformed('payment intent amount');
      }
    };
    if (intent.status === 'succeeded') return { type: 'payment_succeeded', eventId: `${intent.id}:succeeded`, reference, transactionId: intent.id, ...money(intent.amount_received ?? intent.amount) };
    if (intent.status === 'canceled' || (intent.status === 'requires_payment_method' && intent.last_payment_error)) {
      return { type: 'payment_failed', eventId: `${intent.id}:failed`, reference, transactionId: intent.id, ...money(intent.amount) };
    }
    return undefined;
  }

  return {
    name: PROVIDER,
    checkoutLink: STRIPE_CHECKOUT_PATH,
    testMode: /^(sk|rk)_test_/.test(secretKey),
    policy: { formAction: stripeCheckoutOrigins(config) },

    async createCheckout(request: CheckoutRequest) {
      const metadata = { ...referenceMetadata(request.purpose, request.reference), ...(request.saveCard ? { save_card: '1' } : {}) };
      const params: Stripe.Checkout.SessionCreateParams = {
        mode: 'payment',
        line_items: [{ quantity: 1, price_data: { currency: stripeCurrency(request.currency), unit_amount: toProviderUnits(request.amountMinor, request.currency), product_data: { name: request.description } } }],
        client_reference_id: request.reference,
        metadata,
        // The payment intent carries the reference too, so its own events (payment_failed) name the booking.
        payment_intent_data: { description: request.description, metadata, ...(request.saveCard ? { setup_future_usage: 'off_session' } : {}) },
        ...(request.saveCard ? { customer_creation: 'always' } : {}),
        customer_email: request.customer.email,
        success_url: successUrl(request.returnUrl),
        cancel_url: request.cancelUrl,
      };
      const result = await attempt((stripe) => stripe.checkout.sessions.create(params, { idempotencyKey: request.idempotencyKey }));
      if (!result.ok) throw thrown(result.failure);
      const session = read(sessionWire, result.value, 'checkout session');
      if (!session.url) throw malformed('checkout session: no url');
      return { kind: 'redirect', url: session.url, checkoutId: session.id };
    },

    async parseNotification(rawBody, headers) {
      const header = headers['stripe-signature'];
      const signature = Array.isArray(header) ? header[0] : header;
      if (!signature) throw new NotificationSignatureError(PROVIDER);
      const stripe = await client();
      let event: unknown;
      try {
        // Checks the v1 HMAC-SHA256 of "<t>.<raw body>" and that t is within 300 s of now.
        event = stripe.webhooks.constructEvent(rawBody, signature, webhookSecret);
      } catch {
        throw new NotificationSignatureError(PROVIDER);
      }
      return stripeEvent(event, lookups);
    },

    async lookup(checkoutId) {
      if (checkoutId.startsWith('pi_')) return intentEvent(await lookups.paymentIntent(checkoutId));
      const result = await attempt((stripe) => stripe.checkout.sessions.retrieve(checkoutId, { expand: ['payment_intent', 'payment_intent.payment_method'] }));
      if (!result.ok) throw thrown(result.failure);
      const session = read(sessionWire, result.value, 'checkout session');
      if (session.status === 'expired') return sessionEvent(`${session.id}:expired`, session, 'payment_failed', lookups);
      if (session.status !== 'complete' || session.payment_status === 'no_payment_required') return undefined;
      const type = session.payment_status === 'paid' ? 'payment_succeeded' : 'payment_pending';
      return sessionEvent(`${session.id}:${type}`, session, type, lookups);
    },

    async chargeSavedCard(card, request): Promise<OffSessionCharge> {
      const params: Stripe.PaymentIntentCreateParams = {
        amount: toProviderUnits(request.amountMinor, request.currency),
        currency: stripeCurrency(request.currency),
        customer: card.customerId,
        payment_method: card.paymentMethodId,
        off_session: true,
        confirm: true,
        description: request.description,
        metadata: referenceMetadata(request.purpose, request.reference),
      };
      const result = await attempt((stripe) => stripe.paymentIntents.create(params, { idempotencyKey: request.idempotencyKey }));
      if (!result.ok) {
        const { failure } = result;
        if (failure.kind === 'card') {
          if (failure.code === 'authentication_required') return { status: 'requires_action' };
          return { status: 'failed', reason: failure.declineCode ? `${failure.code}: ${failure.declineCode}` : failure.code };
        }
        // A detached card or a deleted customer: the card cannot be charged, and nothing was.
        if (failure.kind === 'refused' && !failure.authentication) return { status: 'failed', reason: failure.code ?? 'invalid_request' };
        throw thrown(failure);
      }
      const intent = read(paymentIntentWire, result.value, 'payment intent');
      if (intent.status === 'requires_action') return { status: 'requires_action' };
      const event = intentEvent(intent);
      // The cast: port.ts's `Extract<PaymentEvent, { type: 'payment_succeeded' }>` is `never` today (the
      // member's type is a union of three), so no adapter can name it; reported to the payments core.
      if (event?.type === 'payment_succeeded') return { status: 'succeeded', event } as Extract<OffSessionCharge, { status: 'succeeded' }>;
      if (event?.type === 'payment_failed') return { status: 'failed', reason: intent.last_payment_error?.code ?? intent.status };
      // `processing`: cards do not stay there; the outcome is unknown until `lookup(intent id)` says.
      throw new ProviderUnavailableError(PROVIDER, `stripe: payment intent ${intent.id} is ${intent.status}`);
    },

    async removeSavedCard(card) {
      const result = await attempt((stripe) => stripe.paymentMethods.detach(card.paymentMethodId));
      // Already detached, or unknown to Stripe: it is gone either way.
      if (result.ok || (result.failure.kind === 'refused' && !result.failure.authentication)) return;
      throw thrown(result.failure);
    },

    async refund(request) {
      const params: Stripe.RefundCreateParams = { payment_intent: request.transactionId, amount: toProviderUnits(request.amountMinor, request.currency) };
      const result = await attempt((stripe) => stripe.refunds.create(params, { idempotencyKey: request.idempotencyKey }));
      if (!result.ok) {
        const { failure } = result;
        // Unknown, or a key to fix: asked again later with the same idempotency key.
        if (failure.kind === 'unavailable' || (failure.kind === 'refused' && failure.authentication)) throw new RetryableRefundError(failure.message);
        return { status: 'failed', reason: failure.code ?? failure.message };
      }
      const parsed = refundWire.safeParse(result.value);
      if (!parsed.success) throw new RetryableRefundError('stripe: malformed refund');
      const refund = parsed.data;
      if (refund.status === 'failed' || refund.status === 'canceled') return { status: 'failed', reason: refund.failure_reason ?? refund.status };
      // `pending` (and `requires_action`): Stripe took the refund; if it fails later, `refund.failed` says so.
      return { status: 'succeeded', providerRefundId: refund.id };
    },
  };
}

