import { createHash } from 'node:crypto';
import { CULQI_CURRENCIES, fromProviderUnits, toProviderUnits } from '@rideway/domain';
import type { Config } from '../../config';
import {
  NotificationSignatureError,
  ProviderUnavailableError,
  RetryableRefundError,
  type Checkout,
  type CheckoutRequest,
  type PaymentEvent,
  type PaymentProviderPort,
  type RefundRequest,
  type RefundResult,
} from './port';
import { asRecord, asString, MalformedAnswer, restCall, RestRefusal, type RestSettings, RestUnavailable } from './rest-client';

/**
 * Culqi (Peru), through its REST API v2 (https://apidocs.culqi.com/; no maintained official Node
 * SDK: a small client over fetch, rest-client.ts):
 * 1. `createCheckout`: a `client` checkout. Culqi Checkout (its browser script,
 *    https://docs.culqi.com/es/documentacion/checkout/v4/culqi-checkout/) takes the card on Culqi's
 *    own frames with the account's PUBLIC key and gives the browser a token (`tkn_...`); nothing is
 *    asked of Culqi yet. The client token is what the script needs: the public key, the amount in
 *    céntimos, the currency and a title (our checkout page, checkout-page.ts, hands it to the script).
 * 2. `complete`: the browser posts the token to our `complete`; the charge is created server-side with
 *    the SECRET key (POST /v2/charges, https://apidocs.culqi.com/#tag/Cargos/operation/crear-cargo):
 *    the SERVER's amount (`amount_minor`, in céntimos with `toProviderUnits`), `currency_code`, the
 *    email the rider gave Culqi's widget (read back from the token, GET /v2/tokens/:id), `source_id`
 *    = the token, and our reference and attempt in `metadata`. A token is charged once at most, so
 *    asking twice cannot charge twice; a lost answer is recovered by `lookup`. A 402 `card_error` is a
 *    decline. A 200 answer asks for 3-D Secure authentication, which this integration does not run:
 *    nothing was charged and the checkout is reported failed (the rider may pay again).
 * 3. `parseNotification`: Culqi's webhooks (https://docs.culqi.com/es/documentacion/pagos-online/webhooks,
 *    `charge.creation.succeeded`, `charge.creation.failed`, ...) are not signed: the charge the event
 *    names is fetched (GET /v2/charges/:id) and only what Culqi answers is used. An event naming a
 *    charge Culqi does not have cannot be confirmed and is refused like a forged signature (400).
 * 4. `lookup`: the account's charges of this checkout's amount and currency (GET /v2/charges?amount=&currency_code=)
 *    whose metadata names this attempt.
 * 5. `refund`: POST /v2/refunds (https://apidocs.culqi.com/#tag/Devoluciones, `amount`, `charge_id`,
 *    `reason: solicitud_comprador`). Culqi takes no idempotency key: the refund carries ours in
 *    `metadata` and the charge's refunds are listed first (GET /v2/refunds?charge_id=; the filter and
 *    metadata on refunds are to be checked against a sandbox account), so a refund asked again is never made twice.
 * The payment's `transactionId` is Culqi's charge id (`chr_...`), which refunds take.
 */

export const CULQI_API = 'https://api.culqi.com';
export const CULQI_CHECKOUT_SCRIPT = 'https://checkout.culqi.com/js/v4';
/** Culqi Checkout's hosts: its script and frames (checkout.culqi.com), and the token calls it makes (secure.culqi.com). */
const CULQI_CHECKOUT_ORIGIN = 'https://checkout.culqi.com';
const CULQI_TOKENS_ORIGIN = 'https://secure.culqi.com';

export const isCulqiConfigured = (config: Pick<Config, 'CULQI_PUBLIC_KEY' | 'CULQI_SECRET_KEY'>): boolean => Boolean(config.CULQI_PUBLIC_KEY && config.CULQI_SECRET_KEY);

