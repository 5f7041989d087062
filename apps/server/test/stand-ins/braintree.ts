import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { listenLocally } from './stand-in-server';

/**
 * A local stand-in for Braintree's gateway, speaking its XML API as the official `braintree` SDK
 * calls it (node_modules/braintree/lib/braintree/http.js and the *_gateway.js files), written from
 * Braintree's public documentation and the SDK's source:
 *
 * - every request carries `Authorization: Basic base64(publicKey:privateKey)` (else 401),
 *   `X-ApiVersion: 6`, `Accept: application/xml`, `Accept-Encoding: gzip`, and a JSON body
 *   (`Content-Type: application/json`) whose keys are snake_case under one root
 *   (`{"transaction": {...}}`, `{"client_token": {...}}`, `{"search": {...}}`);
 * - every answer is XML (`application/xml`, gzipped as the gateway does): 201 for a created
 *   client token or transaction, 200 for a find, a void or a search, 422 with an
 *   `<api-error-response>` for validation errors, declines and rejections (Braintree answers a
 *   processor decline as a 422 carrying the transaction).
 *
 * Routes: POST /merchants/:id/client_token, POST /merchants/:id/transactions (sale),
 * GET /merchants/:id/transactions/:tx, POST .../transactions/:tx/refund, PUT .../transactions/:tx/void,
 * POST .../transactions/advanced_search_ids and .../transactions/advanced_search.
 *
 * Nonces are Braintree's documented test nonces (the SDK's test_values/nonces.js and the
 * sandbox's "Testing" reference): `fake-valid-*-nonce` authorizes, `fake-processor-declined-*-nonce`
 * is processor_declined (2000 Do Not Honor), `fake-processor-failure-jcb-nonce` failed (3000),
 * `fake-gateway-rejected-fraud-nonce` gateway_rejected (fraud), `fake-consumed-nonce` 91564,
 * anything else 91565. Those are static and reusable, as in the sandbox; `issueNonce` gives a
 * one-time nonce like the ones Drop-in gets for a card, and its second use is 91564. Sandbox amounts 2000.00 to 2999.99 are declined
 * with that processor response, and 5001.00 is gateway_rejected (application_incomplete).
 *
 * Modes: `ok`; `hang` never answers; `fail` answers 503; `garbage` answers broken XML;
 * `wrongShape` answers well-formed XML of another shape; `lose` does the work and then never
 * answers (the answer is lost on the way back).
 */

export type BraintreeStandInMode = 'ok' | 'hang' | 'fail' | 'garbage' | 'wrongShape' | 'lose';

export type StandInTransaction = {
  id: string;
  type: 'sale' | 'credit';
  status: string;
  amount: string;
  currency: string;
  orderId: string;
  processorResponseCode: string;
  processorResponseText: string;
  gatewayRejectionReason?: string;
  refundedTransactionId?: string;
  refundIds: string[];
  createdAt: string;
};

export type SeenBraintreeRequest = { method: string; path: string; headers: IncomingHttpHeaders; body: unknown };

export type BraintreeStandIn = {
  url: string;
  merchantId: string;
  publicKey: string;
  privateKey: string;
  /** The merchant account's currency: every sale is made in it (Braintree's sale takes no currency). */
  currency: string;
  mode: BraintreeStandInMode;
  requests: SeenBraintreeRequest[];
  /** Requests that did not have the shape the SDK sends (wrong headers, keys or body): a test expects none. */
  problems: string[];
  transactions: Map<string, StandInTransaction>;
  /**
   * A one-time nonce, as the client API gives Drop-in for a card it tokenized: it behaves as the
   * test nonce named (`fake-valid-nonce` by default) and can be used once. Braintree's fake test
   * nonces themselves are static and reusable.
   */
  issueNonce: (behavesAs?: string) => string;
  /** Moves a transaction to settled, as the sandbox's testing.settle does. */
  settle: (id: string) => void;
  close: () => Promise<void>;
};

const SANDBOX_DECLINE_TEXT: Record<string, string> = { '2000': 'Do Not Honor', '2001': 'Insufficient Funds', '2046': 'Declined' };

const escapeXml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const element = (name: string, value: string | undefined) => (value === undefined ? `<${name} nil="true"/>` : `<${name}>${escapeXml(value)}</${name}>`);

