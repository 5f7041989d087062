import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { listenLocally } from './stand-in-server';

/**
 * A local Mercado Pago API, written from Mercado Pago's public documentation, speaking its wire
 * format (amounts as JSON numbers in the currency's major unit, integer payment ids):
 *
 * - `POST /checkout/preferences` (https://www.mercadopago.com.ar/developers/en/reference/preferences/_checkout_preferences/post):
 *   items (title, quantity, unit_price > 0, currency_id of ARS BRL CLP COP MXN PEN UYU; CLP a whole
 *   number), external_reference, back_urls, auto_return (needs back_urls.success), notification_url,
 *   metadata → 201 `{id, init_point, sandbox_init_point, ...}`. The same `X-Idempotency-Key` answers
 *   the same preference.
 * - `GET /v1/payments/:id` (https://www.mercadopago.com.ar/developers/en/reference/payments/_payments_id/get):
 *   the payment (status, status_detail, transaction_amount, currency_id, external_reference,
 *   metadata); an unknown id is 404 "Payment not found".
 * - `GET /v1/payments/search` (https://www.mercadopago.com.ar/developers/en/reference/payments/_payments_search/get):
 *   `external_reference`, `sort=date_created`, `criteria=asc|desc` → `{paging, results}`.
 * - `POST /v1/payments/:id/refunds` (https://www.mercadopago.com.ar/developers/en/reference/chargebacks/_payments_id_refunds/post):
 *   `{amount}` (in part) or `{}` (the rest) → 201 the refund `{id, payment_id, amount, status: approved}`;
 *   the same `X-Idempotency-Key` answers the same refund; more than is left, or a payment not
 *   approved, is 400. A full refund makes the payment `refunded`.
 * - Webhooks (https://www.mercadopago.com.mx/developers/en/docs/checkout-pro-preferences/payment-notifications):
 *   `signedWebhook` gives the body `{action, api_version, data: {id}, date_created, id, live_mode, type, user_id}`
 *   and the `x-request-id` and `x-signature: ts=<seconds>,v1=<hex HMAC-SHA256 of
 *   "id:<data.id>;request-id:<x-request-id>;ts:<ts>;" keyed with the webhook secret>` headers.
 * - `GET /checkout/v1/redirect?pref_id=` and `/sandbox/checkout/v1/redirect?pref_id=`: Checkout Pro's
 *   page, reduced to Pay, Decline and Cancel. Pay makes an approved payment and, auto_return
 *   approved, 303s to `back_urls.success` with `collection_id`, `payment_id`, `status`,
 *   `external_reference` and `preference_id`; Decline makes a rejected payment and 303s to
 *   `back_urls.failure`; Cancel 303s to `back_urls.failure` with nothing paid.
 *
 * Every API call needs `Authorization: Bearer <access token>` (401 otherwise). Modes, for the API
 * paths: `hang` never answers, `fail` is a 500, `garbage` a 200 that is not JSON, `wrongShape` a
 * 200 of another shape than documented.
 */

export type MercadoPagoStandInMode = 'ok' | 'hang' | 'fail' | 'garbage' | 'wrongShape';

export type MercadoPagoSeenRequest = { method: string; path: string; query: URLSearchParams; headers: IncomingHttpHeaders; body: string };

export type MercadoPagoPreference = { id: string; body: Record<string, unknown>; idempotencyKey: string | undefined };

export type MercadoPagoPayment = {
  id: number;
  preferenceId: string;
  status: 'approved' | 'rejected' | 'pending' | 'in_process' | 'cancelled' | 'refunded' | 'charged_back';
  transactionAmount: number;
  currency: string;
  externalReference: string;
  metadata: unknown;
  refunded: number;
  createdAt: string;
};

export type MercadoPagoRefund = { id: number; paymentId: number; amount: number; idempotencyKey: string | undefined; createdAt: string };

export type MercadoPagoStandIn = {
  url: string;
  accessToken: string;
  webhookSecret: string;
  mode: MercadoPagoStandInMode;
  requests: MercadoPagoSeenRequest[];
  preferences: Map<string, MercadoPagoPreference>;
  payments: Map<number, MercadoPagoPayment>;
  refunds: Map<number, MercadoPagoRefund>;
  /** The payer pays (or is declined) on the checkout page, as if clicked: the new payment. */
  pay: (preferenceId: string, status?: MercadoPagoPayment['status']) => MercadoPagoPayment;
  /** A notification as Mercado Pago sends it about a payment: the raw body and its headers. */
  signedWebhook: (paymentId: number | string, action?: string, secret?: string) => { rawBody: Buffer; headers: Record<string, string> };
  close: () => Promise<void>;
};

