import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { listenLocally } from './stand-in-server';

/**
 * A local SecurePay (Australia Post Online Payments) API v2 and its OAuth token endpoint, written
 * from SecurePay's public documentation (https://auspost.com.au/payments/docs/securepay/), speaking
 * its wire format (JSON, amounts in cents, `{errors: [{code, detail}]}` refusals):
 *
 * - `POST /oauth/token` (https://auspost.com.au/payments/docs/securepay/#authentication; live
 *   https://welcome.api2.auspost.com.au/oauth/token, sandbox
 *   https://welcome.api2.sandbox.auspost.com.au/oauth/token): `Authorization: Basic
 *   base64(clientId:clientSecret)`, form body `grant_type=client_credentials` and
 *   `audience=https://api.payments.auspost.com.au` → `{access_token, token_type: Bearer, expires_in}`;
 *   other credentials are 401 `{error: invalid_client}`.
 * - `POST /v2/payments` (https://auspost.com.au/payments/docs/securepay/#card-payments-rest-api-create-payment):
 *   `Authorization: Bearer <token>`, `Idempotency-Key`, body `{amount (cents), merchantCode, token,
 *   ip, orderId}` → 201 `{createdAt, merchantCode, customerCode, token, ip, amount, currency: AUD,
 *   status: paid | failed, bankTransactionId, gatewayResponseCode, gatewayResponseMessage, orderId}`.
 *   The card token is what SecurePay's card component gives the browser (`tokenize` here); the card
 *   4000000000000002 is declined (`failed`, gateway code 05). A token it never issued is 422.
 * - `POST /v2/orders/{orderId}/refunds` (https://auspost.com.au/payments/docs/securepay/#card-payments-rest-api-refund-payment):
 *   `Idempotency-Key`, body `{merchantCode, ip, amount}` → 201 `{createdAt, merchantCode, ip, amount,
 *   status: paid, bankTransactionId, gatewayResponseCode, gatewayResponseMessage, orderId}`; an unknown
 *   order is 404; more than is left, or an unpaid order, 422.
 * - Idempotency: a call repeated with the same `Idempotency-Key` is answered the first answer again,
 *   and makes nothing. The stand-in is stricter than SecurePay where the adapter has a duty: it
 *   refuses (400) a payment or refund without the header, and a payment without an `orderId`.
 *
 * Modes, for the /v2 paths: `hang` never answers, `fail` is a 500, `garbage` a 200 that is not
 * JSON, `wrongShape` a 200 of another shape than documented, `unknown` a payment or refund whose
 * status is `unknown`. `loseAnswer` makes the payment but never answers; `answerWith` changes the
 * amount or currency of the next payment answers (a payment that is not what was asked).
 */

export type SecurePayStandInMode = 'ok' | 'hang' | 'fail' | 'garbage' | 'wrongShape' | 'unknown';
export type SecurePaySeenRequest = { method: string; path: string; headers: IncomingHttpHeaders; body: string };
export type SecurePayPayment = { orderId: string; amount: number; currency: string; token: string; ip: string; status: 'paid' | 'failed'; bankTransactionId: string; refunded: number; createdAt: string };
export type SecurePayRefund = { orderId: string; amount: number; bankTransactionId: string; idempotencyKey: string; createdAt: string };

export type SecurePayStandIn = {
  url: string;
  /** The token endpoint (SECUREPAY_AUTH_URL). */
  authUrl: string;
  clientId: string;
  clientSecret: string;
  merchantCode: string;
  mode: SecurePayStandInMode;
  loseAnswer: boolean;
  answerWith: { amount?: number; currency?: string } | undefined;
  requests: SecurePaySeenRequest[];
  /** Access tokens handed out; `revokeTokens` forgets them (a 401 on the next call). */
  accessTokens: Set<string>;
  cardTokens: Map<string, string>;
  payments: Map<string, SecurePayPayment>;
  refunds: SecurePayRefund[];
  /** What SecurePay's card component does with the rider's card in the browser: a card token. */
  tokenize: (cardNumber?: string) => string;
  revokeTokens: () => void;
  close: () => Promise<void>;
};

