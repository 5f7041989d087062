import { createHash, timingSafeEqual } from 'node:crypto';
import { fromProviderDecimal, PAYFAST_CURRENCIES, toProviderDecimal } from '@rideway/domain';
import type { Config } from '../../config';
import { NotificationSignatureError, ProviderUnavailableError, type Checkout, type CheckoutRequest, type PaymentEvent, type PaymentProviderPort, type RefundResult } from './port';
import { RestRefusal, RestUnavailable } from './rest-client';

/**
 * PayFast (South Africa), through its documented form post and Instant Transaction Notification
 * (https://developers.payfast.co.za/docs): PayFast has no official Node SDK, and the form post
 * needs none.
 * 1. `createCheckout`: a `form` checkout posted to `/eng/process` on www.payfast.co.za (or
 *    sandbox.payfast.co.za) with the fields of step 1 "Create your checkout form"
 *    (https://developers.payfast.co.za/docs#step_1_form_fields): merchant_id, merchant_key,
 *    return_url, cancel_url, notify_url, the buyer's name and email, m_payment_id (the attempt's id,
 *    unique per checkout), amount (rand, two decimals), item_name, and our reference in custom_str1.
 *    `signature` (step 2, https://developers.payfast.co.za/docs#step_2_signature) is the MD5, in
 *    lower-case hex, of the non-blank fields in that documented order as `name=value` joined by
 *    `&`, each value trimmed and URL-encoded as PHP's urlencode does (upper-case escapes, spaces as
 *    `+`), then `&passphrase=` and the passphrase.
 * 2. `parseNotification`: an ITN (step 4, https://developers.payfast.co.za/docs#step_4_confirm_payment)
 *    is PayFast's only when (a) its `signature` is the same MD5 over the posted fields in the order
 *    they came (those before `signature`) plus the passphrase, and (b) PayFast answers `VALID` when
 *    the same fields are posted back to `/eng/query/validate` (the server confirmation). The
 *    amount (`amount_gross`) is checked against the booking by the shared confirmation path.
 *    PayFast's fourth check, that the ITN came from one of its IP addresses, is not made here: this
 *    server may sit behind a proxy (the source address is the proxy's), and the validate call
 *    already asks PayFast itself; a firewall rule can add it.
 * 3. No `lookup`: PayFast documents no query of a once-off payment by our reference for this
 *    integration, so a checkout is settled by its ITN (sent until answered 200).
 * 4. `refund`: PayFast's refunds API is not used here (it needs the API's own header signature and
 *    is not offered on the sandbox); a refund answers `in_dashboard`: the admin refunds the payment
 *    in PayFast's dashboard and confirms it on the platform (docs/payments-payfast.md).
 * The payment's `transactionId` is PayFast's `pf_payment_id`.
 */

export const PAYFAST_LIVE = 'https://www.payfast.co.za';
export const PAYFAST_SANDBOX = 'https://sandbox.payfast.co.za';

/** The payment engine this configuration posts to: the override (a stand-in), else the sandbox or live host. */
export const payfastEngine = (config: Pick<Config, 'PAYFAST_API_URL' | 'PAYFAST_SANDBOX'>): string =>
  (config.PAYFAST_API_URL ?? (config.PAYFAST_SANDBOX ? PAYFAST_SANDBOX : PAYFAST_LIVE)).replace(/\/+$/, '');

/** Where the checkout form is posted, for the security policy's form-action. */
export const payfastCheckoutOrigins = (config: Pick<Config, 'PAYFAST_API_URL' | 'PAYFAST_SANDBOX'>): string[] => [new URL(payfastEngine(config)).origin];

/** The checkout form's fields in the order the signature takes them (step 1's table). */
export const PAYFAST_FIELD_ORDER = [
  'merchant_id', 'merchant_key', 'return_url', 'cancel_url', 'notify_url',
  'name_first', 'name_last', 'email_address', 'cell_number',
  'm_payment_id', 'amount', 'item_name', 'item_description',
  'custom_int1', 'custom_int2', 'custom_int3', 'custom_int4', 'custom_int5',
  'custom_str1', 'custom_str2', 'custom_str3', 'custom_str4', 'custom_str5',
  'email_confirmation', 'confirmation_address', 'payment_method',
] as const;