/** What Culqi Checkout's script needs, from the configuration (the override's origin when set). */
export function culqiSecurityPolicy(config: Pick<Config, 'CULQI_CHECKOUT_SCRIPT_URL'>): NonNullable<PaymentProviderPort['policy']> {
  const script = config.CULQI_CHECKOUT_SCRIPT_URL ? new URL(config.CULQI_CHECKOUT_SCRIPT_URL).origin : CULQI_CHECKOUT_ORIGIN;
  const origins = [...new Set([CULQI_CHECKOUT_ORIGIN, script])];
  return { script: origins, frame: origins, connect: [...new Set([CULQI_TOKENS_ORIGIN, ...origins])], image: ['https://static.culqi.com'] };
}

type Json = Record<string, unknown>;
type PaymentOutcome = Extract<PaymentEvent, { type: 'payment_succeeded' | 'payment_failed' | 'payment_pending' }>;

const REFERENCE_KEY = 'rideway_reference';
const ATTEMPT_KEY = 'rideway_attempt';

/** The browser's part of a client checkout, as the client token carries it to Culqi Checkout. */
export type CulqiClientSettings = { publicKey: string; title: string; description: string; currency: string; amount: number; email: string };

/**
 * The checkout id: `culqi:<amount in céntimos>:<currency>:<attempt digest>:<reference>`. Stable for a
 * request, it carries what `complete` checks and `lookup` searches by.
 */
const checkoutIdOf = (units: number, currency: string, attempt: string, reference: string): string => `culqi:${String(units)}:${currency}:${attempt}:${reference}`;
const parseCheckoutId = (checkoutId: string): { units: number; currency: string; attempt: string; reference: string } | undefined => {
  const match = /^culqi:(\d{1,12}):([A-Z]{3}):([0-9a-f]{32}):(.+)$/.exec(checkoutId);
  return match?.[1] && match[2] && match[3] && match[4] ? { units: Number(match[1]), currency: match[2], attempt: match[3], reference: match[4] } : undefined;
};
const attemptDigest = (idempotencyKey: string): string => createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 32);

/** `{amount (céntimos), currency_code}` in our hundredths; undefined when it is not one. */
function moneyOf(charge: Json): { amountMinor: number; currency: string } | undefined {
  const currency = asString(charge.currency_code)?.toUpperCase();
  const units = charge.amount;
  if (!currency || !/^[A-Z]{3}$/.test(currency) || typeof units !== 'number' || !Number.isSafeInteger(units) || units < 0) return undefined;
  try {
    return { amountMinor: fromProviderUnits(units, currency), currency };
  } catch {
    return undefined;
  }
}

/**
 * A charge (Culqi's charge object) as the port's news: `outcome.type` venta_exitosa is
 * payment_succeeded, any other outcome payment_failed. Our reference comes from its metadata.
 */
export function culqiOutcome(charge: Json): PaymentOutcome {
  const id = asString(charge.id);
  const outcomeType = asString(asRecord(charge.outcome)?.type);
  const reference = asString(asRecord(charge.metadata)?.[REFERENCE_KEY]);
  const money = moneyOf(charge);
  if (!id || !outcomeType || !reference || !money) throw new MalformedAnswer('culqi', 'a charge without its id, outcome, metadata reference or amount');
  const type = outcomeType === 'venta_exitosa' ? 'payment_succeeded' : 'payment_failed';
  return { type, eventId: `charge:${id}:${type}`, reference, transactionId: id, ...money };
}

