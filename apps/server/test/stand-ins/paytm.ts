import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import PaytmChecksum from 'paytmchecksum';
import { listenLocally } from './stand-in-server';

/**
 * A local Paytm payment gateway (securegw.paytm.in), written from Paytm's public documentation:
 * JSON calls `{body, head: {signature}}` whose signature is the checksum library's of the JSON
 * body (https://developer.paytm.com/docs/checksum/), answers `{head, body: {resultInfo, ...}}`.
 *
 * - `POST /theia/api/v1/initiateTransaction?mid=&orderId=` (https://developer.paytm.com/docs/api/initiate-transaction-api/):
 *   mid, websiteName, orderId (the query's; letters, digits, `@ - _ .`, 50 at most), callbackUrl,
 *   txnAmount {value, currency INR}, userInfo.custId → `resultInfo {resultStatus: "S", resultCode: "0000"}`
 *   and a `txnToken`. A bad signature is `resultStatus "F"`, code 2005 "Checksum provided is invalid".
 * - `POST /theia/api/v1/showPaymentPage?mid=&orderId=` with the form fields mid, orderId and
 *   txnToken: Paytm's page, reduced to Pay, Decline and Cancel. Each settles the order
 *   (TXN_SUCCESS; TXN_FAILURE 227; TXN_FAILURE 141 "User has not completed transaction"), sends the
 *   payment webhook to `webhookUrl` when one is set (the form fields and their CHECKSUMHASH, as on
 *   the dashboard's "Payment notification URL"), and posts the browser back to callbackUrl with
 *   the same fields (https://developer.paytm.com/docs/payment-status/), by a page that submits itself.
 * - `POST /v3/order/status` (https://developer.paytm.com/docs/api/v3/transaction-status-api/): the
 *   order's status, txnId, txnAmount, refundAmt; an unknown order is TXN_FAILURE 334 "Invalid Order Id".
 * - `POST /refund/apply` (https://developer.paytm.com/docs/api/initiate-refund-api/): mid,
 *   txnType REFUND, orderId, txnId, refId, refundAmount → PENDING 601; more than is left is
 *   TXN_FAILURE 619; a refId used before is TXN_FAILURE 617.
 * - `POST /v2/refund/status` (https://developer.paytm.com/docs/api/v2/refund-status-api/): the
 *   refund of refId, or TXN_FAILURE 631 "Record not found".
 *
 * Modes, for the JSON APIs: `hang` never answers, `fail` is a 503, `garbage` a 200 that is not
 * JSON, `wrongShape` a 200 of another shape than documented.
 */

export type PaytmStandInMode = 'ok' | 'hang' | 'fail' | 'garbage' | 'wrongShape';
export type PaytmSeenRequest = { method: string; path: string; query: URLSearchParams; headers: IncomingHttpHeaders; body: string; params?: Record<string, unknown> };

export type PaytmOrder = {
  orderId: string;
  txnToken: string;
  txnId: string;
  status: 'OPEN' | 'TXN_SUCCESS' | 'TXN_FAILURE';
  respCode: string;
  /** Paytm's decimal string of rupees. */
  amount: string;
  currency: string;
  callbackUrl: string;
  websiteName: string;
  custId: string;
  refunded: number;
};

export type PaytmRefund = { refId: string; refundId: string; orderId: string; txnId: string; amount: string; status: 'PENDING' | 'TXN_SUCCESS' | 'TXN_FAILURE' };

export type PaytmStandIn = {
  url: string;
  mid: string;
  merchantKey: string;
  mode: PaytmStandInMode;
  requests: PaytmSeenRequest[];
  orders: Map<string, PaytmOrder>;
  refunds: Map<string, PaytmRefund>;
  /** Where the payment webhook goes (unset: none is sent). */
  webhookUrl?: string;
  /** Delivers a webhook (the default POSTs it; an in-process test hands it to the app). */
  deliver: (url: string, body: string) => Promise<void>;
  /** The callback and webhook form fields of an order, with their CHECKSUMHASH. */
  responseFields: (orderId: string, overrides?: Record<string, string>) => Promise<Record<string, string>>;
  settle: (orderId: string, outcome: 'paid' | 'declined' | 'cancelled') => void;
  /** Paytm finishes a pending refund. */
  processRefund: (refId: string, status?: 'TXN_SUCCESS' | 'TXN_FAILURE') => void;
  close: () => Promise<void>;
};

