import { isIP } from 'node:net';
import { createHash } from 'node:crypto';
import { fromProviderUnits, SECUREPAY_CURRENCIES, toProviderUnits } from '@rideway/domain';
import type { Config } from '../../config';
import { ProviderUnavailableError, RetryableRefundError, type Checkout, type CheckoutRequest, type PaymentEvent, type PaymentProviderPort, type RefundRequest, type RefundResult } from './port';
import { asString, MalformedAnswer, RestRefusal, RestUnavailable } from './rest-client';
import { SECUREPAY_LIVE, SECUREPAY_SANDBOX, securePayClient } from './securepay-client';

/**
 * SecurePay (Australia Post Online Payments), through its REST API v2
 * (https://auspost.com.au/payments/docs/securepay/; the typed client is securepay-client.ts):
 * 1. `createCheckout`: a `client` checkout. SecurePay's card component (its browser script
 *    `/v3/ui/client/securepay-ui.min.js` on the API host, started with `securePayUI.init({containerId,
 *    scriptId, clientId, merchantCode, card: {onTokeniseSuccess, onTokeniseError}})`: the Card payments
 *    section of https://auspost.com.au/payments/docs/securepay/?javascript) takes the card on
 *    SecurePay's own frames and gives the browser a card token; nothing is asked of SecurePay yet. The
 *    client token carries what the component needs: the client id and merchant code (never the
 *    secret), and the amount in cents for the page.
 * 2. `complete`: the browser posts the card token to our `complete`; the payment is made
 *    server-side, `POST /v2/payments` (https://auspost.com.au/payments/docs/securepay/#card-payments-rest-api-create-payment)
 *    with the SERVER's amount in cents (`toProviderUnits`), `merchantCode`, `token`, `ip` and an
 *    `orderId` of this attempt, and an `Idempotency-Key` of this attempt: posted twice (a lost
 *    answer, a second click, a new token), SecurePay answers the first payment, so one checkout pays
 *    once. The answer's `status` is the outcome: `paid` is payment_succeeded, `failed` a decline
 *    (payment_failed, the booking stays payable), `unknown` an outcome SecurePay does not know yet
 *    (ProviderUnavailableError: the page says pending; posting again replays the same key).
 * 3. No notifications: SecurePay answers a card payment synchronously and documents no signed
 *    notification of it, so the only word taken is the answer to our own server-side call; nothing
 *    a browser reports is believed. A token SecurePay never issued is refused by SecurePay (4xx):
 *    nothing is recorded. No `lookup` either: the v2 card API documents no read of a payment by
 *    order id; an attempt whose answer was lost is settled by posting the page again (the same
 *    Idempotency-Key), and otherwise expires.
 * 4. `refund`: `POST /v2/orders/{orderId}/refunds` (https://auspost.com.au/payments/docs/securepay/#card-payments-rest-api-refund-payment)
 *    with `merchantCode`, `ip` and the amount in cents, and our refund key as its `Idempotency-Key`:
 *    asked again, it refunds once. `paid` is succeeded, `failed` failed, `unknown` asked again later.
 * The payment's `transactionId` is the SecurePay order id, which refunds name.
 */

/** Where SecurePay's card component lives under the API host (sandbox and live alike). */
export const SECUREPAY_UI_SCRIPT_PATH = '/v3/ui/client/securepay-ui.min.js';

/**
 * SecurePay asks for the customer's IP address on payments and refunds (for its fraud screening).
 * A payment carries the rider's address (the core passes it as `customer_ip`); a refund is an
 * admin's act with no rider present, so the loopback address stands in there, as in SecurePay's
 * own examples (docs/payments-securepay.md).
 */
const CUSTOMER_IP = '127.0.0.1';

/** The rider's address the core passes (`customer_ip`) when it is an IPv4 or IPv6 address, else SecurePay's own example value. */
const customerIpOf = (payload: Record<string, string>): string => (payload.customer_ip && isIP(payload.customer_ip) !== 0 ? payload.customer_ip : CUSTOMER_IP);

type Json = Record<string, unknown>;
type PaymentOutcome = Extract<PaymentEvent, { type: 'payment_succeeded' | 'payment_failed' | 'payment_pending' }>;

/** The browser's part of a client checkout, as the client token carries it to SecurePay's card component. */
export type SecurePayClientSettings = { clientId: string; merchantCode: string; amount: number; currency: string };

export const isSecurePayConfigured = (config: Pick<Config, 'SECUREPAY_CLIENT_ID' | 'SECUREPAY_CLIENT_SECRET' | 'SECUREPAY_MERCHANT_CODE'>): boolean =>
  Boolean(config.SECUREPAY_CLIENT_ID && config.SECUREPAY_CLIENT_SECRET && config.SECUREPAY_MERCHANT_CODE);

