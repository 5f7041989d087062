import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { listenLocally } from './stand-in-server';

/**
 * A local Flutterwave API (v3), written from Flutterwave's public documentation, speaking its
 * wire format (`{status: "success" | "error", message, data}` envelopes, amounts as numbers in the
 * currency's major unit, integer transaction ids):
 *
 * - `POST /v3/payments` (Flutterwave Standard, https://developer.flutterwave.com/docs/collecting-payments/standard):
 *   tx_ref, amount, currency (https://developer.flutterwave.com/docs/collections-inflow/payment-methods),
 *   redirect_url, customer.email, customizations, meta → `{status: "success", message: "Hosted Link", data: {link}}`.
 * - The hosted page `GET /v3/hosted/pay/:code` (checkout.flutterwave.com), reduced to Pay, Decline
 *   and Cancel. Pay and Decline create the transaction (successful, failed) and 303 to
 *   `redirect_url?status=successful|failed&tx_ref=...&transaction_id=...`; Cancel 303s to
 *   `redirect_url?status=cancelled&tx_ref=...`.
 * - `GET /v3/transactions/:id/verify` and `GET /v3/transactions/verify_by_reference?tx_ref=`
 *   (https://developer.flutterwave.com/docs/integration-guides/transaction-verification): the
 *   transaction with its `meta`; none yet → 400 "No transaction was found for this id".
 * - `POST /v3/transactions/:id/refund` (https://developer.flutterwave.com/docs/payment-operations/refunds):
 *   amount (the rest when absent), comments → the refund (`completed`, or `pending` when the test
 *   says so); more than is left → 400.
 * - `GET /v3/refunds?id=<transaction id>` (v3 API reference "Get all refunds"): its refunds, each with its `comments`.
 * - Webhooks (https://developer.flutterwave.com/docs/webhooks): `signedWebhook` gives the raw
 *   JSON body and the `verif-hash` header, the secret hash set on the dashboard.
 *
 * Every API call needs `Authorization: Bearer <secret key>`. Modes, for the API paths: `hang`,
 * `fail` (500), `garbage` (a 200 that is not JSON), `wrongShape` (a 200 of another shape).
 */

export type FlutterwaveStandInMode = 'ok' | 'hang' | 'fail' | 'garbage' | 'wrongShape';
export type FlutterwaveSeenRequest = { method: string; path: string; query: URLSearchParams; headers: IncomingHttpHeaders; body: string };

export type FlutterwavePayment = { code: string; txRef: string; amount: number; currency: string; redirectUrl: string; email: string; meta: unknown; transactionId?: number };
export type FlutterwaveTransaction = { id: number; txRef: string; flwRef: string; status: 'successful' | 'failed' | 'pending'; amount: number; currency: string; meta: unknown; refunded: number; createdAt: string };
export type FlutterwaveRefund = { id: number; txId: number; amount: number; status: 'completed' | 'pending' | 'failed'; comments: string; createdAt: string };

export type FlutterwaveStandIn = {
  url: string;
  secretKey: string;
  secretHash: string;
  mode: FlutterwaveStandInMode;
  /** The status new refunds get. */
  refundStatus: 'completed' | 'pending';
  requests: FlutterwaveSeenRequest[];
  payments: Map<string, FlutterwavePayment>;
  transactions: Map<number, FlutterwaveTransaction>;
  refunds: Map<number, FlutterwaveRefund>;
  /** The customer pays (or is declined) on the hosted page, as if clicked: the transaction. */
  pay: (txRef: string, status?: 'successful' | 'failed') => FlutterwaveTransaction;
  transactionJson: (id: number) => Record<string, unknown>;
  /** A webhook delivery as Flutterwave sends it: the raw body and its `verif-hash` header. */
  signedWebhook: (event: string, data: Record<string, unknown>) => { rawBody: Buffer; headers: Record<string, string> };
  close: () => Promise<void>;
};

const CURRENCIES = new Set(['NGN', 'GHS', 'KES', 'UGX', 'TZS', 'RWF', 'ZAR', 'ZMW', 'MWK', 'XAF', 'XOF', 'EGP', 'MAD', 'GNF', 'SLL', 'USD', 'EUR', 'GBP', 'CAD']);
type Answer = { status: number; body: unknown };
const fail = (status: number, message: string): Answer => ({ status, body: { status: 'error', message, data: null } });
const asRecord = (value: unknown): Record<string, unknown> | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);