/** PHP's urlencode, which PayFast's signature is defined with: only letters, digits, `-`, `_` and `.` stay; spaces become `+`; escapes are upper case. */
export const phpUrlencode = (value: string): string =>
  encodeURIComponent(value)
    .replace(/[!'()*~]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');

/** `name=value&...` of the non-blank pairs, in the order given, each value trimmed and encoded. */
export const payfastParamString = (pairs: readonly (readonly [string, string])[]): string =>
  pairs
    .map(([name, value]) => [name, value.trim()] as const)
    .filter(([, value]) => value !== '')
    .map(([name, value]) => `${name}=${phpUrlencode(value)}`)
    .join('&');

/** An ITN's parameter string: every field before `signature` as posted, blank ones too, each encoded (PayFast's ITN sample code). */
export const itnParamString = (pairs: readonly (readonly [string, string])[]): string => pairs.map(([name, value]) => `${name}=${phpUrlencode(value)}`).join('&');

/** The signature of a parameter string: MD5, lower-case hex, with the passphrase appended. */
export const payfastSignature = (paramString: string, passphrase: string): string =>
  createHash('md5').update(`${paramString}&passphrase=${phpUrlencode(passphrase.trim())}`, 'utf8').digest('hex');

/** The checkout form's signature over its fields, in the documented order. */
export function payfastFormSignature(fields: Record<string, string>, passphrase: string): string {
  const pairs = PAYFAST_FIELD_ORDER.flatMap((name) => (fields[name] === undefined ? [] : [[name, fields[name]] as const]));
  return payfastSignature(payfastParamString(pairs), passphrase);
}

const sameHex = (expected: string, sent: string | undefined): boolean =>
  sent !== undefined && /^[0-9a-f]{32}$/i.test(sent) && timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(sent.toLowerCase(), 'hex'));

/**
 * An ITN's fields before its `signature`, in the order posted, with that signature; undefined
 * when the body is not one (no signature, a field twice). Fields after the signature are not
 * signed, so they are not read.
 */
export function itnFields(rawBody: Buffer): { pairs: [string, string][]; signature: string } | undefined {
  const pairs: [string, string][] = [];
  for (const [name, value] of new URLSearchParams(rawBody.toString('utf8'))) {
    if (name === 'signature') return { pairs, signature: value };
    if (pairs.some(([seen]) => seen === name)) return undefined;
    pairs.push([name, value]);
  }
  return undefined;
}

/** A PayFast ITN's payment status as the port's news. */
const OUTCOMES: Record<string, 'payment_succeeded' | 'payment_failed' | 'payment_pending'> = { COMPLETE: 'payment_succeeded', FAILED: 'payment_failed', CANCELLED: 'payment_failed', PENDING: 'payment_pending' };

/** A rider's mobile as PayFast's cell_number (a South African number, 0 and 9 digits), or nothing: PayFast refuses other formats. */
const southAfricanCell = (mobile: string): string => {
  const digits = mobile.replace(/[\s()-]/g, '');
  const local = digits.startsWith('+27') ? `0${digits.slice(3)}` : digits;
  return /^0\d{9}$/.test(local) ? local : '';
};

/** Our notification URL beside the return URL (…/<provider>/return?attempt= → …/<provider>/webhook), whatever path PUBLIC_URL has. */
const notificationUrl = (returnUrl: string): string => {
  const url = new URL(returnUrl);
  url.pathname = url.pathname.replace(/\/return$/, '/webhook');
  url.search = '';
  return url.toString();
};

