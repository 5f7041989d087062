import { describe, expect, it } from 'vitest';
import { configProblems, loadConfig } from './config';

describe('configuration', () => {
  it('runs with no environment at all, on embedded defaults', () => {
    expect(loadConfig({})).toEqual({
      PORT: 3000,
      SHUTDOWN_GRACE_MS: 10_000,
      HOST: '127.0.0.1',
      DATA_DIR: './data',
      DEMO_DATA: true,
      TRUST_PROXY: false,
      MAIL_FROM: 'Rideway <no-reply@rideway.local>',
      LOG_LEVEL: 'info',
      REDIS_PREFIX: 'rideway',
      DRIVER_TIMEOUT_S: 300,
      OFFER_BATCH_SIZE: 3,
      OFFER_TIMEOUT_S: 20,
      NO_TAKER_CANCEL_S: 300,
      BOOK_LATER_DISPATCH_AHEAD_S: 600,
      WS_HEARTBEAT_S: 30,
      VAPID_SUBJECT: 'mailto:admin@rideway.local',
      FACEBOOK_GRAPH_URL: 'https://graph.facebook.com/v21.0',
      FACEBOOK_DIALOG_URL: 'https://www.facebook.com/v21.0/dialog/oauth',
      GOOGLE_ISSUER: 'https://accounts.google.com',
      APPLE_ISSUER: 'https://appleid.apple.com',
      SOCIAL_SIGN_IN_TIMEOUT_MS: 10_000,
      MAP_TILE_URL: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      MAP_TILE_ATTRIBUTION: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
      PUSH_ALLOW_PRIVATE_ENDPOINTS_FOR_TESTS: false,
      EXPO_PUSH: false,
      PUSH_TIMEOUT_MS: 10_000,
      SMS_GATEWAY_METHOD: 'POST',
      SMS_GATEWAY_HEADERS: {},
      SMS_TIMEOUT_MS: 10_000,
      MAPS_PROVIDER: 'offline',
      MAPS_TIMEOUT_MS: 4000,
      MAPS_CACHE_S: 300,
      GOOGLE_MAP_TILES_LANGUAGE: 'en-US',
      GOOGLE_MAP_TILES_REGION: 'US',
      RATE_LIMITS: 'on',
      RATE_LIMIT_OVERRIDES: {},
      PAYMENT_TEST_PROVIDER: false,
      PAYMENT_TIMEOUT_MS: 15000,
      PAYPAL_ENVIRONMENT: 'sandbox',
      BRAINTREE_ENVIRONMENT: 'sandbox',
      PAYFAST_SANDBOX: false,
      PAYULATAM_TEST: false,
      SECUREPAY_SANDBOX: false,
      DB_CONNECT_TIMEOUT_MS: 5000,
      HEALTH_TIMEOUT_MS: 2000,
      PRESSURE_MAX_EVENT_LOOP_UTILIZATION: 0,
      PRESSURE_MAX_RSS_MB: 0,
      METRICS_HOST: '127.0.0.1',
      S3_PREFIX: '',
      S3_REGION: 'us-east-1',
      S3_TIMEOUT_MS: 10_000,
    });
  });

  it('seeds demo data on the embedded database only, unless asked (issue 23 point 3)', () => {
    expect(loadConfig({}).DEMO_DATA).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://db.internal/rideway' }).DEMO_DATA).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://db.internal/rideway', DEMO_DATA: '1' }).DEMO_DATA).toBe(true);
    expect(loadConfig({ DEMO_DATA: '0' }).DEMO_DATA).toBe(false);
  });

  it('requires the shared secrets with a real database or Redis, and warns of what an enabled part lacks (issue 23 point 3)', () => {
    const errors = (env: Record<string, string>) => configProblems(loadConfig(env), env).filter((problem) => problem.severity === 'error').map((problem) => problem.variable);
    const warnings = (env: Record<string, string>) => configProblems(loadConfig(env), env).filter((problem) => problem.severity === 'warning').map((problem) => problem.variable);
    // A laptop: nothing to say.
    expect(configProblems(loadConfig({}), {})).toEqual([]);
    for (const shared of [{ DATABASE_URL: 'postgres://db.internal/rideway' }, { REDIS_URL: 'redis://cache.internal:6379' }] as Record<string, string>[]) {
      expect(errors(shared)).toEqual(['PAYMENT_SECRET', 'TWO_FACTOR_KEY']);
      expect(errors({ ...shared, PAYMENT_SECRET: 'a-long-enough-secret-1234', TWO_FACTOR_KEY: 'ab'.repeat(32) })).toEqual([]);
    }
    const production = { DATABASE_URL: 'postgres://db.internal/rideway', PAYMENT_SECRET: 'a-long-enough-secret-1234', TWO_FACTOR_KEY: 'ab'.repeat(32) };
    expect(warnings({ ...production, DEMO_DATA: '1', PAYMENT_TEST_PROVIDER: '1', RATE_LIMITS: 'off' })).toEqual(['DEMO_DATA', 'PAYMENT_TEST_PROVIDER', 'RATE_LIMITS']);
    // Mail links, social sign-in and payment providers need the public address, over https for payments.
    expect(warnings({ ...production, SMTP_URL: 'smtp://mail.internal:587' })).toEqual(['PUBLIC_URL']);
    expect(warnings({ ...production, PAYSTACK_SECRET_KEY: 'sk_test_0123456789abcdef', PUBLIC_URL: 'http://rides.example.com' })).toEqual(['PUBLIC_URL']);
    expect(warnings({ ...production, PAYSTACK_SECRET_KEY: 'sk_test_0123456789abcdef', PUBLIC_URL: 'https://rides.example.com' })).toEqual([]);
    expect(warnings({ ...production, HOST: '0.0.0.0' })).toEqual(['TRUST_PROXY']);
    // A problem names the variable and what is wrong, never a value: the environment holds secrets.
    const told = JSON.stringify(configProblems(loadConfig({ DATABASE_URL: 'postgres://user:hunter2@db.internal/rideway' }), {}));
    expect(told).not.toContain('hunter2');
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/rideway',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
      REDIS_URL: 'redis://127.0.0.1:6379',
      DEMO_DATA: '0',
      BOOTSTRAP_ADMIN_EMAIL: 'boss@example.com',
      BOOTSTRAP_ADMIN_PASSWORD: 'secret1',
      PUBLIC_URL: 'https://rideway.example',
    });
    expect(config).toMatchObject({ PORT: 8080, DEMO_DATA: false, DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' });
  });

  it('treats an empty URL as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', REDIS_URL: ' ' }).DATABASE_URL).toBeUndefined();
  });

  it('keeps rate limits on unless RATE_LIMITS=off, and reads changes to them', () => {
    expect(loadConfig({ RATE_LIMITS: 'off' }).RATE_LIMITS).toBe('off');
    expect(() => loadConfig({ RATE_LIMITS: 'no' })).toThrow(/RATE_LIMITS/);
    expect(loadConfig({ RATE_LIMIT_OVERRIDES: 'signup.address=5/1h, chat.user=60,open-sockets.user=3' }).RATE_LIMIT_OVERRIDES).toEqual({
      signup: { address: { max: 5, windowMs: 3_600_000 } },
      chat: { user: { max: 60, windowMs: 60_000 } },
      'open-sockets': { user: { max: 3, windowMs: 0 } },
    });
    for (const bad of ['signup=5', 'sign-up.address=5', 'signup.user=5', 'chat.user=0', 'chat.user=5/0s', 'open-sockets.user=3/1m', 'chat.user=5/1y']) {
      expect(() => loadConfig({ RATE_LIMIT_OVERRIDES: bad }), bad).toThrow(/RATE_LIMIT_OVERRIDES/);
    }
  });

  it('runs the osm maps provider only with its OSRM and Nominatim servers', () => {
    expect(() => loadConfig({ MAPS_PROVIDER: 'osm' })).toThrow(/OSRM_URL: required when MAPS_PROVIDER=osm; NOMINATIM_URL: required/);
    expect(() => loadConfig({ MAPS_PROVIDER: 'osm', OSRM_URL: 'http://127.0.0.1:5000' })).toThrow(/NOMINATIM_URL/);
    const config = loadConfig({ MAPS_PROVIDER: 'osm', OSRM_URL: 'http://127.0.0.1:5000', NOMINATIM_URL: 'https://nominatim.example/', PHOTON_URL: '', MAPS_TIMEOUT_MS: '2500', MAPS_CACHE_S: '0' });
    expect(config).toMatchObject({ MAPS_PROVIDER: 'osm', MAPS_TIMEOUT_MS: 2500, MAPS_CACHE_S: 0 });
    expect(config.PHOTON_URL).toBeUndefined();
    expect(() => loadConfig({ MAPS_PROVIDER: 'here', OSRM_URL: 'ftp://x', MAPS_TIMEOUT_MS: '0' })).toThrow(/MAPS_PROVIDER.*OSRM_URL.*MAPS_TIMEOUT_MS/);
  });

  it('takes a TWO_FACTOR_KEY of 32 bytes only, and a bounded SHUTDOWN_GRACE_MS', () => {
    expect(loadConfig({ TWO_FACTOR_KEY: 'ab'.repeat(32) }).TWO_FACTOR_KEY).toBe('ab'.repeat(32));
    expect(loadConfig({ TWO_FACTOR_KEY: Buffer.alloc(32, 7).toString('base64') }).TWO_FACTOR_KEY).toBeDefined();
    expect(() => loadConfig({ TWO_FACTOR_KEY: 'too-short' })).toThrow(/TWO_FACTOR_KEY/);
    expect(loadConfig({ SHUTDOWN_GRACE_MS: '2500' }).SHUTDOWN_GRACE_MS).toBe(2500);
    expect(() => loadConfig({ SHUTDOWN_GRACE_MS: '0' })).toThrow(/SHUTDOWN_GRACE_MS/);
  });

  it("reads Paystack's and Flutterwave's keys with their cross-checks (issue 22)", () => {
    const paystack = loadConfig({ PAYSTACK_SECRET_KEY: 'sk_test_0123456789abcdef', PAYSTACK_API_URL: 'http://127.0.0.1:4001' });
    expect(paystack).toMatchObject({ PAYSTACK_SECRET_KEY: 'sk_test_0123456789abcdef', PAYSTACK_API_URL: 'http://127.0.0.1:4001' });
    expect(() => loadConfig({ PAYSTACK_SECRET_KEY: 'pk_test_0123456789abcdef' })).toThrow(/PAYSTACK_SECRET_KEY: a Paystack secret key/);
    expect(() => loadConfig({ PAYSTACK_API_URL: 'http://127.0.0.1:4001' })).toThrow(/PAYSTACK_SECRET_KEY: required with PAYSTACK_API_URL/);
    const flutterwave = loadConfig({ FLUTTERWAVE_SECRET_KEY: 'FLWSECK_TEST-0123456789abcdef-X', FLUTTERWAVE_SECRET_HASH: 'a-long-enough-secret-hash' });
    expect(flutterwave).toMatchObject({ FLUTTERWAVE_SECRET_KEY: 'FLWSECK_TEST-0123456789abcdef-X', FLUTTERWAVE_SECRET_HASH: 'a-long-enough-secret-hash' });
    expect(() => loadConfig({ FLUTTERWAVE_SECRET_KEY: 'FLWSECK_TEST-0123456789abcdef-X' })).toThrow(/FLUTTERWAVE_SECRET_HASH: FLUTTERWAVE_SECRET_KEY and FLUTTERWAVE_SECRET_HASH are set together/);
    expect(() => loadConfig({ FLUTTERWAVE_SECRET_HASH: 'a-long-enough-secret-hash' })).toThrow(/FLUTTERWAVE_SECRET_KEY: FLUTTERWAVE_SECRET_KEY and/);
    expect(() => loadConfig({ FLUTTERWAVE_SECRET_KEY: 'FLWPUBK_TEST-0123456789abcdef-X', FLUTTERWAVE_SECRET_HASH: 'short' })).toThrow(/FLUTTERWAVE_SECRET_KEY.*FLUTTERWAVE_SECRET_HASH/);
    expect(() => loadConfig({ FLUTTERWAVE_API_URL: 'ftp://x' })).toThrow(/FLUTTERWAVE_API_URL/);
    // PayFast: id, key and passphrase together (its signatures are keyed with the passphrase); PayU Latam: its four identifiers together.
    expect(loadConfig({ PAYFAST_MERCHANT_ID: '10000100', PAYFAST_MERCHANT_KEY: '46f0cd694581a', PAYFAST_PASSPHRASE: 'jt7NOE43FZPn', PAYFAST_SANDBOX: '1' })).toMatchObject({ PAYFAST_MERCHANT_ID: '10000100', PAYFAST_SANDBOX: true });
    expect(() => loadConfig({ PAYFAST_MERCHANT_ID: '10000100', PAYFAST_MERCHANT_KEY: '46f0cd694581a' })).toThrow(/PAYFAST_PASSPHRASE: PAYFAST_MERCHANT_ID, PAYFAST_MERCHANT_KEY and PAYFAST_PASSPHRASE are set together/);
    expect(() => loadConfig({ PAYFAST_API_URL: 'http://127.0.0.1:4002' })).toThrow(/PAYFAST_MERCHANT_ID/);
    expect(() => loadConfig({ PAYFAST_MERCHANT_ID: 'abc', PAYFAST_MERCHANT_KEY: '46f0cd694581a', PAYFAST_PASSPHRASE: 'jt7NOE43FZPn' })).toThrow(/PAYFAST_MERCHANT_ID: PayFast's merchant id/);
    expect(() => loadConfig({ PAYFAST_MERCHANT_ID: '10000100', PAYFAST_MERCHANT_KEY: '46f0cd694581a', PAYFAST_PASSPHRASE: 'has spaces in it' })).toThrow(/PAYFAST_PASSPHRASE/);
    const payu = { PAYULATAM_API_KEY: '4Vj8eK4rloUd272L48hsrarnUA', PAYULATAM_API_LOGIN: 'pRRXKOl8ikMmt9u', PAYULATAM_MERCHANT_ID: '508029', PAYULATAM_ACCOUNT_ID: '512321' };
    expect(loadConfig({ ...payu, PAYULATAM_TEST: '1' })).toMatchObject({ ...payu, PAYULATAM_TEST: true });
    expect(() => loadConfig({ ...payu, PAYULATAM_ACCOUNT_ID: '' })).toThrow(/PAYULATAM_ACCOUNT_ID/);
    expect(() => loadConfig({ PAYULATAM_API_URL: 'http://127.0.0.1:4003' })).toThrow(/PAYULATAM_API_KEY: PAYULATAM_API_KEY, PAYULATAM_API_LOGIN, PAYULATAM_MERCHANT_ID and PAYULATAM_ACCOUNT_ID are set together/);
  });

  it("reads Mercado Pago's and Culqi's keys with their cross-checks (issue 22)", () => {
    const token = 'TEST-1234567890123456-112233-abcdef0123456789-123456789';
    expect(loadConfig({ MERCADOPAGO_ACCESS_TOKEN: token, MERCADOPAGO_WEBHOOK_SECRET: 'a-long-enough-webhook-secret', MERCADOPAGO_API_URL: 'http://127.0.0.1:4002' })).toMatchObject({ MERCADOPAGO_ACCESS_TOKEN: token, MERCADOPAGO_API_URL: 'http://127.0.0.1:4002' });
    expect(() => loadConfig({ MERCADOPAGO_ACCESS_TOKEN: token })).toThrow(/MERCADOPAGO_WEBHOOK_SECRET: MERCADOPAGO_ACCESS_TOKEN and MERCADOPAGO_WEBHOOK_SECRET are set together/);
    expect(() => loadConfig({ MERCADOPAGO_ACCESS_TOKEN: 'APP_PUBLIC-0000', MERCADOPAGO_WEBHOOK_SECRET: 'a-long-enough-webhook-secret' })).toThrow(/MERCADOPAGO_ACCESS_TOKEN: a Mercado Pago access token/);
    expect(() => loadConfig({ MERCADOPAGO_API_URL: 'http://127.0.0.1:4002' })).toThrow(/MERCADOPAGO_ACCESS_TOKEN: required with MERCADOPAGO_API_URL/);
    const keys = { CULQI_PUBLIC_KEY: 'pk_test_0123456789abcdef', CULQI_SECRET_KEY: 'sk_test_0123456789abcdef' };
    expect(loadConfig({ ...keys, CULQI_CHECKOUT_SCRIPT_URL: 'http://127.0.0.1:4003/js/v4' })).toMatchObject({ ...keys, CULQI_CHECKOUT_SCRIPT_URL: 'http://127.0.0.1:4003/js/v4' });
    expect(() => loadConfig({ CULQI_SECRET_KEY: keys.CULQI_SECRET_KEY })).toThrow(/CULQI_PUBLIC_KEY: CULQI_PUBLIC_KEY and CULQI_SECRET_KEY are set together/);
    expect(() => loadConfig({ ...keys, CULQI_SECRET_KEY: 'sk_live_0123456789abcdef' })).toThrow(/both test keys or both live keys/);
    expect(() => loadConfig({ CULQI_PUBLIC_KEY: keys.CULQI_SECRET_KEY, CULQI_SECRET_KEY: keys.CULQI_PUBLIC_KEY })).toThrow(/CULQI_PUBLIC_KEY: a Culqi public key.*CULQI_SECRET_KEY: a Culqi secret key/);
    expect(() => loadConfig({ CULQI_API_URL: 'http://127.0.0.1:4003' })).toThrow(/CULQI_SECRET_KEY: required with CULQI_API_URL/);
  });

  it('names every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', DEMO_DATA: 'maybe' })).toThrow(/PORT.*DATABASE_URL.*DEMO_DATA/);
  });
});
