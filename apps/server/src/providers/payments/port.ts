import type { PaymentProvider } from '@rideway/contract';

/**
 * The payment provider port, with Medusa's verbs (STYLE.md, adapters): a provider starts a
 * checkout for an amount, tells what happened to it (its signed notification, or a server-side
 * lookup: never what a browser reports), and gives money back. One adapter per provider
 * (test, stripe, paypal, braintree, ...), each switched on by its configuration.
 *
 * Amounts cross the port in this product's minor units (hundredths of the settings currency,
 * packages/domain money); an adapter converts them to the provider's smallest unit with
 * `toProviderUnits` / `fromProviderUnits` (packages/domain), never inline. Every call that creates
 * something at the provider carries an idempotency key, so asking twice creates once.
 *
 * Calls to a provider are made outside database transactions: the caller records its intent
 * first and the outcome after (issue 18; ARCHITECTURE rule 2).
 */

/** What a checkout pays for: our own reference, which the provider echoes back in its notification. */
export type PaymentPurpose = { kind: 'booking'; bookingId: string } | { kind: 'topup'; topupId: string };

export type CheckoutRequest = {
  purpose: PaymentPurpose;
  /** Our reference for the provider (Stripe client_reference_id, PayPal custom_id, Braintree orderId): the booking's or top-up's id. */
  reference: string;
  amountMinor: number;
  currency: string;
  /** Shown on the provider's page: the app's name and the booking's reference. */
  description: string;
  customer: { uid: string; email: string; firstName: string; lastName: string; mobile: string };
  /** Absolute URLs of this app the provider sends the rider back to. */
  returnUrl: string;
  cancelUrl: string;
  idempotencyKey: string;
  /** The rider asked to keep the card for later trips (Stripe: setup_future_usage off_session); adapters without cards on file ignore it. */
  saveCard?: boolean;
};

/**
 * How the browser continues a checkout:
 * - `redirect`: open the provider's hosted page (Stripe Checkout's url, PayPal's approve link);
 * - `form`: post the section 4 form fields to `action` (the embedded test provider);
 * - `client`: the provider's browser script needs this client token (Braintree Drop-in), and the
 *   browser hands back a nonce, which the server completes with `complete`.
 * `checkoutId` is the provider's id of this checkout (session, order), kept to look it up later.
 */
export type Checkout =
  | { kind: 'redirect'; url: string; checkoutId: string }
  | { kind: 'form'; action: string; fields: Record<string, string>; checkoutId: string }
  /** `script`: the provider's browser script, when it comes from the configuration (Culqi Checkout's URL) rather than checkout-page.ts. */
  | { kind: 'client'; clientToken: string; checkoutId: string; script?: string };

/**
 * A provider's news about money, normalised: from a verified notification (`parseNotification`),
 * a lookup (`lookup`) or a completion (`complete`). `eventId` is unique per provider and makes
 * recording it idempotent. Amount and currency are what the provider says it took or gave back,
 * in our minor units: the shared confirmation path checks them against the booking.
 */
export type PaymentEvent =
  | {
      type: 'payment_succeeded' | 'payment_failed' | 'payment_pending';
      eventId: string;
      /** Our reference from the checkout request, as the provider echoes it. */
      reference: string;
      /** The provider's id of the money movement (payment intent, capture, transaction), refunded later by this id. */
      transactionId: string;
      amountMinor: number;
      currency: string;
      /** A card kept for later off-session charges, when the rider asked to save it. */
      savedCard?: SavedCard;
    }
  | { type: 'refund_succeeded' | 'refund_failed'; eventId: string; transactionId: string; providerRefundId: string; amountMinor: number; currency: string }
  | { type: 'dispute_opened'; eventId: string; transactionId: string; amountMinor: number; currency: string; reason: string }
  /** A notification the platform does not act on (another event type): acknowledged and recorded. */
  | { type: 'ignored'; eventId: string; providerType: string };

/** A payment's success, as `chargeSavedCard` answers it (Extract on the union's `type` alone would be `never`, its member's type being a union). */
export type PaymentSucceeded = Extract<PaymentEvent, { reference: string }> & { type: 'payment_succeeded' };