export function payfastProvider(config: Config): PaymentProviderPort {
  const { PAYFAST_MERCHANT_ID: merchantId, PAYFAST_MERCHANT_KEY: merchantKey, PAYFAST_PASSPHRASE: passphrase } = config;
  if (!merchantId || !merchantKey || !passphrase) throw new Error('payfast: PAYFAST_MERCHANT_ID, PAYFAST_MERCHANT_KEY and PAYFAST_PASSPHRASE are required');
  const engine = payfastEngine(config);

  function createCheckout(request: CheckoutRequest): Promise<Checkout> {
    const currency = request.currency.toUpperCase();
    if (!PAYFAST_CURRENCIES.includes(currency)) return Promise.reject(new Error(`payfast: takes ZAR only, not ${currency}`));
    const fields: Record<string, string> = {
      merchant_id: merchantId as string,
      merchant_key: merchantKey as string,
      return_url: request.returnUrl,
      cancel_url: request.cancelUrl,
      notify_url: notificationUrl(request.returnUrl),
      // Section 4's form fields, where PayFast takes them: the buyer's name, email and mobile; our ids in the custom strings.
      name_first: request.customer.firstName.trim().slice(0, 100),
      name_last: request.customer.lastName.trim().slice(0, 100),
      email_address: request.customer.email.trim().slice(0, 100),
      cell_number: southAfricanCell(request.customer.mobile),
      m_payment_id: request.idempotencyKey,
      amount: toProviderDecimal(request.amountMinor, currency),
      item_name: request.description.trim().slice(0, 100),
      custom_str1: request.reference,
      custom_str2: request.purpose.kind,
      custom_str3: request.customer.uid,
    };
    // Blank fields are neither posted nor signed.
    const posted = Object.fromEntries(Object.entries(fields).filter(([, value]) => value.trim() !== ''));
    return Promise.resolve({ kind: 'form', action: `${engine}/eng/process`, fields: { ...posted, signature: payfastFormSignature(posted, passphrase as string) }, checkoutId: request.idempotencyKey });
  }

  /** PayFast's server confirmation: the ITN's fields posted back to /eng/query/validate; true on VALID. */
  async function confirmedByPayfast(paramString: string): Promise<boolean> {
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${engine}/eng/query/validate`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: paramString,
        signal: AbortSignal.timeout(config.PAYMENT_TIMEOUT_MS),
        redirect: 'error',
      });
      text = await response.text();
    } catch (error) {
      const timeout = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new RestUnavailable('payfast', 'validating the ITN', timeout ? 'no answer in time' : 'no answer (network)');
    }
    if (response.status === 408 || response.status === 429 || response.status >= 500) throw new RestUnavailable('payfast', 'validating the ITN', `HTTP ${String(response.status)}`);
    if (!response.ok) throw new RestRefusal('payfast', 'validating the ITN', response.status, undefined, undefined);
    const answer = text.trim();
    if (answer === 'VALID') return true;
    if (answer === 'INVALID') return false;
    throw new RestUnavailable('payfast', 'validating the ITN', 'a malformed answer');
  }

  async function parseNotification(rawBody: Buffer): Promise<PaymentEvent> {
    const itn = itnFields(rawBody);
    if (!itn) throw new NotificationSignatureError('payfast');
    const paramString = itnParamString(itn.pairs);
    if (!sameHex(payfastSignature(paramString, passphrase as string), itn.signature)) throw new NotificationSignatureError('payfast');
    const field = (name: string): string | undefined => itn.pairs.find(([seen]) => seen === name)?.[1].trim() || undefined;
    // Signed with our passphrase, yet for another merchant: not ours to act on.
    if (field('merchant_id') !== merchantId) throw new NotificationSignatureError('payfast');
    let valid: boolean;
    try {
      valid = await confirmedByPayfast(paramString);
    } catch (error) {
      throw new ProviderUnavailableError('payfast', error instanceof Error ? error.message : 'payfast: validating the ITN failed');
    }
    if (!valid) throw new NotificationSignatureError('payfast');
    const status = field('payment_status') ?? 'unknown';
    const transactionId = field('pf_payment_id');
    const eventId = `itn:${transactionId ?? field('m_payment_id') ?? 'none'}:${status}`;
    const type = OUTCOMES[status];
    const reference = field('custom_str1');
    if (!type || !transactionId || !reference) return { type: 'ignored', eventId, providerType: `itn ${status.slice(0, 40)}` };
    const amountMinor = fromProviderDecimal(field('amount_gross') ?? '', 'ZAR');
    if (amountMinor === undefined) throw new Error('payfast: an ITN without a plain amount_gross');
    return { type, eventId, reference, transactionId, amountMinor, currency: 'ZAR' };
  }

  const refund = (): Promise<RefundResult> =>
    Promise.resolve({ status: 'in_dashboard', note: "payfast: refunds are not made through PayFast's API here: refund the payment in PayFast's dashboard (Transactions, the payment, Refund)" });

  return {
    name: 'payfast',
    checkoutLink: '/api/payments/payfast/checkout',
    testMode: engine !== PAYFAST_LIVE,
    currencies: PAYFAST_CURRENCIES,
    createCheckout,
    parseNotification,
    refund,
    policy: { formAction: payfastCheckoutOrigins(config) },
  };
}
