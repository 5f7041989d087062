import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { listenLocally } from './stand-in-server';

/**
 * A local LiqPay (API version 3), written from LiqPay's public documentation, speaking its wire
 * format: every request and every callback is `data` (base64 of a JSON object) and `signature`
 * (base64(sha1(private_key + data + private_key))), https://www.liqpay.ua/documentation/en/data_signature.
 *
 * - `POST /api/3/checkout` (https://www.liqpay.ua/documentation/en/api/aquiring/checkout/doc): the
 *   browser's form post; a bad signature or public key is an error page. Shows the order reduced to
 *   Pay, Decline and Cancel. Pay and Decline settle the payment (`success`, or `sandbox` when the
 *   data asked for the sandbox; `failure`), send the callback to `server_url` (a POST of data and
 *   signature, https://www.liqpay.ua/documentation/en/api/callback) and then 303 the browser to
 *   `result_url`; Cancel 303s to `result_url` with nothing paid.
 * - `POST /api/request` (server-server, form-encoded data and signature): the `status` action
 *   (https://www.liqpay.ua/documentation/en/api/information/status/doc): the payment, or
 *   `{result: "error", err_code: "payment_not_found"}`; the `refund` action
 *   (https://www.liqpay.ua/documentation/en/api/aquiring/refund/doc): in part or in full, more
 *   than is left is an error, `{result: "ok", status: "reversed"}`. A bad signature answers
 *   `{result: "error", err_code: "err_access"}` (HTTP 200, as LiqPay answers errors).
 *
 * Modes, for `/api/request`: `hang` never answers, `fail` is a 502, `garbage` a 200 that is not
 * JSON, `wrongShape` a 200 of another shape than documented.
 */

export type LiqpayStandInMode = 'ok' | 'hang' | 'fail' | 'garbage' | 'wrongShape';
export type LiqpaySeenRequest = { method: string; path: string; headers: IncomingHttpHeaders; body: string; params?: Record<string, unknown> };

export type LiqpayPayment = {
  token: string;
  paymentId: number;
  orderId: string;
  status: 'created' | 'success' | 'sandbox' | 'failure' | 'reversed';
  /** As LiqPay keeps it: a decimal number of the major unit. */
  amount: number;
  currency: string;
  description: string;
  resultUrl: string;
  serverUrl: string;
  sandbox: boolean;
  refunded: number;
  params: Record<string, unknown>;
};

export type LiqpayStandIn = {
  /** The stand-in's origin; LIQPAY_API_URL is `${url}/api`. */
  url: string;
  apiUrl: string;
  publicKey: string;
  privateKey: string;
  mode: LiqpayStandInMode;
  requests: LiqpaySeenRequest[];
  /** By order_id. */
  payments: Map<string, LiqpayPayment>;
  /** Delivers a callback (the default POSTs it to server_url; an in-process test hands it to the app). */
  deliver: (serverUrl: string, body: string) => Promise<void>;
  /** The callback LiqPay sends for an order: its form body. */
  callbackBody: (orderId: string, overrides?: Record<string, unknown>) => string;
  sign: (data: string) => string;
  /** The customer pays (or is declined) as if on the page, without a callback. */
  settle: (orderId: string, outcome: 'paid' | 'declined') => void;
  close: () => Promise<void>;
};

const asRecord = (value: unknown): Record<string, unknown> | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);

