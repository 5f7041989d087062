import { z } from 'zod';

/** Section 3 Payment provider names. */
export const PAYMENT_PROVIDER_NAMES = [
  'paypal', 'braintree', 'stripe', 'paytm', 'payulatam', 'flutterwave', 'paystack', 'securepay', 'payfast', 'liqpay', 'culqi', 'mercadopago', 'test',
] as const;

/**
 * The providers as they spell their own names; the API names them in lower case
 * (`/get_providers`). The web app's lists and the server's checkout pages show these.
 */
const PAYMENT_PROVIDER_LABELS: Record<(typeof PAYMENT_PROVIDER_NAMES)[number], string> = {
  test: 'Test provider',
  stripe: 'Stripe',
  paypal: 'PayPal',
  braintree: 'Braintree',
  paytm: 'Paytm',
  payulatam: 'PayU Latam',
  flutterwave: 'Flutterwave',
  paystack: 'Paystack',
  securepay: 'SecurePay',
  payfast: 'PayFast',
  liqpay: 'LiqPay',
  culqi: 'Culqi',
  mercadopago: 'Mercado Pago',
};

/** A provider's name as it spells it; one not listed shows its API name. */
export const providerLabel = (name: string): string => (PAYMENT_PROVIDER_LABELS as Record<string, string | undefined>)[name] ?? name;

/** Section 3 Payment provider: a name and the link its payment form posts to. */
export const paymentProviderSchema = z.object({ name: z.enum(PAYMENT_PROVIDER_NAMES), link: z.string() });
export type PaymentProvider = z.infer<typeof paymentProviderSchema>;

/** Section 3 Country list entry. */
export const countrySchema = z.object({ code: z.string().length(2), label: z.string(), phone: z.string() });
export type Country = z.infer<typeof countrySchema>;
