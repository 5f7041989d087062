import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { listenLocally } from './stand-in-server';

/**
 * A local Stripe, written from Stripe's public API reference, speaking its wire format as the
 * official `stripe` SDK calls it (form-encoded bodies with bracketed keys, `Authorization: Bearer
 * sk_...`, `Idempotency-Key`, JSON answers, errors as `{error: {type, code, message, ...}}`):
 * - `POST /v1/checkout/sessions`, `GET /v1/checkout/sessions/:id` (with `expand[]`):
 *   https://docs.stripe.com/api/checkout/sessions/create, https://docs.stripe.com/api/checkout/sessions/object;
 *   the session's `url` is this stand-in's own hosted page (`/c/pay/:id`), where a browser pays
 *   with a test card number and is sent to `success_url` with `{CHECKOUT_SESSION_ID}` filled in;
 * - `GET /v1/payment_intents/:id`, `POST /v1/payment_intents` (off-session, with `customer`,
 *   `payment_method`, `off_session`, `confirm`): https://docs.stripe.com/api/payment_intents/create,
 *   https://docs.stripe.com/payments/save-during-payment#charge-saved-payment-method: a card the bank
 *   wants authenticated answers 402 `card_error` `authentication_required` with the payment intent
 *   (`requires_payment_method`) in `error.payment_intent`; a declined card 402 `card_declined`;
 * - `POST /v1/refunds`, `GET /v1/refunds?charge=`: https://docs.stripe.com/api/refunds/create,
 *   https://docs.stripe.com/api/refunds/list; more than is left is 400 `amount_too_large`, a
 *   refunded charge 400 `charge_already_refunded`;
 * - `POST /v1/payment_methods/:id/detach`: https://docs.stripe.com/api/payment_methods/detach;
 * - errors and status codes: https://docs.stripe.com/api/errors (401 `Invalid API Key provided`
 *   with the key masked, 404 `resource_missing`, 429 `rate_limit`);
 * - idempotency: https://docs.stripe.com/api/idempotent_requests (the first answer for a key is
 *   saved and replayed with `Idempotent-Replayed: true`; other parameters with the same key are
 *   400 `idempotency_error`);
 * - webhooks: https://docs.stripe.com/webhooks#verify-events and https://docs.stripe.com/webhooks/signatures
 *   (`Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the
 *   endpoint's signing secret>`): `stripeSignatureHeader` signs as Stripe does, and `deliver`
 *   posts a signed event to `webhookUrl` as Stripe's servers would.
 * Test cards (https://docs.stripe.com/testing): 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is
 * declined; 4000 0027 6000 3184 pays on the page (the rider authenticates) but asks for
 * authentication again off-session. The documented test payment methods `pm_card_visa`,
 * `pm_card_chargeDeclined` and `pm_card_authenticationRequired` exist from the start.
 *
 * Modes, for the API paths only: `hang` never answers; `fail` is 500 `api_error`; `unavailable` a
 * 503 HTML page (a proxy); `garbage` a 200 cut short; `wrongShape` a 200 of another object;
 * `rateLimited` 429; `leaky` a 400 whose message echoes the Authorization header it got (a broken
 * proxy: the adapter must not pass it on).
 */

export type StripeStandInMode = 'ok' | 'hang' | 'fail' | 'unavailable' | 'garbage' | 'wrongShape' | 'rateLimited' | 'leaky';

export type StripeSeenRequest = { method: string; path: string; query: URLSearchParams; headers: IncomingHttpHeaders; form: URLSearchParams };

type Json = Record<string, unknown>;
type CardBehaviour = 'ok' | 'declined' | 'authentication_required';

export const TEST_CARDS = { visa: '4242424242424242', declined: '4000000000000002', authenticationRequired: '4000002760003184' } as const;

const CARD_BY_NUMBER: Record<string, { brand: string; last4: string; behaviour: CardBehaviour }> = {
  [TEST_CARDS.visa]: { brand: 'visa', last4: '4242', behaviour: 'ok' },
  [TEST_CARDS.declined]: { brand: 'visa', last4: '0002', behaviour: 'declined' },
  [TEST_CARDS.authenticationRequired]: { brand: 'visa', last4: '3184', behaviour: 'authentication_required' },
};

