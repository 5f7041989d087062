import { createHash, randomBytes } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import { listenLocally } from './stand-in-server';

// PayFast's signatures, written here from its documentation (not the adapter's code), byte by byte as PHP's urlencode.
const urlencode = (value: string): string =>
  [...Buffer.from(value, 'utf8')].map((byte) => (/[A-Za-z0-9_.-]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : byte === 0x20 ? '+' : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
const itnParamString = (pairs: [string, string][]): string => pairs.map(([name, value]) => `${name}=${urlencode(value)}`).join('&');
const payfastSignature = (paramString: string, passphrase: string): string => createHash('md5').update(`${paramString}&passphrase=${urlencode(passphrase)}`).digest('hex');
const FORM_ORDER = ['merchant_id', 'merchant_key', 'return_url', 'cancel_url', 'notify_url', 'name_first', 'name_last', 'email_address', 'cell_number', 'm_payment_id', 'amount', 'item_name', 'item_description', 'custom_int1', 'custom_int2', 'custom_int3', 'custom_int4', 'custom_int5', 'custom_str1', 'custom_str2', 'custom_str3', 'custom_str4', 'custom_str5', 'email_confirmation', 'confirmation_address', 'payment_method'];
const payfastFormSignature = (fields: Record<string, string>, passphrase: string): string =>
  payfastSignature(FORM_ORDER.flatMap((name) => (fields[name]?.trim() ? [`${name}=${urlencode(fields[name].trim())}`] : [])).join('&'), passphrase);

/**
 * A local PayFast payment engine, written from PayFast's developer documentation
 * (https://developers.payfast.co.za/docs):
 *
 * - `POST /eng/process`: the checkout form (step 1). The merchant id and key must be the
 *   account's, `amount` rand with two decimals, and `signature` the MD5 of the non-blank fields in
 *   the documented order plus the passphrase (step 2); otherwise PayFast's error page (400). A
 *   valid form shows the payment page, reduced to Pay, Decline and Cancel.
 * - Pay / Decline: PayFast posts the ITN (step 4: `m_payment_id`, `pf_payment_id`,
 *   `payment_status` COMPLETE or FAILED, `item_name`, `amount_gross`, the custom fields, the buyer,
 *   `merchant_id`, then `signature` over the fields before it plus the passphrase) to
 *   `notify_url`, then sends the browser to `return_url`. Cancel sends it to `cancel_url`, with no ITN.
 * - `POST /eng/query/validate`: answers `VALID` when the posted parameter string is one of the
 *   ITNs PayFast sent, else `INVALID`.
 *
 * Modes, for the validate call: `hang` never answers, `fail` is a 500, `malformed` answers 200
 * with neither VALID nor INVALID (a maintenance page, as a proxy in front of PayFast might).
 */

export type PayfastStandInMode = 'ok' | 'hang' | 'fail' | 'malformed';

export type PayfastPayment = { pfPaymentId: string; fields: Record<string, string>; status: 'open' | 'COMPLETE' | 'FAILED' | 'CANCELLED' };

export type PayfastStandIn = {
  url: string;
  merchantId: string;
  merchantKey: string;
  passphrase: string;
  mode: PayfastStandInMode;
  /** Whether Pay / Decline post the ITN to notify_url (off where notify_url is not reachable: API tests post it themselves). */
  deliver: boolean;
  payments: Map<string, PayfastPayment>;
  /** Every validate request's body. */
  validations: string[];
  /** The checkout form's signature check failures (the form PayFast refused). */
  refused: string[];
  /** The ITN PayFast sends for a payment: the raw body and its content type. `overrides` change fields before signing. */
  itn: (pfPaymentId: string, status: 'COMPLETE' | 'FAILED', overrides?: Record<string, string>) => { rawBody: Buffer; headers: Record<string, string> };
  close: () => Promise<void>;
};

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${String(char.charCodeAt(0))};`);

export async function startPayfast(): Promise<PayfastStandIn> {
  let nextId = 2_300_000 + Math.floor(Math.random() * 1000) * 100;
  const sentItns = new Set<string>();
  const standIn: PayfastStandIn = {
    url: '',
    merchantId: '10000100',
    merchantKey: '46f0cd694581a',
    passphrase: `pass-${randomBytes(8).toString('hex')}`,
    mode: 'ok',
    deliver: true,
    payments: new Map(),
    validations: [],
    refused: [],
    itn: (pfPaymentId, status, overrides = {}) => {
      const payment = standIn.payments.get(pfPaymentId);
      if (!payment) throw new Error(`no payment ${pfPaymentId}`);
      const amount = Number(payment.fields.amount ?? '0');
      const fee = Math.round(amount * 2.5) / 100;
      const field = (name: string) => payment.fields[name] ?? '';
      const pairs: [string, string][] = Object.entries({
        m_payment_id: field('m_payment_id'),
        pf_payment_id: pfPaymentId,
        payment_status: status,
        item_name: field('item_name'),
        item_description: field('item_description'),
        amount_gross: amount.toFixed(2),
        amount_fee: (-fee).toFixed(2),
        amount_net: (amount - fee).toFixed(2),
        custom_str1: field('custom_str1'),
        custom_str2: field('custom_str2'),
        custom_str3: field('custom_str3'),
        custom_str4: field('custom_str4'),
        custom_str5: field('custom_str5'),
        custom_int1: field('custom_int1'),
        custom_int2: field('custom_int2'),
        custom_int3: field('custom_int3'),
        custom_int4: field('custom_int4'),
        custom_int5: field('custom_int5'),
        name_first: field('name_first'),
        name_last: field('name_last'),
        email_address: field('email_address'),
        merchant_id: standIn.merchantId,
        ...overrides,
      });
      const paramString = itnParamString(pairs);
      sentItns.add(paramString);
      const rawBody = Buffer.from(`${paramString}&signature=${payfastSignature(paramString, standIn.passphrase)}`);
      return { rawBody, headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    },
    close: () => Promise.resolve(),
  };

  const page = (response: ServerResponse, status: number, body: string) =>
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>PayFast (stand-in)</title></head><body>${body}</body></html>`);

  function process(form: URLSearchParams, response: ServerResponse): void {
    const fields: Record<string, string> = {};
    for (const [name, value] of form) if (name !== 'signature') fields[name] = value;
    const problem =
      fields.merchant_id !== standIn.merchantId || fields.merchant_key !== standIn.merchantKey ? 'Merchant is invalid'
        : !/^\d+\.\d{2}$/.test(fields.amount ?? '') || Number(fields.amount) < 5 ? 'amount is invalid (at least R5.00)'
          : !fields.item_name ? 'item_name is required'
            : form.get('signature') !== payfastFormSignature(fields, standIn.passphrase) ? 'Generated signature does not match submitted signature'
              : undefined;
    if (problem) {
      standIn.refused.push(problem);
      page(response, 400, `<h1>Payment could not be processed</h1><p id="error">${escape(problem)}</p>`);
      return;
    }
    nextId += 1;
    const pfPaymentId = String(nextId);
    standIn.payments.set(pfPaymentId, { pfPaymentId, fields, status: 'open' });
    const button = (action: string, label: string) => `<form method="post" action="/eng/process/${pfPaymentId}/${action}"><button type="submit">${escape(label)}</button></form>`;
    page(response, 200, `<h1>PayFast (stand-in)</h1><p>${escape(fields.item_name ?? '')}</p><p>Pay <span id="total">R ${escape(fields.amount ?? '')}</span></p>${button('pay', `Pay R ${fields.amount ?? ''}`)}${button('decline', 'Decline')}${button('cancel', 'Cancel payment')}`);
  }

  async function act(pfPaymentId: string, action: string, response: ServerResponse): Promise<void> {
    const payment = standIn.payments.get(pfPaymentId);
    if (!payment) {
      page(response, 404, '<p>This payment does not exist.</p>');
      return;
    }
    if (action === 'cancel') {
      if (payment.status === 'open') payment.status = 'CANCELLED';
      response.writeHead(303, { location: payment.fields.cancel_url ?? '/' }).end();
      return;
    }
    if (payment.status === 'open') {
      payment.status = action === 'pay' ? 'COMPLETE' : 'FAILED';
      const notifyUrl = payment.fields.notify_url;
      if (standIn.deliver && notifyUrl) {
        const { rawBody, headers } = standIn.itn(pfPaymentId, payment.status);
        await fetch(notifyUrl, { method: 'POST', headers, body: rawBody.toString('utf8'), signal: AbortSignal.timeout(5000) }).catch(() => undefined);
      }
    }
    response.writeHead(303, { location: payment.fields.return_url ?? '/' }).end();
  }

  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const path = new URL(incoming.url ?? '/', 'http://stand-in').pathname;
      const body = Buffer.concat(chunks).toString('utf8');
      if (incoming.method === 'POST' && path === '/eng/process') {
        process(new URLSearchParams(body), response);
        return;
      }
      const clicked = /^\/eng\/process\/(\d+)\/(pay|decline|cancel)$/.exec(path);
      if (incoming.method === 'POST' && clicked?.[1] && clicked[2]) {
        void act(clicked[1], clicked[2], response);
        return;
      }
      if (incoming.method === 'POST' && path === '/eng/query/validate') {
        standIn.validations.push(body);
        if (standIn.mode === 'hang') return;
        if (standIn.mode === 'fail') {
          response.writeHead(500, { 'content-type': 'text/html' }).end('<html><body>500</body></html>');
          return;
        }
        if (standIn.mode === 'malformed') {
          response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Down for maintenance: VALID answers resume shortly</body></html>');
          return;
        }
        response.writeHead(200, { 'content-type': 'text/plain' }).end(sentItns.has(body) ? 'VALID' : 'INVALID');
        return;
      }
      page(response, 404, '<p>Not found</p>');
    });
  });
  Object.assign(standIn, await listenLocally(server));
  return standIn;
}