const DECLINED_CARD = '4000000000000002';
const AUDIENCE = 'https://api.payments.auspost.com.au';
type Answer = { status: number; body: unknown };
const asRecord = (value: unknown): Record<string, unknown> | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);
const refusal = (status: number, code: string, detail: string): Answer => ({ status, body: { errors: [{ id: randomBytes(8).toString('hex'), code, detail }] } });
const positiveCents = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

export async function startSecurePay(): Promise<SecurePayStandIn> {
  let transactions = 766_000;
  const idempotent = new Map<string, Answer>();
  const standIn: SecurePayStandIn = {
    url: '',
    authUrl: '',
    clientId: `0oa${randomBytes(8).toString('hex')}`,
    clientSecret: randomBytes(20).toString('base64url'),
    merchantCode: '5AR0055',
    mode: 'ok',
    loseAnswer: false,
    answerWith: undefined,
    requests: [],
    accessTokens: new Set(),
    cardTokens: new Map(),
    payments: new Map(),
    refunds: [],
    tokenize: (cardNumber = '4111111111111111') => {
      const token = randomBytes(12).toString('hex');
      standIn.cardTokens.set(token, cardNumber);
      return token;
    },
    revokeTokens: () => {
      standIn.accessTokens.clear();
    },
    close: () => Promise.resolve(),
  };

  function oauth(seen: SecurePaySeenRequest): Answer {
    const expected = `Basic ${Buffer.from(`${standIn.clientId}:${standIn.clientSecret}`).toString('base64')}`;
    if (seen.headers.authorization !== expected) return { status: 401, body: { error: 'invalid_client', error_description: 'Client authentication failed' } };
    const form = new URLSearchParams(seen.body);
    if (!String(seen.headers['content-type']).startsWith('application/x-www-form-urlencoded') || form.get('grant_type') !== 'client_credentials' || form.get('audience') !== AUDIENCE) {
      return { status: 400, body: { error: 'invalid_request', error_description: 'grant_type client_credentials and the audience are required' } };
    }
    const accessToken = randomBytes(24).toString('base64url');
    standIn.accessTokens.add(accessToken);
    return { status: 200, body: { access_token: accessToken, token_type: 'Bearer', expires_in: 86_400, scope: 'https://api.payments.auspost.com.au/payhive/payments/write' } };
  }

  const paymentJson = (payment: SecurePayPayment) => ({
    createdAt: payment.createdAt,
    merchantCode: standIn.merchantCode,
    customerCode: 'anonymous',
    token: payment.token,
    ip: payment.ip,
    amount: standIn.answerWith?.amount ?? payment.amount,
    currency: standIn.answerWith?.currency ?? payment.currency,
    status: standIn.mode === 'unknown' ? 'unknown' : payment.status,
    bankTransactionId: payment.bankTransactionId,
    gatewayResponseCode: payment.status === 'paid' ? '00' : '05',
    gatewayResponseMessage: payment.status === 'paid' ? 'Approved' : 'Do not honour',
    orderId: payment.orderId,
  });

  function api(seen: SecurePaySeenRequest): Answer {
    const bearer = /^Bearer (.+)$/.exec(seen.headers.authorization ?? '')?.[1];
    if (!bearer || !standIn.accessTokens.has(bearer)) return refusal(401, 'UNAUTHORIZED', 'The access token is missing, invalid or expired');
    let body: Record<string, unknown>;
    try {
      body = asRecord(JSON.parse(seen.body || '{}')) ?? {};
    } catch {
      return refusal(400, 'INVALID_REQUEST', 'The body is not JSON');
    }
    const key = seen.headers['idempotency-key'];
    if (seen.method !== 'POST' || typeof key !== 'string' || key === '') return refusal(400, 'INVALID_REQUEST', 'Idempotency-Key is required by this stand-in');
    const replayed = idempotent.get(`${seen.path} ${key}`);
    if (replayed) return replayed;
    let answer: Answer;
    if (seen.path === '/v2/payments') answer = pay(body);
    else {
      const refundOf = /^\/v2\/orders\/([^/]+)\/refunds$/.exec(seen.path)?.[1];
      if (!refundOf) return refusal(404, 'NOT_FOUND', 'No such resource');
      answer = refund(decodeURIComponent(refundOf), body, key);
    }
    // Only what was made is replayed: a refused call may be asked again with the same key.
    if (answer.status < 300) idempotent.set(`${seen.path} ${key}`, answer);
    return answer;
  }

  function pay(body: Record<string, unknown>): Answer {
    if (body.merchantCode !== standIn.merchantCode) return refusal(422, 'INVALID_MERCHANT', 'merchantCode is not this client');
    if (!positiveCents(body.amount)) return refusal(422, 'INVALID_AMOUNT', 'amount must be a positive integer in cents');
    if (typeof body.ip !== 'string' || body.ip === '') return refusal(422, 'INVALID_IP', 'ip is required');
    if (typeof body.orderId !== 'string' || body.orderId === '') return refusal(400, 'INVALID_REQUEST', 'orderId is required by this stand-in');
    if (standIn.payments.has(body.orderId)) return refusal(422, 'INVALID_ORDER_ID', 'orderId was used before');
    const card = typeof body.token === 'string' ? standIn.cardTokens.get(body.token) : undefined;
    if (!card || typeof body.token !== 'string') return refusal(422, 'INVALID_TOKEN', 'The card token is unknown or expired');
    standIn.cardTokens.delete(body.token);
    transactions += 1;
    const payment: SecurePayPayment = {
      orderId: body.orderId,
      amount: body.amount,
      currency: 'AUD',
      token: body.token,
      ip: body.ip,
      status: card === DECLINED_CARD ? 'failed' : 'paid',
      bankTransactionId: String(transactions),
      refunded: 0,
      createdAt: new Date().toISOString(),
    };
    standIn.payments.set(payment.orderId, payment);
    return { status: 201, body: paymentJson(payment) };
  }

  function refund(orderId: string, body: Record<string, unknown>, key: string): Answer {
    const payment = standIn.payments.get(orderId);
    if (!payment) return refusal(404, 'ORDER_NOT_FOUND', 'No order of this id');
    if (body.merchantCode !== standIn.merchantCode) return refusal(422, 'INVALID_MERCHANT', 'merchantCode is not this client');
    if (typeof body.ip !== 'string' || body.ip === '') return refusal(422, 'INVALID_IP', 'ip is required');
    if (!positiveCents(body.amount)) return refusal(422, 'INVALID_AMOUNT', 'amount must be a positive integer in cents');
    if (payment.status !== 'paid') return refusal(422, 'INVALID_ORDER', 'The order was not paid');
    if (body.amount > payment.amount - payment.refunded) return refusal(422, 'INVALID_AMOUNT', 'The amount is more than is left to refund');
    transactions += 1;
    const made: SecurePayRefund = { orderId, amount: body.amount, bankTransactionId: String(transactions), idempotencyKey: key, createdAt: new Date().toISOString() };
    payment.refunded += made.amount;
    standIn.refunds.push(made);
    return {
      status: 201,
      body: { createdAt: made.createdAt, merchantCode: standIn.merchantCode, ip: body.ip, amount: made.amount, status: standIn.mode === 'unknown' ? 'unknown' : 'paid', bankTransactionId: made.bankTransactionId, gatewayResponseCode: '00', gatewayResponseMessage: 'Approved', orderId },
    };
  }

  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://stand-in');
      const seen: SecurePaySeenRequest = { method: incoming.method ?? 'GET', path: url.pathname, headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') };
      standIn.requests.push(seen);
      const isApi = seen.path.startsWith('/v2/');
      const mode = isApi ? standIn.mode : 'ok';
      if (mode === 'hang') return;
      const answer: Answer =
        mode === 'fail'
          ? { status: 500, body: { errors: [{ code: 'INTERNAL_ERROR', detail: 'Something went wrong' }] } }
          : mode === 'garbage'
            ? { status: 200, body: '{"status":"paid","orderId":' }
            : mode === 'wrongShape'
              ? { status: 200, body: { result: 'ok', data: [7] } }
              : seen.method === 'POST' && seen.path === '/oauth/token'
                ? oauth(seen)
                : isApi
                  ? api(seen)
                  : refusal(404, 'NOT_FOUND', 'No such resource');
      if (standIn.loseAnswer && seen.path === '/v2/payments') return;
      response.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' }).end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
  });
  const listening = await listenLocally(server);
  standIn.url = listening.url;
  standIn.authUrl = `${listening.url}/oauth/token`;
  standIn.close = listening.close;
  return standIn;
}