/** A card on file at the provider (Stripe: customer + payment method). Never a card number. */
export type SavedCard = { customerId: string; paymentMethodId: string; brand: string; last4: string; expMonth: number; expYear: number };

export type RefundRequest = {
  /** The provider's transaction that took the money. */
  transactionId: string;
  amountMinor: number;
  currency: string;
  /** Sent as the provider's idempotency key: asking twice refunds once. */
  idempotencyKey: string;
};

/**
 * The provider's answer: `succeeded` once it confirms, `failed` when it refuses for good,
 * `in_dashboard` when its API makes no refunds here (PayFast): an admin refunds in the provider's
 * dashboard and confirms it on the platform (issue 22), `note` saying where. An adapter throws
 * `RetryableRefundError` when the answer is unknown (network, 5xx, rate limit): the refund stays
 * requested and is asked again later, with the same idempotency key.
 */
export type RefundResult = { status: 'succeeded'; providerRefundId: string } | { status: 'failed'; reason: string } | { status: 'in_dashboard'; note: string };

export class RetryableRefundError extends Error {}

/**
 * A provider's call whose outcome is unknown (timeout, network, 5xx, 429): the intent stays
 * recorded and the lookup job settles it later. Anything else an adapter throws is a refusal.
 */
export class ProviderUnavailableError extends Error {
  constructor(
    readonly provider: string,
    message: string,
  ) {
    super(message);
    this.name = 'ProviderUnavailableError';
  }
}

/** A notification whose signature does not verify: answered 400, nothing recorded. */
export class NotificationSignatureError extends Error {
  constructor(readonly provider: string) {
    super(`${provider}: the notification's signature does not verify`);
    this.name = 'NotificationSignatureError';
  }
}

/** The result of charging a saved card without the rider (Stripe off-session). */
export type OffSessionCharge =
  | { status: 'succeeded'; event: PaymentSucceeded }
  /** The bank asks the rider to authenticate: the booking stays payable with a checkout link. */
  | { status: 'requires_action' }
  | { status: 'failed'; reason: string };

export type PaymentProviderPort = {
  /** Section 3 Payment provider name, as /get_providers lists it. */
  name: PaymentProvider['name'];
  /** Where the section 4 card payment form is posted: the app's own start of this provider's checkout. */
  checkoutLink: string;
  /** True for a sandbox or test account (shown to admins). */
  testMode: boolean;
  /** Starts a checkout for the amount. Throws ProviderUnavailableError when the provider cannot be reached. */
  createCheckout?: (request: CheckoutRequest) => Promise<Checkout>;
  /** Finishes a checkout the browser came back from (PayPal capture on return, Braintree sale with the nonce). */
  complete?: (checkoutId: string, browserPayload: Record<string, string>, idempotencyKey: string) => Promise<PaymentEvent>;
  /** Verifies and reads a notification from its raw body and headers; NotificationSignatureError when it does not verify. */
  parseNotification?: (rawBody: Buffer, headers: Record<string, string | string[] | undefined>) => Promise<PaymentEvent>;
  /** Asks the provider what became of a checkout (missed notifications, the return page); undefined while it is still open. */
  lookup?: (checkoutId: string) => Promise<PaymentEvent | undefined>;
  /** Charges a saved card without the rider (card on file). */
  chargeSavedCard?: (card: SavedCard, request: Omit<CheckoutRequest, 'returnUrl' | 'cancelUrl' | 'saveCard'>) => Promise<OffSessionCharge>;
  /** Removes a saved card at the provider (the rider removed it on the profile). */
  removeSavedCard?: (card: SavedCard) => Promise<void>;
  refund: (request: RefundRequest) => Promise<RefundResult>;
  /** The currencies the provider takes (packages/domain payment-currencies); it is offered only for these. Any, when unset. */
  currencies?: readonly string[];
  /**
   * The provider's hosts the browser needs, added to the security policy from the configuration
   * (http/security-policy.ts): where a checkout form is posted or redirected (`form-action`), its
   * browser script (`script-src`), its frames (`frame-src`) and what that script calls
   * (`connect-src`). Origins only, e.g. `https://checkout.stripe.com`.
   */
  policy?: { formAction?: string[]; script?: string[]; frame?: string[]; connect?: string[]; image?: string[] };
};
