import { z } from 'zod';
import { parseRateLimitOverrides } from './http/rate-limits';

const flag = z
  .enum(['0', '1', 'true', 'false', 'yes', 'no'])
  .transform((value) => value === '1' || value === 'true' || value === 'yes');

const optionalUrl = (protocols: RegExp) =>
  z
    .string()
    .trim()
    .transform((value) => (value === '' ? undefined : value))
    .pipe(z.url({ protocol: protocols }).optional());

/** A Google service's address: scheme, host and port only (Google's client libraries take no path). */
const googleBase = optionalUrl(/^https?$/)
  .refine((value) => value === undefined || /^https?:\/\/[^/?#]+\/?$/.test(value), 'an http(s) address without a path, e.g. http://127.0.0.1:9000')
  .optional();

/**
 * Every environment variable the server reads, parsed once. Each has an embedded default, so
 * `npm start` on a laptop needs none of them.
 */
export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Where the embedded database and uploaded files live. */
  DATA_DIR: z.string().min(1).default('./data'),
  /** A PostgreSQL server instead of the embedded database. */
  DATABASE_URL: optionalUrl(/^postgres(ql)?$/).optional(),
  /** Redis, to share events and live driver positions between server processes. */
  REDIS_URL: optionalUrl(/^rediss?$/).optional(),
  /**
   * Issue 23 point 7: an S3 bucket for uploaded files (photos, licences, documents) instead of
   * DATA_DIR/files, so several servers share them. Credentials are S3_ACCESS_KEY_ID and
   * S3_SECRET_ACCESS_KEY, or else the AWS SDK's own chain (AWS_ACCESS_KEY_ID and
   * AWS_SECRET_ACCESS_KEY, AWS_PROFILE, an instance or task role).
   */
  S3_BUCKET: z.string().trim().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'an S3 bucket name (3 to 63 lower-case letters, digits, dots and hyphens)').optional(),
  /** An S3-compatible service instead of AWS (MinIO, Ceph, R2): scheme, host and port; buckets are then addressed by path. */
  S3_ENDPOINT: optionalUrl(/^https?$/)
    .refine((value) => value === undefined || /^https?:\/\/[^/?#]+\/?$/.test(value), 'an http(s) address without a path, e.g. http://127.0.0.1:9000')
    .optional(),
  /** The bucket's region (the signature's scope); `auto` for R2. */
  S3_REGION: z.string().trim().regex(/^[a-z0-9-]{1,40}$/, 'a region name, e.g. eu-west-1').default('us-east-1'),
  /** Keys in the bucket start with this (`rideway/`), so deployments can share a bucket. */
  S3_PREFIX: z
    .string()
    .trim()
    .max(200)
    .regex(/^([A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*\/?)?$/, 'folders of letters, digits, ., _ and - (none starting with a dot), e.g. rideway/')
    .transform((value) => (value === '' || value.endsWith('/') ? value : `${value}/`))
    .default(''),
  /** The bucket's access key id, set with S3_SECRET_ACCESS_KEY; without both the AWS SDK's own chain is used. */
  S3_ACCESS_KEY_ID: z.string().trim().regex(/^[\x21-\x7e]{3,128}$/, 'an access key id (3 to 128 characters, no spaces)').optional(),
  /** The bucket's secret access key: it signs every request and is never sent or logged. */
  S3_SECRET_ACCESS_KEY: z.string().trim().regex(/^[\x21-\x7e]{8,256}$/, 'a secret access key (8 to 256 characters, no spaces)').optional(),
  /** Each call to S3 (one attempt of the SDK's three) gives up after this long. */
  S3_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /**
   * How long a shutdown (SIGTERM, SIGINT) may take: requests in flight and WebSockets get this long
   * to finish, then the process exits anyway, so a database or Redis that is gone cannot keep it up.
   */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** How long a request waits for a new PostgreSQL connection: while the server is down or restarting, requests answer 503 within this (issue 23 point 4). */
  DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  /** How long /api/health/ready waits for the database before it calls it down. */
  HEALTH_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  /**
   * Load shedding (issue 23 point 1, @fastify/under-pressure): past any of these, requests answer
   * 503 service_unavailable with Retry-After until the process recovers; 0 turns a check off. The
   * event loop's mean delay over a second, in ms; unset: 1000 on PostgreSQL, off on the embedded
   * PGlite, whose queries run on this same thread, so that its delay is the database's own work
   * and queueing it is fairer than refusing it (issue 21 point 2).
   */
  PRESSURE_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).optional(),
  /** The V8 heap in use, in MB; unset: 90% of the heap's limit (node's --max-old-space-size). */
  PRESSURE_MAX_HEAP_USED_MB: z.coerce.number().int().min(0).max(1_000_000).optional(),
  /** The process's resident memory, in MB (0: not checked). */
  PRESSURE_MAX_RSS_MB: z.coerce.number().int().min(0).max(1_000_000).default(0),
  /** The event loop's utilisation over a second, 0 to 1 (0: not checked; the embedded PGlite runs on this thread, so a busy laptop would shed at once). */
  PRESSURE_MAX_EVENT_LOOP_UTILIZATION: z.coerce.number().min(0).max(1).default(0),
  /**
   * Seed demo data (published logins, the test payment provider) into an empty database. Unset:
   * on the embedded database only, never on a real one (DATABASE_URL) unless asked (issue 23 point 3).
   */
  DEMO_DATA: flag.optional(),
  BOOTSTRAP_ADMIN_EMAIL: z.email().optional(),
  BOOTSTRAP_ADMIN_PASSWORD: z.string().min(6).optional(),
  /** The address people reach the server at, for links in emails. */
  PUBLIC_URL: optionalUrl(/^https?$/).optional(),
  /** Behind a reverse proxy, take the client address from X-Forwarded-For (throttling uses it). */
  TRUST_PROXY: flag.default(false),
  /** An SMTP server for mail (smtp:// or smtps://); without it mail stays in the outbox for admins. */
  SMTP_URL: optionalUrl(/^smtps?$/).optional(),
  MAIL_FROM: z.string().min(3).default('Rideway <no-reply@rideway.local>'),
  /**
   * Seals admins' and fleet admins' authenticator secrets at rest (AES-256-GCM): 32 bytes as 64 hex
   * digits or base64, e.g. `openssl rand -hex 32`. A secret; without it they are stored as the app holds them.
   */
  TWO_FACTOR_KEY: z
    .string()
    .trim()
    .refine((value) => /^[0-9a-f]{64}$/i.test(value) || Buffer.from(value, 'base64').length === 32, '32 bytes: 64 hex digits or base64')
    .optional(),
  /** Signs the embedded test payment provider's confirmations; random per start when unset. */
  PAYMENT_SECRET: z.string().min(16).optional(),
  /**
   * The embedded test payment provider (no card is charged) without demo data; it is also on in a
   * database the demo data was seeded into. Never in production: anyone could pay with it.
   */
  PAYMENT_TEST_PROVIDER: flag.default(false),
  /** Stripe's secret (or restricted) API key, `sk_test_...` or `sk_live_...`: turns Stripe on. A secret: sent to Stripe only, never logged. */
  STRIPE_SECRET_KEY: z.string().trim().regex(/^(sk|rk)_(test|live)_[A-Za-z0-9_]{8,}$/, 'a Stripe secret key (sk_test_..., sk_live_...)').optional(),
  /** The signing secret of Stripe's webhook endpoint (`whsec_...`), to verify its notifications. */
  STRIPE_WEBHOOK_SECRET: z.string().trim().regex(/^whsec_\S{8,}$/, 'a Stripe webhook signing secret (whsec_...)').optional(),
  /**
   * Stripe's API address instead of https://api.stripe.com (a test stand-in): scheme, host and port
   * only, since the SDK takes them as its `protocol`, `host` and `port` options.
   */
  STRIPE_API_URL: optionalUrl(/^https?$/)
    .refine((value) => value === undefined || /^https?:\/\/[^/?#]+\/?$/.test(value), 'an http(s) address without a path, e.g. http://127.0.0.1:12111')
    .optional(),
  /** Each call to a payment provider (checkout, lookup, charge, refund) gives up after this long; its outcome is then settled later. */
  PAYMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** A PayPal REST app's client id (Orders v2, docs/payments-paypal.md); PayPal is offered when it and its secret are set. */
  PAYPAL_CLIENT_ID: z.string().trim().min(1).max(200).optional(),
  /** The PayPal app's secret: sent to PayPal's token endpoint only, never logged or echoed. */
  PAYPAL_CLIENT_SECRET: z.string().trim().min(1).max(200).optional(),
  /** PayPal's sandbox (test accounts, no money moves) or live. */
  PAYPAL_ENVIRONMENT: z.enum(['sandbox', 'live']).default('sandbox'),
  /** The id PayPal gave the webhook at `<PUBLIC_URL>/api/payments/paypal/webhook`: its notifications are verified against it. */
  PAYPAL_WEBHOOK_ID: z.string().trim().regex(/^[A-Za-z0-9]{1,50}$/, "PayPal's webhook id (letters and digits)").optional(),
  /** PayPal's REST API base instead of https://api-m.(sandbox.)paypal.com: a test stand-in or a proxy. */
  PAYPAL_API_URL: optionalUrl(/^https?$/).optional(),
  /** A Braintree gateway's merchant id (docs/payments-braintree.md); Braintree is offered when it and both API keys are set. */
  BRAINTREE_MERCHANT_ID: z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/, "Braintree's merchant id (letters, digits, _ and -)").optional(),
  /** The Braintree API key pair's public key (it also names the key in webhook signatures). */
  BRAINTREE_PUBLIC_KEY: z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/, "Braintree's public key (letters, digits, _ and -)").optional(),
  /** The Braintree API key pair's private key: a secret, sent to Braintree only (Basic auth) and never logged or echoed. */
  BRAINTREE_PRIVATE_KEY: z.string().trim().regex(/^[A-Za-z0-9_-]{8,128}$/, "Braintree's private key (letters, digits, _ and -)").optional(),
  /** Braintree's sandbox (test cards, no money moves) or production. */
  BRAINTREE_ENVIRONMENT: z.enum(['sandbox', 'production']).default('sandbox'),
  /**
   * Braintree's gateway address instead of the environment's (a test stand-in): scheme, host and
   * port only, since the SDK's Environment takes a server, a port and ssl.
   */
  BRAINTREE_API_URL: optionalUrl(/^https?$/)
    .refine((value) => value === undefined || /^https?:\/\/[^/?#]+\/?$/.test(value), 'an http(s) address without a path, e.g. http://127.0.0.1:12112')
    .optional(),
  /** A Paystack account's secret key (`sk_test_...` or `sk_live_...`, docs/payments-paystack.md): turns Paystack on. It also signs Paystack's notifications. A secret: sent to Paystack only, never logged. */
  PAYSTACK_SECRET_KEY: z.string().trim().regex(/^sk_(test|live)_[A-Za-z0-9]{8,128}$/, 'a Paystack secret key (sk_test_..., sk_live_...)').optional(),
  /** Paystack's API base instead of https://api.paystack.co: a test stand-in or a proxy. */
  PAYSTACK_API_URL: optionalUrl(/^https?$/).optional(),
  /** A Flutterwave (v3) account's secret key (`FLWSECK_TEST-...` or `FLWSECK-...`, docs/payments-flutterwave.md): with the secret hash, turns Flutterwave on. A secret, never logged. */
  FLUTTERWAVE_SECRET_KEY: z.string().trim().regex(/^FLWSECK(_TEST)?-[A-Za-z0-9-]{8,200}$/, 'a Flutterwave secret key (FLWSECK_TEST-..., FLWSECK-...)').optional(),
  /** The secret hash set on Flutterwave's webhook settings: Flutterwave sends it in each notification's `verif-hash` header. A secret. */
  FLUTTERWAVE_SECRET_HASH: z.string().trim().min(16, 'at least 16 characters').max(200).optional(),
  /** Flutterwave's API base instead of https://api.flutterwave.com: a test stand-in or a proxy. */
  FLUTTERWAVE_API_URL: optionalUrl(/^https?$/).optional(),
  /** A PayFast account's merchant id (docs/payments-payfast.md); with its merchant key and passphrase, turns PayFast on. */
  PAYFAST_MERCHANT_ID: z.string().trim().regex(/^\d{1,20}$/, "PayFast's merchant id (digits)").optional(),
  /** The PayFast account's merchant key: posted in every checkout form (PayFast checks it with the id). */
  PAYFAST_MERCHANT_KEY: z.string().trim().regex(/^[A-Za-z0-9]{6,64}$/, "PayFast's merchant key (letters and digits)").optional(),
  /** The salt passphrase set on PayFast's settings page: it keys every signature (checkout and ITN). A secret, never logged; PayFast allows letters, digits, - _ and /. */
  PAYFAST_PASSPHRASE: z.string().trim().regex(/^[A-Za-z0-9_/-]{8,100}$/, 'at least 8 letters, digits, -, _ or /').optional(),
  /** PayFast's sandbox (sandbox.payfast.co.za: test buyers, no money moves) instead of www.payfast.co.za. */
  PAYFAST_SANDBOX: flag.default(false),
  /** PayFast's payment engine instead of https://www.payfast.co.za (its /eng/process form target and /eng/query/validate): a test stand-in. */
  PAYFAST_API_URL: optionalUrl(/^https?$/).optional(),
  /** A PayU Latam account's API key (docs/payments-payulatam.md): it signs the WebCheckout form and the confirmations. A secret, never logged. */
  PAYULATAM_API_KEY: z.string().trim().regex(/^[A-Za-z0-9]{8,64}$/, "PayU's API key (letters and digits)").optional(),
  /** The PayU account's API login, for its Queries and Payments APIs. A secret, never logged. */
  PAYULATAM_API_LOGIN: z.string().trim().regex(/^[A-Za-z0-9]{8,64}$/, "PayU's API login (letters and digits)").optional(),
  /** The PayU merchant's id (digits). */
  PAYULATAM_MERCHANT_ID: z.string().trim().regex(/^\d{1,12}$/, "PayU's merchant id (digits)").optional(),
  /** The PayU account (one per country) payments go to (digits); its country's currency is the one it takes. */
  PAYULATAM_ACCOUNT_ID: z.string().trim().regex(/^\d{1,12}$/, "PayU's account id (digits)").optional(),
  /** PayU's sandbox (sandbox.checkout.payulatam.com, sandbox.api.payulatam.com: test cards, no money moves). */
  PAYULATAM_TEST: flag.default(false),
  /** One base for PayU's WebCheckout (/ppp-web-gateway-payu/) and its APIs (/reports-api/..., /payments-api/...) instead of PayU's hosts: a test stand-in. */
  PAYULATAM_API_URL: optionalUrl(/^https?$/).optional(),
  /** A Mercado Pago application's access token (`TEST-...` or `APP_USR-...`, docs/payments-mercadopago.md): with the webhook secret, turns Mercado Pago on. A secret, never logged. */
  MERCADOPAGO_ACCESS_TOKEN: z.string().trim().regex(/^(TEST|APP_USR)-[A-Za-z0-9-]{8,200}$/, 'a Mercado Pago access token (TEST-..., APP_USR-...)').optional(),
  /** The secret signature of the application's Webhooks (Your integrations > Webhooks): each notification's `x-signature` is checked with it. A secret. */
  MERCADOPAGO_WEBHOOK_SECRET: z.string().trim().min(16, 'at least 16 characters').max(200).optional(),
  /** Mercado Pago's API base instead of https://api.mercadopago.com: a test stand-in or a proxy. */
  MERCADOPAGO_API_URL: optionalUrl(/^https?$/).optional(),
  /** A Culqi account's public key (`pk_test_...` or `pk_live_...`, docs/payments-culqi.md): Culqi Checkout in the browser takes the card with it. */
  CULQI_PUBLIC_KEY: z.string().trim().regex(/^pk_(test|live)_[A-Za-z0-9]{8,128}$/, 'a Culqi public key (pk_test_..., pk_live_...)').optional(),
  /** The Culqi account's secret key (`sk_test_...` or `sk_live_...`): charges, refunds and lookups. A secret, never logged. */
  CULQI_SECRET_KEY: z.string().trim().regex(/^sk_(test|live)_[A-Za-z0-9]{8,128}$/, 'a Culqi secret key (sk_test_..., sk_live_...)').optional(),
  /** Culqi's API base instead of https://api.culqi.com: a test stand-in or a proxy. */
  CULQI_API_URL: optionalUrl(/^https?$/).optional(),
  /** Culqi Checkout's browser script instead of https://checkout.culqi.com/js/v4 (another version, a test page); its origin joins the security policy. */
  CULQI_CHECKOUT_SCRIPT_URL: optionalUrl(/^https?$/).optional(),
  /** A LiqPay company's public key (`i...`, or `sandbox_i...` for its sandbox; docs/payments-liqpay.md): with the private key, turns LiqPay on. */
  LIQPAY_PUBLIC_KEY: z.string().trim().regex(/^(sandbox_)?i[0-9]{5,20}$/, 'a LiqPay public key (i..., sandbox_i...)').optional(),
  /** The LiqPay company's private key: it signs every call and LiqPay's callbacks. A secret, never sent or logged. */
  LIQPAY_PRIVATE_KEY: z.string().trim().regex(/^(sandbox_)?[A-Za-z0-9]{16,100}$/, 'a LiqPay private key (letters and digits, sandbox_... for the sandbox)').optional(),
  /** LiqPay's API base instead of https://www.liqpay.ua/api (its /request and /3/checkout): a test stand-in or a proxy. */
  LIQPAY_API_URL: optionalUrl(/^https?$/).optional(),
  /** A Paytm merchant's id (MID, docs/payments-paytm.md): with the merchant key, turns Paytm on. */
  PAYTM_MERCHANT_ID: z.string().trim().regex(/^[A-Za-z0-9]{1,30}$/, "Paytm's merchant id (letters and digits)").optional(),
  /** The Paytm merchant key: signs every call (Paytm's checksum library, AES-128) and checks Paytm's notifications. A secret, never sent or logged. */
  PAYTM_MERCHANT_KEY: z.string().regex(/^[\x21-\x7e]{16}$/, "Paytm's merchant key (16 characters)").optional(),
  /** The merchant's website name at Paytm: WEBSTAGING on the staging host, DEFAULT (when unset) or the name Paytm gave in production. */
  PAYTM_WEBSITE: z.string().trim().regex(/^[A-Za-z0-9_]{1,30}$/, "Paytm's website name (WEBSTAGING, DEFAULT, ...)").optional(),
  /** Paytm's host instead of production's https://securegw.paytm.in: https://securegw-stage.paytm.in for staging, or a test stand-in. */
  PAYTM_API_URL: optionalUrl(/^https?$/).optional(),
  /** A SecurePay (Australia Post) API client id (docs/payments-securepay.md): with its secret and the merchant code, turns SecurePay on; SecurePay's card component in the browser takes it too. */
  SECUREPAY_CLIENT_ID: z.string().trim().regex(/^[A-Za-z0-9_-]{8,100}$/, "SecurePay's client id (letters, digits, - and _)").optional(),
  /** The API client's secret: it buys the OAuth token every call carries. A secret, sent to SecurePay's token endpoint only, never logged. */
  SECUREPAY_CLIENT_SECRET: z.string().trim().regex(/^[\x21-\x7e]{16,200}$/, "SecurePay's client secret (16 to 200 characters, no spaces)").optional(),
  /** The SecurePay merchant account's code (e.g. 5AR0055): every payment and refund names it. */
  SECUREPAY_MERCHANT_CODE: z.string().trim().regex(/^[A-Za-z0-9]{3,20}$/, "SecurePay's merchant code (letters and digits)").optional(),
  /** SecurePay's sandbox (payments-stest.npe.auspost.zone, test cards, no money moves) instead of payments.auspost.net.au. */
  SECUREPAY_SANDBOX: flag.default(false),
  /** SecurePay's API base (its /v2/... calls and the card component's script) instead of the sandbox's or live one: a test stand-in. */
  SECUREPAY_API_URL: optionalUrl(/^https?$/).optional(),
  /** SecurePay's OAuth token endpoint instead of welcome.api2.(sandbox.)auspost.com.au/oauth/token: a test stand-in. */
  SECUREPAY_AUTH_URL: optionalUrl(/^https?$/).optional(),
  /** Keys in Redis start with this, so several deployments (or test runs) can share one server. */
  REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9:_-]{1,64}$/).default('rideway'),
  /** A driver who reports no position for this long drops out of availability (0: never). */
  DRIVER_TIMEOUT_S: z.coerce.number().int().min(0).max(86_400).default(300),
  /** How many of the nearest drivers each round of offers goes to. */
  OFFER_BATCH_SIZE: z.coerce.number().int().min(1).max(50).default(3),
  /** How long a round of offers waits for an accept before the next nearest drivers are asked. */
  OFFER_TIMEOUT_S: z.coerce.number().int().min(1).max(3600).default(20),
  /** A NEW booking nobody took is cancelled this long after its search started (or its tripdate). */
  NO_TAKER_CANCEL_S: z.coerce.number().int().min(10).max(86_400).default(300),
  /** A book-later booking's search starts this long before its tripdate. */
  BOOK_LATER_DISPATCH_AHEAD_S: z.coerce.number().int().min(0).max(86_400).default(600),
  /** Seconds between WebSocket pings; a client that misses one is dropped. */
  WS_HEARTBEAT_S: z.coerce.number().int().min(1).max(600).default(30),
  /** Rate limits on every write and on the WebSocket (http/rate-limits.ts): off only for load tests and benchmarks; the server warns at start. */
  RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  /** Changes to the rate limits: `name.scope=max` or `name.scope=max/window`, comma-separated (README, "Configuration"). */
  RATE_LIMIT_OVERRIDES: z
    .string()
    .default('')
    .transform((text, context) => {
      const parsed = parseRateLimitOverrides(text);
      if (!parsed.ok) context.addIssue({ code: 'custom', message: parsed.problem });
      return parsed.ok ? parsed.value : {};
    }),
  /** Web Push (VAPID) keys; generated once and kept in the database when unset. */
  VAPID_PUBLIC_KEY: z.string().min(20).optional(),
  VAPID_PRIVATE_KEY: z.string().min(20).optional(),
  VAPID_SUBJECT: z.string().regex(/^(mailto:|https:)/).default('mailto:admin@rideway.local'),
  /** Test-only: push endpoints over http or at private addresses (a local push stand-in); never in production. */
  PUSH_ALLOW_PRIVATE_ENDPOINTS_FOR_TESTS: flag.default(false),
  /**
   * Issue 19: a Firebase service account (its JSON, or the path of its JSON file) turns on phone
   * push through FCM HTTP v1 for Android and iOS tokens. A secret: never logged (docs/push.md).
   */
  FIREBASE_SERVICE_ACCOUNT: z.string().trim().min(2).optional(),
  /**
   * Expo push for `ExponentPushToken[...]` tokens (docs/push.md). Off by default, so a server
   * without a network never tries to reach Expo; EXPO_ACCESS_TOKEN or EXPO_PUSH_URL turn it on too.
   */
  EXPO_PUSH: flag.default(false),
  /** Expo's push security access token, when the Expo project requires one (docs/push.md). A secret. */
  EXPO_ACCESS_TOKEN: z.string().trim().min(8).max(200).optional(),
  /** Expo's push service instead of https://exp.host (a test stand-in): scheme, host and port only. */
  EXPO_PUSH_URL: optionalUrl(/^https?$/)
    .refine((value) => value === undefined || /^https?:\/\/[^/?#]+\/?$/.test(value), 'an http(s) address without a path, e.g. http://127.0.0.1:9100')
    .optional(),
  /** Each call to FCM or Expo gives up after this long; the message is then retried. */
  PUSH_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Issue 19, SMS by Twilio (docs/sms.md): the account SID; with the auth token and a sender, SMS leave the outbox through Twilio. */
  TWILIO_ACCOUNT_SID: z.string().trim().regex(/^AC[0-9a-fA-F]{32}$/, 'a Twilio account SID (AC and 32 hex digits)').optional(),
  /** Twilio's auth token: a secret, sent to Twilio only (Basic auth), never logged. */
  TWILIO_AUTH_TOKEN: z.string().trim().min(16).max(200).optional(),
  /** The sender: a Twilio number in E.164 form or an alphanumeric sender id. */
  TWILIO_FROM: z.string().trim().regex(/^(\+[1-9]\d{4,14}|[A-Za-z0-9 ]{1,11})$/, 'an E.164 number (+15551234567) or an alphanumeric sender id (11 characters at most)').optional(),
  /** A Twilio Messaging Service that picks the sender (instead of TWILIO_FROM). */
  TWILIO_MESSAGING_SERVICE_SID: z.string().trim().regex(/^MG[0-9a-fA-F]{32}$/, 'a Messaging Service SID (MG and 32 hex digits)').optional(),
  /** Twilio's API address instead of https://api.twilio.com (a test stand-in or a proxy). */
  TWILIO_API_URL: optionalUrl(/^https?$/).optional(),
  /** Issue 19, a generic HTTP SMS gateway (docs/sms.md): its URL; `{to}` and `{text}` are replaced in it. */
  SMS_GATEWAY_URL: optionalUrl(/^https?$/).optional(),
  SMS_GATEWAY_METHOD: z.enum(['GET', 'POST', 'PUT']).default('POST'),
  /** The gateway's headers as a JSON object of strings (an API key goes here: a secret, never logged). */
  SMS_GATEWAY_HEADERS: z
    .string()
    .default('{}')
    .transform((text, context) => {
      try {
        const value: unknown = JSON.parse(text === '' ? '{}' : text);
        if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((item) => typeof item === 'string')) {
          return value as Record<string, string>;
        }
      } catch {
        // Reported below.
      }
      context.addIssue({ code: 'custom', message: 'a JSON object of header names to string values, e.g. {"Authorization":"Bearer ..."}' });
      return {};
    }),
  /** The gateway's body template with `{to}` and `{text}`, escaped for its content type (JSON or form). */
  SMS_GATEWAY_BODY: z.string().optional(),
  /** Each call to the SMS provider gives up after this long; the message is then retried. */
  SMS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** A Facebook app, for sign-in with Facebook when the FacebookLoginEnabled setting is on. */
  FACEBOOK_APP_ID: z.string().regex(/^\d{1,30}$/).optional(),
  FACEBOOK_APP_SECRET: z.string().min(16).optional(),
  /** Facebook's Graph API and login dialog; other addresses serve tests and proxies. */
  FACEBOOK_GRAPH_URL: z.url({ protocol: /^https?$/ }).default('https://graph.facebook.com/v21.0'),
  FACEBOOK_DIALOG_URL: z.url({ protocol: /^https?$/ }).default('https://www.facebook.com/v21.0/dialog/oauth'),
  /** Issue 20: a Google OAuth client (web application), for sign-in with Google when the GoogleLoginEnabled setting is on. */
  GOOGLE_CLIENT_ID: z.string().trim().min(1).max(300).optional(),
  /** The Google client's secret: sent to Google's token endpoint only, never logged. */
  GOOGLE_CLIENT_SECRET: z.string().trim().min(1).max(300).optional(),
  /** Google's OpenID issuer (discovery at `<issuer>/.well-known/openid-configuration`); another address serves tests. */
  GOOGLE_ISSUER: z.url({ protocol: /^https?$/ }).default('https://accounts.google.com'),
  /** Issue 20: a Sign in with Apple Services ID, for sign-in with Apple when the AppleLoginEnabled setting is on. */
  APPLE_CLIENT_ID: z.string().trim().min(1).max(300).optional(),
  /** The Apple developer team id: the issuer of the client-secret JWT. */
  APPLE_TEAM_ID: z.string().trim().regex(/^[A-Za-z0-9]{1,20}$/, 'an Apple team id (letters and digits)').optional(),
  /** The id of the Sign in with Apple key (the JWT's `kid`). */
  APPLE_KEY_ID: z.string().trim().regex(/^[A-Za-z0-9]{1,20}$/, 'an Apple key id (letters and digits)').optional(),
  /** That key's private key (PKCS#8 PEM, the .p8 file; `\\n` for line breaks allowed). A secret: never logged. */
  APPLE_PRIVATE_KEY: z
    .string()
    .transform((value) => value.replace(/\\n/g, '\n').trim())
    .pipe(z.string().regex(/^-----BEGIN PRIVATE KEY-----[\s\S]+-----END PRIVATE KEY-----$/, 'a PKCS#8 PEM private key (-----BEGIN PRIVATE KEY----- ...)'))
    .optional(),
  /** Apple's OpenID issuer (and the client secret's audience); another address serves tests. */
  APPLE_ISSUER: z.url({ protocol: /^https?$/ }).default('https://appleid.apple.com'),
  /** Each call to Google or Apple (discovery, keys, token) gives up after this long: the sign-in then fails with login_error. */
  SOCIAL_SIGN_IN_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** The map tiles every map shows: a `{z}/{x}/{y}` URL template (`{s}` for a subdomain). */
  MAP_TILE_URL: z
    .string()
    .regex(/^https?:\/\/[^/\s]+\/\S*\{z\}\S*\{x\}\S*\{y\}/, 'an http(s) URL template with {z}, {x} and {y}')
    .default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  /** The tiles' attribution, shown on every map (HTML, as the tile provider words it). */
  MAP_TILE_ATTRIBUTION: z.string().min(1).max(500).default('&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors'),
  /** Where routes, addresses and place search come from: the embedded gazetteer, OSRM + Nominatim (+ Photon), or Google. */
  MAPS_PROVIDER: z.enum(['offline', 'osm', 'google']).default('offline'),
  /** An OSRM server (osrm-routed, HTTP API v5) for MAPS_PROVIDER=osm. */
  OSRM_URL: optionalUrl(/^https?$/).optional(),
  /** A Nominatim server for MAPS_PROVIDER=osm. */
  NOMINATIM_URL: optionalUrl(/^https?$/).optional(),
  /** A Photon server for type-ahead with MAPS_PROVIDER=osm; Nominatim's search without it. */
  PHOTON_URL: optionalUrl(/^https?$/).optional(),
  /** Each call to a maps provider gives up after this long (the answer then carries the call's spec key). */
  MAPS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(4000),
  /** A maps provider's answers are kept this long in memory (0: not kept). */
  MAPS_CACHE_S: z.coerce.number().int().min(0).max(86_400).default(300),
  /** The User-Agent sent to maps providers (Nominatim's policy: name the application); Rideway and PUBLIC_URL by default. */
  MAPS_USER_AGENT: z.string().trim().min(3).max(200).optional(),
  /** A Google Maps Platform API key for MAPS_PROVIDER=google (Routes API, Places API (New), Geocoding API). A secret: sent to Google only, never logged. */
  GOOGLE_MAPS_API_KEY: z.string().trim().regex(/^[\w-]{8,200}$/, 'a Google API key (letters, digits, _ and -)').optional(),
  /** One address for all of Google's maps services instead of theirs (a test stand-in or a proxy); the per-service ones below win. */
  GOOGLE_MAPS_API_URL: googleBase,
  /** Where the Routes API (computeRoutes, computeRouteMatrix) is asked; https://routes.googleapis.com by default. */
  GOOGLE_ROUTES_API_URL: googleBase,
  /** Where Places API (New) (autocomplete, place details) is asked; https://places.googleapis.com by default. */
  GOOGLE_PLACES_API_URL: googleBase,
  /** Where the Geocoding API (reverse geocoding) is asked; https://maps.googleapis.com by default. */
  GOOGLE_GEOCODING_API_URL: googleBase,
  /**
   * A browser key for Google's map tiles (Map Tiles API) with MAPS_PROVIDER=google: it is in every
   * tile URL the web loads, so restrict it by HTTP referrer, to that API only. Without it the maps draw MAP_TILE_URL.
   */
  GOOGLE_MAP_TILES_API_KEY: z.string().trim().regex(/^[\w-]{8,200}$/, 'a Google API key (letters, digits, _ and -)').optional(),
  /** Where the Map Tiles API is asked, and the tiles loaded from; https://tile.googleapis.com by default. */
  GOOGLE_MAP_TILES_URL: googleBase,
  /** The language of the Google map's labels (an IETF tag). */
  GOOGLE_MAP_TILES_LANGUAGE: z.string().trim().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/, 'an IETF language tag, e.g. en-US').default('en-US'),
  /** The region whose borders and names the Google map shows (a CLDR region code). */
  GOOGLE_MAP_TILES_REGION: z.string().trim().regex(/^[A-Za-z]{2}$/, 'a two-letter region code, e.g. US').default('US'),
  /**
   * Issue 23 point 2: GET /metrics (Prometheus) on the main server, answered only to
   * `Authorization: Bearer <this token>`. A secret: 32 to 256 characters, e.g. `openssl rand -hex 32`.
   * Without it and without METRICS_PORT there is no /metrics at all.
   */
  METRICS_TOKEN: z.string().trim().regex(/^[\x21-\x7e]{32,256}$/, '32 to 256 characters without spaces, e.g. openssl rand -hex 32').optional(),
  /** A listener of its own serving only /metrics (the token too when METRICS_TOKEN is set), for a scraper on a private network; 0 picks a free port. */
  METRICS_PORT: z
    .string()
    .trim()
    .transform((value) => (value === '' ? undefined : Number(value)))
    .pipe(z.number().int().min(0).max(65535).optional())
    .optional(),
  /** The address the METRICS_PORT listener binds: the loopback unless the operator names a private one. */
  METRICS_HOST: z.string().trim().min(1).default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Issue 23 point 2: an OpenTelemetry collector's OTLP/HTTP address (e.g. http://otel-collector:4318):
   * traces are sent to its /v1/traces (telemetry/tracing.ts). Without it (or the traces-only
   * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, used as given) nothing of OpenTelemetry is loaded. The SDK
   * reads the other standard OTEL_* variables itself (docs/operations.md).
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl(/^https?$/).optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalUrl(/^https?$/).optional(),
  /** The standard switch: `true` turns tracing off even with an endpoint set. */
  OTEL_SDK_DISABLED: z.string().trim().transform((value) => value.toLowerCase() === 'true').optional(),
}).superRefine((config, context) => {
  // Files on S3 (issue 23 point 7): its settings mean nothing without the bucket; a key pair goes together.
  if (Boolean(config.S3_ACCESS_KEY_ID) !== Boolean(config.S3_SECRET_ACCESS_KEY)) {
    context.addIssue({ code: 'custom', path: [config.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'], message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together' });
  }
  for (const name of ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID'] as const) {
    if (config[name] && !config.S3_BUCKET) context.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: `required with ${name}` });
  }
  // The osm maps provider needs its routing and geocoding servers.
  if (config.MAPS_PROVIDER === 'osm') {
    for (const name of ['OSRM_URL', 'NOMINATIM_URL'] as const) {
      if (!config[name]) context.addIssue({ code: 'custom', path: [name], message: 'required when MAPS_PROVIDER=osm' });
    }
  }
  // PayPal needs its app's id and secret together, and the webhook id its notifications are verified with.
  if (config.PAYPAL_CLIENT_ID || config.PAYPAL_CLIENT_SECRET) {
    for (const name of ['PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET', 'PAYPAL_WEBHOOK_ID'] as const) {
      if (!config[name]) context.addIssue({ code: 'custom', path: [name], message: 'required with PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET' });
    }
  }
  // Braintree needs its merchant id and both halves of the API key pair together.
  if (config.BRAINTREE_MERCHANT_ID || config.BRAINTREE_PUBLIC_KEY || config.BRAINTREE_PRIVATE_KEY) {
    for (const name of ['BRAINTREE_MERCHANT_ID', 'BRAINTREE_PUBLIC_KEY', 'BRAINTREE_PRIVATE_KEY'] as const) {
      if (!config[name]) context.addIssue({ code: 'custom', path: [name], message: 'BRAINTREE_MERCHANT_ID, BRAINTREE_PUBLIC_KEY and BRAINTREE_PRIVATE_KEY are set together' });
    }
  }
  // Stripe takes money only with a way to hear of it: the key and the webhook secret go together.
  if (Boolean(config.STRIPE_SECRET_KEY) !== Boolean(config.STRIPE_WEBHOOK_SECRET)) {
    const missing = config.STRIPE_SECRET_KEY ? 'STRIPE_WEBHOOK_SECRET' : 'STRIPE_SECRET_KEY';
    context.addIssue({ code: 'custom', path: [missing], message: 'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set together' });
  }
  // Paystack's and Flutterwave's API overrides mean nothing without their keys; Flutterwave takes money only with a way to verify its notifications.
  if (config.PAYSTACK_API_URL && !config.PAYSTACK_SECRET_KEY) context.addIssue({ code: 'custom', path: ['PAYSTACK_SECRET_KEY'], message: 'required with PAYSTACK_API_URL' });
  if (Boolean(config.FLUTTERWAVE_SECRET_KEY) !== Boolean(config.FLUTTERWAVE_SECRET_HASH)) {
    const missing = config.FLUTTERWAVE_SECRET_KEY ? 'FLUTTERWAVE_SECRET_HASH' : 'FLUTTERWAVE_SECRET_KEY';
    context.addIssue({ code: 'custom', path: [missing], message: 'FLUTTERWAVE_SECRET_KEY and FLUTTERWAVE_SECRET_HASH are set together' });
  }
  if (config.FLUTTERWAVE_API_URL && !config.FLUTTERWAVE_SECRET_KEY) context.addIssue({ code: 'custom', path: ['FLUTTERWAVE_SECRET_KEY'], message: 'required with FLUTTERWAVE_API_URL' });
  // PayFast's id, key and passphrase go together: without the passphrase its signatures would be anyone's to make.
  if (config.PAYFAST_MERCHANT_ID || config.PAYFAST_MERCHANT_KEY || config.PAYFAST_PASSPHRASE || config.PAYFAST_API_URL) {
    for (const name of ['PAYFAST_MERCHANT_ID', 'PAYFAST_MERCHANT_KEY', 'PAYFAST_PASSPHRASE'] as const) {
      if (!config[name]) context.addIssue({ code: 'custom', path: [name], message: 'PAYFAST_MERCHANT_ID, PAYFAST_MERCHANT_KEY and PAYFAST_PASSPHRASE are set together' });
    }
  }
  // PayU Latam needs its four identifiers together (the key signs, the login queries, the merchant and account receive).
  if (config.PAYULATAM_API_KEY || config.PAYULATAM_API_LOGIN || config.PAYULATAM_MERCHANT_ID || config.PAYULATAM_ACCOUNT_ID || config.PAYULATAM_API_URL) {
    for (const name of ['PAYULATAM_API_KEY', 'PAYULATAM_API_LOGIN', 'PAYULATAM_MERCHANT_ID', 'PAYULATAM_ACCOUNT_ID'] as const) {
      if (!config[name]) context.addIssue({ code: 'custom', path: [name], message: 'PAYULATAM_API_KEY, PAYULATAM_API_LOGIN, PAYULATAM_MERCHANT_ID and PAYULATAM_ACCOUNT_ID are set together' });
    }
  }
  // Mercado Pago takes money only with a way to verify its notifications; Culqi's browser widget and its server calls need both keys.
  if (Boolean(config.MERCADOPAGO_ACCESS_TOKEN) !== Boolean(config.MERCADOPAGO_WEBHOOK_SECRET)) {
    const missing = config.MERCADOPAGO_ACCESS_TOKEN ? 'MERCADOPAGO_WEBHOOK_SECRET' : 'MERCADOPAGO_ACCESS_TOKEN';
    context.addIssue({ code: 'custom', path: [missing], message: 'MERCADOPAGO_ACCESS_TOKEN and MERCADOPAGO_WEBHOOK_SECRET are set together' });
  }
  if (config.MERCADOPAGO_API_URL && !config.MERCADOPAGO_ACCESS_TOKEN) context.addIssue({ code: 'custom', path: ['MERCADOPAGO_ACCESS_TOKEN'], message: 'required with MERCADOPAGO_API_URL' });
  if (Boolean(config.CULQI_PUBLIC_KEY) !== Boolean(config.CULQI_SECRET_KEY)) {
    const missing = config.CULQI_PUBLIC_KEY ? 'CULQI_SECRET_KEY' : 'CULQI_PUBLIC_KEY';
    context.addIssue({ code: 'custom', path: [missing], message: 'CULQI_PUBLIC_KEY and CULQI_SECRET_KEY are set together' });
  }
  if (config.CULQI_PUBLIC_KEY && config.CULQI_SECRET_KEY && config.CULQI_PUBLIC_KEY.startsWith('pk_test_') !== config.CULQI_SECRET_KEY.startsWith('sk_test_')) {
    context.addIssue({ code: 'custom', path: ['CULQI_PUBLIC_KEY'], message: 'CULQI_PUBLIC_KEY and CULQI_SECRET_KEY are both test keys or both live keys' });
  }
  for (const name of ['CULQI_API_URL', 'CULQI_CHECKOUT_SCRIPT_URL'] as const) {
    if (config[name] && !config.CULQI_SECRET_KEY) context.addIssue({ code: 'custom', path: ['CULQI_SECRET_KEY'], message: `required with ${name}` });
  }
  // LiqPay signs with the private key what the public key names: both together, both sandbox or both live.
  if (Boolean(config.LIQPAY_PUBLIC_KEY) !== Boolean(config.LIQPAY_PRIVATE_KEY)) {
    const missing = config.LIQPAY_PUBLIC_KEY ? 'LIQPAY_PRIVATE_KEY' : 'LIQPAY_PUBLIC_KEY';
    context.addIssue({ code: 'custom', path: [missing], message: 'LIQPAY_PUBLIC_KEY and LIQPAY_PRIVATE_KEY are set together' });
  }
  if (config.LIQPAY_PUBLIC_KEY && config.LIQPAY_PRIVATE_KEY && config.LIQPAY_PUBLIC_KEY.startsWith('sandbox_') !== config.LIQPAY_PRIVATE_KEY.startsWith('sandbox_')) {
    context.addIssue({ code: 'custom', path: ['LIQPAY_PRIVATE_KEY'], message: 'LIQPAY_PUBLIC_KEY and LIQPAY_PRIVATE_KEY are both sandbox keys or both live keys' });
  }
  if (config.LIQPAY_API_URL && !config.LIQPAY_PUBLIC_KEY) context.addIssue({ code: 'custom', path: ['LIQPAY_PUBLIC_KEY'], message: 'required with LIQPAY_API_URL' });
  // Paytm signs every call with the merchant key of its MID; a staging website needs Paytm's staging host.
  if (Boolean(config.PAYTM_MERCHANT_ID) !== Boolean(config.PAYTM_MERCHANT_KEY)) {
    const missing = config.PAYTM_MERCHANT_ID ? 'PAYTM_MERCHANT_KEY' : 'PAYTM_MERCHANT_ID';
    context.addIssue({ code: 'custom', path: [missing], message: 'PAYTM_MERCHANT_ID and PAYTM_MERCHANT_KEY are set together' });
  }
  if (config.PAYTM_API_URL && !config.PAYTM_MERCHANT_ID) context.addIssue({ code: 'custom', path: ['PAYTM_MERCHANT_ID'], message: 'required with PAYTM_API_URL' });
  if (config.PAYTM_MERCHANT_ID && config.PAYTM_WEBSITE === 'WEBSTAGING' && !config.PAYTM_API_URL) {
    context.addIssue({ code: 'custom', path: ['PAYTM_API_URL'], message: 'PAYTM_WEBSITE=WEBSTAGING is Paytm staging: set PAYTM_API_URL=https://securegw-stage.paytm.in' });
  }
  // SecurePay's client id, secret and merchant code go together (the token, then every call); its overrides mean nothing without them.
  if (config.SECUREPAY_CLIENT_ID || config.SECUREPAY_CLIENT_SECRET || config.SECUREPAY_MERCHANT_CODE || config.SECUREPAY_API_URL || config.SECUREPAY_AUTH_URL) {
    for (const name of ['SECUREPAY_CLIENT_ID', 'SECUREPAY_CLIENT_SECRET', 'SECUREPAY_MERCHANT_CODE'] as const) {
      if (!config[name]) context.addIssue({ code: 'custom', path: [name], message: 'SECUREPAY_CLIENT_ID, SECUREPAY_CLIENT_SECRET and SECUREPAY_MERCHANT_CODE are set together' });
    }
  }
  // Twilio needs its account, its token and a sender; one SMS provider at a time.
  if (config.TWILIO_ACCOUNT_SID || config.TWILIO_AUTH_TOKEN) {
    for (const name of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN'] as const) {
      if (!config[name]) context.addIssue({ code: 'custom', path: [name], message: 'TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are set together' });
    }
    if (!config.TWILIO_FROM && !config.TWILIO_MESSAGING_SERVICE_SID) {
      context.addIssue({ code: 'custom', path: ['TWILIO_FROM'], message: 'TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID is required with TWILIO_ACCOUNT_SID' });
    }
    if (config.SMS_GATEWAY_URL) context.addIssue({ code: 'custom', path: ['SMS_GATEWAY_URL'], message: 'one SMS provider at a time: Twilio or SMS_GATEWAY_URL' });
  }
  // Google sign-in needs the client's id and secret together; Apple's client secret is signed with all four.
  if (Boolean(config.GOOGLE_CLIENT_ID) !== Boolean(config.GOOGLE_CLIENT_SECRET)) {
    context.addIssue({ code: 'custom', path: [config.GOOGLE_CLIENT_ID ? 'GOOGLE_CLIENT_SECRET' : 'GOOGLE_CLIENT_ID'], message: 'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set together' });
  }
  if (config.APPLE_CLIENT_ID || config.APPLE_TEAM_ID || config.APPLE_KEY_ID || config.APPLE_PRIVATE_KEY) {
    for (const name of ['APPLE_CLIENT_ID', 'APPLE_TEAM_ID', 'APPLE_KEY_ID', 'APPLE_PRIVATE_KEY'] as const) {
      if (!config[name]) context.addIssue({ code: 'custom', path: [name], message: 'APPLE_CLIENT_ID, APPLE_TEAM_ID, APPLE_KEY_ID and APPLE_PRIVATE_KEY are set together' });
    }
  }
  // The google maps provider needs its key.
  if (config.MAPS_PROVIDER === 'google' && !config.GOOGLE_MAPS_API_KEY) {
    context.addIssue({ code: 'custom', path: ['GOOGLE_MAPS_API_KEY'], message: 'required when MAPS_PROVIDER=google' });
  }
});
export type Config = Omit<z.infer<typeof configSchema>, 'DEMO_DATA'> & { DEMO_DATA: boolean };

