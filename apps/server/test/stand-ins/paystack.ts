import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { listenLocally } from './stand-in-server';

/**
 * A local Paystack API, written from Paystack's public documentation, speaking its wire format
 * (`{status, message, data}` envelopes, amounts in the currency's subunit, integer ids):
 *
 * - `POST /transaction/initialize` (https://paystack.com/docs/api/transaction/#initialize): email,
 *   amount (a positive integer in the subunit), currency (NGN, GHS, ZAR, KES, USD:
 *   https://paystack.com/docs/api/#supported-currency), reference (unique: a used one is 400
 *   "Duplicate Transaction Reference"; only letters, digits, `-`, `.` and `=`), callback_url,
 *   metadata → `{authorization_url, access_code, reference}`; the transaction starts `abandoned`.
 * - `GET /transaction/verify/:reference` (https://paystack.com/docs/api/transaction/#verify): the
 *   transaction (status success, failed, abandoned, reversed; amount, currency, metadata as
 *   given); an unknown reference is 400 "Transaction reference not found".
 * - `POST /refund` (https://paystack.com/docs/api/refund/#create): transaction (reference or id),
 *   amount (subunit; the rest when absent), currency, merchant_note → the refund, `pending`
 *   ("Refund has been queued for processing"); more than is left is 400; a transaction not
 *   successful is 400.
 * - `GET /refund?transaction=<id>` (https://paystack.com/docs/api/refund/#list): its refunds.
 * - Webhooks (https://paystack.com/docs/payments/webhooks/): `signedWebhook` gives the raw JSON
 *   body and `x-paystack-signature`, the hex HMAC-SHA512 of the body keyed with the secret key.
 * - `GET /checkout/:access_code`: the hosted page (checkout.paystack.com), reduced to Pay, Decline
 *   and Cancel. Pay marks the transaction success and 303s to `callback_url` with `trxref` and
 *   `reference` (the callback_url of https://paystack.com/docs/api/transaction/#initialize); Decline marks it
 *   failed and 303s there too; Cancel 303s to `metadata.cancel_action`.
 *
 * Every API call needs `Authorization: Bearer <secret key>` (401 "Invalid key" otherwise).
 * Modes, for the API paths: `hang` never answers, `fail` is a 500, `garbage` a 200 that is not
 * JSON, `wrongShape` a 200 of another shape than documented.
 */

export type PaystackStandInMode = 'ok' | 'hang' | 'fail' | 'garbage' | 'wrongShape';

export type PaystackSeenRequest = { method: string; path: string; query: URLSearchParams; headers: IncomingHttpHeaders; body: string };

export type PaystackTransaction = {
  id: number;
  reference: string;
  accessCode: string;
  status: 'abandoned' | 'success' | 'failed' | 'reversed';
  /** In the currency's subunit. */
  amount: number;
  currency: string;
  email: string;
  callbackUrl: string;
  metadata: unknown;
  refunded: number;
  createdAt: string;
};

export type PaystackRefund = { id: number; transactionId: number; reference: string; amount: number; currency: string; status: 'pending' | 'processing' | 'processed' | 'failed'; merchantNote: string; createdAt: string };

export type PaystackStandIn = {
  url: string;
  secretKey: string;
  mode: PaystackStandInMode;
  requests: PaystackSeenRequest[];
  transactions: Map<string, PaystackTransaction>;
  refunds: Map<number, PaystackRefund>;
  /** The payer pays (or is declined) on the hosted page, as if clicked. */
  settle: (reference: string, status: 'success' | 'failed') => void;
  /** Paystack processes a queued refund. */
  processRefund: (id: number, status?: 'processed' | 'failed') => void;
  /** The transaction as Paystack's JSON (the verify answer's and the charge.success event's `data`). */
  transactionJson: (reference: string) => Record<string, unknown>;
  /** A refund event's `data` (refund.processed, refund.failed). */
  refundEventJson: (id: number) => Record<string, unknown>;
  /** A webhook delivery as Paystack sends it: the raw body and its signature header. */
  signedWebhook: (event: string, data: Record<string, unknown>) => { rawBody: Buffer; headers: Record<string, string> };
  close: () => Promise<void>;
};

const CURRENCIES = new Set(['NGN', 'GHS', 'ZAR', 'KES', 'USD']);
type Answer = { status: number; body: unknown };
const fail = (status: number, message: string): Answer => ({ status, body: { status: false, message } });
const asRecord = (value: unknown): Record<string, unknown> | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);

