import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { listenLocally } from './stand-in-server';

/**
 * A local Culqi API v2, written from Culqi's public documentation (https://apidocs.culqi.com/),
 * speaking its wire format (amounts in céntimos, `object` names, `chr_`/`tkn_`/`ref_`/`evt_` ids):
 *
 * - `POST /v2/tokens` with the PUBLIC key (what Culqi Checkout does in the browser on Culqi's own
 *   frames): card_number, cvv, expiration_month, expiration_year, email → `{object: token, id, email, ...}`.
 * - `GET /v2/tokens/:id`: the token (secret key).
 * - `POST /v2/charges` (https://apidocs.culqi.com/#tag/Cargos/operation/crear-cargo): amount (a positive
 *   integer in céntimos), currency_code (PEN, USD), email, source_id (a token, charged once: a used
 *   one is 400), metadata → 201 the charge, `outcome.type: venta_exitosa`; the card 4000020000000000
 *   is declined: 402 `{object: error, type: card_error, charge_id, code, decline_code, merchant_message, user_message}`.
 * - `GET /v2/charges/:id`, `GET /v2/charges?amount=&currency_code=&limit=` → `{data, paging}`.
 * - `POST /v2/refunds` (https://apidocs.culqi.com/#tag/Devoluciones): amount, charge_id, reason,
 *   metadata → 201 the refund; more than is left is 400. `GET /v2/refunds?charge_id=` → `{data, paging}`.
 * - Webhooks (https://docs.culqi.com/es/documentacion/pagos-online/webhooks): `event` gives the body
 *   `{object: event, id, type, creation_date, data: "<the charge as a JSON string>"}`, unsigned.
 *
 * Every call needs `Authorization: Bearer <key>` (the secret key; the public key for tokens).
 * Modes: `hang` never answers, `fail` is a 500, `garbage` a 200 that is not JSON, `wrongShape` a
 * 200 of another shape than documented.
 */

export type CulqiStandInMode = 'ok' | 'hang' | 'fail' | 'garbage' | 'wrongShape';
export type CulqiSeenRequest = { method: string; path: string; query: URLSearchParams; headers: IncomingHttpHeaders; body: string };
export type CulqiToken = { id: string; email: string; cardNumber: string; used: boolean };
export type CulqiCharge = { id: string; amount: number; currency: string; email: string; token: string; succeeded: boolean; metadata: Record<string, unknown>; refunded: number; createdAt: number };
export type CulqiRefund = { id: string; chargeId: string; amount: number; reason: string; metadata: Record<string, unknown>; createdAt: number };

export type CulqiStandIn = {
  url: string;
  publicKey: string;
  secretKey: string;
  mode: CulqiStandInMode;
  /** The next charges are made but never answered (an answer lost on the way back). */
  loseChargeAnswer: boolean;
  requests: CulqiSeenRequest[];
  tokens: Map<string, CulqiToken>;
  charges: Map<string, CulqiCharge>;
  refunds: Map<string, CulqiRefund>;
  /** What Culqi Checkout does with the rider's card in the browser: a token. The card 4000020000000000 is declined at charge time. */
  tokenize: (email?: string, cardNumber?: string) => Promise<string>;
  chargeJson: (id: string) => Record<string, unknown>;
  /** A webhook delivery as Culqi sends it (unsigned). */
  event: (type: string, data: Record<string, unknown>) => { rawBody: Buffer; headers: Record<string, string> };
  close: () => Promise<void>;
};

const DECLINED_CARD = '4000020000000000';
const CURRENCIES = new Set(['PEN', 'USD']);
type Answer = { status: number; body: unknown };
const asRecord = (value: unknown): Record<string, unknown> | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);
const error = (status: number, merchantMessage: string, type = 'invalid_request_error', extra: Record<string, unknown> = {}): Answer => ({
  status,
  body: { object: 'error', type, merchant_message: merchantMessage, user_message: merchantMessage, ...extra },
});
const id = (prefix: string) => `${prefix}_test_${randomBytes(8).toString('hex')}`;

