import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import { listenLocally } from './stand-in-server';

/**
 * A local PayU Latam, written from PayU's developer documentation
 * (https://developers.payulatam.com/latam/en/docs/integrations.html):
 *
 * - `POST /ppp-web-gateway-payu/`: WebCheckout. merchantId and accountId must be the account's,
 *   currency one it takes, amount a decimal, and `signature` the MD5 of
 *   "ApiKey~merchantId~referenceCode~amount~currency"; otherwise an error page (400). A valid form
 *   opens an order and shows the payment page, reduced to Pay, Decline and Cancel.
 * - Pay / Decline: a transaction (AUTHORIZATION_AND_CAPTURE, APPROVED or DECLINED) is added to the
 *   order; PayU posts the confirmation page (x-www-form-urlencoded: merchant_id, state_pol 4 or 6,
 *   reference_sale, reference_pol, transaction_id, value, currency, extra1, `sign` = MD5 of
 *   "ApiKey~merchant_id~reference_sale~new_value~currency~state_pol", new_value with one decimal
 *   when the second is 0) to confirmationUrl, then sends the browser to responseUrl with the
 *   response page's parameters. Cancel sends it to responseUrl with nothing paid.
 * - `POST /reports-api/4.0/service.cgi` (Queries API): ORDER_DETAIL_BY_REFERENCE_CODE (payload: the
 *   orders, or null) and ORDER_DETAIL (payload: the order), with the order's transactions.
 * - `POST /payments-api/4.0/service.cgi` (Payments API): SUBMIT_TRANSACTION of type REFUND with
 *   order.id and parentTransactionId (and additionalValues.TX_VALUE for a part): the refund is a
 *   PENDING transaction of the order until PayU reviews it (`review`).
 * Both APIs take `merchant: {apiLogin, apiKey}` in the body and answer `{code: "ERROR", error}`
 * otherwise. Modes, for the APIs: `hang` never answers, `fail` is a 500, `malformed` answers 200
 * with PayU's SUCCESS envelope around a body of another shape than documented (a payload that is
 * neither the orders nor an order, a transactionResponse that is no object), as a broken proxy or
 * a changed API might.
 */

export type PayuStandInMode = 'ok' | 'hang' | 'fail' | 'malformed';

export type PayuTransaction = { id: string; type: 'AUTHORIZATION_AND_CAPTURE' | 'REFUND'; state: 'APPROVED' | 'DECLINED' | 'PENDING'; value: number; currency: string; parentTransactionId?: string; reason?: string };

export type PayuOrder = { id: number; referenceCode: string; description: string; amount: string; currency: string; fields: Record<string, string>; transactions: PayuTransaction[] };

export type PayuStandIn = {
  url: string;
  apiKey: string;
  apiLogin: string;
  merchantId: string;
  accountId: string;
  mode: PayuStandInMode;
  /** Whether Pay / Decline post the confirmation page (off where confirmationUrl is not reachable: API tests post it themselves). */
  deliver: boolean;
  orders: Map<number, PayuOrder>;
  refused: string[];
  /** The confirmation page PayU posts for a transaction; `overrides` change fields before signing. */
  confirmation: (orderId: number, transactionId: string, overrides?: Record<string, string>) => { rawBody: Buffer; headers: Record<string, string> };
  /** PayU reviews a pending refund. */
  review: (orderId: number, state: 'APPROVED' | 'DECLINED') => void;
  close: () => Promise<void>;
};