/** The API base and token URL in force: the sandbox's or live ones, each overridden by its *_URL (a stand-in). */
export function securePayEndpoints(config: Pick<Config, 'SECUREPAY_SANDBOX' | 'SECUREPAY_API_URL' | 'SECUREPAY_AUTH_URL'>): { api: string; auth: string } {
  const hosts = config.SECUREPAY_SANDBOX ? SECUREPAY_SANDBOX : SECUREPAY_LIVE;
  return { api: (config.SECUREPAY_API_URL ?? hosts.api).replace(/\/+$/, ''), auth: config.SECUREPAY_AUTH_URL ?? hosts.auth };
}

/**
 * What the card component needs in the browser: its script, its frames and its calls all come from
 * the API host in force (to be checked against a sandbox account: the docs name the script's host only).
 */
export function securePaySecurityPolicy(config: Pick<Config, 'SECUREPAY_SANDBOX' | 'SECUREPAY_API_URL' | 'SECUREPAY_AUTH_URL'>): NonNullable<PaymentProviderPort['policy']> {
  const origin = new URL(securePayEndpoints(config).api).origin;
  return { script: [origin], frame: [origin], connect: [origin] };
}

/**
 * The checkout id: `securepay:<amount in cents>:<attempt digest>:<reference>`. Stable for a
 * request, it carries what `complete` checks; the digest is also SecurePay's order id.
 */
const checkoutIdOf = (units: number, attempt: string, reference: string): string => `securepay:${String(units)}:${attempt}:${reference}`;
const parseCheckoutId = (checkoutId: string): { units: number; attempt: string; reference: string } | undefined => {
  const match = /^securepay:(\d{1,12}):([0-9a-f]{32}):(.+)$/.exec(checkoutId);
  return match?.[1] && match[2] && match[3] ? { units: Number(match[1]), attempt: match[2], reference: match[3] } : undefined;
};
const digest = (key: string): string => createHash('sha256').update(key).digest('hex').slice(0, 32);

/** A card token as the component gives it: letters, digits and a few separators, never a card number's spaces. */
const TOKEN = /^[A-Za-z0-9_.-]{6,200}$/;

/** `{amount (cents), currency}` of an answer in our hundredths; SecurePay charges the account's AUD when it names none. */
function moneyOf(answer: Json): { amountMinor: number; currency: string } | undefined {
  const currency = (asString(answer.currency) ?? 'AUD').toUpperCase();
  const units = answer.amount;
  if (!/^[A-Z]{3}$/.test(currency) || typeof units !== 'number' || !Number.isSafeInteger(units) || units < 0) return undefined;
  try {
    return { amountMinor: fromProviderUnits(units, currency), currency };
  } catch {
    return undefined;
  }
}

/**
 * A payment answer as the port's news: `paid` is payment_succeeded, `failed` payment_failed;
 * `unknown` is an outcome not known yet (ProviderUnavailableError). The event id is the order's and
 * the outcome's, so a replayed answer is the same event.
 */
export function securePayOutcome(answer: Json, orderId: string, reference: string): PaymentOutcome {
  const status = asString(answer.status);
  if (status === 'unknown') throw new ProviderUnavailableError('securepay', `securepay: the payment of order ${orderId} has an unknown outcome`);
  const type = status === 'paid' ? 'payment_succeeded' : status === 'failed' ? 'payment_failed' : undefined;
  const money = moneyOf(answer);
  if (!type || !money || asString(answer.orderId) !== orderId) throw new MalformedAnswer('securepay', 'a payment without its status, amount or order id');
  return { type, eventId: `order:${orderId}:${type}`, reference, transactionId: orderId, ...money };
}

