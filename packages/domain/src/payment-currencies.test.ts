import { describe, expect, it } from 'vitest';
import { FLUTTERWAVE_CURRENCIES, PAYSTACK_CURRENCIES, providerCurrencies, providerTakesCurrency } from './payment-currencies';
import { currencyDecimals } from './provider-units';

/** Issue 22, point 3: a provider is offered only for a currency it takes. */
describe('payment provider currencies', () => {
  it("Paystack takes NGN, GHS, ZAR, KES and USD, in any case, and nothing else", () => {
    for (const code of ['NGN', 'ghs', 'ZAR', 'kes', ' USD ']) expect(providerTakesCurrency('paystack', code)).toBe(true);
    for (const code of ['EUR', 'GBP', 'JPY', 'XOF', '', 'NGNX']) expect(providerTakesCurrency('paystack', code)).toBe(false);
  });

  it("Flutterwave takes its documented list, zero-decimal currencies included", () => {
    for (const code of ['NGN', 'KES', 'UGX', 'XAF', 'EUR', 'GBP', 'USD']) expect(providerTakesCurrency('flutterwave', code)).toBe(true);
    for (const code of ['JPY', 'INR', 'BRL']) expect(providerTakesCurrency('flutterwave', code)).toBe(false);
    expect(currencyDecimals('UGX')).toBe(0);
  });

  it("Mercado Pago takes its countries' currencies (CLP without a minor unit); Culqi soles and dollars", () => {
    for (const code of ['ARS', 'brl', 'CLP', 'COP', 'MXN', 'PEN', 'UYU']) expect(providerTakesCurrency('mercadopago', code)).toBe(true);
    for (const code of ['USD', 'EUR', 'BOB']) expect(providerTakesCurrency('mercadopago', code)).toBe(false);
    for (const code of ['PEN', 'usd']) expect(providerTakesCurrency('culqi', code)).toBe(true);
    for (const code of ['EUR', 'CLP']) expect(providerTakesCurrency('culqi', code)).toBe(false);
  });

  it('PayFast takes rand only; PayU Latam its countries\' currencies and USD (CLP without a minor unit)', () => {
    expect(providerTakesCurrency('payfast', 'zar')).toBe(true);
    for (const code of ['USD', 'NGN']) expect(providerTakesCurrency('payfast', code)).toBe(false);
    for (const code of ['ARS', 'BRL', 'clp', 'COP', 'MXN', 'PEN', 'USD']) expect(providerTakesCurrency('payulatam', code)).toBe(true);
    for (const code of ['EUR', 'UYU']) expect(providerTakesCurrency('payulatam', code)).toBe(false);
  });

  it('LiqPay takes hryvnias, dollars and euros; Paytm rupees only', () => {
    for (const code of ['UAH', 'usd', 'EUR']) expect(providerTakesCurrency('liqpay', code)).toBe(true);
    for (const code of ['GBP', 'RUB']) expect(providerTakesCurrency('liqpay', code)).toBe(false);
    expect(providerTakesCurrency('paytm', 'inr')).toBe(true);
    for (const code of ['USD', 'NPR']) expect(providerTakesCurrency('paytm', code)).toBe(false);
  });

  it('a provider without a list here is not limited', () => {
    expect(providerCurrencies('stripe')).toBeUndefined();
    expect(providerTakesCurrency('stripe', 'JPY')).toBe(true);
    expect(providerTakesCurrency('test', 'XYZ')).toBe(true);
  });

  it('the lists are upper-case ISO codes without repeats', () => {
    for (const list of [PAYSTACK_CURRENCIES, FLUTTERWAVE_CURRENCIES]) {
      expect(new Set(list).size).toBe(list.length);
      for (const code of list) expect(code).toMatch(/^[A-Z]{3}$/);
    }
  });
});
