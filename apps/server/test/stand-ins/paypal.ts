import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { listenLocally } from './stand-in-server';

/**
 * A local PayPal REST API, written from PayPal's public documentation, speaking its wire format
 * (snake_case JSON, PayPal's error bodies, its headers) as the official SDK calls it:
 *
 * - `POST /v1/oauth2/token`: Basic auth of client id and secret, form `grant_type=client_credentials`
 *   → `{scope, access_token, token_type: "Bearer", app_id, expires_in, nonce}`; wrong credentials
 *   → 401 `{error: "invalid_client", error_description}`
 *   (https://developer.paypal.com/api/rest/authentication/).
 * - `POST /v2/checkout/orders` (https://developer.paypal.com/api/orders/v2/#orders_create): intent,
 *   purchase_units (amount `{currency_code, value}`: a decimal string, no decimals for JPY, HUF and
 *   TWD, at most two otherwise), `payment_source.paypal.experience_context` (return_url,
 *   cancel_url) or the older `application_context`. With payment_source the order is
 *   PAYER_ACTION_REQUIRED with a `payer-action` link, without it CREATED with an `approve` link
 *   (https://developer.paypal.com/api/orders/v2/definitions/order_status). `Prefer:
 *   return=minimal` (the default) answers id, status and links; `return=representation` the order.
 * - `GET /v2/checkout/orders/{id}` (orders_get); 404 RESOURCE_NOT_FOUND / INVALID_RESOURCE_ID.
 * - `POST /v2/checkout/orders/{id}/capture` (https://developer.paypal.com/api/orders/v2/orders-capture):
 *   an APPROVED order → 201, the order COMPLETED with `purchase_units[0].payments.captures[0]`;
 *   not approved → 422 ORDER_NOT_APPROVED; captured already → 422 ORDER_ALREADY_CAPTURED; a
 *   declined funding source → 422 INSTRUMENT_DECLINED, the order back to PAYER_ACTION_REQUIRED
 *   (https://developer.paypal.com/docs/checkout/standard/customize/handle-funding-failures/).
 * - `POST /v2/payments/captures/{id}/refund` (https://developer.paypal.com/api/payments/v2/#captures_refund):
 *   an empty body refunds what is left, `{amount}` a part; more than is left → 422
 *   REFUND_AMOUNT_EXCEEDED, nothing left → 422 CAPTURE_FULLY_REFUNDED, another currency → 422
 *   REFUND_CURRENCY_MISMATCH (https://developer.paypal.com/api/rest/reference/orders/v2/errors/).
 * - `POST /v1/notifications/verify-webhook-signature`
 *   (https://developer.paypal.com/api/webhooks/v1/#verify-webhook-signature_post): the seven
 *   documented fields → 200 `{verification_status: "SUCCESS"}` only for a transmission this
 *   stand-in sent (`signedWebhook`) with the same headers, the configured webhook id and the same
 *   event; 200 `FAILURE` otherwise; 400 VALIDATION_ERROR when a field is missing.
 * - `GET /checkoutnow?token={id}`: PayPal's hosted approval page, reduced to two buttons: Pay
 *   (approves, then 303 to `return_url?token={id}&PayerID=...`) and Cancel (303 to `cancel_url?token={id}`).
 *
 * Stricter than PayPal, so the adapter's duties are checked: every call but the token needs
 * `Authorization: Bearer` with a token it issued (401 AUTHENTICATION_FAILURE otherwise), and
 * create, capture and refund need `PayPal-Request-Id` (PayPal requires it only for some calls;
 * this product sends it on every call that creates something). A repeated request id on the same
 * path answers the first answer again, as PayPal's idempotency does
 * (https://developer.paypal.com/api/rest/reference/idempotency/).
 *
 * Modes, for the API paths (all, or those under `modeOnly`): `hang` never answers, `fail` is 500
 * INTERNAL_SERVER_ERROR, `rateLimited` 429 RATE_LIMIT_REACHED, `garbage` a 2xx that is not JSON,
 * `wrongShape` a 2xx of another shape than documented.
 */

