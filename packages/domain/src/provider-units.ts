import { MONEY_DECIMALS } from './spec-constants';

/**
 * Payment providers count money in the currency's smallest unit (ISO 4217's minor unit): cents
 * for USD, whole yen for JPY, fils (thousandths) for KWD. This product holds every amount in
 * hundredths (money.ts). These two helpers are the one place that converts between them
 * (STYLE.md: Medusa's get-smallest-unit), for every payment adapter.
 */

/** ISO 4217 currencies with no minor unit, as Stripe and PayPal list them. */
const ZERO_DECIMAL = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'MGA', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']);
/** ISO 4217 currencies with three decimals. */
const THREE_DECIMAL = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);

/** How many decimals the currency's smallest unit has (ISO 4217). */
export function currencyDecimals(currency: string): number {
  const code = currency.toUpperCase();
  if (ZERO_DECIMAL.has(code)) return 0;
  if (THREE_DECIMAL.has(code)) return 3;
  return 2;
}

/**
 * Our hundredths as the provider's smallest unit. A zero-decimal currency cannot carry a
 * fraction: an amount that has one is refused rather than rounded, since money is exact.
 */
export function toProviderUnits(amountMinor: number, currency: string): number {
  if (!Number.isSafeInteger(amountMinor)) throw new RangeError(`minor units must be an integer: ${amountMinor}`);
  const shift = currencyDecimals(currency) - MONEY_DECIMALS;
  if (shift >= 0) return amountMinor * 10 ** shift;
  const factor = 10 ** -shift;
  if (amountMinor % factor !== 0) throw new RangeError(`${amountMinor} hundredths of ${currency} is not a whole number of its smallest unit`);
  return amountMinor / factor;
}

/**
 * The provider's smallest unit as our hundredths. A three-decimal amount that is not a whole
 * number of hundredths is refused: the caller treats it as an amount mismatch.
 */
export function fromProviderUnits(units: number, currency: string): number {
  if (!Number.isSafeInteger(units)) throw new RangeError(`provider units must be an integer: ${units}`);
  const shift = currencyDecimals(currency) - MONEY_DECIMALS;
  if (shift <= 0) return units * 10 ** -shift;
  const factor = 10 ** shift;
  if (units % factor !== 0) throw new RangeError(`${units} units of ${currency} is not a whole number of hundredths`);
  return units / factor;
}

/** The provider's decimal string (PayPal's "12.34", "1000" for JPY) for our hundredths. */
export function toProviderDecimal(amountMinor: number, currency: string): string {
  const decimals = currencyDecimals(currency);
  const units = toProviderUnits(amountMinor, currency);
  if (decimals === 0) return String(units);
  const sign = units < 0 ? '-' : '';
  const digits = String(Math.abs(units)).padStart(decimals + 1, '0');
  return `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** Our hundredths for the provider's decimal string; undefined when it is not a plain decimal of the currency. */
export function fromProviderDecimal(value: string, currency: string): number | undefined {
  const decimals = currencyDecimals(currency);
  const match = /^(\d{1,13})(?:\.(\d+))?$/.exec(value.trim());
  if (!match?.[1] || (match[2]?.length ?? 0) > decimals) return undefined;
  const fraction = (match[2] ?? '').padEnd(decimals, '0');
  try {
    return fromProviderUnits(Number(`${match[1]}${fraction}`), currency);
  } catch {
    return undefined;
  }
}