export async function startFlutterwave(): Promise<FlutterwaveStandIn> {
  let nextId = 4_700_000 + Math.floor(Math.random() * 1000) * 1000;
  const standIn: FlutterwaveStandIn = {
    url: '',
    secretKey: `FLWSECK_TEST-${randomBytes(16).toString('hex')}-X`,
    secretHash: `hash-${randomBytes(12).toString('hex')}`,
    mode: 'ok',
    refundStatus: 'completed',
    requests: [],
    payments: new Map(),
    transactions: new Map(),
    refunds: new Map(),
    pay: (txRef, status = 'successful') => {
      const payment = standIn.payments.get(txRef);
      if (!payment) throw new Error(`no payment ${txRef}`);
      const existing = payment.transactionId === undefined ? undefined : standIn.transactions.get(payment.transactionId);
      if (existing) return existing;
      nextId += 1;
      const transaction: FlutterwaveTransaction = { id: nextId, txRef, flwRef: `FLW-MOCK-${randomBytes(8).toString('hex')}`, status, amount: payment.amount, currency: payment.currency, meta: payment.meta, refunded: 0, createdAt: new Date().toISOString() };
      standIn.transactions.set(transaction.id, transaction);
      payment.transactionId = transaction.id;
      return transaction;
    },
    transactionJson: (id) => {
      const transaction = standIn.transactions.get(id);
      if (!transaction) throw new Error(`no transaction ${String(id)}`);
      return transactionJson(transaction);
    },
    signedWebhook: (event, data) => ({ rawBody: Buffer.from(JSON.stringify({ event, data, 'event.type': 'CARD_TRANSACTION' })), headers: { 'content-type': 'application/json', 'verif-hash': standIn.secretHash } }),
    close: () => Promise.resolve(),
  };

  function transactionJson(transaction: FlutterwaveTransaction): Record<string, unknown> {
    return {
      id: transaction.id,
      tx_ref: transaction.txRef,
      flw_ref: transaction.flwRef,
      device_fingerprint: 'N/A',
      amount: transaction.amount,
      currency: transaction.currency,
      charged_amount: transaction.amount,
      app_fee: Math.round(transaction.amount * 1.4) / 100,
      merchant_fee: 0,
      processor_response: transaction.status === 'successful' ? 'Approved by Financial Institution' : 'Declined',
      auth_model: 'VBVSECURECODE',
      status: transaction.status,
      payment_type: 'card',
      created_at: transaction.createdAt,
      account_id: 17321,
      card: { first_6digits: '553188', last_4digits: '2950', issuer: 'MASTERCARD CREDIT', country: 'NG', type: 'MASTERCARD', expiry: '09/32' },
      meta: transaction.meta,
      customer: { id: 215604089, name: 'Stand In', phone_number: 'N/A', email: 'rider@example.com', created_at: transaction.createdAt },
    };
  }

  const refundJson = (refund: FlutterwaveRefund): Record<string, unknown> => ({ id: refund.id, account_id: 17321, tx_id: refund.txId, flw_ref: `URF_${String(refund.id)}`, wallet_id: 74639, amount_refunded: refund.amount, status: refund.status, destination: 'payment_source', comments: refund.comments, meta: { source: 'availablebalance' }, created_at: refund.createdAt });

  function createPayment(body: Record<string, unknown>): Answer {
    const { tx_ref: txRef, amount, currency, redirect_url: redirectUrl } = body;
    const email = asRecord(body.customer)?.email;
    if (typeof txRef !== 'string' || txRef === '') return fail(400, 'tx_ref is required');
    if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0) return fail(400, 'amount is required');
    if (typeof currency !== 'string' || !CURRENCIES.has(currency)) return fail(400, 'Invalid currency');
    if (typeof redirectUrl !== 'string' || !/^https?:\/\//.test(redirectUrl)) return fail(400, 'redirect_url is required');
    if (typeof email !== 'string' || !email.includes('@')) return fail(400, 'customer.email is required');
    const code = randomBytes(10).toString('hex');
    standIn.payments.set(txRef, { code, txRef, amount, currency, redirectUrl, email, meta: body.meta ?? null });
    return { status: 200, body: { status: 'success', message: 'Hosted Link', data: { link: `${standIn.url}/v3/hosted/pay/${code}` } } };
  }

  function refund(id: number, body: Record<string, unknown>): Answer {
    const transaction = standIn.transactions.get(id);
    if (!transaction) return fail(404, 'Transaction not found');
    if (transaction.status !== 'successful') return fail(400, 'Only successful transactions can be refunded');
    const left = Math.round((transaction.amount - transaction.refunded) * 100) / 100;
    const amount = body.amount === undefined ? left : body.amount;
    if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0) return fail(400, 'Invalid amount');
    if (amount > left) return fail(400, 'Refund amount cannot be greater than the transaction amount');
    nextId += 1;
    const created: FlutterwaveRefund = { id: nextId, txId: id, amount, status: standIn.refundStatus, comments: typeof body.comments === 'string' ? body.comments : '', createdAt: new Date().toISOString() };
    standIn.refunds.set(created.id, created);
    transaction.refunded = Math.round((transaction.refunded + amount) * 100) / 100;
    return { status: 200, body: { status: 'success', message: 'Transaction refund initiated', data: refundJson(created) } };
  }

  function api(seen: FlutterwaveSeenRequest): Answer {
    if (seen.headers.authorization !== `Bearer ${standIn.secretKey}`) return fail(401, 'Invalid authorization key');
    let body: Record<string, unknown> = {};
    if (seen.method === 'POST' && seen.body.trim() !== '') {
      try {
        body = asRecord(JSON.parse(seen.body)) ?? {};
      } catch {
        return fail(400, 'Invalid JSON');
      }
    }
    const verify = /^\/v3\/transactions\/(\d+)\/verify$/.exec(seen.path);
    const refundPath = /^\/v3\/transactions\/(\d+)\/refund$/.exec(seen.path);
    const notFound = fail(400, 'No transaction was found for this id');
    if (seen.method === 'POST' && seen.path === '/v3/payments') return createPayment(body);
    if (seen.method === 'GET' && verify?.[1]) {
      const transaction = standIn.transactions.get(Number(verify[1]));
      return transaction ? { status: 200, body: { status: 'success', message: 'Transaction fetched successfully', data: transactionJson(transaction) } } : notFound;
    }
    if (seen.method === 'GET' && seen.path === '/v3/transactions/verify_by_reference') {
      const id = standIn.payments.get(seen.query.get('tx_ref') ?? '')?.transactionId;
      const transaction = id === undefined ? undefined : standIn.transactions.get(id);
      return transaction ? { status: 200, body: { status: 'success', message: 'Transaction fetched successfully', data: transactionJson(transaction) } } : notFound;
    }
    if (seen.method === 'POST' && refundPath?.[1]) return refund(Number(refundPath[1]), body);
    if (seen.method === 'GET' && seen.path === '/v3/refunds') {
      const id = seen.query.get('id');
      const listed = [...standIn.refunds.values()].filter((candidate) => id === null || String(candidate.txId) === id).map(refundJson);
      return { status: 200, body: { status: 'success', message: 'Refunds fetched', meta: { page_info: { total: listed.length, current_page: 1, total_pages: 1 } }, data: listed } };
    }
    return fail(404, 'Not found');
  }

  const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${String(char.charCodeAt(0))};`);

  function hostedPage(seen: FlutterwaveSeenRequest, response: ServerResponse): void {
    const match = /^\/v3\/hosted\/pay\/([0-9a-f]+)(?:\/(pay|decline|cancel))?$/.exec(seen.path);
    const payment = [...standIn.payments.values()].find((candidate) => candidate.code === match?.[1]);
    if (!match || !payment) {
      response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Flutterwave</title><p>This payment link does not exist.</p>');
      return;
    }
    const action = seen.method === 'POST' ? match[2] : undefined;
    if (action) {
      const back = new URL(payment.redirectUrl);
      if (action === 'cancel') back.searchParams.set('status', 'cancelled');
      else {
        const transaction = standIn.pay(payment.txRef, action === 'pay' ? 'successful' : 'failed');
        back.searchParams.set('status', transaction.status);
        back.searchParams.set('transaction_id', String(transaction.id));
      }
      back.searchParams.set('tx_ref', payment.txRef);
      response.writeHead(303, { location: back.toString() }).end();
      return;
    }
    const total = `${payment.currency} ${String(payment.amount)}`;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Flutterwave Checkout (stand-in)</title></head><body>
<h1>Flutterwave (stand-in)</h1><p>${escape(payment.email)}</p><p>Pay <span id="total">${escape(total)}</span></p>
<form method="post" action="/v3/hosted/pay/${escape(payment.code)}/pay"><button type="submit">Pay ${escape(total)}</button></form>
<form method="post" action="/v3/hosted/pay/${escape(payment.code)}/decline"><button type="submit">Decline</button></form>
<form method="post" action="/v3/hosted/pay/${escape(payment.code)}/cancel"><button type="submit">Cancel payment</button></form>
</body></html>`,
    );
  }

  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://stand-in');
      const seen: FlutterwaveSeenRequest = { method: incoming.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') };
      standIn.requests.push(seen);
      if (seen.path.startsWith('/v3/hosted/')) {
        hostedPage(seen, response);
        return;
      }
      const mode = standIn.mode;
      if (mode === 'hang') return;
      const answer: Answer =
        mode === 'fail'
          ? { status: 500, body: { status: 'error', message: 'Internal server error', data: null } }
          : mode === 'garbage'
            ? { status: 200, body: '{"status":"success","message":"Transaction fetched successfully","data":{"id":' }
            : mode === 'wrongShape'
              ? { status: 200, body: { status: 'success', data: ['successful'], message: 7 } }
              : api(seen);
      response.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' }).end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
  });
  Object.assign(standIn, await listenLocally(server));
  return standIn;
}