export type PaypalStandInMode = 'ok' | 'hang' | 'fail' | 'rateLimited' | 'garbage' | 'wrongShape';

export type PaypalSeenRequest = { method: string; path: string; query: URLSearchParams; headers: IncomingHttpHeaders; body: string };

type Money = { currency_code: string; value: string };

/** What a capture of this order does: taken, held for review, declined in a 201, or a 422 INSTRUMENT_DECLINED. */
export type CaptureOutcome = 'COMPLETED' | 'PENDING' | 'DECLINED' | 'INSTRUMENT_DECLINED';

export type StandInOrder = {
  id: string;
  intent: string;
  status: 'CREATED' | 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED' | 'VOIDED';
  withPaymentSource: boolean;
  unit: { reference_id?: string; custom_id?: string; description?: string; amount: Money };
  returnUrl: string;
  cancelUrl?: string;
  captureOutcome: CaptureOutcome;
  captureIds: string[];
  createTime: string;
};

export type StandInCapture = {
  id: string;
  orderId: string;
  status: 'COMPLETED' | 'PENDING' | 'DECLINED' | 'PARTIALLY_REFUNDED' | 'REFUNDED';
  amount: Money;
  customId?: string;
  /** In the currency's smallest unit. */
  refundedUnits: number;
  refundIds: string[];
  createTime: string;
};

export type StandInRefund = { id: string; captureId: string; status: 'COMPLETED'; amount: Money; createTime: string };

type Transmission = { auth_algo: string; cert_url: string; transmission_id: string; transmission_sig: string; transmission_time: string; event: unknown };

export type PaypalStandIn = {
  url: string;
  clientId: string;
  clientSecret: string;
  webhookId: string;
  mode: PaypalStandInMode;
  /** The mode applies only to paths starting with this (e.g. `/v1/notifications`); to every API path when unset. */
  modeOnly?: string;
  /** Every API call answers 401, whatever its token (a token refused again after renewal). */
  refuseTokens: boolean;
  /** Seconds the next tokens are valid for. */
  tokenLifetimeS: number;
  /** Every request received, oldest first. */
  requests: PaypalSeenRequest[];
  orders: Map<string, StandInOrder>;
  captures: Map<string, StandInCapture>;
  refunds: Map<string, StandInRefund>;
  /** Tokens issued so far. */
  tokensIssued: number;
  /** The payer approves the order on PayPal's page; its capture will end as `outcome`. */
  approve: (orderId: string, outcome?: CaptureOutcome) => void;
  voidOrder: (orderId: string) => void;
  /** Forgets every token issued: the next API call with one gets 401. */
  revokeTokens: () => void;
  /** PayPal's webhook event envelope around a resource. */
  event: (eventType: string, resourceType: string, resource: Record<string, unknown>) => Record<string, unknown>;
  /** The capture, the refund, as PayPal's JSON (a webhook's resource). */
  captureJson: (captureId: string) => Record<string, unknown>;
  refundJson: (refundId: string) => Record<string, unknown>;
  /** A webhook delivery as PayPal sends it: the raw body and its PAYPAL-* transmission headers, remembered for the verify call. */
  signedWebhook: (event: Record<string, unknown>) => { rawBody: Buffer; headers: Record<string, string> };
  close: () => Promise<void>;
};

const ZERO_DECIMAL = new Set(['HUF', 'JPY', 'TWD']);
/** PayPal's currency codes (https://developer.paypal.com/api/rest/reference/currency-codes/). */
const CURRENCIES = new Set(['AUD', 'BRL', 'CAD', 'CNY', 'CZK', 'DKK', 'EUR', 'HKD', 'HUF', 'ILS', 'JPY', 'MYR', 'MXN', 'TWD', 'NZD', 'NOK', 'PHP', 'PLN', 'GBP', 'SGD', 'SEK', 'CHF', 'THB', 'USD']);
const decimalsOf = (currency: string): number => (ZERO_DECIMAL.has(currency) ? 0 : 2);
const toUnits = (money: Money): number => Math.round(Number(money.value) * 10 ** decimalsOf(money.currency_code));
const fromUnits = (units: number, currency: string): string => (units / 10 ** decimalsOf(currency)).toFixed(decimalsOf(currency));