const CURRENCIES = new Set(['ARS', 'BRL', 'CLP', 'COP', 'MXN', 'PEN', 'USD']);
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${String(char.charCodeAt(0))};`);
/** The confirmation's new_value (PayU's confirmation page, "Signature validation"). */
const newValue = (value: string) => {
  const [whole = '0', decimals = ''] = value.split('.');
  const two = decimals.padEnd(2, '0');
  return two[1] === '0' ? `${whole}.${two[0] ?? '0'}` : `${whole}.${two}`;
};

export async function startPayulatam(): Promise<PayuStandIn> {
  let nextOrder = 840_000_000 + Math.floor(Math.random() * 1000) * 1000;
  const standIn: PayuStandIn = {
    url: '',
    apiKey: randomBytes(12).toString('hex'),
    apiLogin: randomBytes(8).toString('hex'),
    merchantId: '508029',
    accountId: '512321',
    mode: 'ok',
    deliver: true,
    orders: new Map(),
    refused: [],
    confirmation: (orderId, transactionId, overrides = {}) => {
      const order = standIn.orders.get(orderId);
      const transaction = order?.transactions.find((candidate) => candidate.id === transactionId);
      if (!order || !transaction) throw new Error(`no transaction ${transactionId}`);
      const fields: Record<string, string> = {
        merchant_id: standIn.merchantId,
        state_pol: transaction.state === 'APPROVED' ? '4' : transaction.state === 'DECLINED' ? '6' : '7',
        risk: '0.00',
        response_code_pol: transaction.state === 'APPROVED' ? '1' : '5',
        reference_sale: order.referenceCode,
        reference_pol: String(order.id),
        extra1: order.fields.extra1 ?? '',
        extra2: order.fields.extra2 ?? '',
        payment_method: '10',
        payment_method_type: '2',
        installments_number: '1',
        value: transaction.value.toFixed(2),
        tax: '0.00',
        transaction_date: new Date().toISOString().replace('T', ' ').slice(0, 19),
        currency: transaction.currency,
        email_buyer: order.fields.buyerEmail ?? '',
        test: order.fields.test ?? '0',
        description: order.description,
        transaction_id: transaction.id,
        payment_method_name: 'VISA',
        ...overrides,
      };
      fields.sign = md5(`${standIn.apiKey}~${fields.merchant_id ?? ''}~${fields.reference_sale ?? ''}~${newValue(fields.value ?? '')}~${fields.currency ?? ''}~${fields.state_pol ?? ''}`);
      return { rawBody: Buffer.from(new URLSearchParams(fields).toString()), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    },
    review: (orderId, state) => {
      const refund = standIn.orders.get(orderId)?.transactions.find((candidate) => candidate.type === 'REFUND' && candidate.state === 'PENDING');
      if (!refund) throw new Error(`no pending refund on ${String(orderId)}`);
      refund.state = state;
    },
    close: () => Promise.resolve(),
  };

  const page = (response: ServerResponse, status: number, body: string) =>
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="es"><head><meta charset="utf-8"><title>PayU (stand-in)</title></head><body>${body}</body></html>`);

  function webCheckout(form: URLSearchParams, response: ServerResponse): void {
    const fields = Object.fromEntries(form);
    const { merchantId = '', accountId = '', referenceCode = '', amount = '', currency = '', signature = '' } = fields;
    const problem =
      merchantId !== standIn.merchantId || accountId !== standIn.accountId ? 'invalid merchant or account'
        : !CURRENCIES.has(currency) ? 'invalid currency'
          : !/^\d+(\.\d{1,2})?$/.test(amount) ? 'invalid amount'
            : !referenceCode || !fields.buyerEmail || !fields.description ? 'missing fields'
              : signature !== md5(`${standIn.apiKey}~${merchantId}~${referenceCode}~${amount}~${currency}`) ? 'invalid signature'
                : undefined;
    if (problem) {
      standIn.refused.push(problem);
      page(response, 400, `<h1>Error</h1><p id="error">${escape(problem)}</p>`);
      return;
    }
    const existing = [...standIn.orders.values()].find((order) => order.referenceCode === referenceCode);
    nextOrder += 1;
    const order = existing ?? { id: nextOrder, referenceCode, description: fields.description ?? '', amount, currency, fields, transactions: [] };
    standIn.orders.set(order.id, order);
    const button = (action: string, label: string) => `<form method="post" action="/ppp-web-gateway-payu/${String(order.id)}/${action}"><button type="submit">${escape(label)}</button></form>`;
    page(response, 200, `<h1>PayU (stand-in)</h1><p>${escape(order.description)}</p><p>Pay <span id="total">${escape(currency)} ${escape(amount)}</span></p>${button('pay', `Pay ${currency} ${amount}`)}${button('decline', 'Decline')}${button('cancel', 'Cancel payment')}`);
  }

  async function act(orderId: number, action: string, response: ServerResponse): Promise<void> {
    const order = standIn.orders.get(orderId);
    if (!order) {
      page(response, 404, '<p>Unknown order</p>');
      return;
    }
    const back = new URL(order.fields.responseUrl ?? '/');
    if (action !== 'cancel' && !order.transactions.some((transaction) => transaction.state === 'APPROVED')) {
      const transaction: PayuTransaction = { id: randomUUID(), type: 'AUTHORIZATION_AND_CAPTURE', state: action === 'pay' ? 'APPROVED' : 'DECLINED', value: Number(order.amount), currency: order.currency };
      order.transactions.push(transaction);
      if (standIn.deliver && order.fields.confirmationUrl) {
        const { rawBody, headers } = standIn.confirmation(order.id, transaction.id);
        await fetch(order.fields.confirmationUrl, { method: 'POST', headers, body: rawBody.toString('utf8'), signal: AbortSignal.timeout(5000) }).catch(() => undefined);
      }
      // The response page's parameters (not trusted by the merchant: it asks the Queries API).
      for (const [name, value] of Object.entries({ merchantId: standIn.merchantId, transactionState: transaction.state === 'APPROVED' ? '4' : '6', referenceCode: order.referenceCode, reference_pol: String(order.id), transactionId: transaction.id, TX_VALUE: order.amount, currency: order.currency })) back.searchParams.set(name, value);
    }
    response.writeHead(303, { location: back.toString() }).end();
  }

  const transactionJson = (transaction: PayuTransaction) => ({
    id: transaction.id,
    order: null,
    type: transaction.type,
    parentTransactionId: transaction.parentTransactionId ?? null,
    paymentMethod: 'VISA',
    transactionResponse: { state: transaction.state, paymentNetworkResponseCode: null, trazabilityCode: null, authorizationCode: transaction.state === 'APPROVED' ? '00000000' : null, pendingReason: transaction.state === 'PENDING' ? 'PENDING_REVIEW' : null, responseCode: transaction.state === 'APPROVED' ? 'APPROVED' : transaction.state === 'DECLINED' ? 'ANTIFRAUD_REJECTED' : null, errorCode: null, responseMessage: null },
    additionalValues: { TX_VALUE: { name: 'TX_VALUE', value: transaction.value, currency: transaction.currency } },
  });
  const orderJson = (order: PayuOrder) => ({
    id: order.id,
    accountId: Number(standIn.accountId),
    status: order.transactions.some((transaction) => transaction.type === 'REFUND' && transaction.state === 'APPROVED') ? 'REFUNDED' : order.transactions.some((transaction) => transaction.state === 'APPROVED') ? 'CAPTURED' : order.transactions.length ? 'DECLINED' : 'IN_PROGRESS',
    referenceCode: order.referenceCode,
    description: order.description,
    language: 'es',
    buyer: { emailAddress: order.fields.buyerEmail ?? '', fullName: order.fields.buyerFullName ?? '' },
    additionalValues: { TX_VALUE: { name: 'TX_VALUE', value: Number(order.amount), currency: order.currency } },
    transactions: order.transactions.map(transactionJson),
  });

  type Answer = { status: number; body: unknown };
  const error = (message: string): Answer => ({ status: 200, body: { code: 'ERROR', error: message, result: null } });

  function api(kind: string, body: Record<string, unknown>): Answer {
    const merchant = body.merchant as { apiLogin?: unknown; apiKey?: unknown } | undefined;
    if (merchant?.apiLogin !== standIn.apiLogin || merchant.apiKey !== standIn.apiKey) return error('Invalid credentials');
    const details = (body.details ?? {}) as Record<string, unknown>;
    if (kind === 'reports' && body.command === 'ORDER_DETAIL_BY_REFERENCE_CODE') {
      const found = [...standIn.orders.values()].filter((order) => order.referenceCode === details.referenceCode).map(orderJson);
      return { status: 200, body: { code: 'SUCCESS', error: null, result: { payload: found.length ? found : null } } };
    }
    if (kind === 'reports' && body.command === 'ORDER_DETAIL') {
      const order = standIn.orders.get(Number(details.orderId));
      return { status: 200, body: { code: 'SUCCESS', error: null, result: { payload: order ? orderJson(order) : null } } };
    }
    if (kind === 'payments' && body.command === 'SUBMIT_TRANSACTION') {
      const transaction = (body.transaction ?? {}) as { order?: { id?: unknown }; type?: unknown; parentTransactionId?: unknown; reason?: unknown; additionalValues?: { TX_VALUE?: { value?: unknown } } };
      const order = standIn.orders.get(Number(transaction.order?.id));
      const parent = order?.transactions.find((candidate) => candidate.id === transaction.parentTransactionId && candidate.state === 'APPROVED');
      if (transaction.type !== 'REFUND' || !order || !parent) return error('The order or its parent transaction is not valid for a refund');
      if (order.transactions.some((candidate) => candidate.type === 'REFUND' && candidate.state !== 'DECLINED')) return error('The order already has a refund');
      const part = transaction.additionalValues?.TX_VALUE?.value;
      const value = typeof part === 'number' ? part : parent.value;
      if (!(value > 0 && value <= parent.value)) return error('Invalid refund value');
      const refund: PayuTransaction = { id: randomUUID(), type: 'REFUND', state: 'PENDING', value, currency: parent.currency, parentTransactionId: parent.id, reason: typeof transaction.reason === 'string' ? transaction.reason : '' };
      order.transactions.push(refund);
      return { status: 200, body: { code: 'SUCCESS', error: null, transactionResponse: { orderId: order.id, transactionId: refund.id, state: 'PENDING', paymentNetworkResponseCode: null, pendingReason: 'PENDING_REVIEW', responseCode: null, errorCode: null, responseMessage: null } } };
    }
    return error('Invalid command');
  }

  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const path = new URL(incoming.url ?? '/', 'http://stand-in').pathname;
      const body = Buffer.concat(chunks).toString('utf8');
      if (incoming.method === 'POST' && path === '/ppp-web-gateway-payu/') {
        webCheckout(new URLSearchParams(body), response);
        return;
      }
      const clicked = /^\/ppp-web-gateway-payu\/(\d+)\/(pay|decline|cancel)$/.exec(path);
      if (incoming.method === 'POST' && clicked?.[1] && clicked[2]) {
        void act(Number(clicked[1]), clicked[2], response);
        return;
      }
      const apiPath = /^\/(reports|payments)-api\/4\.0\/service\.cgi$/.exec(path);
      if (incoming.method === 'POST' && apiPath?.[1]) {
        if (standIn.mode === 'hang') return;
        if (standIn.mode === 'fail') {
          response.writeHead(500, { 'content-type': 'text/html' }).end('<html><body>500</body></html>');
          return;
        }
        if (standIn.mode === 'malformed') {
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'SUCCESS', error: null, result: { payload: 'maintenance' }, transactionResponse: 'maintenance' }));
          return;
        }
        let parsed: Record<string, unknown>;
        try {
          parsed = JSON.parse(body) as Record<string, unknown>;
        } catch {
          response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'ERROR', error: 'Invalid JSON' }));
          return;
        }
        const answer = api(apiPath[1], parsed);
        response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
        return;
      }
      page(response, 404, '<p>Not found</p>');
    });
  });
  Object.assign(standIn, await listenLocally(server));
  return standIn;
}
