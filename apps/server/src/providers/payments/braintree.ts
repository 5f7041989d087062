/**
 * Security-critical: the Braintree adapter takes and gives back money (issue 18, point 4), through
 * the official `braintree` SDK. Its private key stays in braintree-gateway.ts.
 *
 * The flow: `createCheckout` asks for a client token (`clientToken.generate`), the web app's
 * Drop-in turns the rider's card into a nonce, and `complete` charges it with `transaction.sale`
 * (submitted for settlement at once). Braintree has no checkout object before the sale, so the
 * checkout id is this adapter's own: `braintree:<digest of the idempotency key>:<reference>`. It
 * is stable (the same request gives the same id) and carries the reference, which is the sale's
 * `orderId`, so `lookup` can search the gateway for the sale by orderId.
 *
 * THE CONTRACT WITH THE CORE for `complete(checkoutId, browserPayload, idempotencyKey)`:
 * - `browserPayload.payment_method_nonce` (and `device_data`, if any) are the browser's;
 * - `browserPayload.amount_minor`, `.currency` and `.reference` are the SERVER's: the core sets
 *   them from its own record of the checkout (the CheckoutRequest's amountMinor, currency and
 *   reference), after and over anything the browser posted under those names. The amount charged
 *   is `amount_minor`; the browser never chooses it. A `reference` that differs from the checkout
 *   id's is refused.
 * The port's `complete` has no parameter for the server's amount; until it has one, these keys
 * carry it. This adapter already takes it as an optional fourth argument
 * (`{ amountMinor, currency, reference }`), which wins over the keys when given.
 *
 * Idempotency: Braintree's XML API takes no idempotency key. A nonce can be used once (error
 * 91564 on a second sale), so asking twice cannot charge twice; the second answer is recovered
 * by searching the sale by orderId. A refund carries `orderId: refund-<idempotency key>` and is
 * searched for before it is asked, so asking twice refunds once.
 *
 * Amounts: our hundredths to Braintree's decimal string with `toProviderDecimal`, back with
 * `fromProviderDecimal` (packages/domain/src/provider-units.ts). A sale is made in the merchant
 * account's currency, which the request cannot choose: a sale whose currency or amount is not the
 * one asked for is voided at once and reported failed.
 *
 * Braintree documentation: Transaction: Sale with options.submitForSettlement
 * (https://developer.paypal.com/braintree/docs/guides/transactions/), Transaction: Refund ("You
 * can refund transactions that have a status of settled or settling. If the transaction has not
 * yet begun settlement, use Transaction: Void instead",
 * https://developer.paypal.com/braintree/docs/reference/request/transaction/refund/node/),
 * Transaction: Void (https://developer.paypal.com/braintree/docs/reference/request/transaction/void/),
 * Webhooks: Parse (a form post of bt_signature and bt_payload,
 * https://developer.paypal.com/braintree/docs/guides/webhooks/parse/node/).
 */
import { createHash } from 'node:crypto';
import { toProviderDecimal } from '@rideway/domain';
import type braintree from 'braintree';
import type { Config } from '../../config';
import { braintreeGateway, isUnknownOutcome, providerError, scrub, type BraintreeConfig } from './braintree-gateway';
import { notificationEvent, notificationId, outcomeOf, readTransaction, transactionEvent, minorOf, type BraintreeTransaction } from './braintree-events';
import { NotificationSignatureError, ProviderUnavailableError, RetryableRefundError, type Checkout, type CheckoutRequest, type PaymentEvent, type PaymentProviderPort, type RefundRequest, type RefundResult } from './port';

export { isBraintreeConfigured } from './braintree-gateway';

export const BRAINTREE_CHECKOUT_PATH = '/api/payments/braintree/checkout';

/** Braintree's validation error codes (the SDK's ValidationErrorCodes.Transaction) this adapter acts on. */
const CODES = { cannotBeVoided: '91504', cannotRefundUnlessSettled: '91506', nonceConsumed: '91564' } as const;

/**
 * What the web app's security policy must allow for Drop-in (braintree-web's "Using braintree-web
 * with a Content Security Policy", jsdoc/Home.md in braintree/braintree-web), without PayPal,
 * Venmo or 3-D Secure, which this app does not turn on: the script and its assets, the card
 * fields' frames, and the calls the browser makes to the gateway (the client API, analytics, and
 * the GraphQL API cards are tokenized through).
 */