/** Stripe's webhook signature scheme v1, implemented from its documentation (not the SDK's helper). */
export function stripeSignatureHeader(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

const now = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const error = (status: number, body: Json) => ({ status, body: { error: body } });
const missing = (kind: string, id: string, param: string) =>
  error(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${id}'`, param, doc_url: 'https://stripe.com/docs/error-codes/resource-missing' });
const badRequest = (message: string, param?: string, code?: string) => error(400, { type: 'invalid_request_error', message, ...(param ? { param } : {}), ...(code ? { code } : {}) });

/** The fields under `prefix[...]` of a form body, e.g. `metadata[booking_id]`. */
function subRecord(form: URLSearchParams, prefix: string): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [key, value] of form) {
    if (key.startsWith(`${prefix}[`) && key.endsWith(']')) record[key.slice(prefix.length + 1, -1)] = value;
  }
  return record;
}

/** `expand[]=a&expand[0]=b` as a list. */
const expansions = (query: URLSearchParams): string[] => [...query].filter(([key]) => /^expand\[\d*\]$/.test(key)).map(([, value]) => value);

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

type SessionState = { session: Json; intentData: { metadata: Record<string, string>; setupFutureUsage: string | null; description: string | null } };
type MethodState = { method: Json; behaviour: CardBehaviour };

export type StripeStandIn = {
  url: string;
  /** The secret key the stand-in accepts. */
  key: string;
  /** The webhook endpoint's signing secret. */
  webhookSecret: string;
  mode: StripeStandInMode;
  requests: StripeSeenRequest[];
  /** Where `deliver` (and the hosted page) posts events, like a webhook endpoint in Stripe's Dashboard. */
  webhookUrl?: string;
  session: (id: string) => Json | undefined;
  paymentIntent: (id: string) => Json | undefined;
  charge: (id: string) => Json | undefined;
  /** The payment intent created last (a failed off-session charge's, which the adapter does not return). */
  latestPaymentIntent: () => Json | undefined;
  /** The rider paid the session on Stripe's page with this card: its payment intent, charge and (when asked) saved card. */
  completeSession: (id: string, card?: keyof typeof TEST_CARDS) => Json;
  /** The session expired unpaid (24 hours passed, or it was expired through the API). */
  expireSession: (id: string) => Json;
  /** A customer with a card attached, as an earlier checkout that saved it leaves them. */
  savedCard: (card?: keyof typeof TEST_CARDS) => { customerId: string; paymentMethodId: string };
  /** A Stripe event of this type about this object (https://docs.stripe.com/api/events/object). */
  event: (type: string, object: Json, previousAttributes?: Json) => Json;
  /** The event's JSON body and its Stripe-Signature header. */
  signed: (event: Json, options?: { timestamp?: number; secret?: string }) => { body: string; signature: string };
  /** Posts the signed event to `webhookUrl`; the endpoint's HTTP status. */
  deliver: (event: Json) => Promise<number>;
  close: () => Promise<void>;
};

