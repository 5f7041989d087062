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

/**
 * Mercado Pago's Checkout Pro currencies: each country's own (Argentina ARS, Brazil BRL, Chile CLP,
 * Colombia COP, Mexico MXN, Peru PEN, Uruguay UYU), an account taking only its country's
 * (https://www.mercadopago.com.ar/developers/en/reference/preferences/_checkout_preferences/post, items.currency_id).
 * CLP has no minor unit: its amounts go through the same smallest-unit helper.
 */
export const MERCADOPAGO_CURRENCIES: readonly string[] = ['ARS', 'BRL', 'CLP', 'COP', 'MXN', 'PEN', 'UYU'];

/** Culqi's charge currencies (Peru): soles and US dollars, each in cents (https://apidocs.culqi.com/#tag/Cargos, currency_code). */
export const CULQI_CURRENCIES: readonly string[] = ['PEN', 'USD'];

/**
 * LiqPay's checkout currencies for a Ukrainian merchant: UAH, USD and EUR
 * (https://www.liqpay.ua/documentation/en/data_signature, `currency`), amounts as decimals in the
 * major unit.
 */
export const LIQPAY_CURRENCIES: readonly string[] = ['UAH', 'USD', 'EUR'];

/** Paytm takes Indian rupees only (https://developer.paytm.com/docs/api/initiate-transaction-api/, txnAmount.currency), as a decimal string of rupees. */
export const PAYTM_CURRENCIES: readonly string[] = ['INR'];

/** PayFast takes South African rand only, as a decimal in rand (https://developers.payfast.co.za/docs#step_1_form_fields, amount). */
export const PAYFAST_CURRENCIES: readonly string[] = ['ZAR'];

/**
 * PayU Latam's WebCheckout currencies: each account's country's own (Argentina ARS, Brazil BRL,
 * Chile CLP, Colombia COP, Mexico MXN, Peru PEN) and USD where the account takes it
 * (https://developers.payulatam.com/latam/en/docs/integrations/webcheckout-integration.html, currency).
 */
export const PAYULATAM_CURRENCIES: readonly string[] = ['ARS', 'BRL', 'CLP', 'COP', 'MXN', 'PEN', 'USD'];

/**
 * SecurePay (Australia Post) takes Australian dollars only, in cents: a payment request names no
 * currency, the merchant account's AUD is charged
 * (https://auspost.com.au/payments/docs/securepay/#card-payments-rest-api-create-payment, `amount` in cents).
 */
export const SECUREPAY_CURRENCIES: readonly string[] = ['AUD'];

const BY_PROVIDER: Readonly<Record<string, readonly string[]>> = { paystack: PAYSTACK_CURRENCIES, flutterwave: FLUTTERWAVE_CURRENCIES, liqpay: LIQPAY_CURRENCIES, paytm: PAYTM_CURRENCIES, mercadopago: MERCADOPAGO_CURRENCIES, culqi: CULQI_CURRENCIES, payfast: PAYFAST_CURRENCIES, payulatam: PAYULATAM_CURRENCIES, securepay: SECUREPAY_CURRENCIES };

/** The currencies a provider documents, or undefined when it is not limited here. */
export const providerCurrencies = (provider: string): readonly string[] | undefined => BY_PROVIDER[provider];

/** True when the provider can take payments in this currency (ISO 4217 code, any case). */
export function providerTakesCurrency(provider: string, currency: string, currencies: readonly string[] | undefined = providerCurrencies(provider)): boolean {
  if (!currencies) return true;
  const code = currency.trim().toUpperCase();
  return currencies.includes(code);
}