export function braintreeSecurityPolicy(environment: Config['BRAINTREE_ENVIRONMENT']): Record<'scriptSrc' | 'frameSrc' | 'connectSrc' | 'imgSrc' | 'styleSrc', string[]> {
  const sandbox = environment === 'sandbox' ? 'sandbox.' : '';
  return {
    scriptSrc: ['https://js.braintreegateway.com', 'https://assets.braintreegateway.com'],
    frameSrc: ['https://assets.braintreegateway.com'],
    connectSrc: [`https://api.${sandbox}braintreegateway.com`, `https://client-analytics.${sandbox}braintreegateway.com`, `https://payments.${sandbox}braintree-api.com`],
    imgSrc: ['https://assets.braintreegateway.com', 'data:'],
    // Drop-in sets styles on the elements it creates.
    styleSrc: ["'unsafe-inline'"],
  };
}

/** The server's own record of what a checkout charges (the fourth argument of `complete`). */
export type ExpectedCharge = Pick<CheckoutRequest, 'amountMinor' | 'currency' | 'reference'>;

const CHECKOUT_PREFIX = 'braintree:';

export function braintreeCheckoutId(request: Pick<CheckoutRequest, 'idempotencyKey' | 'reference'>): string {
  const digest = createHash('sha256').update(request.idempotencyKey).digest('hex').slice(0, 24);
  return `${CHECKOUT_PREFIX}${digest}:${request.reference}`;
}

function referenceOf(checkoutId: string): string {
  const match = /^braintree:[0-9a-f]{24}:(.+)$/.exec(checkoutId);
  if (!match?.[1]) throw new Error('braintree: not a Braintree checkout id');
  return match[1];
}

/** The server's amount: the fourth argument, else the server-only keys of the payload. */
function expectedCharge(checkoutId: string, payload: Record<string, string>, given: ExpectedCharge | undefined): ExpectedCharge {
  const reference = referenceOf(checkoutId);
  const expected = given ?? { amountMinor: Number(payload.amount_minor), currency: (payload.currency ?? '').toUpperCase(), reference: payload.reference ?? reference };
  if (!Number.isSafeInteger(expected.amountMinor) || expected.amountMinor <= 0 || !/^\d+$/.test(String(expected.amountMinor))) {
    throw new Error('braintree: the core did not pass the amount to charge (amount_minor)');
  }
  if (!/^[A-Z]{3}$/.test(expected.currency)) throw new Error('braintree: the core did not pass the currency to charge');
  if (expected.reference !== reference) throw new Error("braintree: the reference is not the checkout's");
  return expected;
}

type Result = { success: boolean; message?: string; transaction?: unknown; errors?: { deepErrors: () => { code: unknown }[] } };

function errorCodes(result: Result): string[] {
  return result.errors?.deepErrors().map((error) => String(error.code)) ?? [];
}

/** Every transaction the search finds, read; ProviderUnavailableError when the gateway cannot say. */
async function search(gateway: braintree.BraintreeGateway, config: BraintreeConfig, criteria: braintree.TransactionSearchFn): Promise<BraintreeTransaction[]> {
  const found: BraintreeTransaction[] = [];
  try {
    for await (const item of gateway.transaction.search(criteria)) {
      const transaction = readTransaction(item);
      if (transaction) found.push(transaction);
    }
  } catch (error) {
    throw providerError(error, 'transaction search', config);
  }
  return found;
}