export async function startCulqi(): Promise<CulqiStandIn> {
  const standIn: CulqiStandIn = {
    url: '',
    publicKey: `pk_test_${randomBytes(8).toString('hex')}`,
    secretKey: `sk_test_${randomBytes(8).toString('hex')}`,
    mode: 'ok',
    loseChargeAnswer: false,
    requests: [],
    tokens: new Map(),
    charges: new Map(),
    refunds: new Map(),
    tokenize: async (email = 'rider@example.com', cardNumber = '4111111111111111') => {
      const answer = await fetch(`${standIn.url}/v2/tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${standIn.publicKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ card_number: cardNumber, cvv: '123', expiration_month: '09', expiration_year: '2030', email }),
      });
      const token = asRecord(await answer.json());
      if (answer.status !== 201 || typeof token?.id !== 'string') throw new Error(`no token: ${String(answer.status)}`);
      return token.id;
    },
    chargeJson: (chargeId) => {
      const charge = standIn.charges.get(chargeId);
      if (!charge) throw new Error(`no charge ${chargeId}`);
      return chargeJson(charge);
    },
    event: (type, data) => {
      const rawBody = Buffer.from(JSON.stringify({ object: 'event', id: id('evt'), type, creation_date: Date.now(), data: JSON.stringify(data) }));
      return { rawBody, headers: { 'content-type': 'application/json' } };
    },
    close: () => Promise.resolve(),
  };

  function chargeJson(charge: CulqiCharge): Record<string, unknown> {
    return {
      object: 'charge',
      id: charge.id,
      creation_date: charge.createdAt,
      amount: charge.amount,
      amount_refunded: charge.refunded,
      current_amount: charge.amount - charge.refunded,
      installments: 0,
      currency_code: charge.currency,
      email: charge.email,
      description: 'stand-in',
      source: { object: 'token', id: charge.token, type: 'card', email: charge.email, card_number: '411111******1111', last_four: '1111' },
      outcome: charge.succeeded
        ? { type: 'venta_exitosa', code: 'AUT0000', merchant_message: 'La operación de venta ha sido autorizada exitosamente', user_message: 'Su compra ha sido exitosa.' }
        : { type: 'tarjeta_robada', code: 'AUT0002', merchant_message: 'La tarjeta fue reportada como robada.', user_message: 'Su tarjeta ha sido rechazada.' },
      fraud_score: 5,
      metadata: charge.metadata,
      capture: true,
      reference_code: 'RC12345',
      authorization_code: charge.succeeded ? 'AUTH12' : null,
      total_fee: null,
      paid: charge.succeeded,
    };
  }

  const refundJson = (refund: CulqiRefund) => ({ object: 'refund', id: refund.id, charge_id: refund.chargeId, creation_date: refund.createdAt, amount: refund.amount, reason: refund.reason, metadata: refund.metadata });

  function api(seen: CulqiSeenRequest): Answer {
    let body: Record<string, unknown> = {};
    if (seen.method === 'POST') {
      try {
        body = asRecord(JSON.parse(seen.body || '{}')) ?? {};
      } catch {
        return error(400, 'JSON inválido');
      }
    }
    if (seen.method === 'POST' && seen.path === '/v2/tokens') {
      if (seen.headers.authorization !== `Bearer ${standIn.publicKey}`) return error(401, 'Llave pública inválida', 'authentication_error');
      if (typeof body.email !== 'string' || typeof body.card_number !== 'string') return error(400, 'Datos inválidos', 'parameter_error');
      const token: CulqiToken = { id: id('tkn'), email: body.email, cardNumber: body.card_number, used: false };
      standIn.tokens.set(token.id, token);
      return { status: 201, body: { object: 'token', id: token.id, type: 'card', email: token.email, creation_date: Date.now(), card_number: `${token.cardNumber.slice(0, 6)}******${token.cardNumber.slice(-4)}`, last_four: token.cardNumber.slice(-4), active: true } };
    }
    if (seen.headers.authorization !== `Bearer ${standIn.secretKey}`) return error(401, 'Llave secreta inválida', 'authentication_error');
    const token = /^\/v2\/tokens\/([^/]+)$/.exec(seen.path);
    if (seen.method === 'GET' && token?.[1]) {
      const found = standIn.tokens.get(decodeURIComponent(token[1]));
      return found ? { status: 200, body: { object: 'token', id: found.id, type: 'card', email: found.email, active: !found.used } } : error(404, 'Token no encontrado', 'resource_error');
    }
    if (seen.method === 'POST' && seen.path === '/v2/charges') {
      const { amount, currency_code: currency, email, source_id: sourceId } = body;
      if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 300) return error(400, 'El monto es inválido', 'parameter_error', { param: 'amount' });
      if (typeof currency !== 'string' || !CURRENCIES.has(currency)) return error(400, 'La moneda es inválida', 'parameter_error', { param: 'currency_code' });
      if (typeof email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(email)) return error(400, 'El email es inválido', 'parameter_error', { param: 'email' });
      const source = typeof sourceId === 'string' ? standIn.tokens.get(sourceId) : undefined;
      if (!source) return error(400, 'El token no existe', 'parameter_error', { param: 'source_id' });
      if (source.used) return error(400, 'El token ya fue utilizado', 'parameter_error', { param: 'source_id' });
      source.used = true;
      const charge: CulqiCharge = { id: id('chr'), amount, currency, email, token: source.id, succeeded: source.cardNumber !== DECLINED_CARD, metadata: asRecord(body.metadata) ?? {}, refunded: 0, createdAt: Date.now() };
      standIn.charges.set(charge.id, charge);
      if (!charge.succeeded) return error(402, 'La tarjeta fue reportada como robada.', 'card_error', { charge_id: charge.id, code: 'card_declined', decline_code: 'stolen_card' });
      return { status: 201, body: chargeJson(charge) };
    }
    if (seen.method === 'GET' && seen.path === '/v2/charges') {
      const amount = seen.query.get('amount');
      const currency = seen.query.get('currency_code');
      const listed = [...standIn.charges.values()].filter((charge) => (amount === null || String(charge.amount) === amount) && (currency === null || charge.currency === currency)).reverse();
      return { status: 200, body: { data: listed.map(chargeJson), paging: { previous: null, next: null, cursors: { before: null, after: null } } } };
    }
    const charge = /^\/v2\/charges\/([^/]+)$/.exec(seen.path);
    if (seen.method === 'GET' && charge?.[1]) {
      const found = standIn.charges.get(decodeURIComponent(charge[1]));
      return found ? { status: 200, body: chargeJson(found) } : error(404, 'Cargo no encontrado', 'resource_error');
    }
    if (seen.method === 'POST' && seen.path === '/v2/refunds') {
      const refunded = typeof body.charge_id === 'string' ? standIn.charges.get(body.charge_id) : undefined;
      if (!refunded?.succeeded) return error(400, 'El cargo no existe o no fue exitoso', 'parameter_error', { param: 'charge_id' });
      const amount = body.amount;
      if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0) return error(400, 'El monto es inválido', 'parameter_error', { param: 'amount' });
      if (amount > refunded.amount - refunded.refunded) return error(400, 'El monto a devolver excede el monto del cargo', 'parameter_error', { param: 'amount' });
      if (!['duplicado', 'fraudulento', 'solicitud_comprador'].includes(String(body.reason))) return error(400, 'El motivo es inválido', 'parameter_error', { param: 'reason' });
      const refund: CulqiRefund = { id: id('ref'), chargeId: refunded.id, amount, reason: String(body.reason), metadata: asRecord(body.metadata) ?? {}, createdAt: Date.now() };
      standIn.refunds.set(refund.id, refund);
      refunded.refunded += amount;
      return { status: 201, body: refundJson(refund) };
    }
    if (seen.method === 'GET' && seen.path === '/v2/refunds') {
      const chargeId = seen.query.get('charge_id');
      return { status: 200, body: { data: [...standIn.refunds.values()].filter((refund) => chargeId === null || refund.chargeId === chargeId).map(refundJson), paging: {} } };
    }
    return error(404, 'Recurso no encontrado', 'resource_error');
  }

  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://stand-in');
      const seen: CulqiSeenRequest = { method: incoming.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') };
      standIn.requests.push(seen);
      const mode = seen.path === '/v2/tokens' ? 'ok' : standIn.mode;
      if (mode === 'hang') return;
      const answer: Answer =
        mode === 'fail'
          ? { status: 500, body: { object: 'error', type: 'api_error', merchant_message: 'Error interno' } }
          : mode === 'garbage'
            ? { status: 200, body: '{"object":"charge","id":"chr_' }
            : mode === 'wrongShape'
              ? { status: 200, body: { object: 'list', data: 'none', id: 7 } }
              : api(seen);
      if (standIn.loseChargeAnswer && seen.method === 'POST' && seen.path === '/v2/charges') return;
      response.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' }).end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
  });
  Object.assign(standIn, await listenLocally(server));
  return standIn;
}