/** A transaction as the gateway's XML (the fields Braintree's Transaction response object documents that this app reads, and a few more). */
export function transactionXml(transaction: StandInTransaction): string {
  return [
    '<transaction>',
    element('id', transaction.id),
    element('status', transaction.status),
    element('type', transaction.type),
    element('currency-iso-code', transaction.currency),
    element('amount', transaction.amount),
    element('merchant-account-id', 'rideway_merchant_account'),
    element('order-id', transaction.orderId || undefined),
    `<created-at type="datetime">${transaction.createdAt}</created-at>`,
    `<updated-at type="datetime">${transaction.createdAt}</updated-at>`,
    element('processor-response-code', transaction.processorResponseCode),
    element('processor-response-text', transaction.processorResponseText),
    element('gateway-rejection-reason', transaction.gatewayRejectionReason),
    element('refunded-transaction-id', transaction.refundedTransactionId),
    transaction.refundIds.length === 0 ? '<refund-ids type="array"/>' : `<refund-ids type="array">${transaction.refundIds.map((id) => element('item', id)).join('')}</refund-ids>`,
    '<payment-instrument-type>credit_card</payment-instrument-type>',
    '<credit-card><bin>411111</bin><last-4>1111</last-4><card-type>Visa</card-type><expiration-month>12</expiration-month><expiration-year>2030</expiration-year></credit-card>',
    '<disputes type="array"/>',
    '</transaction>',
  ].join('');
}

function errorResponseXml(message: string, errors: { code: string; attribute: string; message: string }[], transaction?: StandInTransaction): string {
  const list = errors.map((error) => `<error>${element('code', error.code)}<attribute type="symbol">${escapeXml(error.attribute)}</attribute>${element('message', error.message)}</error>`).join('');
  const nested = errors.length > 0 ? `<transaction><errors type="array">${list}</errors></transaction>` : '';
  return `<api-error-response><errors><errors type="array"/>${nested}</errors><params/>${element('message', message)}${transaction ? transactionXml(transaction) : ''}</api-error-response>`;
}