export function braintreeProvider(config: Config): PaymentProviderPort {
  let loaded: Promise<braintree.BraintreeGateway> | undefined;
  const gatewayOf = () => (loaded ??= braintreeGateway(config));
  const fail = (error: unknown, action: string) => providerError(error, action, config);

  async function lookup(checkoutId: string): Promise<PaymentEvent | undefined> {
    const reference = referenceOf(checkoutId);
    const sales = await search(await gatewayOf(), config, (where) => {
      where.orderId().is(reference);
      where.type().is('sale');
    });
    const settled = sales.find((sale) => outcomeOf(sale.status) === 'succeeded');
    if (settled) return transactionEvent(settled);
    const pending = sales.find((sale) => outcomeOf(sale.status) === 'pending');
    // Declined sales are not reported here: the rider may still pay this checkout with another card.
    return pending ? transactionEvent(pending) : undefined;
  }

  /** Voids a sale that charged something else than asked (another currency: the merchant account's). */
  async function voidMismatch(transaction: BraintreeTransaction): Promise<PaymentEvent> {
    try {
      const result: Result = await (await gatewayOf()).transaction.void(transaction.id);
      if (result.success) return transactionEvent(transaction, 'failed');
    } catch {
      // The money stays taken: reported as it is, the core sees the mismatch and does not mark the booking paid.
    }
    return transactionEvent(transaction);
  }

  async function complete(checkoutId: string, payload: Record<string, string>, _idempotencyKey: string, given?: ExpectedCharge): Promise<PaymentEvent> {
    const expected = expectedCharge(checkoutId, payload, given);
    const nonce = payload.payment_method_nonce ?? '';
    if (!/^[\w-]{1,200}$/.test(nonce)) throw new Error('braintree: no payment method nonce');
    const deviceData = payload.device_data && payload.device_data.length <= 5000 ? payload.device_data : undefined;
    let result: Result;
    try {
      result = await (await gatewayOf()).transaction.sale({
        amount: toProviderDecimal(expected.amountMinor, expected.currency),
        paymentMethodNonce: nonce,
        orderId: expected.reference,
        ...(deviceData ? { deviceData } : {}),
        options: { submitForSettlement: true },
      });
    } catch (error) {
      throw fail(error, 'transaction sale');
    }
    if (!result.success && !result.transaction) {
      // A nonce used already: an earlier ask for this checkout reached the gateway. Its sale is found by orderId.
      if (errorCodes(result).includes(CODES.nonceConsumed)) {
        const earlier = await lookup(checkoutId);
        if (earlier) return earlier;
      }
      throw new Error(scrub(`braintree: the sale was refused: ${result.message ?? 'validation errors'}`, config));
    }
    const transaction = readTransaction(result.transaction);
    if (!transaction) throw new ProviderUnavailableError('braintree', 'braintree: transaction sale answered without a readable transaction');
    const event = transactionEvent(transaction);
    const asked = transaction.currency === expected.currency && minorOf(transaction) === expected.amountMinor;
    if (event.type !== 'payment_failed' && !asked) return voidMismatch(transaction);
    return event;
  }

  async function createCheckout(request: CheckoutRequest): Promise<Checkout> {
    let answer: unknown;
    try {
      answer = await (await gatewayOf()).clientToken.generate({});
    } catch (error) {
      throw fail(error, 'client token');
    }
    // The SDK answers undefined for XML that is neither a client token nor an error response.
    const result = answer as { success?: unknown; clientToken?: unknown; message?: unknown } | undefined;
    if (result?.success === true && typeof result.clientToken === 'string' && result.clientToken !== '') {
      return { kind: 'client', clientToken: result.clientToken, checkoutId: braintreeCheckoutId(request) };
    }
    if (result?.success === false) throw new Error(scrub(`braintree: no client token: ${typeof result.message === 'string' ? result.message : 'validation errors'}`, config));
    throw new ProviderUnavailableError('braintree', 'braintree: client token: an unreadable answer');
  }

  async function parseNotification(rawBody: Buffer): Promise<PaymentEvent> {
    const form = new URLSearchParams(rawBody.toString('utf8'));
    const signature = form.get('bt_signature');
    // Base64 has no spaces: a `+` a sender left unencoded reads back as a space in a form body.
    const payload = form.get('bt_payload')?.replace(/ /g, '+');
    if (!signature || !payload) throw new NotificationSignatureError('braintree');
    let notification: braintree.WebhookNotification;
    try {
      notification = await (await gatewayOf()).webhookNotification.parse(signature, payload);
    } catch (error) {
      if (typeof error === 'object' && error !== null && (error as { type?: unknown }).type === 'invalidSignatureError') throw new NotificationSignatureError('braintree');
      throw new Error(scrub(`braintree: a signed notification that cannot be read: ${error instanceof Error ? error.message : String(error)}`, config), { cause: error });
    }
    return notificationEvent(notification, notificationId(payload));
  }

  /** Refunds already made for this idempotency key (a retry whose first answer was lost). */
  async function earlierRefund(request: RefundRequest, tag: string): Promise<BraintreeTransaction | undefined> {
    try {
      const credits = await search(await gatewayOf(), config, (where) => {
        where.orderId().is(tag);
        where.type().is('credit');
      });
      return credits.find((credit) => credit.refundedTransactionId === request.transactionId && outcomeOf(credit.status) !== 'failed');
    } catch (error) {
      throw new RetryableRefundError(error instanceof Error ? error.message : 'braintree: transaction search');
    }
  }

  /** Not settled yet: a full refund is a void; a partial one waits for settlement. */
  async function refundUnsettled(request: RefundRequest): Promise<RefundResult> {
    let original: BraintreeTransaction | undefined;
    try {
      original = readTransaction(await (await gatewayOf()).transaction.find(request.transactionId));
    } catch (error) {
      if (isUnknownOutcome(error)) throw new RetryableRefundError(fail(error, 'transaction find').message);
      return { status: 'failed', reason: fail(error, 'transaction find').message };
    }
    if (!original) throw new RetryableRefundError('braintree: transaction find answered without a readable transaction');
    if (original.status === 'voided') return { status: 'succeeded', providerRefundId: `void:${original.id}` };
    if (minorOf(original) !== request.amountMinor) throw new RetryableRefundError('braintree: a partial refund waits until the transaction is settled');
    let result: Result;
    try {
      result = await (await gatewayOf()).transaction.void(request.transactionId);
    } catch (error) {
      if (isUnknownOutcome(error)) throw new RetryableRefundError(fail(error, 'transaction void').message);
      return { status: 'failed', reason: fail(error, 'transaction void').message };
    }
    if (result.success) return { status: 'succeeded', providerRefundId: `void:${request.transactionId}` };
    // It began settling since: a refund then works, asked again later.
    if (errorCodes(result).includes(CODES.cannotBeVoided)) throw new RetryableRefundError('braintree: the transaction began settling; refunded next time');
    return { status: 'failed', reason: scrub(`braintree: void refused: ${result.message ?? 'validation errors'}`, config) };
  }

  async function refund(request: RefundRequest): Promise<RefundResult> {
    const tag = `refund-${request.idempotencyKey}`.slice(0, 255);
    const earlier = await earlierRefund(request, tag);
    if (earlier) return { status: 'succeeded', providerRefundId: earlier.id };
    let result: Result;
    try {
      // The SDK takes an options object ({ transaction: options } on the wire); its typings know only the amount.
      const transactions = (await gatewayOf()).transaction as unknown as { refund: (id: string, options: { amount: string; orderId: string }) => Promise<Result> };
      result = await transactions.refund(request.transactionId, { amount: toProviderDecimal(request.amountMinor, request.currency), orderId: tag });
    } catch (error) {
      if (isUnknownOutcome(error)) throw new RetryableRefundError(fail(error, 'transaction refund').message);
      return { status: 'failed', reason: fail(error, 'transaction refund').message };
    }
    if (result.success) {
      const credit = readTransaction(result.transaction);
      if (!credit) throw new RetryableRefundError('braintree: transaction refund answered without a readable transaction');
      return { status: 'succeeded', providerRefundId: credit.id };
    }
    if (errorCodes(result).includes(CODES.cannotRefundUnlessSettled)) return refundUnsettled(request);
    const declined = readTransaction(result.transaction);
    const reason = declined ? `${declined.status}: ${declined.processorResponseText}` : (result.message ?? 'validation errors');
    return { status: 'failed', reason: scrub(`braintree: refund refused: ${reason}`, config) };
  }

  const browser = braintreeSecurityPolicy(config.BRAINTREE_ENVIRONMENT);
  return {
    name: 'braintree',
    checkoutLink: BRAINTREE_CHECKOUT_PATH,
    testMode: config.BRAINTREE_ENVIRONMENT === 'sandbox',
    createCheckout,
    complete,
    parseNotification,
    lookup,
    refund,
    // No style-src: helmet's default style-src allows inline styles; data: images are allowed already.
    policy: { script: browser.scriptSrc, frame: browser.frameSrc, connect: browser.connectSrc, image: browser.imgSrc.filter((source) => source !== 'data:') },
  };
}