export async function startStripe(options: { key?: string; webhookSecret?: string } = {}): Promise<StripeStandIn> {
  const sessions = new Map<string, SessionState>();
  const intents = new Map<string, Json>();
  const charges = new Map<string, Json>();
  const refunds: Json[] = [];
  const methods = new Map<string, MethodState>();
  const idempotency = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  let apiVersion: string | null = null;

  const addMethod = (id: string, number: string, customer: string | null) => {
    const card = CARD_BY_NUMBER[number] ?? { brand: 'visa', last4: number.slice(-4), behaviour: 'ok' as const };
    const method = { id, object: 'payment_method', type: 'card', customer, created: now(), livemode: false, metadata: {}, card: { brand: card.brand, last4: card.last4, exp_month: 12, exp_year: new Date().getFullYear() + 3, funding: 'credit', country: 'US' } };
    methods.set(id, { method, behaviour: card.behaviour });
    return method;
  };
  addMethod('pm_card_visa', TEST_CARDS.visa, null);
  addMethod('pm_card_chargeDeclined', TEST_CARDS.declined, null);
  addMethod('pm_card_authenticationRequired', TEST_CARDS.authenticationRequired, null);

  const renderIntent = (intent: Json, expand: string[]): Json => {
    const method = typeof intent.payment_method === 'string' ? methods.get(intent.payment_method)?.method : undefined;
    return expand.includes('payment_method') && method ? { ...intent, payment_method: method } : intent;
  };
  const renderSession = (session: Json, expand: string[]): Json => {
    const intent = typeof session.payment_intent === 'string' ? intents.get(session.payment_intent) : undefined;
    if (!intent || !expand.some((path) => path === 'payment_intent' || path.startsWith('payment_intent.'))) return session;
    const nested = expand.filter((path) => path.startsWith('payment_intent.')).map((path) => path.slice('payment_intent.'.length));
    return { ...session, payment_intent: renderIntent(intent, nested) };
  };

  /** A payment intent and, when it succeeded, its charge. */
  const createIntent = (fields: { amount: number; currency: string; customer: string | null; paymentMethod: string; metadata: Record<string, string>; description: string | null; setupFutureUsage: string | null; succeeded: boolean; failure?: Json }) => {
    const id = newId('pi');
    const chargeId = newId('ch');
    const intent: Json = {
      id,
      object: 'payment_intent',
      amount: fields.amount,
      amount_received: fields.succeeded ? fields.amount : 0,
      currency: fields.currency,
      status: fields.succeeded ? 'succeeded' : 'requires_payment_method',
      customer: fields.customer,
      payment_method: fields.succeeded ? fields.paymentMethod : null,
      setup_future_usage: fields.setupFutureUsage,
      metadata: fields.metadata,
      description: fields.description,
      latest_charge: chargeId,
      last_payment_error: fields.failure ?? null,
      created: now(),
      livemode: false,
    };
    intents.set(id, intent);
    charges.set(chargeId, {
      id: chargeId,
      object: 'charge',
      amount: fields.amount,
      amount_captured: fields.succeeded ? fields.amount : 0,
      amount_refunded: 0,
      refunded: false,
      currency: fields.currency,
      paid: fields.succeeded,
      status: fields.succeeded ? 'succeeded' : 'failed',
      payment_intent: id,
      payment_method: fields.paymentMethod,
      customer: fields.customer,
      created: now(),
      livemode: false,
    });
    return intent;
  };

  const cardFailure = (behaviour: CardBehaviour, methodId: string): Json =>
    behaviour === 'authentication_required'
      ? { type: 'card_error', code: 'authentication_required', decline_code: 'authentication_required', message: 'Your card was declined. This transaction requires authentication.', payment_method: methods.get(methodId)?.method, doc_url: 'https://stripe.com/docs/error-codes/authentication-required' }
      : { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.', payment_method: methods.get(methodId)?.method, doc_url: 'https://stripe.com/docs/error-codes/card-declined' };

  const standIn: StripeStandIn = {
    url: '',
    key: options.key ?? `sk_test_${randomBytes(16).toString('hex')}`,
    webhookSecret: options.webhookSecret ?? `whsec_${randomBytes(24).toString('base64url')}`,
    mode: 'ok',
    requests: [],
    session: (id) => sessions.get(id)?.session,
    paymentIntent: (id) => intents.get(id),
    charge: (id) => charges.get(id),
    latestPaymentIntent: () => [...intents.values()].pop(),
    completeSession: (id, card = 'visa') => {
      const state = sessions.get(id);
      if (!state) throw new Error(`stand-in: no session ${id}`);
      const { session, intentData } = state;
      if (session.status !== 'open') throw new Error(`stand-in: session ${id} is ${String(session.status)}`);
      const saving = intentData.setupFutureUsage !== null;
      const customer = session.customer_creation === 'always' || saving ? newId('cus') : null;
      const method = addMethod(newId('pm'), TEST_CARDS[card], saving ? customer : null);
      const intent = createIntent({
        amount: session.amount_total as number,
        currency: session.currency as string,
        customer,
        paymentMethod: method.id,
        metadata: intentData.metadata,
        description: intentData.description,
        setupFutureUsage: intentData.setupFutureUsage,
        succeeded: true,
      });
      Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: intent.id, customer, customer_details: { email: session.customer_email, name: null } });
      return session;
    },
    expireSession: (id) => {
      const session = sessions.get(id)?.session;
      if (!session) throw new Error(`stand-in: no session ${id}`);
      Object.assign(session, { status: 'expired', url: null });
      return session;
    },
    savedCard: (card = 'visa') => {
      const customerId = newId('cus');
      return { customerId, paymentMethodId: addMethod(newId('pm'), TEST_CARDS[card], customerId).id };
    },
    event: (type, object, previousAttributes) => ({
      id: newId('evt'),
      object: 'event',
      api_version: apiVersion,
      created: now(),
      data: { object, ...(previousAttributes ? { previous_attributes: previousAttributes } : {}) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    }),
    signed: (event, signing = {}) => {
      const body = JSON.stringify(event, null, 2);
      return { body, signature: stripeSignatureHeader(body, signing.secret ?? standIn.webhookSecret, signing.timestamp) };
    },
    deliver: async (event) => {
      if (!standIn.webhookUrl) throw new Error('stand-in: no webhookUrl');
      const { body, signature } = standIn.signed(event);
      const response = await fetch(standIn.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature, 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' },
        body,
      });
      await response.arrayBuffer();
      return response.status;
    },
    close: () => Promise.resolve(),
  };

  function createSession(form: URLSearchParams): { status: number; body: unknown } {
    if (form.get('mode') !== 'payment') return badRequest('stand-in: only mode=payment is spoken here', 'mode');
    for (const param of ['success_url', 'cancel_url', 'client_reference_id', 'line_items[0][quantity]', 'line_items[0][price_data][currency]', 'line_items[0][price_data][product_data][name]']) {
      if (!form.get(param)) return badRequest(`Missing required param: ${param}.`, param, 'parameter_missing');
    }
    const unitText = form.get('line_items[0][price_data][unit_amount]') ?? '';
    if (!/^\d{1,12}$/.test(unitText)) return badRequest('Invalid integer: line_items[0][price_data][unit_amount]', 'line_items[0][price_data][unit_amount]', 'parameter_invalid_integer');
    if (form.has('line_items[1][quantity]')) return badRequest('stand-in: one line item expected', 'line_items');
    const amount = Number(unitText) * Number(form.get('line_items[0][quantity]'));
    const id = `cs_test_${randomBytes(24).toString('hex')}`;
    const session: Json = {
      id,
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_subtotal: amount,
      amount_total: amount,
      currency: form.get('line_items[0][price_data][currency]'),
      client_reference_id: form.get('client_reference_id'),
      customer: null,
      customer_creation: form.get('customer_creation') ?? 'if_required',
      customer_email: form.get('customer_email'),
      customer_details: null,
      metadata: subRecord(form, 'metadata'),
      payment_intent: null,
      success_url: form.get('success_url'),
      cancel_url: form.get('cancel_url'),
      url: `${standIn.url}/c/pay/${id}`,
      expires_at: now() + 86_400,
      created: now(),
      livemode: false,
    };
    sessions.set(id, {
      session,
      intentData: {
        metadata: subRecord(form, 'payment_intent_data[metadata]'),
        setupFutureUsage: form.get('payment_intent_data[setup_future_usage]'),
        description: form.get('payment_intent_data[description]') ?? form.get('line_items[0][price_data][product_data][name]'),
      },
    });
    return { status: 200, body: session };
  }

  function chargeOffSession(form: URLSearchParams): { status: number; body: unknown } {
    for (const param of ['amount', 'currency', 'customer', 'payment_method']) {
      if (!form.get(param)) return badRequest(`Missing required param: ${param}.`, param, 'parameter_missing');
    }
    if (form.get('confirm') !== 'true' || form.get('off_session') !== 'true') return badRequest('stand-in: off-session charges only (confirm=true, off_session=true)');
    const methodId = form.get('payment_method') ?? '';
    const state = methods.get(methodId);
    if (!state) return missing('PaymentMethod', methodId, 'payment_method');
    if (state.method.customer !== form.get('customer')) {
      return badRequest(`The provided PaymentMethod ${methodId} does not belong to the Customer ${form.get('customer') ?? ''}.`, 'payment_method');
    }
    const fields = { amount: Number(form.get('amount')), currency: form.get('currency') ?? '', customer: form.get('customer'), paymentMethod: methodId, metadata: subRecord(form, 'metadata'), description: form.get('description'), setupFutureUsage: null };
    if (state.behaviour === 'ok') return { status: 200, body: createIntent({ ...fields, succeeded: true }) };
    const failure = cardFailure(state.behaviour, methodId);
    const intent = createIntent({ ...fields, succeeded: false, failure });
    return error(402, { ...failure, payment_intent: intent, charge: intent.latest_charge });
  }

  function createRefund(form: URLSearchParams): { status: number; body: unknown } {
    const intentId = form.get('payment_intent');
    if (!intentId) return badRequest('stand-in: refunds by payment_intent only', 'payment_intent', 'parameter_missing');
    const intent = intents.get(intentId);
    if (!intent) return missing('payment_intent', intentId, 'payment_intent');
    const charge = charges.get(intent.latest_charge as string);
    if (intent.status !== 'succeeded' || !charge) return badRequest(`This PaymentIntent (${intentId}) does not have a successful charge to refund.`, 'payment_intent');
    const left = (charge.amount as number) - (charge.amount_refunded as number);
    if (left === 0) return badRequest(`Charge ${charge.id as string} has already been refunded.`, undefined, 'charge_already_refunded');
    const amountText = form.get('amount');
    if (amountText !== null && !/^\d{1,12}$/.test(amountText)) return badRequest('Invalid integer: amount', 'amount', 'parameter_invalid_integer');
    const amount = amountText === null ? left : Number(amountText);
    if (amount > left) return badRequest(`Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`, 'amount', 'amount_too_large');
    const refund: Json = {
      id: newId('re'),
      object: 'refund',
      amount,
      currency: intent.currency,
      charge: charge.id,
      payment_intent: intentId,
      status: 'succeeded',
      reason: form.get('reason'),
      metadata: subRecord(form, 'metadata'),
      created: now(),
    };
    refunds.push(refund);
    charge.amount_refunded = (charge.amount_refunded as number) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    return { status: 200, body: refund };
  }

  function detach(id: string): { status: number; body: unknown } {
    const state = methods.get(id);
    if (!state) return missing('PaymentMethod', id, 'payment_method');
    if (!state.method.customer) return badRequest('The payment method you provided is not attached to a customer so detachment is impossible.', 'payment_method');
    state.method.customer = null;
    return { status: 200, body: state.method };
  }

  function route(seen: StripeSeenRequest): { status: number; body: unknown } {
    const { method, path, query, form } = seen;
    let match: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/checkout/sessions') return createSession(form);
    if (method === 'GET' && (match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path))) {
      const id = decodeURIComponent(match[1] ?? '');
      const state = sessions.get(id);
      return state ? { status: 200, body: renderSession(state.session, expansions(query)) } : missing('checkout.session', id, 'session');
    }
    if (method === 'POST' && path === '/v1/payment_intents') return chargeOffSession(form);
    if (method === 'GET' && (match = /^\/v1\/payment_intents\/([^/]+)$/.exec(path))) {
      const id = decodeURIComponent(match[1] ?? '');
      const intent = intents.get(id);
      return intent ? { status: 200, body: renderIntent(intent, expansions(query)) } : missing('payment_intent', id, 'intent');
    }
    if (method === 'POST' && path === '/v1/refunds') return createRefund(form);
    if (method === 'GET' && path === '/v1/refunds') {
      const charge = query.get('charge');
      const data = refunds.filter((refund) => charge === null || refund.charge === charge).reverse();
      return { status: 200, body: { object: 'list', data, has_more: false, url: '/v1/refunds' } };
    }
    if (method === 'POST' && (match = /^\/v1\/payment_methods\/([^/]+)\/detach$/.exec(path))) return detach(decodeURIComponent(match[1] ?? ''));
    return error(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` });
  }

  function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    response.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req'), 'stripe-version': apiVersion ?? '', ...headers });
    response.end(JSON.stringify(body));
  }

  /** Stripe's API: modes, the key, idempotency, then the route. */
  function api(seen: StripeSeenRequest, response: ServerResponse) {
    const authorization = seen.headers.authorization ?? '';
    switch (standIn.mode) {
      case 'hang':
        return;
      case 'fail':
        send(response, 500, { error: { type: 'api_error', message: 'An unknown error occurred' } });
        return;
      case 'unavailable':
        response.writeHead(503, { 'content-type': 'text/html' }).end('<html><body>503 Service Unavailable</body></html>');
        return;
      case 'garbage':
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"id": "cs_test_cut", "object": "checkout.sess');
        return;
      case 'wrongShape':
        send(response, 200, { object: 'list', data: [], has_more: false, url: seen.path });
        return;
      case 'rateLimited':
        send(response, 429, { error: { type: 'invalid_request_error', code: 'rate_limit', message: 'Request rate limit exceeded. Learn more about rate limits here https://stripe.com/docs/rate-limits.' } });
        return;
      case 'leaky':
        send(response, 400, { error: { type: 'invalid_request_error', message: `Proxy refused the request with headers authorization=${authorization}` } });
        return;
      case 'ok':
        break;
    }
    if (authorization !== `Bearer ${standIn.key}`) {
      const presented = authorization.replace(/^Bearer /, '');
      const masked = presented.length > 12 ? `${presented.slice(0, 8)}${'*'.repeat(presented.length - 12)}${presented.slice(-4)}` : '***';
      send(response, 401, { error: { type: 'invalid_request_error', message: `Invalid API Key provided: ${masked}` } });
      return;
    }
    const key = seen.method === 'POST' ? seen.headers['idempotency-key'] : undefined;
    if (seen.method === 'POST' && !seen.path.endsWith('/detach') && typeof key !== 'string') {
      send(response, 400, { error: { type: 'invalid_request_error', message: 'stand-in: this create call needs an Idempotency-Key header' } });
      return;
    }
    if (typeof key === 'string') {
      const fingerprint = `${seen.path}?${seen.form.toString()}`;
      const saved = idempotency.get(key);
      if (saved && saved.fingerprint !== fingerprint) {
        send(response, 400, { error: { type: 'idempotency_error', message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.` } });
        return;
      }
      if (saved) {
        send(response, saved.status, saved.body, { 'idempotent-replayed': 'true', 'idempotency-key': key });
        return;
      }
      const answer = route(seen);
      idempotency.set(key, { fingerprint, ...answer });
      send(response, answer.status, answer.body, { 'idempotency-key': key });
      return;
    }
    const answer = route(seen);
    send(response, answer.status, answer.body);
  }

  /** Stripe Checkout's hosted page, reduced to a card number and a Pay button. */
  async function hostedPage(seen: StripeSeenRequest, response: ServerResponse) {
    const id = decodeURIComponent(seen.path.slice('/c/pay/'.length));
    const state = sessions.get(id);
    const page = (status: number, body: string) => response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head><title>Stripe Checkout (stand-in)</title></head><body>${body}</body></html>`);
    if (!state || state.session.status !== 'open') {
      page(404, '<h1>This Checkout Session is no longer active.</h1>');
      return;
    }
    const { session, intentData } = state;
    const form = (problem = '') =>
      `<h1>${escapeHtml(intentData.description ?? 'Payment')}</h1><p>Amount: <span id="amount">${String(session.amount_total)} ${escapeHtml(String(session.currency).toUpperCase())}</span> (smallest unit)</p>` +
      (problem ? `<p role="alert">${escapeHtml(problem)}</p>` : '') +
      `<form method="post"><label>Card number <input name="card" value="${TEST_CARDS.visa}"></label><button type="submit">Pay</button></form>` +
      `<a href="${escapeHtml(String(session.cancel_url))}">Back</a>`;
    if (seen.method !== 'POST') {
      page(200, form());
      return;
    }
    const number = (seen.form.get('card') ?? '').replace(/\s/g, '');
    const card = (Object.keys(TEST_CARDS) as (keyof typeof TEST_CARDS)[]).find((name) => TEST_CARDS[name] === number);
    if (!card || card === 'declined') {
      const methodId = addMethod(newId('pm'), number, null).id;
      const failure = cardFailure('declined', methodId);
      const intent = createIntent({ amount: session.amount_total as number, currency: session.currency as string, customer: null, paymentMethod: methodId, metadata: intentData.metadata, description: intentData.description, setupFutureUsage: null, succeeded: false, failure });
      if (standIn.webhookUrl) await standIn.deliver(standIn.event('payment_intent.payment_failed', intent)).catch(() => 0);
      page(402, form('Your card was declined.'));
      return;
    }
    const paid = standIn.completeSession(id, card);
    if (standIn.webhookUrl) await standIn.deliver(standIn.event('checkout.session.completed', { ...paid })).catch(() => 0);
    response.writeHead(303, { location: String(paid.success_url).replace('{CHECKOUT_SESSION_ID}', id) }).end();
  }

  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://stand-in');
      const body = Buffer.concat(chunks).toString('utf8');
      const seen: StripeSeenRequest = { method: incoming.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: incoming.headers, form: new URLSearchParams(body) };
      standIn.requests.push(seen);
      const version = incoming.headers['stripe-version'];
      if (typeof version === 'string' && version) apiVersion = version;
      if (seen.path.startsWith('/c/pay/')) {
        void hostedPage(seen, response);
        return;
      }
      api(seen, response);
    });
  });
  Object.assign(standIn, await listenLocally(server));
  return standIn;
}