/** A notification's XML as Braintree posts it (the SDK's webhook_testing_gateway.js shows the shape). */
export function notificationXml(kind: string, subjectXml: string, timestamp = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<notification>\n  <timestamp type="datetime">${timestamp}</timestamp>\n  <kind>${escapeXml(kind)}</kind>\n  <subject>${subjectXml}</subject>\n</notification>\n`;
}

/** A dispute subject for dispute_opened, on a transaction. */
export function disputeXml(transaction: Pick<StandInTransaction, 'id' | 'amount' | 'currency'>, reason = 'fraud', id = `dispute_${transaction.id}`): string {
  return `<dispute><amount>${transaction.amount}</amount><amount-disputed>${transaction.amount}</amount-disputed><amount-won>0.00</amount-won><currency-iso-code>${transaction.currency}</currency-iso-code><received-date type="date">2026-11-23</received-date><reply-by-date type="date">2026-12-10</reply-by-date><kind>chargeback</kind><status>open</status><reason>${reason}</reason><id>${id}</id><transaction><id>${transaction.id}</id><amount>${transaction.amount}</amount></transaction><date-opened type="date">2026-11-23</date-opened></dispute>`;
}

/**
 * Signs a notification as Braintree does (Webhooks: Parse; the SDK's digest.js and
 * webhook_notification_gateway.js): the payload is the XML in base64, and the signature is
 * `publicKey|hex(HMAC-SHA1(key = SHA-1(privateKey), payload))`. `wrap` breaks the base64 into
 * lines of 60 characters, as Braintree's posted payloads are; the SDK's sampleNotification sends
 * one line and a trailing newline (`wrap: false`).
 */
export function signNotification(keys: { publicKey: string; privateKey: string }, xml: string, options: { wrap?: boolean } = {}): { bt_signature: string; bt_payload: string } {
  const base64 = Buffer.from(xml, 'utf8').toString('base64');
  const payload = options.wrap === false ? `${base64}\n` : `${(base64.match(/.{1,60}/g) ?? []).join('\n')}\n`;
  const key = createHash('sha1').update(keys.privateKey, 'utf8').digest();
  const hex = createHmac('sha1', key).update(payload, 'utf8').digest('hex');
  return { bt_signature: `${keys.publicKey}|${hex}`, bt_payload: payload };
}

/** The form body Braintree posts to the webhook URL. */
export function notificationBody(notification: { bt_signature: string; bt_payload: string }): Buffer {
  return Buffer.from(new URLSearchParams(notification).toString());
}

const VALID_NONCE = /^fake-valid-[a-z-]*nonce$/;
const DECLINED_NONCE = /^fake-processor-declined-[a-z]+-nonce$/;
const SALE_KEYS = new Set(['amount', 'payment_method_nonce', 'order_id', 'options', 'type', 'device_data']);

export async function startBraintreeStandIn(options: { merchantId?: string; publicKey?: string; privateKey?: string; currency?: string } = {}): Promise<BraintreeStandIn> {
  const standIn: BraintreeStandIn = {
    url: '',
    merchantId: options.merchantId ?? 'rideway_merchant',
    publicKey: options.publicKey ?? 'standin_public_key',
    privateKey: options.privateKey ?? `private${randomBytes(12).toString('hex')}`,
    currency: options.currency ?? 'GBP',
    mode: 'ok',
    requests: [],
    problems: [],
    transactions: new Map(),
    issueNonce: (behavesAs = 'fake-valid-nonce') => {
      const nonce = `tokencc_bt_${randomBytes(8).toString('hex')}`;
      issued.set(nonce, behavesAs);
      return nonce;
    },
    settle: (id) => {
      const transaction = standIn.transactions.get(id);
      if (transaction) transaction.status = 'settled';
    },
    close: () => Promise.resolve(),
  };
  const usedNonces = new Set<string>();
  const issued = new Map<string, string>();
  let sequence = 0;
  const newId = () => `${(++sequence).toString(36).padStart(4, '0')}${randomBytes(3).toString('hex')}`.slice(0, 8);
  const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

  const answer = (response: ServerResponse, status: number, xml: string) => {
    const body = gzipSync(Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n${xml}`));
    response.writeHead(status, { 'content-type': 'application/xml; charset=utf-8', 'content-encoding': 'gzip' }).end(body);
  };

  function checkShape(request: SeenBraintreeRequest, hasBody: boolean): boolean {
    const { headers } = request;
    const expected = `Basic ${Buffer.from(`${standIn.publicKey}:${standIn.privateKey}`).toString('base64')}`;
    if (headers.authorization !== expected) return false;
    if (headers['x-apiversion'] !== '6') standIn.problems.push(`${request.path}: X-ApiVersion ${String(headers['x-apiversion'])}`);
    if (headers.accept !== 'application/xml') standIn.problems.push(`${request.path}: Accept ${String(headers.accept)}`);
    if (!String(headers['accept-encoding']).includes('gzip')) standIn.problems.push(`${request.path}: no gzip`);
    if (hasBody && headers['content-type'] !== 'application/json') standIn.problems.push(`${request.path}: Content-Type ${String(headers['content-type'])}`);
    return true;
  }

  function sale(body: Record<string, unknown>, response: ServerResponse) {
    const fields = (body.transaction ?? {}) as Record<string, unknown>;
    for (const key of Object.keys(fields)) if (!SALE_KEYS.has(key)) standIn.problems.push(`sale: unexpected key ${key}`);
    if (fields.type !== 'sale') standIn.problems.push('sale: type is not sale');
    const amount = typeof fields.amount === 'string' ? fields.amount : '';
    if (!/^\d{1,13}(\.\d{1,3})?$/.test(amount)) {
      answer(response, 422, errorResponseXml('Amount is an invalid format.', [{ code: '81503', attribute: 'amount', message: 'Amount is an invalid format.' }]));
      return;
    }
    const given = typeof fields.payment_method_nonce === 'string' ? fields.payment_method_nonce : '';
    if (given === 'fake-consumed-nonce' || usedNonces.has(given)) {
      answer(response, 422, errorResponseXml('Cannot use a payment_method_nonce more than once.', [{ code: '91564', attribute: 'payment_method_nonce', message: 'Cannot use a payment_method_nonce more than once.' }]));
      return;
    }
    const nonce = issued.get(given) ?? given;
    const known = VALID_NONCE.test(nonce) || DECLINED_NONCE.test(nonce) || nonce === 'fake-processor-failure-jcb-nonce' || nonce === 'fake-gateway-rejected-fraud-nonce';
    if (!known) {
      answer(response, 422, errorResponseXml('Unknown or expired payment_method_nonce.', [{ code: '91565', attribute: 'payment_method_nonce', message: 'Unknown or expired payment_method_nonce.' }]));
      return;
    }
    if (issued.has(given)) usedNonces.add(given);
    const submit = (fields.options as { submit_for_settlement?: unknown } | undefined)?.submit_for_settlement === true;
    const transaction: StandInTransaction = {
      id: newId(),
      type: 'sale',
      status: submit ? 'submitted_for_settlement' : 'authorized',
      amount,
      currency: standIn.currency,
      orderId: typeof fields.order_id === 'string' ? fields.order_id : '',
      processorResponseCode: '1000',
      processorResponseText: 'Approved',
      refundIds: [],
      createdAt: now(),
    };
    const cents = Math.round(Number(amount) * 100);
    if (DECLINED_NONCE.test(nonce) || (cents >= 200000 && cents <= 299999)) {
      const code = DECLINED_NONCE.test(nonce) ? '2000' : String(Math.floor(cents / 100));
      Object.assign(transaction, { status: 'processor_declined', processorResponseCode: code, processorResponseText: SANDBOX_DECLINE_TEXT[code] ?? 'Declined' });
    } else if (nonce === 'fake-processor-failure-jcb-nonce') {
      Object.assign(transaction, { status: 'failed', processorResponseCode: '3000', processorResponseText: 'Processor Network Unavailable - Try Again' });
    } else if (nonce === 'fake-gateway-rejected-fraud-nonce' || cents === 500100) {
      const reason = cents === 500100 ? 'application_incomplete' : 'fraud';
      Object.assign(transaction, { status: 'gateway_rejected', gatewayRejectionReason: reason, processorResponseCode: '', processorResponseText: 'Unknown ()' });
    }
    standIn.transactions.set(transaction.id, transaction);
    if (transaction.status === 'processor_declined' || transaction.status === 'failed') {
      answer(response, 422, errorResponseXml(transaction.processorResponseText, [], transaction));
    } else if (transaction.status === 'gateway_rejected') {
      answer(response, 422, errorResponseXml(`Gateway Rejected: ${transaction.gatewayRejectionReason ?? ''}`, [], transaction));
    } else {
      answer(response, 201, transactionXml(transaction));
    }
  }

  function refund(original: StandInTransaction, body: Record<string, unknown>, response: ServerResponse) {
    const fields = (body.transaction ?? {}) as Record<string, unknown>;
    for (const key of Object.keys(fields)) if (!['amount', 'order_id'].includes(key)) standIn.problems.push(`refund: unexpected key ${key}`);
    if (original.status !== 'settled' && original.status !== 'settling') {
      answer(response, 422, errorResponseXml('Cannot refund transaction unless it is settled.', [{ code: '91506', attribute: 'base', message: 'Cannot refund transaction unless it is settled.' }]));
      return;
    }
    const refunded = original.refundIds.reduce((sum, id) => sum + Math.round(Number(standIn.transactions.get(id)?.amount ?? 0) * 100), 0);
    const total = Math.round(Number(original.amount) * 100);
    if (refunded >= total) {
      answer(response, 422, errorResponseXml('Transaction has already been completely refunded.', [{ code: '91512', attribute: 'base', message: 'Transaction has already been completely refunded.' }]));
      return;
    }
    const amount = typeof fields.amount === 'string' ? fields.amount : original.amount;
    if (Math.round(Number(amount) * 100) > total - refunded) {
      answer(response, 422, errorResponseXml('Refund amount is too large.', [{ code: '91521', attribute: 'amount', message: 'Refund amount is too large.' }]));
      return;
    }
    const credit: StandInTransaction = {
      id: newId(),
      type: 'credit',
      status: 'submitted_for_settlement',
      amount,
      currency: original.currency,
      orderId: typeof fields.order_id === 'string' ? fields.order_id : original.orderId,
      processorResponseCode: '1002',
      processorResponseText: 'Processed',
      refundedTransactionId: original.id,
      refundIds: [],
      createdAt: now(),
    };
    standIn.transactions.set(credit.id, credit);
    original.refundIds.push(credit.id);
    answer(response, 201, transactionXml(credit));
  }

  function matches(transaction: StandInTransaction, criteria: Record<string, unknown>): boolean {
    for (const [field, criterion] of Object.entries(criteria)) {
      if (field === 'order_id') {
        const is = (criterion as { is?: unknown }).is;
        if (typeof is !== 'string' || transaction.orderId.toLowerCase() !== is.toLowerCase()) return false;
      } else if (field === 'type') {
        if (!Array.isArray(criterion) || !criterion.includes(transaction.type)) return false;
      } else if (field === 'ids') {
        if (!Array.isArray(criterion) || !criterion.includes(transaction.id)) return false;
      } else {
        standIn.problems.push(`search: unsupported criterion ${field}`);
        return false;
      }
    }
    return true;
  }

  function route(request: SeenBraintreeRequest, response: ServerResponse) {
    const base = `/merchants/${standIn.merchantId}`;
    if (!request.path.startsWith(`${base}/`)) {
      response.writeHead(404).end();
      return;
    }
    const rest = request.path.slice(base.length);
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (request.method === 'POST' && rest === '/client_token') {
      const fields = (body.client_token ?? {}) as Record<string, unknown>;
      if (fields.version !== 2) standIn.problems.push('client_token: version is not 2');
      const token = Buffer.from(
        JSON.stringify({
          version: 2,
          authorizationFingerprint: randomBytes(24).toString('hex'),
          configUrl: `${standIn.url}${base}/client_api/v1/configuration`,
          clientApiUrl: `${standIn.url}${base}/client_api`,
          environment: 'sandbox',
          merchantId: standIn.merchantId,
        }),
      ).toString('base64');
      answer(response, 201, `<client-token>${element('value', token)}</client-token>`);
      return;
    }
    if (request.method === 'POST' && rest === '/transactions') {
      sale(body, response);
      return;
    }
    if (request.method === 'POST' && (rest === '/transactions/advanced_search_ids' || rest === '/transactions/advanced_search')) {
      const criteria = (body.search ?? {}) as Record<string, unknown>;
      const found = [...standIn.transactions.values()].filter((transaction) => matches(transaction, criteria));
      if (rest.endsWith('_ids')) {
        const ids = found.length === 0 ? '<ids type="array"/>' : `<ids type="array">${found.map((transaction) => element('item', transaction.id)).join('')}</ids>`;
        answer(response, 200, `<search-results><page-size type="integer">50</page-size>${ids}</search-results>`);
      } else {
        answer(
          response,
          200,
          `<credit-card-transactions type="collection"><current-page-number type="integer">1</current-page-number><page-size type="integer">50</page-size><total-items type="integer">${found.length}</total-items>${found.map(transactionXml).join('')}</credit-card-transactions>`,
        );
      }
      return;
    }
    const match = /^\/transactions\/([a-z0-9]+)(\/refund|\/void)?$/.exec(rest);
    const transaction = match?.[1] ? standIn.transactions.get(match[1]) : undefined;
    if (!match || !transaction) {
      response.writeHead(404).end();
      return;
    }
    if (request.method === 'GET' && !match[2]) {
      answer(response, 200, transactionXml(transaction));
    } else if (request.method === 'POST' && match[2] === '/refund') {
      refund(transaction, body, response);
    } else if (request.method === 'PUT' && match[2] === '/void') {
      if (!['authorized', 'submitted_for_settlement', 'settlement_pending'].includes(transaction.status)) {
        const message = 'Transaction can only be voided if status is authorized, submitted_for_settlement, or - for PayPal - settlement_pending.';
        answer(response, 422, errorResponseXml(message, [{ code: '91504', attribute: 'base', message }]));
        return;
      }
      transaction.status = 'voided';
      answer(response, 200, transactionXml(transaction));
    } else {
      response.writeHead(404).end();
    }
  }

  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = raw === '' ? undefined : JSON.parse(raw);
      } catch {
        standIn.problems.push(`${incoming.url ?? ''}: a body that is not JSON`);
      }
      const seen: SeenBraintreeRequest = { method: incoming.method ?? 'GET', path: new URL(incoming.url ?? '/', 'http://stand-in').pathname, headers: incoming.headers, body };
      standIn.requests.push(seen);
      if (!checkShape(seen, raw !== '')) {
        response.writeHead(401, { 'content-type': 'application/xml; charset=utf-8' }).end();
        return;
      }
      const mode = standIn.mode;
      if (mode === 'hang') return;
      if (mode === 'fail') {
        response.writeHead(503, { 'content-type': 'text/html' }).end('<html><body>503 Service Unavailable</body></html>');
        return;
      }
      if (mode === 'garbage') {
        answer(response, 200, '<transaction><id>broken</id><status>sett');
        return;
      }
      if (mode === 'wrongShape') {
        answer(response, 201, '<maintenance><message>Back soon</message></maintenance>');
        return;
      }
      if (mode === 'lose') {
        // The work is done; the answer never comes back.
        route(seen, { writeHead: () => ({ end: () => undefined }), end: () => undefined } as unknown as ServerResponse);
        return;
      }
      route(seen, response);
    });
  });
  Object.assign(standIn, await listenLocally(server));
  return standIn;
}