/** PayPal-style ids: 17 upper-case letters and digits. */
const paypalId = (): string => Array.from(randomBytes(17), (byte) => '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'.charAt(byte % 36)).join('');

type Answer = { status: number; body: unknown };

const paypalError = (status: number, name: string, message: string, issue?: string, description?: string, field?: string): Answer => ({
  status,
  body: {
    name,
    message,
    debug_id: randomBytes(6).toString('hex'),
    ...(issue ? { details: [{ ...(field ? { field, location: 'body' } : {}), issue, description: description ?? issue }] } : {}),
    links: [{ href: `https://developer.paypal.com/docs/api/orders/v2/#error-${issue ?? name}`, rel: 'information_link', method: 'GET' }],
  },
});
const unprocessable = (issue: string, description: string): Answer =>
  paypalError(422, 'UNPROCESSABLE_ENTITY', 'The requested action could not be performed, semantically incorrect, or failed business validation.', issue, description);
const invalidRequest = (issue: string, field: string): Answer =>
  paypalError(400, 'INVALID_REQUEST', 'Request is not well-formed, syntactically incorrect, or violates schema.', issue, issue, field);
const notFound = (): Answer => paypalError(404, 'RESOURCE_NOT_FOUND', 'The specified resource does not exist.', 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist. Please check the resource ID and try again.');

const asRecord = (value: unknown): Record<string, unknown> | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);