export async function startPaystack(): Promise<PaystackStandIn> {
  let nextId = 3_100_000_000 + Math.floor(Math.random() * 1000) * 1000;
  const standIn: PaystackStandIn = {
    url: '',
    secretKey: `sk_test_${randomBytes(20).toString('hex')}`,
    mode: 'ok',
    requests: [],
    transactions: new Map(),
    refunds: new Map(),
    settle: (reference, status) => {
      const transaction = standIn.transactions.get(reference);
      if (!transaction) throw new Error(`no transaction ${reference}`);
      transaction.status = status;
    },
    processRefund: (id, status = 'processed') => {
      const refund = standIn.refunds.get(id);
      if (!refund) throw new Error(`no refund ${String(id)}`);
      refund.status = status;
      if (status === 'failed') {
        const transaction = standIn.transactions.get(refund.reference);
        if (transaction) transaction.refunded -= refund.amount;
      }
    },
    transactionJson: (reference) => {
      const transaction = standIn.transactions.get(reference);
      if (!transaction) throw new Error(`no transaction ${reference}`);
      return transactionJson(transaction);
    },
    refundEventJson: (id) => {
      const refund = standIn.refunds.get(id);
      if (!refund) throw new Error(`no refund ${String(id)}`);
      return { status: refund.status, transaction_reference: refund.reference, refund_reference: `RF${String(refund.id)}`, amount: refund.amount, currency: refund.currency, processor: 'mastercard', customer: { email: 'rider@example.com' }, integration: 412829, domain: 'test', id: refund.id };
    },
    signedWebhook: (event, data) => {
      const rawBody = Buffer.from(JSON.stringify({ event, data }));
      return { rawBody, headers: { 'content-type': 'application/json', 'x-paystack-signature': createHmac('sha512', standIn.secretKey).update(rawBody).digest('hex') } };
    },
    close: () => Promise.resolve(),
  };

  function transactionJson(transaction: PaystackTransaction): Record<string, unknown> {
    const paid = transaction.status === 'success' || transaction.status === 'reversed';
    return {
      id: transaction.id,
      domain: 'test',
      status: transaction.status,
      reference: transaction.reference,
      amount: transaction.amount,
      message: null,
      gateway_response: transaction.status === 'success' ? 'Successful' : transaction.status === 'failed' ? 'Declined' : 'The transaction was not completed',
      paid_at: paid ? transaction.createdAt : null,
      created_at: transaction.createdAt,
      channel: 'card',
      currency: transaction.currency,
      metadata: transaction.metadata,
      fees: paid ? Math.round(transaction.amount * 0.015) : null,
      customer: { id: 181873746, email: transaction.email, customer_code: 'CUS_standin' },
      authorization: paid ? { authorization_code: 'AUTH_standin', bin: '408408', last4: '4081', exp_month: '12', exp_year: '2030', card_type: 'visa ', bank: 'TEST BANK', reusable: true } : {},
      requested_amount: transaction.amount,
    };
  }

  function refundJson(refund: PaystackRefund): Record<string, unknown> {
    return { id: refund.id, integration: 412829, domain: 'test', transaction: refund.transactionId, dispute: null, amount: refund.amount, deducted_amount: refund.amount, currency: refund.currency, channel: 'card', fully_deducted: true, refunded_by: 'api', merchant_note: refund.merchantNote, customer_note: `Refund for transaction ${refund.reference}`, status: refund.status, createdAt: refund.createdAt };
  }

  function initialize(body: Record<string, unknown>): Answer {
    const { email, currency, reference, callback_url: callbackUrl } = body;
    const amount = typeof body.amount === 'string' && /^\d+$/.test(body.amount) ? Number(body.amount) : body.amount;
    if (typeof email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(email)) return fail(400, 'Invalid Email Address Passed');
    if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0) return fail(400, 'Invalid Amount Sent');
    if (typeof currency !== 'string' || !CURRENCIES.has(currency)) return fail(403, 'Currency not supported by merchant');
    if (typeof reference !== 'string' || !/^[A-Za-z0-9.=-]{1,100}$/.test(reference)) return fail(400, 'Invalid transaction reference');
    if (standIn.transactions.has(reference)) return fail(400, 'Duplicate Transaction Reference');
    if (typeof callbackUrl !== 'string' || !/^https?:\/\//.test(callbackUrl)) return fail(400, 'Invalid callback_url');
    nextId += 1;
    const accessCode = randomBytes(8).toString('hex');
    standIn.transactions.set(reference, { id: nextId, reference, accessCode, status: 'abandoned', amount, currency, email, callbackUrl, metadata: body.metadata ?? null, refunded: 0, createdAt: new Date().toISOString() });
    return { status: 200, body: { status: true, message: 'Authorization URL created', data: { authorization_url: `${standIn.url}/checkout/${accessCode}`, access_code: accessCode, reference } } };
  }

  const byReferenceOrId = (key: unknown): PaystackTransaction | undefined =>
    [...standIn.transactions.values()].find((transaction) => transaction.reference === key || String(transaction.id) === String(key));

  function refund(body: Record<string, unknown>): Answer {
    const transaction = byReferenceOrId(body.transaction);
    if (!transaction) return fail(404, 'Transaction not found');
    if (transaction.status !== 'success') return fail(400, 'Cannot refund a transaction that was not successful');
    const left = transaction.amount - transaction.refunded;
    if (left <= 0) return fail(400, 'Transaction has been fully reversed');
    const amount = body.amount === undefined ? left : body.amount;
    if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0) return fail(400, 'Invalid amount');
    if (amount > left) return fail(400, 'Refund amount cannot be greater than transaction amount');
    if (body.currency !== undefined && body.currency !== transaction.currency) return fail(400, 'Currency does not match the transaction');
    nextId += 1;
    const created: PaystackRefund = { id: nextId, transactionId: transaction.id, reference: transaction.reference, amount, currency: transaction.currency, status: 'pending', merchantNote: typeof body.merchant_note === 'string' ? body.merchant_note : '', createdAt: new Date().toISOString() };
    standIn.refunds.set(created.id, created);
    transaction.refunded += amount;
    return { status: 200, body: { status: true, message: 'Refund has been queued for processing', data: { transaction: transactionJson(transaction), ...refundJson(created) } } };
  }

  function api(seen: PaystackSeenRequest): Answer {
    if (seen.headers.authorization !== `Bearer ${standIn.secretKey}`) return fail(401, 'Invalid key');
    let body: Record<string, unknown> = {};
    if (seen.method === 'POST') {
      try {
        body = asRecord(JSON.parse(seen.body)) ?? {};
      } catch {
        return fail(400, 'Invalid JSON');
      }
    }
    const verify = /^\/transaction\/verify\/([^/]+)$/.exec(seen.path);
    if (seen.method === 'POST' && seen.path === '/transaction/initialize') return initialize(body);
    if (seen.method === 'GET' && verify?.[1]) {
      const transaction = standIn.transactions.get(decodeURIComponent(verify[1]));
      return transaction ? { status: 200, body: { status: true, message: 'Verification successful', data: transactionJson(transaction) } } : fail(400, 'Transaction reference not found');
    }
    if (seen.method === 'POST' && seen.path === '/refund') return refund(body);
    if (seen.method === 'GET' && seen.path === '/refund') {
      const key = seen.query.get('transaction');
      const listed = [...standIn.refunds.values()].filter((candidate) => key === null || String(candidate.transactionId) === key).map(refundJson);
      return { status: 200, body: { status: true, message: 'Refunds retrieved', data: listed, meta: { total: listed.length, skipped: 0, perPage: 50, page: 1, pageCount: 1 } } };
    }
    return fail(404, 'Not found');
  }

  const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${String(char.charCodeAt(0))};`);

  function checkoutPage(seen: PaystackSeenRequest, response: ServerResponse): void {
    const match = /^\/checkout\/([0-9a-f]+)(?:\/(pay|decline|cancel))?$/.exec(seen.path);
    const transaction = [...standIn.transactions.values()].find((candidate) => candidate.accessCode === match?.[1]);
    if (!match || !transaction) {
      response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Paystack</title><p>This transaction does not exist.</p>');
      return;
    }
    const action = seen.method === 'POST' ? match[2] : undefined;
    if (action === 'pay' || action === 'decline') {
      if (transaction.status === 'abandoned') transaction.status = action === 'pay' ? 'success' : 'failed';
      const back = new URL(transaction.callbackUrl);
      back.searchParams.set('trxref', transaction.reference);
      back.searchParams.set('reference', transaction.reference);
      response.writeHead(303, { location: back.toString() }).end();
      return;
    }
    if (action === 'cancel') {
      const cancel = asRecord(transaction.metadata)?.cancel_action;
      response.writeHead(303, { location: typeof cancel === 'string' ? cancel : transaction.callbackUrl }).end();
      return;
    }
    const decimal = (transaction.amount / 100).toFixed(2);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Paystack Checkout (stand-in)</title></head><body>
<h1>Paystack (stand-in)</h1><p>${escape(transaction.email)}</p><p>Pay <span id="total">${escape(transaction.currency)} ${escape(decimal)}</span></p>
<form method="post" action="/checkout/${escape(transaction.accessCode)}/pay"><button type="submit">Pay ${escape(transaction.currency)} ${escape(decimal)}</button></form>
<form method="post" action="/checkout/${escape(transaction.accessCode)}/decline"><button type="submit">Decline</button></form>
<form method="post" action="/checkout/${escape(transaction.accessCode)}/cancel"><button type="submit">Cancel payment</button></form>
</body></html>`,
    );
  }

  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://stand-in');
      const seen: PaystackSeenRequest = { method: incoming.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') };
      standIn.requests.push(seen);
      if (seen.path.startsWith('/checkout/')) {
        checkoutPage(seen, response);
        return;
      }
      const mode = standIn.mode;
      if (mode === 'hang') return;
      const answer: Answer =
        mode === 'fail'
          ? { status: 500, body: { status: false, message: 'An error occurred' } }
          : mode === 'garbage'
            ? { status: 200, body: '{"status":true,"message":"Verification successful","data":{"id":' }
            : mode === 'wrongShape'
              ? { status: 200, body: { status: 'yes', data: ['success'], message: 7 } }
              : api(seen);
      response.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' }).end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
  });
  Object.assign(standIn, await listenLocally(server));
  return standIn;
}
