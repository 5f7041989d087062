/**
 * Security-critical: which payment providers take money. The embedded test provider confirms any
 * payment without charging a card, so it is on only where it belongs: in a database the demo data
 * was seeded into (the seeder writes the DEMO_MARKER row in the seed's transaction), or with
 * PAYMENT_TEST_PROVIDER=1 (tests). Elsewhere it is not listed, its routes do not exist, and a card
 * payment answers payment_provider_unavailable.
 */
import { providerTakesCurrency } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db, Tx } from '../../db/client';
import { serverSecrets } from '../../db/schema';
import type { PaymentProviderPort } from './port';
import { braintreeProvider, braintreeSecurityPolicy, isBraintreeConfigured } from './braintree';
import { paypalCheckoutOrigins, paypalProvider } from './paypal';
import { paystackProvider } from './paystack';
import { flutterwaveProvider } from './flutterwave';
import { payfastProvider } from './payfast';
import { payulatamProvider } from './payulatam';
import { liqpayProvider } from './liqpay';
import { paytmProvider } from './paytm';
import { mercadopagoProvider } from './mercadopago';
import { culqiProvider, isCulqiConfigured } from './culqi';
import { isSecurePayConfigured, securepayProvider } from './securepay';
import { getSettings } from '../../modules/settings/service';
import { STRIPE_CHECKOUT_ORIGIN, stripeProvider } from './stripe';
import { testProvider } from './test-provider';

/** The server_secrets row the demo seeder writes: this database holds demo data. */
export const DEMO_MARKER = 'demo_data';

/** Records, in the seed's transaction, that demo data was seeded into this database. */
export async function markDemoDatabase(tx: Db | Tx, now: number): Promise<void> {
  await tx.insert(serverSecrets).values({ name: DEMO_MARKER, value: { seededAt: new Date(now).toISOString() } }).onConflictDoNothing();
}

async function isDemoDatabase(db: Db): Promise<boolean> {
  return (await db.select({ name: serverSecrets.name }).from(serverSecrets).where(eq(serverSecrets.name, DEMO_MARKER)).limit(1)).length > 0;
}

// Demo data is seeded before the server is built and never later, so the answer is read once per database.
const known = new WeakMap<Db, Promise<boolean>>();

/** True when the embedded test provider takes payments here. */
export function isTestProviderOn(db: Db, config: Pick<Config, 'PAYMENT_TEST_PROVIDER'>): Promise<boolean> {
  if (config.PAYMENT_TEST_PROVIDER) return Promise.resolve(true);
  let answer = known.get(db);
  if (!answer) {
    answer = isDemoDatabase(db).catch((error: unknown) => {
      known.delete(db);
      throw error;
    });
    known.set(db, answer);
  }
  return answer;
}

/**
 * The real providers configured here, in /get_providers order (stripe, paypal, braintree, paystack, flutterwave), each
 * built once per configuration; then the extra adapters a test gave `buildApp` (never production
 * configuration).
 */
export function configuredProviders(config: Config): PaymentProviderPort[] {
  let built = adapters.get(config);
  if (!built) {
    built = [
      ...(config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET ? [stripeProvider(config)] : []),
      ...(config.PAYPAL_CLIENT_ID && config.PAYPAL_CLIENT_SECRET ? [paypalProvider(config)] : []),
      ...(isBraintreeConfigured(config) ? [braintreeProvider(config)] : []),
      ...(config.PAYSTACK_SECRET_KEY ? [paystackProvider(config)] : []),
      ...(config.FLUTTERWAVE_SECRET_KEY && config.FLUTTERWAVE_SECRET_HASH ? [flutterwaveProvider(config)] : []),
      ...(config.PAYFAST_MERCHANT_ID && config.PAYFAST_MERCHANT_KEY && config.PAYFAST_PASSPHRASE ? [payfastProvider(config)] : []),
      ...(config.PAYULATAM_API_KEY && config.PAYULATAM_API_LOGIN && config.PAYULATAM_MERCHANT_ID && config.PAYULATAM_ACCOUNT_ID ? [payulatamProvider(config)] : []),
      ...(config.MERCADOPAGO_ACCESS_TOKEN && config.MERCADOPAGO_WEBHOOK_SECRET ? [mercadopagoProvider(config)] : []),
      ...(isCulqiConfigured(config) ? [culqiProvider(config)] : []),
      ...(config.LIQPAY_PUBLIC_KEY && config.LIQPAY_PRIVATE_KEY ? [liqpayProvider(config)] : []),
      ...(config.PAYTM_MERCHANT_ID && config.PAYTM_MERCHANT_KEY ? [paytmProvider(config)] : []),
      ...(isSecurePayConfigured(config) ? [securepayProvider(config)] : []),
    ];
    adapters.set(config, built);
  }
  return [...built, ...(extras.get(config) ?? [])];
}

