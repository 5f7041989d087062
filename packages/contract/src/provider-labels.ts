import type { PAYMENT_PROVIDER_NAMES } from './providers';

// A module of its own, without zod: the web app's landing bundle takes only this (its budget, vite.config.ts).

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