const CURRENCIES = new Set(['ARS', 'BRL', 'CLP', 'COP', 'MXN', 'PEN', 'UYU']);
type Answer = { status: number; body: unknown };
const fail = (status: number, message: string, error = 'bad_request'): Answer => ({ status, body: { message, error, status, cause: [] } });
const text = (value: unknown, fallback = ''): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : fallback);
const asRecord = (value: unknown): Record<string, unknown> | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);

export async function startMercadoPago(): Promise<MercadoPagoStandIn> {
  let nextId = 90_000_000_000 + Math.floor(Math.random() * 1000) * 1000;
  const standIn: MercadoPagoStandIn = {
    url: '',
    accessToken: `TEST-${String(Math.floor(Math.random() * 1e15))}-112233-${randomBytes(16).toString('hex')}-123456789`,
    webhookSecret: randomBytes(32).toString('hex'),
    mode: 'ok',
    requests: [],
    preferences: new Map(),
    payments: new Map(),
    refunds: new Map(),
    pay: (preferenceId, status = 'approved') => {
      const preference = standIn.preferences.get(preferenceId);
      if (!preference) throw new Error(`no preference ${preferenceId}`);
      const item = asRecord((preference.body.items as unknown[])[0]) ?? {};
      nextId += 1;
      const payment: MercadoPagoPayment = {
        id: nextId,
        preferenceId,
        status,
        transactionAmount: Number(item.unit_price) * Number(item.quantity ?? 1),
        currency: text(item.currency_id),
        externalReference: text(preference.body.external_reference),
        metadata: preference.body.metadata ?? {},
        refunded: 0,
        createdAt: new Date(Date.now() + standIn.payments.size).toISOString(),
      };
      standIn.payments.set(payment.id, payment);
      return payment;
    },
    signedWebhook: (paymentId, action = 'payment.updated', secret = standIn.webhookSecret) => {
      const id = String(paymentId);
      const requestId = randomUUID();
      const ts = String(Math.floor(Date.now() / 1000));
      const rawBody = Buffer.from(JSON.stringify({ action, api_version: 'v1', data: { id }, date_created: new Date().toISOString(), id: nextId + 7, live_mode: false, type: 'payment', user_id: '44444444' }));
      const v1 = createHmac('sha256', secret).update(`id:${id.toLowerCase()};request-id:${requestId};ts:${ts};`).digest('hex');
      return { rawBody, headers: { 'content-type': 'application/json', 'x-request-id': requestId, 'x-signature': `ts=${ts},v1=${v1}` } };
    },
    close: () => Promise.resolve(),
  };

  function paymentJson(payment: MercadoPagoPayment): Record<string, unknown> {
    return {
      id: payment.id,
      date_created: payment.createdAt,
      date_approved: payment.status === 'approved' ? payment.createdAt : null,
      operation_type: 'regular_payment',
      payment_method_id: 'visa',
      payment_type_id: 'credit_card',
      status: payment.status,
      status_detail: payment.status === 'approved' ? 'accredited' : payment.status === 'rejected' ? 'cc_rejected_other_reason' : payment.status,
      currency_id: payment.currency,
      description: 'stand-in',
      live_mode: false,
      collector_id: 44444444,
      payer: { id: '123', email: 'test_user@testuser.com' },
      metadata: payment.metadata,
      external_reference: payment.externalReference,
      transaction_amount: payment.transactionAmount,
      transaction_amount_refunded: payment.refunded,
      refunds: [...standIn.refunds.values()].filter((refund) => refund.paymentId === payment.id).map(refundJson),
    };
  }

  function refundJson(refund: MercadoPagoRefund): Record<string, unknown> {
    return { id: refund.id, payment_id: refund.paymentId, amount: refund.amount, metadata: {}, source: { id: '44444444', name: 'stand-in', type: 'collector' }, date_created: refund.createdAt, unique_sequence_number: null, refund_mode: 'standard', adjustment_amount: 0, status: 'approved', reason: null };
  }

  const isPrice = (value: unknown, currency: string): value is number =>
    typeof value === 'number' && Number.isFinite(value) && value > 0 && (currency === 'CLP' ? Number.isInteger(value) : Math.round(value * 100) === value * 100);

  function createPreference(body: Record<string, unknown>, idempotencyKey: string | undefined): Answer {
    const earlier = idempotencyKey ? [...standIn.preferences.values()].find((preference) => preference.idempotencyKey === idempotencyKey) : undefined;
    const items = Array.isArray(body.items) ? body.items.map(asRecord) : [];
    const item = items[0];
    const currency = text(item?.currency_id);
    if (!earlier) {
      if (items.length === 0 || !item || typeof item.title !== 'string' || item.quantity !== 1) return fail(400, 'items invalid', 'invalid_items');
      if (!CURRENCIES.has(currency)) return fail(400, 'currency_id invalid', 'invalid_currency_id');
      if (!isPrice(item.unit_price, currency)) return fail(400, 'unit_price invalid', 'invalid_unit_price');
      const backUrls = asRecord(body.back_urls);
      if (body.auto_return !== undefined && typeof backUrls?.success !== 'string') return fail(400, 'auto_return invalid. back_url.success must be defined', 'invalid_auto_return');
      if (body.notification_url !== undefined && (typeof body.notification_url !== 'string' || !/^https?:\/\//.test(body.notification_url))) return fail(400, 'notification_url invalid', 'invalid_notification_url');
    }
    const preference = earlier ?? { id: `44444444-${randomBytes(12).toString('hex')}`, body, idempotencyKey };
    standIn.preferences.set(preference.id, preference);
    return {
      status: 201,
      body: {
        id: preference.id,
        collector_id: 44444444,
        client_id: '6295877106812064',
        items: preference.body.items,
        external_reference: preference.body.external_reference,
        back_urls: preference.body.back_urls,
        auto_return: preference.body.auto_return,
        notification_url: preference.body.notification_url,
        metadata: preference.body.metadata,
        operation_type: 'regular_payment',
        date_created: new Date().toISOString(),
        init_point: `${standIn.url}/checkout/v1/redirect?pref_id=${preference.id}`,
        sandbox_init_point: `${standIn.url}/sandbox/checkout/v1/redirect?pref_id=${preference.id}`,
      },
    };
  }

  function createRefund(payment: MercadoPagoPayment, body: Record<string, unknown>, idempotencyKey: string | undefined): Answer {
    const earlier = idempotencyKey ? [...standIn.refunds.values()].find((refund) => refund.idempotencyKey === idempotencyKey && refund.paymentId === payment.id) : undefined;
    if (earlier) return { status: 201, body: refundJson(earlier) };
    if (payment.status !== 'approved') return fail(400, 'Payment not found or not refundable', 'invalid_payment_status');
    const left = Math.round((payment.transactionAmount - payment.refunded) * 100) / 100;
    const amount = body.amount === undefined ? left : body.amount;
    if (!isPrice(amount, payment.currency)) return fail(400, 'Invalid refund amount', 'invalid_amount');
    if (amount > left) return fail(400, 'The amount to refund exceeds the available amount', 'amount_exceeded');
    nextId += 1;
    const refund: MercadoPagoRefund = { id: nextId, paymentId: payment.id, amount, idempotencyKey, createdAt: new Date().toISOString() };
    standIn.refunds.set(refund.id, refund);
    payment.refunded = Math.round((payment.refunded + amount) * 100) / 100;
    if (payment.refunded >= payment.transactionAmount) payment.status = 'refunded';
    return { status: 201, body: refundJson(refund) };
  }

  function api(seen: MercadoPagoSeenRequest): Answer {
    if (seen.headers.authorization !== `Bearer ${standIn.accessToken}`) return fail(401, 'invalid access token', 'unauthorized');
    let body: Record<string, unknown> = {};
    if (seen.method === 'POST') {
      try {
        body = asRecord(JSON.parse(seen.body || '{}')) ?? {};
      } catch {
        return fail(400, 'Invalid JSON');
      }
    }
    const idempotencyKey = typeof seen.headers['x-idempotency-key'] === 'string' ? seen.headers['x-idempotency-key'] : undefined;
    if (seen.method === 'POST' && (seen.path === '/checkout/preferences' || seen.path === '/checkout/preferences/')) return createPreference(body, idempotencyKey);
    if (seen.method === 'GET' && seen.path === '/v1/payments/search') {
      const reference = seen.query.get('external_reference');
      const listed = [...standIn.payments.values()].filter((payment) => reference === null || payment.externalReference === reference);
      listed.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
      if (seen.query.get('criteria') === 'desc') listed.reverse();
      return { status: 200, body: { paging: { total: listed.length, limit: 30, offset: 0 }, results: listed.map(paymentJson) } };
    }
    const one = /^\/v1\/payments\/(\d+)(\/refunds)?$/.exec(seen.path);
    const payment = one?.[1] ? standIn.payments.get(Number(one[1])) : undefined;
    if (one && !payment) return fail(404, 'Payment not found', 'not_found');
    if (payment && seen.method === 'GET' && !one?.[2]) return { status: 200, body: paymentJson(payment) };
    if (payment && seen.method === 'POST' && one?.[2]) return createRefund(payment, body, idempotencyKey);
    return fail(404, 'resource not found', 'not_found');
  }

  const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${String(char.charCodeAt(0))};`);

  function checkoutPage(seen: MercadoPagoSeenRequest, response: ServerResponse): void {
    const preference = standIn.preferences.get(seen.query.get('pref_id') ?? '');
    const match = /^\/(?:sandbox\/)?checkout\/v1\/redirect(?:\/(pay|decline|cancel))?$/.exec(seen.path);
    if (!match || !preference) {
      response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Mercado Pago</title><p>This checkout does not exist.</p>');
      return;
    }
    const backUrls = asRecord(preference.body.back_urls) ?? {};
    const action = seen.method === 'POST' ? match[1] : undefined;
    const back = (where: unknown, payment?: MercadoPagoPayment) => {
      const url = new URL(text(where ?? backUrls.success));
      url.searchParams.set('collection_id', payment ? String(payment.id) : 'null');
      url.searchParams.set('collection_status', payment?.status ?? 'null');
      url.searchParams.set('payment_id', payment ? String(payment.id) : 'null');
      url.searchParams.set('status', payment?.status ?? 'null');
      url.searchParams.set('external_reference', text(preference.body.external_reference, 'null'));
      url.searchParams.set('preference_id', preference.id);
      response.writeHead(303, { location: url.toString() }).end();
    };
    if (action === 'pay' || action === 'decline' || action === 'cancel') {
      back(action === 'pay' ? backUrls.success : backUrls.failure, action === 'cancel' ? undefined : standIn.pay(preference.id, action === 'pay' ? 'approved' : 'rejected'));
      return;
    }
    const item = asRecord((preference.body.items as unknown[])[0]) ?? {};
    const total = `${text(item.currency_id)} ${text(item.unit_price)}`;
    const query = `?pref_id=${encodeURIComponent(preference.id)}`;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
      `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Mercado Pago Checkout (stand-in)</title></head><body>
<h1>Mercado Pago (stand-in)</h1><p>${escape(text(item.title))}</p><p>Pay <span id="total">${escape(total)}</span></p>
<form method="post" action="${escape(seen.path)}/pay${escape(query)}"><button type="submit">Pay ${escape(total)}</button></form>
<form method="post" action="${escape(seen.path)}/decline${escape(query)}"><button type="submit">Decline</button></form>
<form method="post" action="${escape(seen.path)}/cancel${escape(query)}"><button type="submit">Cancel payment</button></form>
</body></html>`,
    );
  }

  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://stand-in');
      const seen: MercadoPagoSeenRequest = { method: incoming.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') };
      standIn.requests.push(seen);
      if (/^\/(sandbox\/)?checkout\/v1\/redirect/.test(seen.path)) {
        checkoutPage(seen, response);
        return;
      }
      const mode = standIn.mode;
      if (mode === 'hang') return;
      const answer: Answer =
        mode === 'fail'
          ? { status: 500, body: { message: 'internal_error', error: 'internal_error', status: 500, cause: [] } }
          : mode === 'garbage'
            ? { status: 200, body: '{"id":1234,"status":"appro' }
            : mode === 'wrongShape'
              ? { status: 200, body: { results: 'none', id: [], status: 7 } }
              : api(seen);
      response.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' }).end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
  });
  Object.assign(standIn, await listenLocally(server));
  return standIn;
}