const adapters = new WeakMap<Config, PaymentProviderPort[]>();
const extras = new WeakMap<Config, PaymentProviderPort[]>();

/** Test-only: adapters (an in-test fake of the port) added after the configured ones, for the app built with this configuration. */
export function addExtraProviders(config: Config, providers: readonly PaymentProviderPort[]): void {
  if (providers.length > 0) extras.set(config, [...(extras.get(config) ?? []), ...providers]);
}

/** Every provider switched on here, whatever the settings currency (the admins' payments page): test when on, then the configured ones. */
export async function providersSwitchedOn(db: Db, config: Config): Promise<PaymentProviderPort[]> {
  return [...((await isTestProviderOn(db, config)) ? [testProvider] : []), ...configuredProviders(config)];
}

/** True when the provider takes this currency (issue 22, point 3: its documented list, packages/domain). */
export const takesCurrency = (provider: PaymentProviderPort, currency: string): boolean => providerTakesCurrency(provider.name, currency, provider.currencies);

/**
 * The providers that take card payments here, in the order /get_providers lists them (test when
 * on, stripe, paypal, braintree, paystack, flutterwave); none when empty. A provider that cannot
 * take the settings currency is not among them (issue 22, point 3).
 */
export async function providersInForce(db: Db, config: Config): Promise<PaymentProviderPort[]> {
  const switchedOn = await providersSwitchedOn(db, config);
  if (switchedOn.every((provider) => !provider.currencies)) return switchedOn;
  const { code } = await getSettings(db);
  return switchedOn.filter((provider) => takesCurrency(provider, code));
}

/** The provider of this name that takes payments here, or undefined. */
export async function providerInForce(db: Db, config: Config, name: string): Promise<PaymentProviderPort | undefined> {
  return (await providersInForce(db, config)).find((provider) => provider.name === name);
}

/**
 * The adapter that gives back money a provider took, by name, whether or not it takes new
 * payments: a payment taken through the test provider is refunded through it.
 */
export function refundingProvider(config: Config, name: string): PaymentProviderPort | undefined {
  return name === testProvider.name ? testProvider : configuredProviders(config).find((provider) => provider.name === name);
}

/**
 * The hosts each configured provider's browser side needs (the security policy): the adapter's
 * own `policy`, else what its file documents (Stripe Checkout's and PayPal's hosted pages, where
 * the checkout route redirects a posted form; Braintree Drop-in's script, frames and calls).
 */
export function providerPolicies(config: Config): NonNullable<PaymentProviderPort['policy']>[] {
  return configuredProviders(config).map((provider) => provider.policy ?? documentedPolicy(config, provider.name));
}

function documentedPolicy(config: Config, name: string): NonNullable<PaymentProviderPort['policy']> {
  if (name === 'stripe') return { formAction: [STRIPE_CHECKOUT_ORIGIN] };
  if (name === 'paypal') return { formAction: paypalCheckoutOrigins(config) };
  if (name === 'braintree') {
    const policy = braintreeSecurityPolicy(config.BRAINTREE_ENVIRONMENT);
    return { script: policy.scriptSrc, frame: policy.frameSrc, connect: policy.connectSrc };
  }
  return {};
}