export async function startLiqpay(options: { sandbox?: boolean } = {}): Promise<LiqpayStandIn> {
  const sandbox = options.sandbox ?? true;
  const prefix = sandbox ? 'sandbox_' : '';
  let nextPaymentId = 2_300_000_000 + Math.floor(Math.random() * 1000) * 1000;
  const standIn: LiqpayStandIn = {
    url: '',
    apiUrl: '',
    publicKey: `${prefix}i${String(Math.floor(10_000_000 + Math.random() * 89_999_999))}`,
    privateKey: `${prefix}${randomBytes(20).toString('hex')}`,
    mode: 'ok',
    requests: [],
    payments: new Map(),
    deliver: async (serverUrl, body) => {
      await fetch(serverUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body, signal: AbortSignal.timeout(10_000) });
    },
    callbackBody: (orderId, overrides = {}) => {
      const payment = standIn.payments.get(orderId);
      if (!payment) throw new Error(`no payment ${orderId}`);
      const data = Buffer.from(JSON.stringify({ ...paymentJson(payment), ...overrides })).toString('base64');
      return new URLSearchParams({ data, signature: standIn.sign(data) }).toString();
    },
    sign: (data) => createHash('sha1').update(standIn.privateKey + data + standIn.privateKey).digest('base64'),
    settle: (orderId, outcome) => {
      const payment = standIn.payments.get(orderId);
      if (!payment) throw new Error(`no payment ${orderId}`);
      payment.status = outcome === 'declined' ? 'failure' : payment.sandbox ? 'sandbox' : 'success';
    },
    close: () => Promise.resolve(),
  };

  function paymentJson(payment: LiqpayPayment): Record<string, unknown> {
    return {
      action: 'pay',
      payment_id: payment.paymentId,
      status: payment.status,
      version: 3,
      type: 'buy',
      paytype: 'card',
      public_key: standIn.publicKey,
      acq_id: 414963,
      order_id: payment.orderId,
      liqpay_order_id: `LQ${String(payment.paymentId)}`,
      description: payment.description,
      sender_card_mask2: '424242*42',
      sender_card_type: 'visa',
      amount: payment.amount,
      currency: payment.currency,
      sender_commission: 0,
      receiver_commission: Math.round(payment.amount * 1.5) / 100,
      agent_commission: 0,
      amount_debit: payment.amount,
      currency_debit: payment.currency,
      is_3ds: false,
      create_date: Date.now(),
      end_date: Date.now(),
      transaction_id: payment.paymentId,
    };
  }

  /** The JSON of a signed data+signature form; undefined when the signature or the public key is not ours. */
  function verified(form: URLSearchParams): Record<string, unknown> | undefined {
    const data = form.get('data') ?? '';
    if (!data || form.get('signature') !== standIn.sign(data)) return undefined;
    try {
      const params = asRecord(JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as unknown);
      return params?.public_key === standIn.publicKey && Number(params.version) === 3 ? params : undefined;
    } catch {
      return undefined;
    }
  }

  const error = (code: string, description = code): Record<string, unknown> => ({ result: 'error', status: 'error', err_code: code, err_description: description, version: 3 });

  function request(params: Record<string, unknown>): Record<string, unknown> {
    const orderId = typeof params.order_id === 'string' ? params.order_id : '';
    const payment = standIn.payments.get(orderId);
    if (params.action === 'status') return payment && payment.status !== 'created' ? { result: 'ok', ...paymentJson(payment) } : error('payment_not_found');
    if (params.action === 'refund') {
      if (!payment || payment.status === 'created') return error('payment_not_found');
      if (payment.status !== 'success' && payment.status !== 'sandbox') return error('err_payment', 'Payment is not successful');
      const left = Math.round((payment.amount - payment.refunded) * 100);
      const asked = params.amount === undefined ? left : Math.round(Number(params.amount) * 100);
      if (!Number.isFinite(asked) || asked <= 0 || asked > left) return error('err_amount', 'Invalid refund amount');
      payment.refunded = (Math.round(payment.refunded * 100) + asked) / 100;
      if (asked === left) payment.status = 'reversed';
      return { result: 'ok', action: 'refund', payment_id: payment.paymentId, status: 'reversed', version: 3 };
    }
    return error('err_action', 'Unknown action');
  }

  const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${String(char.charCodeAt(0))};`);

  async function checkout(seen: LiqpaySeenRequest, response: ServerResponse): Promise<void> {
    const page = (status: number, body: string) => response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>LiqPay (stand-in)</title></head><body>${body}</body></html>`);
    const action = /^\/api\/3\/checkout\/([0-9a-f]+)\/(pay|decline|cancel)$/.exec(seen.path);
    if (action) {
      const payment = [...standIn.payments.values()].find((candidate) => candidate.token === action[1]);
      if (!payment) {
        page(404, '<p>This payment does not exist.</p>');
        return;
      }
      if (action[2] !== 'cancel' && payment.status === 'created') {
        standIn.settle(payment.orderId, action[2] === 'pay' ? 'paid' : 'declined');
        await standIn.deliver(payment.serverUrl, standIn.callbackBody(payment.orderId)).catch(() => undefined);
      }
      response.writeHead(303, { location: payment.resultUrl }).end();
      return;
    }
    const params = seen.path === '/api/3/checkout' && seen.method === 'POST' ? verified(new URLSearchParams(seen.body)) : undefined;
    if (!params) {
      page(400, '<h1>LiqPay (stand-in)</h1><p id="error">Invalid signature</p>');
      return;
    }
    const orderId = typeof params.order_id === 'string' ? params.order_id : '';
    const amount = Number(params.amount);
    const currency = typeof params.currency === 'string' ? params.currency : '';
    if (params.action !== 'pay' || !orderId || orderId.length > 255 || !Number.isFinite(amount) || amount <= 0 || !['UAH', 'USD', 'EUR'].includes(currency) || typeof params.result_url !== 'string' || typeof params.server_url !== 'string') {
      page(400, '<h1>LiqPay (stand-in)</h1><p id="error">Invalid parameters</p>');
      return;
    }
    let payment = standIn.payments.get(orderId);
    if (payment && payment.status !== 'created') {
      page(400, '<h1>LiqPay (stand-in)</h1><p id="error">Order already paid</p>');
      return;
    }
    nextPaymentId += 1;
    payment ??= { token: randomBytes(8).toString('hex'), paymentId: nextPaymentId, orderId, status: 'created', amount, currency, description: typeof params.description === 'string' ? params.description : '', resultUrl: params.result_url, serverUrl: params.server_url, sandbox: Number(params.sandbox) === 1, refunded: 0, params };
    standIn.payments.set(orderId, payment);
    const total = `${amount.toFixed(2)} ${currency}`;
    page(
      200,
      `<h1>LiqPay (stand-in)</h1><p>${escape(payment.description)}</p><p>Pay <span id="total">${escape(total)}</span></p>
<form method="post" action="/api/3/checkout/${payment.token}/pay"><button type="submit">Pay ${escape(total)}</button></form>
<form method="post" action="/api/3/checkout/${payment.token}/decline"><button type="submit">Decline</button></form>
<form method="post" action="/api/3/checkout/${payment.token}/cancel"><button type="submit">Back to the shop</button></form>`,
    );
  }

  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://stand-in');
      const seen: LiqpaySeenRequest = { method: incoming.method ?? 'GET', path: url.pathname, headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') };
      standIn.requests.push(seen);
      if (seen.path.startsWith('/api/3/checkout')) {
        void checkout(seen, response);
        return;
      }
      if (seen.path !== '/api/request' || seen.method !== 'POST') {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
        return;
      }
      const mode = standIn.mode;
      if (mode === 'hang') return;
      if (mode === 'fail') {
        response.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>502 Bad Gateway</body></html>');
        return;
      }
      const json = (body: unknown) => response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(typeof body === 'string' ? body : JSON.stringify(body));
      if (mode === 'garbage') return json('{"result":"ok","status":');
      if (mode === 'wrongShape') return json({ result: 7, data: ['success'] });
      const params = verified(new URLSearchParams(seen.body));
      if (!params) return json(error('err_access', 'Invalid signature'));
      seen.params = params;
      return json(request(params));
    });
  });
  const listening = await listenLocally(server);
  Object.assign(standIn, listening, { apiUrl: `${listening.url}/api` });
  return standIn;
}
