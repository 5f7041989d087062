/**
 * Issue 22, point 3: the currencies each payment provider takes, checked before a checkout is
 * offered. A provider that cannot take the settings currency is not listed (the admin sees why).
 * A provider missing here takes any currency its account is set up for (Stripe, PayPal and
 * Braintree refuse an unsupported one at checkout themselves).
 */

/**
 * Paystack's transaction currencies (https://paystack.com/docs/api/#supported-currency): NGN,
 * GHS, ZAR, KES and USD, each in its subunit (kobo, pesewas, cents). XOF is left out until
 * Paystack documents its subunit for it: ISO 4217 gives XOF none.
 */
export const PAYSTACK_CURRENCIES: readonly string[] = ['NGN', 'GHS', 'ZAR', 'KES', 'USD'];

/**
 * Flutterwave's collection currencies: those of its local payment methods (Nigeria, Ghana, Kenya,
 * Uganda, Tanzania, Rwanda, South Africa, Zambia, Malawi, francophone Africa, Egypt, Morocco,
 * Guinea, Sierra Leone) and of its international card collections (USD, EUR, GBP, CAD)
 * (https://developer.flutterwave.com/docs/collections-inflow/payment-methods). Amounts go in the
 * currency's major unit, as a decimal. An account takes only those enabled for it.
 */
export const FLUTTERWAVE_CURRENCIES: readonly string[] = [
  'NGN', 'GHS', 'KES', 'UGX', 'TZS', 'RWF', 'ZAR', 'ZMW', 'MWK', 'XAF', 'XOF', 'EGP', 'MAD', 'GNF', 'SLL', 'USD', 'EUR', 'GBP', 'CAD',
];

const BY_PROVIDER: Readonly<Record<string, readonly string[]>> = { paystack: PAYSTACK_CURRENCIES, flutterwave: FLUTTERWAVE_CURRENCIES };

/** The currencies a provider documents, or undefined when it is not limited here. */
export const providerCurrencies = (provider: string): readonly string[] | undefined => BY_PROVIDER[provider];

/** True when the provider can take payments in this currency (ISO 4217 code, any case). */
export function providerTakesCurrency(provider: string, currency: string, currencies: readonly string[] | undefined = providerCurrencies(provider)): boolean {
  if (!currencies) return true;
  const code = currency.trim().toUpperCase();
  return currencies.includes(code);
}
