/**
 * `npm run check-config` (issue 23 point 3): tells an operator, before a start, what the
 * environment turns on and what it still lacks for that. Exits 1 when the server would refuse to
 * start (a variable that does not parse, or an `error` of configProblems), else 0. Prints names
 * and what is wrong, never a value: the environment holds secrets. Plain text, unlike the server's
 * JSON lines: a person runs it at a terminal (or CI reads its exit status), no log collector does.
 */
import { configProblems, isTracingOn, loadConfig, type Config } from './config';

function enabled(config: Config): string[] {
  const payments = [
    ['Stripe', config.STRIPE_SECRET_KEY], ['PayPal', config.PAYPAL_CLIENT_ID], ['Braintree', config.BRAINTREE_MERCHANT_ID], ['Paystack', config.PAYSTACK_SECRET_KEY],
    ['Flutterwave', config.FLUTTERWAVE_SECRET_KEY], ['PayFast', config.PAYFAST_MERCHANT_ID], ['PayU Latam', config.PAYULATAM_API_KEY], ['LiqPay', config.LIQPAY_PUBLIC_KEY],
    ['Mercado Pago', config.MERCADOPAGO_ACCESS_TOKEN], ['Culqi', config.CULQI_SECRET_KEY], ['Paytm', config.PAYTM_MERCHANT_ID],
  ].filter(([, on]) => Boolean(on)).map(([name]) => name);
  return [
    `database: ${config.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.DATA_DIR}`}`,
    `processes: ${config.REDIS_URL ? 'several, sharing events through Redis (REDIS_URL)' : 'one'}`,
    `demo data: ${config.DEMO_DATA ? 'seeded into an empty database' : 'off'}`,
    `mail: ${config.SMTP_URL ? 'SMTP' : 'kept in the outbox'}`,
    `SMS: ${config.TWILIO_ACCOUNT_SID ? 'Twilio' : config.SMS_GATEWAY_URL ? 'an HTTP gateway' : 'kept in the outbox'}`,
    `phone push: ${[config.FIREBASE_SERVICE_ACCOUNT && 'FCM', config.EXPO_PUSH && 'Expo'].filter(Boolean).join(', ') || 'off'}`,
    `maps: ${config.MAPS_PROVIDER}`,
    `payments: ${[...payments, config.PAYMENT_TEST_PROVIDER ? 'the test provider' : undefined].filter(Boolean).join(', ') || 'cash and wallet only (unless the database holds demo data)'}`,
    `traces: ${isTracingOn(config) ? 'OpenTelemetry, sent to an OTLP/HTTP collector (OTEL_EXPORTER_OTLP_ENDPOINT)' : 'off'}`,
    `sign-in: email, phone codes${[config.FACEBOOK_APP_ID && 'Facebook', config.GOOGLE_CLIENT_ID && 'Google', config.APPLE_CLIENT_ID && 'Apple'].filter(Boolean).map((name) => `, ${String(name)}`).join('')}`,
  ];
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
const problems = configProblems(config);
console.log(['Rideway configuration', ...enabled(config).map((line) => `  ${line}`)].join('\n'));
for (const { variable, problem, severity } of problems) console.log(`${severity === 'error' ? 'ERROR' : 'warning'}  ${variable}: ${problem}`);
const errors = problems.filter((problem) => problem.severity === 'error').length;
console.log(errors > 0 ? `${String(errors)} error(s): the server would refuse to start.` : 'The server can start with this configuration.');
process.exit(errors > 0 ? 1 : 0);
