/**
 * Section 3's payment providers as they spell their own names; the API names them in lower case
 * (`/get_providers`). A provider not listed here shows its API name.
 */
const PROVIDER_LABELS: Record<string, string> = {
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

export const providerLabel = (name: string): string => PROVIDER_LABELS[name] ?? name;