const asRecord = (value: unknown): Record<string, unknown> | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);
const PAYTM_ID = /^[A-Za-z0-9@_.-]{1,50}$/;
const cents = (value: string): number => Math.round(Number(value) * 100);
const rupees = (paise: number): string => (paise / 100).toFixed(2);

export async function startPaytm(): Promise<PaytmStandIn> {
  let nextTxn = 20_251_125_000_000 + Math.floor(Math.random() * 1000) * 1000;
  const standIn: PaytmStandIn = {
    url: '',
    mid: `RIDEWY${String(Math.floor(10_000_000 + Math.random() * 89_999_999))}`,
    // A merchant key is 16 characters, symbols included.
    merchantKey: `${randomBytes(6).toString('base64').slice(0, 8)}&#@${randomBytes(3).toString('hex').slice(0, 5)}`,
    mode: 'ok',
    requests: [],
    orders: new Map(),
    refunds: new Map(),
    deliver: async (url, body) => {
      await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body, signal: AbortSignal.timeout(10_000) });
    },
    responseFields: async (orderId, overrides = {}) => {
      const order = standIn.orders.get(orderId);
      if (!order) throw new Error(`no order ${orderId}`);
      const fields: Record<string, string> = {
        ORDERID: order.orderId,
        MID: standIn.mid,
        TXNID: order.txnId,
        TXNAMOUNT: order.amount,
        PAYMENTMODE: 'DC',
        CURRENCY: 'INR',
        TXNDATE: '2026-11-25 09:30:00.0',
        STATUS: order.status === 'OPEN' ? 'PENDING' : order.status,
        RESPCODE: order.respCode,
        RESPMSG: order.status === 'TXN_SUCCESS' ? 'Txn Success' : order.respCode === '141' ? 'User has not completed transaction.' : 'Your payment has been declined by your bank.',
        GATEWAYNAME: 'HDFC',
        BANKTXNID: order.status === 'TXN_SUCCESS' ? '777001087423130' : '',
        BANKNAME: 'HDFC Bank',
        ...overrides,
      };
      return { ...fields, CHECKSUMHASH: await PaytmChecksum.generateSignature(fields, standIn.merchantKey) };
    },
    settle: (orderId, outcome) => {
      const order = standIn.orders.get(orderId);
      if (!order) throw new Error(`no order ${orderId}`);
      order.status = outcome === 'paid' ? 'TXN_SUCCESS' : 'TXN_FAILURE';
      order.respCode = outcome === 'paid' ? '01' : outcome === 'declined' ? '227' : '141';
    },
    processRefund: (refId, status = 'TXN_SUCCESS') => {
      const refund = standIn.refunds.get(refId);
      if (!refund) throw new Error(`no refund ${refId}`);
      refund.status = status;
      const order = standIn.orders.get(refund.orderId);
      if (status === 'TXN_FAILURE' && order) order.refunded -= cents(refund.amount);
    },
    close: () => Promise.resolve(),
  };

  const answer = (body: Record<string, unknown>) => ({ head: { responseTimestamp: String(Date.now()), version: 'v1', signature: 'stand-in' }, body });
  const result = (resultStatus: string, resultCode: string, resultMsg: string) => ({ resultInfo: { resultStatus, resultCode, resultMsg } });

  function statusOf(order: PaytmOrder | undefined): Record<string, unknown> {
    if (!order) return result('TXN_FAILURE', '334', 'Invalid Order Id.');
    const state = order.status === 'OPEN' ? result('PENDING', '402', 'Looks like the payment is not complete.') : order.status === 'TXN_SUCCESS' ? result('TXN_SUCCESS', '01', 'Txn Success') : result('TXN_FAILURE', order.respCode, 'Txn Failed');
    return { ...state, txnId: order.txnId, bankTxnId: order.status === 'TXN_SUCCESS' ? '777001087423130' : '', orderId: order.orderId, txnAmount: order.amount, txnType: 'SALE', gatewayName: 'HDFC', bankName: 'HDFC Bank', mid: standIn.mid, paymentMode: 'DC', refundAmt: rupees(order.refunded), txnDate: '2026-11-25 09:30:00.0' };
  }

  const refundJson = (refund: PaytmRefund, state: Record<string, unknown>) => ({ ...state, orderId: refund.orderId, mid: standIn.mid, refId: refund.refId, refundId: refund.refundId, txnId: refund.txnId, refundAmount: refund.amount, txnTimestamp: '2026-11-25 09:31:00.0' });

  function api(seen: PaytmSeenRequest): Record<string, unknown> {
    let parsed: Record<string, unknown> | undefined;
    try {
      parsed = asRecord(JSON.parse(seen.body) as unknown);
    } catch {
      parsed = undefined;
    }
    const body = asRecord(parsed?.body);
    const signature = asRecord(parsed?.head)?.signature;
    let signed: boolean;
    try {
      signed = Boolean(body) && typeof signature === 'string' && PaytmChecksum.verifySignature(JSON.stringify(body), standIn.merchantKey, signature);
    } catch {
      signed = false;
    }
    if (!body || !signed || body.mid !== standIn.mid) return answer(result('F', '2005', 'Checksum provided is invalid'));
    seen.params = body;
    const orderId = typeof body.orderId === 'string' ? body.orderId : '';
    if (seen.path === '/theia/api/v1/initiateTransaction') {
      const amount = asRecord(body.txnAmount);
      if (seen.query.get('mid') !== standIn.mid || seen.query.get('orderId') !== orderId || !PAYTM_ID.test(orderId)) return answer(result('F', '1001', 'Request parameters are not valid'));
      if (amount?.currency !== 'INR' || typeof amount.value !== 'string' || !/^\d+\.\d{2}$/.test(amount.value) || cents(amount.value) <= 0) return answer(result('F', '1007', 'Invalid txn amount'));
      if (typeof body.callbackUrl !== 'string' || typeof body.websiteName !== 'string' || typeof asRecord(body.userInfo)?.custId !== 'string') return answer(result('F', '1001', 'Request parameters are not valid'));
      const existing = standIn.orders.get(orderId);
      if (existing && existing.status !== 'OPEN') return answer(result('F', '325', 'Duplicate Order Id.'));
      nextTxn += 1;
      const order: PaytmOrder = existing ?? { orderId, txnToken: randomBytes(16).toString('hex'), txnId: String(nextTxn), status: 'OPEN', respCode: '402', amount: amount.value, currency: 'INR', callbackUrl: body.callbackUrl, websiteName: body.websiteName, custId: String(asRecord(body.userInfo)?.custId), refunded: 0 };
      standIn.orders.set(orderId, order);
      return answer({ ...result('S', '0000', 'Success'), txnToken: order.txnToken, isPromoCodeValid: false, authenticated: false });
    }
    if (seen.path === '/v3/order/status') return answer(statusOf(standIn.orders.get(orderId)));
    if (seen.path === '/v2/refund/status') {
      const refund = standIn.refunds.get(typeof body.refId === 'string' ? body.refId : '');
      if (!refund || refund.orderId !== orderId) return answer(result('TXN_FAILURE', '631', 'Record not found'));
      return answer(refundJson(refund, refund.status === 'PENDING' ? result('PENDING', '601', 'Refund request was raised for this transaction. But it is pending state.') : refund.status === 'TXN_SUCCESS' ? result('TXN_SUCCESS', '10', 'Refund Successfull') : result('TXN_FAILURE', '620', 'Refund failed')));
    }
    if (seen.path === '/refund/apply') {
      const order = standIn.orders.get(orderId);
      const refId = typeof body.refId === 'string' ? body.refId : '';
      if (!order || order.status !== 'TXN_SUCCESS' || body.txnId !== order.txnId || body.txnType !== 'REFUND') return answer(result('TXN_FAILURE', '501', 'System Error'));
      if (!PAYTM_ID.test(refId)) return answer(result('TXN_FAILURE', '600', 'Invalid refund request'));
      if (standIn.refunds.has(refId)) return answer(result('TXN_FAILURE', '617', 'Refund Already Raised (If merchant repeated their request within the 10 minutes.)'));
      const asked = typeof body.refundAmount === 'string' ? cents(body.refundAmount) : Number.NaN;
      if (!Number.isFinite(asked) || asked <= 0 || asked > cents(order.amount) - order.refunded) return answer(result('TXN_FAILURE', '619', 'Invalid refund amount'));
      order.refunded += asked;
      nextTxn += 1;
      const refund: PaytmRefund = { refId, refundId: String(nextTxn), orderId, txnId: order.txnId, amount: rupees(asked), status: 'PENDING' };
      standIn.refunds.set(refId, refund);
      return answer(refundJson(refund, result('PENDING', '601', 'Refund request was raised for this transaction. But it is pending state.')));
    }
    return answer(result('F', '404', 'Not found'));
  }

  const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${String(char.charCodeAt(0))};`);
  const page = (response: ServerResponse, status: number, body: string) => response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Paytm (stand-in)</title></head><body>${body}</body></html>`);

  async function paymentPage(seen: PaytmSeenRequest, response: ServerResponse): Promise<void> {
    const clicked = /^\/theia\/api\/v1\/showPaymentPage\/([0-9a-f]+)\/(pay|decline|cancel)$/.exec(seen.path);
    if (clicked) {
      const order = [...standIn.orders.values()].find((candidate) => candidate.txnToken === clicked[1]);
      if (!order) {
        page(response, 404, '<p>Session expired.</p>');
        return;
      }
      if (order.status === 'OPEN') standIn.settle(order.orderId, clicked[2] === 'pay' ? 'paid' : clicked[2] === 'decline' ? 'declined' : 'cancelled');
      const fields = await standIn.responseFields(order.orderId);
      if (standIn.webhookUrl) await standIn.deliver(standIn.webhookUrl, new URLSearchParams(fields).toString()).catch(() => undefined);
      // Paytm posts the browser back to callbackUrl: a page that submits itself.
      page(response, 200, `<p>Redirecting to the merchant...</p><form id="back" method="post" action="${escape(order.callbackUrl)}">${Object.entries(fields).map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`).join('')}<button type="submit">Back to the merchant</button></form><script>document.getElementById('back').submit();</script>`);
      return;
    }
    const form = new URLSearchParams(seen.body);
    const order = standIn.orders.get(form.get('orderId') ?? '');
    if (seen.method !== 'POST' || !order || form.get('mid') !== standIn.mid || form.get('txnToken') !== order.txnToken || seen.query.get('orderId') !== order.orderId) {
      page(response, 400, '<h1>Paytm (stand-in)</h1><p id="error">Invalid payment request</p>');
      return;
    }
    page(
      response,
      200,
      `<h1>Paytm (stand-in)</h1><p>Order ${escape(order.orderId)}</p><p>Pay <span id="total">₹${escape(order.amount)}</span></p>
<form method="post" action="/theia/api/v1/showPaymentPage/${order.txnToken}/pay"><button type="submit">Pay ₹${escape(order.amount)}</button></form>
<form method="post" action="/theia/api/v1/showPaymentPage/${order.txnToken}/decline"><button type="submit">Decline</button></form>
<form method="post" action="/theia/api/v1/showPaymentPage/${order.txnToken}/cancel"><button type="submit">Cancel payment</button></form>`,
    );
  }

  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://stand-in');
      const seen: PaytmSeenRequest = { method: incoming.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') };
      standIn.requests.push(seen);
      if (seen.path.startsWith('/theia/api/v1/showPaymentPage')) {
        void paymentPage(seen, response);
        return;
      }
      const mode = standIn.mode;
      if (mode === 'hang') return;
      if (mode === 'fail') {
        response.writeHead(503, { 'content-type': 'text/html' }).end('<html><body>503 Service Unavailable</body></html>');
        return;
      }
      const json = (body: unknown) => response.writeHead(200, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
      if (mode === 'garbage') return json('{"head":{},"body":{"resultInfo":');
      if (mode === 'wrongShape') return json({ head: {}, body: 'TXN_SUCCESS' });
      return json(api(seen));
    });
  });
  Object.assign(standIn, await listenLocally(server));
  return standIn;
}