export async function startPaypal(): Promise<PaypalStandIn> {
  const tokens = new Set<string>();
  const transmissions = new Map<string, Transmission>();
  const replies = new Map<string, Answer>();
  const standIn: PaypalStandIn = {
    url: '',
    clientId: `AVstandin${randomBytes(8).toString('hex')}`,
    clientSecret: `EKstandinSecret${randomBytes(12).toString('hex')}`,
    webhookId: `WH${randomBytes(6).toString('hex').toUpperCase()}`,
    mode: 'ok',
    refuseTokens: false,
    tokenLifetimeS: 32_400,
    requests: [],
    orders: new Map(),
    captures: new Map(),
    refunds: new Map(),
    tokensIssued: 0,
    approve: (orderId, outcome = 'COMPLETED') => {
      const order = standIn.orders.get(orderId);
      if (!order) throw new Error(`no order ${orderId}`);
      order.status = 'APPROVED';
      order.captureOutcome = outcome;
    },
    voidOrder: (orderId) => {
      const order = standIn.orders.get(orderId);
      if (!order) throw new Error(`no order ${orderId}`);
      order.status = 'VOIDED';
    },
    revokeTokens: () => {
      tokens.clear();
    },
    event: (eventType, resourceType, resource) => ({
      id: `WH-${paypalId()}-${paypalId()}`,
      event_version: '1.0',
      create_time: new Date().toISOString(),
      resource_type: resourceType,
      resource_version: '2.0',
      event_type: eventType,
      summary: `${eventType} (stand-in)`,
      resource,
      links: [{ href: `${standIn.url}/v1/notifications/webhooks-events/WH-0`, rel: 'self', method: 'GET' }],
    }),
    captureJson: (captureId) => {
      const capture = standIn.captures.get(captureId);
      if (!capture) throw new Error(`no capture ${captureId}`);
      return captureJson(capture);
    },
    refundJson: (refundId) => {
      const refund = standIn.refunds.get(refundId);
      if (!refund) throw new Error(`no refund ${refundId}`);
      return refundJson(refund);
    },
    signedWebhook: (event) => {
      const rawBody = Buffer.from(JSON.stringify(event));
      const transmission: Transmission = {
        auth_algo: 'SHA256withRSA',
        cert_url: `${standIn.url}/v1/notifications/certs/CERT-360caa42-fca2a594-a5cafa77`,
        transmission_id: randomUUID(),
        // PayPal signs `<transmission id>|<time>|<webhook id>|<crc32 of the body>` with its key; the stand-in only has to know what it sent.
        transmission_sig: createHash('sha256').update(rawBody).update(randomBytes(8)).digest('base64'),
        transmission_time: new Date().toISOString(),
        event: JSON.parse(rawBody.toString('utf8')),
      };
      transmissions.set(transmission.transmission_id, transmission);
      return {
        rawBody,
        headers: {
          'content-type': 'application/json',
          'paypal-auth-algo': transmission.auth_algo,
          'paypal-cert-url': transmission.cert_url,
          'paypal-transmission-id': transmission.transmission_id,
          'paypal-transmission-sig': transmission.transmission_sig,
          'paypal-transmission-time': transmission.transmission_time,
        },
      };
    },
    close: () => Promise.resolve(),
  };

  const link = (path: string, rel: string, method = 'GET') => ({ href: `${standIn.url}${path}`, rel, method });

  function captureJson(capture: StandInCapture): Record<string, unknown> {
    return {
      id: capture.id,
      status: capture.status,
      ...(capture.status === 'PENDING' ? { status_details: { reason: 'PENDING_REVIEW' } } : {}),
      amount: capture.amount,
      final_capture: true,
      seller_protection: { status: 'ELIGIBLE', dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'] },
      ...(capture.customId ? { custom_id: capture.customId } : {}),
      supplementary_data: { related_ids: { order_id: capture.orderId } },
      create_time: capture.createTime,
      update_time: capture.createTime,
      links: [link(`/v2/payments/captures/${capture.id}`, 'self'), link(`/v2/payments/captures/${capture.id}/refund`, 'refund', 'POST'), link(`/v2/checkout/orders/${capture.orderId}`, 'up')],
    };
  }

  function refundJson(refund: StandInRefund): Record<string, unknown> {
    return {
      id: refund.id,
      status: refund.status,
      amount: refund.amount,
      create_time: refund.createTime,
      update_time: refund.createTime,
      links: [link(`/v2/payments/refunds/${refund.id}`, 'self'), link(`/v2/payments/captures/${refund.captureId}`, 'up')],
    };
  }

  function orderJson(order: StandInOrder): Record<string, unknown> {
    const captures = order.captureIds.map((id) => standIn.captures.get(id)).filter((capture) => capture !== undefined);
    const links = [link(`/v2/checkout/orders/${order.id}`, 'self')];
    if (order.status === 'CREATED') links.push(link(`/checkoutnow?token=${order.id}`, 'approve'));
    if (order.status === 'PAYER_ACTION_REQUIRED') links.push(link(`/checkoutnow?token=${order.id}`, 'payer-action'));
    if (order.status === 'APPROVED') links.push(link(`/v2/checkout/orders/${order.id}`, 'update', 'PATCH'), link(`/v2/checkout/orders/${order.id}/capture`, 'capture', 'POST'));
    return {
      id: order.id,
      intent: order.intent,
      status: order.status,
      ...(order.withPaymentSource ? { payment_source: { paypal: order.status === 'CREATED' || order.status === 'PAYER_ACTION_REQUIRED' ? {} : { email_address: 'rider@example.com', account_id: 'PAYERSTANDIN1', account_status: 'VERIFIED' } } } : {}),
      purchase_units: [{ ...order.unit, payee: { merchant_id: 'MERCHANTSTAND1' }, ...(captures.length > 0 ? { payments: { captures: captures.map(captureJson) } } : {}) }],
      ...(order.status === 'APPROVED' || order.status === 'COMPLETED' ? { payer: { payer_id: 'PAYERSTANDIN1', email_address: 'rider@example.com', name: { given_name: 'Stand', surname: 'In' } } } : {}),
      create_time: order.createTime,
      links,
    };
  }

  const minimal = (order: StandInOrder, prefer: string | undefined): Record<string, unknown> => {
    const full = orderJson(order);
    return prefer === 'return=representation' ? full : { id: full.id, status: full.status, ...(full.payment_source ? { payment_source: full.payment_source } : {}), links: full.links };
  };

  function createOrder(body: Record<string, unknown>, prefer: string | undefined): Answer {
    if (body.intent !== 'CAPTURE' && body.intent !== 'AUTHORIZE') return invalidRequest(body.intent === undefined ? 'MISSING_REQUIRED_PARAMETER' : 'INVALID_PARAMETER_VALUE', '/intent');
    const units = Array.isArray(body.purchase_units) ? body.purchase_units : [];
    if (units.length < 1 || units.length > 10) return invalidRequest('MISSING_REQUIRED_PARAMETER', '/purchase_units');
    const unit = asRecord(units[0]) ?? {};
    const amount = asRecord(unit.amount);
    const currency = amount?.currency_code;
    const value = amount?.value;
    if (typeof currency !== 'string' || typeof value !== 'string') return invalidRequest('MISSING_REQUIRED_PARAMETER', '/purchase_units/@reference_id==\'default\'/amount');
    if (!CURRENCIES.has(currency)) return unprocessable('CURRENCY_NOT_SUPPORTED', 'Currency code is not currently supported.');
    if (!/^((-?[0-9]+)|(-?([0-9]+)?[.][0-9]+))$/.test(value)) return invalidRequest('INVALID_PARAMETER_SYNTAX', '/purchase_units/@reference_id==\'default\'/amount/value');
    const decimals = value.split('.')[1]?.length ?? 0;
    if (ZERO_DECIMAL.has(currency) && decimals > 0) return unprocessable('DECIMALS_NOT_SUPPORTED', 'Currency does not support decimals.');
    if (decimals > 2) return unprocessable('DECIMAL_PRECISION', 'If the currency supports decimals, only two decimal place precision is supported.');
    if (Number(value) <= 0) return unprocessable('CANNOT_BE_ZERO_OR_NEGATIVE', 'Must be greater than zero.');
    for (const [field, max] of [['custom_id', 127], ['reference_id', 256], ['description', 127]] as const) {
      const text = unit[field];
      if (text !== undefined && (typeof text !== 'string' || text.length > max)) return invalidRequest('INVALID_STRING_MAX_LENGTH', `/purchase_units/@reference_id=='default'/${field}`);
    }
    const experience = asRecord(asRecord(asRecord(body.payment_source)?.paypal)?.experience_context);
    const legacy = asRecord(body.application_context);
    const context = experience ?? legacy;
    const returnUrl = context?.return_url;
    if (typeof returnUrl !== 'string' || !/^https?:\/\//.test(returnUrl)) return invalidRequest('MISSING_REQUIRED_PARAMETER', experience ? '/payment_source/paypal/experience_context/return_url' : '/application_context/return_url');
    const order: StandInOrder = {
      id: paypalId(),
      intent: body.intent,
      status: experience ? 'PAYER_ACTION_REQUIRED' : 'CREATED',
      withPaymentSource: experience !== undefined,
      unit: {
        ...(typeof unit.reference_id === 'string' ? { reference_id: unit.reference_id } : { reference_id: 'default' }),
        ...(typeof unit.custom_id === 'string' ? { custom_id: unit.custom_id } : {}),
        ...(typeof unit.description === 'string' ? { description: unit.description } : {}),
        amount: { currency_code: currency, value },
      },
      returnUrl,
      ...(typeof context?.cancel_url === 'string' ? { cancelUrl: context.cancel_url } : {}),
      captureOutcome: 'COMPLETED',
      captureIds: [],
      createTime: new Date().toISOString(),
    };
    standIn.orders.set(order.id, order);
    return { status: 201, body: minimal(order, prefer) };
  }

  function captureOrder(orderId: string, prefer: string | undefined): Answer {
    const order = standIn.orders.get(orderId);
    if (!order) return notFound();
    if (order.status === 'COMPLETED') return unprocessable('ORDER_ALREADY_CAPTURED', 'Order already captured.If \'intent=CAPTURE\' only one capture per order is allowed.');
    if (order.status !== 'APPROVED') return unprocessable('ORDER_NOT_APPROVED', 'Payer has not yet approved the Order for payment. Please redirect the payer to the \'rel\':\'approve\' url returned as part of the HATEOAS links within the Create Order call or provide a valid payment_source in the request.');
    if (order.captureOutcome === 'INSTRUMENT_DECLINED') {
      order.status = 'PAYER_ACTION_REQUIRED';
      order.captureOutcome = 'COMPLETED';
      return unprocessable('INSTRUMENT_DECLINED', 'The instrument presented  was either declined by the processor or bank, or it can\'t be used for this payment.');
    }
    const capture: StandInCapture = {
      id: paypalId(),
      orderId,
      status: order.captureOutcome,
      amount: order.unit.amount,
      ...(order.unit.custom_id ? { customId: order.unit.custom_id } : {}),
      refundedUnits: 0,
      refundIds: [],
      createTime: new Date().toISOString(),
    };
    standIn.captures.set(capture.id, capture);
    order.captureIds.push(capture.id);
    order.status = 'COMPLETED';
    return { status: 201, body: minimal(order, prefer === 'return=representation' ? prefer : undefined) };
  }

  function refundCapture(captureId: string, body: Record<string, unknown>, prefer: string | undefined): Answer {
    const capture = standIn.captures.get(captureId);
    if (!capture) return notFound();
    if (capture.status === 'REFUNDED') return unprocessable('CAPTURE_FULLY_REFUNDED', 'The capture has already been fully refunded.');
    if (capture.status !== 'COMPLETED' && capture.status !== 'PARTIALLY_REFUNDED') return unprocessable('CANNOT_PROCESS_REFUNDS', 'The current state of the capture does not allow refunds.');
    const left = toUnits(capture.amount) - capture.refundedUnits;
    const amount = asRecord(body.amount);
    let units = left;
    if (amount) {
      if (typeof amount.currency_code !== 'string' || typeof amount.value !== 'string') return invalidRequest('MISSING_REQUIRED_PARAMETER', '/amount');
      if (amount.currency_code !== capture.amount.currency_code) return unprocessable('REFUND_CURRENCY_MISMATCH', 'Refund must be in the same currency as the capture.');
      if (!/^[0-9]+(\.[0-9]{1,2})?$/.test(amount.value) || (ZERO_DECIMAL.has(amount.currency_code) && amount.value.includes('.'))) return unprocessable('DECIMAL_PRECISION', 'The amount is not a valid decimal of the currency.');
      units = toUnits({ currency_code: amount.currency_code, value: amount.value });
      if (units <= 0) return unprocessable('CANNOT_BE_ZERO_OR_NEGATIVE', 'Must be greater than zero.');
      if (units > left) return unprocessable('REFUND_AMOUNT_EXCEEDED', 'The refund amount must be less than or equal to the capture amount that has not yet been refunded.');
    }
    const refund: StandInRefund = { id: paypalId(), captureId, status: 'COMPLETED', amount: { currency_code: capture.amount.currency_code, value: fromUnits(units, capture.amount.currency_code) }, createTime: new Date().toISOString() };
    standIn.refunds.set(refund.id, refund);
    capture.refundedUnits += units;
    capture.refundIds.push(refund.id);
    capture.status = capture.refundedUnits >= toUnits(capture.amount) ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    const json = refundJson(refund);
    return { status: 201, body: prefer === 'return=representation' ? json : { id: json.id, status: json.status, links: json.links } };
  }

  function verifySignature(body: Record<string, unknown>): Answer {
    const fields = ['auth_algo', 'cert_url', 'transmission_id', 'transmission_sig', 'transmission_time', 'webhook_id', 'webhook_event'] as const;
    for (const field of fields) {
      if (body[field] === undefined || body[field] === '') return paypalError(400, 'VALIDATION_ERROR', 'Invalid request - see details', 'MISSING_REQUIRED_PARAMETER', `${field} is required`, field);
    }
    const sent = transmissions.get(String(body.transmission_id));
    const verified =
      sent !== undefined &&
      body.webhook_id === standIn.webhookId &&
      (['auth_algo', 'cert_url', 'transmission_sig', 'transmission_time'] as const).every((field) => body[field] === sent[field]) &&
      isDeepStrictEqual(body.webhook_event, sent.event);
    return { status: 200, body: { verification_status: verified ? 'SUCCESS' : 'FAILURE' } };
  }

  function issueToken(headers: IncomingHttpHeaders, body: string): Answer {
    const basic = /^Basic (.+)$/.exec(headers.authorization ?? '')?.[1];
    const [id, ...secret] = Buffer.from(basic ?? '', 'base64').toString('utf8').split(':');
    if (id !== standIn.clientId || secret.join(':') !== standIn.clientSecret) return { status: 401, body: { error: 'invalid_client', error_description: 'Client Authentication failed' } };
    if (!/application\/x-www-form-urlencoded/.test(headers['content-type'] ?? '') || new URLSearchParams(body).get('grant_type') !== 'client_credentials') {
      return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'Grant Type is NULL' } };
    }
    const token = `A21AA${randomBytes(24).toString('base64url')}`;
    tokens.add(token);
    standIn.tokensIssued += 1;
    return {
      status: 200,
      body: {
        scope: 'https://uri.paypal.com/services/payments/payment https://uri.paypal.com/services/payments/refund https://uri.paypal.com/services/applications/webhooks',
        access_token: token,
        token_type: 'Bearer',
        app_id: 'APP-80W284485P519543T',
        expires_in: standIn.tokenLifetimeS,
        nonce: `${new Date().toISOString()}${randomBytes(8).toString('hex')}`,
      },
    };
  }

  const AUTH_FAILURE: Answer = { status: 401, body: { name: 'AUTHENTICATION_FAILURE', message: 'Authentication failed due to invalid authentication credentials or a missing Authorization header.', links: [{ href: 'https://developer.paypal.com/docs/api/overview/#error', rel: 'information_link' }] } };

  function api(seen: PaypalSeenRequest): Answer {
    const { method, path, headers } = seen;
    if (method === 'POST' && path === '/v1/oauth2/token') return issueToken(headers, seen.body);
    const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
    if (!bearer || !tokens.has(bearer) || standIn.refuseTokens) return AUTH_FAILURE;
    const prefer = typeof headers.prefer === 'string' ? headers.prefer : undefined;
    let body: Record<string, unknown> = {};
    if (method === 'POST' && seen.body.trim() !== '') {
      if (!/application\/json/.test(headers['content-type'] ?? '')) return paypalError(415, 'UNSUPPORTED_MEDIA_TYPE', 'The server does not support the request payload media type.');
      try {
        body = asRecord(JSON.parse(seen.body)) ?? {};
      } catch {
        return paypalError(400, 'INVALID_REQUEST', 'Request is not well-formed, syntactically incorrect, or violates schema.', 'MALFORMED_REQUEST_JSON', 'The request JSON is not well formed.');
      }
    }
    if (method === 'POST' && path === '/v1/notifications/verify-webhook-signature') return verifySignature(body);

    const creates = method === 'POST' && (path === '/v2/checkout/orders' || /^\/v2\/checkout\/orders\/[^/]+\/capture$/.test(path) || /^\/v2\/payments\/captures\/[^/]+\/refund$/.test(path));
    const requestId = headers['paypal-request-id'];
    if (creates && typeof requestId !== 'string') return invalidRequest('MISSING_REQUIRED_PARAMETER', 'PayPal-Request-Id');
    const replayKey = creates ? `${path}|${String(requestId)}` : undefined;
    const replay = replayKey === undefined ? undefined : replies.get(replayKey);
    if (replay) return replay;

    let answer: Answer;
    const orderMatch = /^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/.exec(path);
    const refundMatch = /^\/v2\/payments\/captures\/([^/]+)\/refund$/.exec(path);
    if (method === 'POST' && path === '/v2/checkout/orders') answer = createOrder(body, prefer);
    else if (method === 'GET' && orderMatch?.[1] && !orderMatch[2]) {
      const order = standIn.orders.get(orderMatch[1]);
      answer = order ? { status: 200, body: orderJson(order) } : notFound();
    } else if (method === 'POST' && orderMatch?.[1] && orderMatch[2]) answer = captureOrder(orderMatch[1], prefer);
    else if (method === 'POST' && refundMatch?.[1]) answer = refundCapture(refundMatch[1], body, prefer);
    else answer = notFound();
    if (replayKey !== undefined && answer.status < 500) replies.set(replayKey, answer);
    return answer;
  }

  /** PayPal's hosted approval page, reduced to what a browser test clicks. */
  function checkoutPage(seen: PaypalSeenRequest, response: ServerResponse): void {
    const token = seen.method === 'GET' ? seen.query.get('token') : new URLSearchParams(seen.body).get('token');
    const order = token ? standIn.orders.get(token) : undefined;
    if (!order) {
      response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>PayPal</title><p>This order does not exist.</p>');
      return;
    }
    if (seen.method === 'POST' && seen.path === '/checkoutnow/approve') {
      standIn.approve(order.id);
      const back = new URL(order.returnUrl);
      back.searchParams.set('token', order.id);
      back.searchParams.set('PayerID', 'PAYERSTANDIN1');
      response.writeHead(303, { location: back.toString() }).end();
      return;
    }
    if (seen.method === 'POST' && seen.path === '/checkoutnow/cancel') {
      const back = new URL(order.cancelUrl ?? order.returnUrl);
      back.searchParams.set('token', order.id);
      response.writeHead(303, { location: back.toString() }).end();
      return;
    }
    const escape = (text: string) => text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
      `<!doctype html><html><head><title>PayPal Checkout (stand-in)</title></head><body>
<h1>PayPal (stand-in)</h1><p>${escape(order.unit.description ?? '')}</p><p>Total: <span id="total">${escape(order.unit.amount.value)} ${escape(order.unit.amount.currency_code)}</span></p>
<form method="post" action="/checkoutnow/approve"><input type="hidden" name="token" value="${escape(order.id)}"><button type="submit">Pay with PayPal</button></form>
<form method="post" action="/checkoutnow/cancel"><input type="hidden" name="token" value="${escape(order.id)}"><button type="submit">Cancel and return</button></form>
</body></html>`,
    );
  }

  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://stand-in');
      const seen: PaypalSeenRequest = { method: incoming.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') };
      standIn.requests.push(seen);
      if (seen.path.startsWith('/checkoutnow')) {
        checkoutPage(seen, response);
        return;
      }
      const mode = standIn.modeOnly === undefined || seen.path.startsWith(standIn.modeOnly) ? standIn.mode : 'ok';
      if (mode === 'hang') return;
      const answer: Answer =
        mode === 'fail'
          ? { status: 500, body: { name: 'INTERNAL_SERVER_ERROR', message: 'An internal server error has occurred.', debug_id: randomBytes(6).toString('hex') } }
          : mode === 'rateLimited'
            ? { status: 429, body: { name: 'RATE_LIMIT_REACHED', message: 'Too many requests. Blocked due to rate limiting.', debug_id: randomBytes(6).toString('hex') } }
            : mode === 'garbage'
              ? { status: 200, body: '{"id":"5O190127TN364715T","status":"COMPL' }
              : mode === 'wrongShape'
                ? { status: 200, body: { id: 42, status: ['COMPLETED'], verification_status: null, access_token: 7 } }
                : api(seen);
      const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      response.writeHead(answer.status, { 'content-type': 'application/json', 'paypal-debug-id': randomBytes(6).toString('hex') }).end(text);
    });
  });
  Object.assign(standIn, await listenLocally(server));
  return standIn;
}