/** Parses the environment, or throws one error naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Bad configuration: ${problems}`);
  }
  return { ...parsed.data, DEMO_DATA: parsed.data.DEMO_DATA ?? !parsed.data.DATABASE_URL };
}

/** Whether traces are sent (issue 23 point 2): a collector's address is set and the SDK is not switched off. */
export const isTracingOn = (config: Config): boolean => Boolean(config.OTEL_EXPORTER_OTLP_ENDPOINT ?? config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) && config.OTEL_SDK_DISABLED !== true;

export type ConfigProblem = { variable: string; problem: string; severity: 'error' | 'warning' };

/**
 * What a configuration that parses still lacks for what it enables (issue 23 point 3): `error`s
 * stop the server at start, `warning`s are logged; `npm run check-config` prints both. A real
 * database or Redis means production, or several processes sharing one database: there a secret
 * made at random per process would differ between them (the test provider's signed confirmations
 * of one process refused by another), and authenticator secrets must be sealed at rest.
 */
export function configProblems(config: Config, env: Record<string, string | undefined> = process.env): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const shared = config.DATABASE_URL ? 'a real database (DATABASE_URL)' : config.REDIS_URL ? 'several processes (REDIS_URL)' : undefined;
  if (shared) {
    if (!config.PAYMENT_SECRET) problems.push({ variable: 'PAYMENT_SECRET', severity: 'error', problem: `required with ${shared}: every process must sign payment confirmations with the same secret (at least 16 characters, e.g. openssl rand -hex 32)` });
    if (!config.TWO_FACTOR_KEY) problems.push({ variable: 'TWO_FACTOR_KEY', severity: 'error', problem: `required with ${shared}: it seals admins' authenticator secrets at rest (openssl rand -hex 32)` });
  }
  if (config.DATABASE_URL && config.DEMO_DATA) problems.push({ variable: 'DEMO_DATA', severity: 'warning', problem: 'demo data with published logins (password demo123) and the test payment provider will be seeded into an empty real database' });
  if (config.DATABASE_URL && config.PAYMENT_TEST_PROVIDER) problems.push({ variable: 'PAYMENT_TEST_PROVIDER', severity: 'warning', problem: 'the test payment provider confirms payments without charging a card: never in production' });
  if (env.RATE_LIMITS === 'off') problems.push({ variable: 'RATE_LIMITS', severity: 'warning', problem: 'every rate limit is off: for load tests only' });
  const needsPublicUrl = [
    config.SMTP_URL && 'mail (SMTP_URL) links',
    (config.GOOGLE_CLIENT_ID || config.APPLE_CLIENT_ID || config.FACEBOOK_APP_ID) && 'social sign-in return addresses',
    (config.STRIPE_SECRET_KEY || config.PAYPAL_CLIENT_ID || config.BRAINTREE_MERCHANT_ID || config.PAYSTACK_SECRET_KEY || config.FLUTTERWAVE_SECRET_KEY || config.PAYFAST_MERCHANT_ID || config.PAYULATAM_API_KEY || config.LIQPAY_PUBLIC_KEY || config.MERCADOPAGO_ACCESS_TOKEN || config.CULQI_SECRET_KEY || config.PAYTM_MERCHANT_ID) && "payment providers' return and notification addresses",
  ].filter(Boolean);
  if (!config.PUBLIC_URL && needsPublicUrl.length > 0) problems.push({ variable: 'PUBLIC_URL', severity: 'warning', problem: `the address people reach the server at is needed for ${needsPublicUrl.join(', ')}` });
  if (config.PUBLIC_URL?.startsWith('https:') === false && needsPublicUrl.length > 0) problems.push({ variable: 'PUBLIC_URL', severity: 'warning', problem: 'payment providers and Apple send people back only to https addresses' });
  if (config.METRICS_PORT !== undefined && !['127.0.0.1', 'localhost', '::1'].includes(config.METRICS_HOST) && !config.METRICS_TOKEN) problems.push({ variable: 'METRICS_TOKEN', severity: 'warning', problem: `the metrics listener binds ${config.METRICS_HOST} with no token: anyone who reaches that address reads the metrics` });
  // The traces leave as OTLP/HTTP with JSON bodies (the exporter this server ships): a gRPC or protobuf setting is not honoured.
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL;
  if (isTracingOn(config) && protocol !== undefined && protocol !== '' && protocol !== 'http/json') problems.push({ variable: env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL === undefined ? 'OTEL_EXPORTER_OTLP_PROTOCOL' : 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', severity: 'warning', problem: `${protocol} is not used: traces are sent as OTLP/HTTP with JSON bodies (http/json), to the collector's HTTP port (4318 by default)` });
  if (isTracingOn(config) && new URL(config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? config.OTEL_EXPORTER_OTLP_ENDPOINT ?? 'http://x').port === '4317') problems.push({ variable: config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT', severity: 'warning', problem: "port 4317 is OTLP/gRPC's; traces are sent as OTLP/HTTP, which collectors take on 4318" });
  if (config.HOST !== '127.0.0.1' && config.HOST !== 'localhost' && !config.TRUST_PROXY) problems.push({ variable: 'TRUST_PROXY', severity: 'warning', problem: `the server listens on ${config.HOST}: behind a reverse proxy set TRUST_PROXY=1, or every client shares the proxy's rate limits` });
  return problems;
}