export function culqiProvider(config: Config): PaymentProviderPort {
  const { CULQI_PUBLIC_KEY: publicKey, CULQI_SECRET_KEY: secretKey } = config;
  if (!publicKey || !secretKey) throw new Error('culqi: CULQI_PUBLIC_KEY and CULQI_SECRET_KEY are required');
  const settings: RestSettings = { provider: 'culqi', apiBase: (config.CULQI_API_URL ?? CULQI_API).replace(/\/+$/, ''), secretKey, timeoutMs: config.PAYMENT_TIMEOUT_MS };

  const sorted = (error: unknown): Error => {
    if (error instanceof RestUnavailable || error instanceof MalformedAnswer) return new ProviderUnavailableError('culqi', error.message);
    return error instanceof Error ? error : new Error('culqi: failed');
  };

  /** GET /v2/charges/:id; undefined when Culqi has no such charge. */
  async function charge(id: string): Promise<Json | undefined> {
    try {
      return await restCall(settings, 'reading the charge', 'GET', `/v2/charges/${encodeURIComponent(id)}`);
    } catch (error) {
      if (error instanceof RestRefusal && (error.status === 400 || error.status === 404)) return undefined;
      throw error;
    }
  }

  function createCheckout(request: CheckoutRequest): Promise<Checkout> {
    const currency = request.currency.toUpperCase();
    try {
      const units = toProviderUnits(request.amountMinor, currency);
      const client: CulqiClientSettings = { publicKey: publicKey as string, title: request.description.slice(0, 80), description: request.description.slice(0, 80), currency, amount: units, email: request.customer.email };
      return Promise.resolve({ kind: 'client', clientToken: JSON.stringify(client), checkoutId: checkoutIdOf(units, currency, attemptDigest(request.idempotencyKey), request.reference), script: config.CULQI_CHECKOUT_SCRIPT_URL ?? CULQI_CHECKOUT_SCRIPT });
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error('culqi: failed'));
    }
  }

  /**
   * Charges the browser's token for the SERVER's amount (`amount_minor`, `currency`, `reference`:
   * set by the core from its own record over anything the browser posted, as Braintree's).
   */
  async function complete(checkoutId: string, payload: Record<string, string>, _idempotencyKey: string): Promise<PaymentEvent> {
    const parsed = parseCheckoutId(checkoutId);
    const token = payload.payment_method_nonce ?? '';
    const currency = (payload.currency ?? '').toUpperCase();
    const amountMinor = Number(payload.amount_minor);
    if (!parsed || payload.reference !== parsed.reference || currency !== parsed.currency) throw new Error('culqi: the checkout does not match');
    if (!/^tkn_(test|live)_[A-Za-z0-9]{4,64}$/.test(token)) throw new Error('culqi: not a Culqi token');
    const units = toProviderUnits(amountMinor, currency);
    if (units !== parsed.units) throw new Error('culqi: the amount is not the checkout one');
    const failedWith = (id: string): PaymentOutcome => ({ type: 'payment_failed', eventId: `charge:${id}:payment_failed`, reference: parsed.reference, transactionId: id, amountMinor, currency });
    try {
      const tokenAnswer = await restCall(settings, 'reading the token', 'GET', `/v2/tokens/${encodeURIComponent(token)}`);
      const email = asString(tokenAnswer.email);
      if (!email) throw new MalformedAnswer('culqi', 'a token without its email');
      const created = await restCall(settings, 'creating the charge', 'POST', '/v2/charges', {
        body: { amount: units, currency_code: currency, email, source_id: token, capture: true, description: `Rideway ${parsed.reference}`.slice(0, 80), metadata: { [REFERENCE_KEY]: parsed.reference, [ATTEMPT_KEY]: parsed.attempt } },
      });
      // A 200 `action_code: REVIEW` answer is Culqi asking for 3-D Secure (a 201 is a charge): nothing was charged.
      if (created.action_code === 'REVIEW') return failedWith(token);
      if (created.object !== 'charge') throw new MalformedAnswer('culqi', 'a charge answer that is no charge');
      return culqiOutcome(created);
    } catch (error) {
      if (error instanceof RestRefusal && error.status === 402) return failedWith(asString(asRecord(error.body)?.charge_id) ?? token);
      throw sorted(error);
    }
  }

  async function lookup(checkoutId: string): Promise<PaymentEvent | undefined> {
    const parsed = parseCheckoutId(checkoutId);
    if (!parsed) return undefined;
    try {
      const listed = await restCall(settings, 'listing the charges', 'GET', '/v2/charges', { query: { amount: String(parsed.units), currency_code: parsed.currency, limit: '100' } });
      if (!Array.isArray(listed.data)) throw new MalformedAnswer('culqi', 'a charge list without data');
      const ours = listed.data.map(asRecord).filter((candidate): candidate is Json => asRecord(candidate?.metadata)?.[ATTEMPT_KEY] === parsed.attempt);
      const chosen = ours.find((candidate) => asString(asRecord(candidate.outcome)?.type) === 'venta_exitosa') ?? ours[0];
      return chosen ? culqiOutcome(chosen) : undefined;
    } catch (error) {
      throw sorted(error);
    }
  }

  async function parseNotification(rawBody: Buffer): Promise<PaymentEvent> {
    let event: Json | undefined;
    try {
      event = asRecord(JSON.parse(rawBody.toString('utf8')) as unknown);
    } catch {
      event = undefined;
    }
    const providerType = asString(event?.type) ?? 'unknown';
    // Culqi sends the event's object as a JSON string in `data` (or, in some events, as the object itself).
    let data: unknown = event?.data;
    if (typeof data === 'string') {
      try {
        data = JSON.parse(data);
      } catch {
        data = undefined;
      }
    }
    const chargeId = asString(asRecord(data)?.id);
    const ignored: PaymentEvent = { type: 'ignored', eventId: `${providerType}:${asString(event?.id) ?? 'none'}`, providerType };
    if (!providerType.startsWith('charge.') || !chargeId || !/^chr_(test|live)_[A-Za-z0-9]{4,64}$/.test(chargeId)) return ignored;
    let current: Json | undefined;
    try {
      current = await charge(chargeId);
    } catch (error) {
      throw sorted(error);
    }
    // Unsigned: a charge Culqi does not have is not Culqi's news.
    if (!current) throw new NotificationSignatureError('culqi');
    if (asString(current.id) !== chargeId) throw sorted(new MalformedAnswer('culqi', 'a charge of another id'));
    try {
      return culqiOutcome(current);
    } catch {
      // Not one of our checkouts (no metadata reference): recorded, not acted on.
      return ignored;
    }
  }

  async function refund(request: RefundRequest): Promise<RefundResult> {
    const currency = request.currency.toUpperCase();
    if (!/^chr_(test|live)_[A-Za-z0-9]{4,64}$/.test(request.transactionId)) return { status: 'failed', reason: 'culqi: not a charge id' };
    const note = request.idempotencyKey.slice(0, 200);
    try {
      const amount = toProviderUnits(request.amountMinor, currency);
      const listed = await restCall(settings, 'listing the refunds', 'GET', '/v2/refunds', { query: { charge_id: request.transactionId } });
      if (!Array.isArray(listed.data)) throw new MalformedAnswer('culqi', 'a refund list without data');
      const earlier = listed.data.map(asRecord).find((candidate) => asRecord(candidate?.metadata)?.rideway_refund === note);
      const answer = earlier ?? (await restCall(settings, 'creating the refund', 'POST', '/v2/refunds', { body: { amount, charge_id: request.transactionId, reason: 'solicitud_comprador', metadata: { rideway_refund: note } } }));
      const id = asString(answer.id);
      if (answer.object !== 'refund' || !id) throw new MalformedAnswer('culqi', 'a refund without its id');
      return { status: 'succeeded', providerRefundId: id };
    } catch (error) {
      if (error instanceof RestRefusal && error.status !== 401) return { status: 'failed', reason: `HTTP ${String(error.status)}${error.providerMessage ? ` ${error.providerMessage.slice(0, 200)}` : ''}` };
      if (error instanceof RangeError) return { status: 'failed', reason: error.message };
      throw new RetryableRefundError(error instanceof Error ? error.message : 'culqi: refund: no answer');
    }
  }

  return {
    name: 'culqi',
    checkoutLink: '/api/payments/culqi/checkout',
    testMode: secretKey.startsWith('sk_test_'),
    currencies: CULQI_CURRENCIES,
    createCheckout,
    complete,
    lookup,
    parseNotification,
    refund,
    policy: culqiSecurityPolicy(config),
  };
}