export function securepayProvider(config: Config): PaymentProviderPort {
  const { SECUREPAY_CLIENT_ID: clientId, SECUREPAY_CLIENT_SECRET: clientSecret, SECUREPAY_MERCHANT_CODE: merchantCode } = config;
  if (!clientId || !clientSecret || !merchantCode) throw new Error('securepay: SECUREPAY_CLIENT_ID, SECUREPAY_CLIENT_SECRET and SECUREPAY_MERCHANT_CODE are required');
  const endpoints = securePayEndpoints(config);
  const client = securePayClient({ apiBase: endpoints.api, authUrl: endpoints.auth, clientId, clientSecret, timeoutMs: config.PAYMENT_TIMEOUT_MS });

  /** Unknown outcomes as ProviderUnavailableError; refusals as they are. */
  const sorted = (error: unknown): Error => {
    if (error instanceof RestUnavailable || error instanceof MalformedAnswer) return new ProviderUnavailableError('securepay', error.message);
    return error instanceof Error ? error : new Error('securepay: failed');
  };

  function createCheckout(request: CheckoutRequest): Promise<Checkout> {
    const currency = request.currency.toUpperCase();
    try {
      if (!SECUREPAY_CURRENCIES.includes(currency)) throw new RangeError(`securepay: ${currency} is not taken (AUD only)`);
      const units = toProviderUnits(request.amountMinor, currency);
      const settings: SecurePayClientSettings = { clientId: clientId as string, merchantCode: merchantCode as string, amount: units, currency };
      return Promise.resolve({ kind: 'client', clientToken: JSON.stringify(settings), checkoutId: checkoutIdOf(units, digest(request.idempotencyKey), request.reference), script: `${endpoints.api}${SECUREPAY_UI_SCRIPT_PATH}` });
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error('securepay: failed'));
    }
  }

  /**
   * Pays the browser's card token for the SERVER's amount (`amount_minor`, `currency`, `reference`:
   * set by the core from its own record over anything the browser posted, as Braintree's).
   */
  async function complete(checkoutId: string, payload: Record<string, string>, idempotencyKey: string): Promise<PaymentEvent> {
    const parsed = parseCheckoutId(checkoutId);
    const token = payload.payment_method_nonce ?? '';
    const currency = (payload.currency ?? '').toUpperCase();
    const amountMinor = Number(payload.amount_minor);
    if (!parsed || payload.reference !== parsed.reference || !SECUREPAY_CURRENCIES.includes(currency)) throw new Error('securepay: the checkout does not match');
    if (!TOKEN.test(token)) throw new Error('securepay: not a SecurePay card token');
    const units = toProviderUnits(amountMinor, currency);
    if (units !== parsed.units) throw new Error('securepay: the amount is not the checkout one');
    try {
      const answer = await client.call('creating the payment', 'POST', '/v2/payments', {
        body: { amount: units, merchantCode, token, ip: customerIpOf(payload), orderId: parsed.attempt },
        idempotencyKey: digest(idempotencyKey),
      });
      return securePayOutcome(answer, parsed.attempt, parsed.reference);
    } catch (error) {
      throw sorted(error);
    }
  }

  async function refund(request: RefundRequest): Promise<RefundResult> {
    const currency = request.currency.toUpperCase();
    if (!/^[0-9a-f]{32}$/.test(request.transactionId)) return { status: 'failed', reason: 'securepay: not an order id of this integration' };
    try {
      if (!SECUREPAY_CURRENCIES.includes(currency)) throw new RangeError(`securepay: ${currency} is not taken (AUD only)`);
      const amount = toProviderUnits(request.amountMinor, currency);
      const answer = await client.call('creating the refund', 'POST', `/v2/orders/${encodeURIComponent(request.transactionId)}/refunds`, {
        body: { merchantCode, ip: CUSTOMER_IP, amount },
        idempotencyKey: digest(`refund:${request.idempotencyKey}`),
      });
      const status = asString(answer.status);
      if (status === 'paid') return { status: 'succeeded', providerRefundId: asString(answer.bankTransactionId) ?? `${request.transactionId}:refund:${digest(request.idempotencyKey)}` };
      if (status === 'failed') return { status: 'failed', reason: `securepay: the refund was declined${asString(answer.gatewayResponseCode) ? ` (${String(answer.gatewayResponseCode)})` : ''}` };
      if (status === 'unknown') throw new RetryableRefundError(`securepay: the refund of order ${request.transactionId} has an unknown outcome`);
      throw new MalformedAnswer('securepay', 'a refund without its status');
    } catch (error) {
      if (error instanceof RetryableRefundError) throw error;
      // A refused token (401 twice) is the configuration's fault, not the refund's: asked again once it is fixed.
      if (error instanceof RestRefusal && error.status !== 401 && error.status !== 403) return { status: 'failed', reason: `HTTP ${String(error.status)}${error.providerMessage ? ` ${error.providerMessage.slice(0, 200)}` : ''}` };
      if (error instanceof RangeError) return { status: 'failed', reason: error.message };
      throw new RetryableRefundError(error instanceof Error ? error.message : 'securepay: refund: no answer');
    }
  }

  return {
    name: 'securepay',
    checkoutLink: '/api/payments/securepay/checkout',
    testMode: config.SECUREPAY_SANDBOX,
    currencies: SECUREPAY_CURRENCIES,
    createCheckout,
    complete,
    refund,
    policy: securePaySecurityPolicy(config),
  };
}
