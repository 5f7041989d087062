import { MONEY_DECIMALS } from './spec-constants';

/**
 * Money is held as integer minor units (cents); section 9's 2-decimal rounding is done here and
 * only here. Rounding is half away from zero after folding away binary floating-point noise, so
 * 1.005 rounds to 1.01 as a person would expect, not to 1.00 as `toFixed` does.
 */

const MINOR_PER_MAJOR = 10 ** MONEY_DECIMALS;
/** The largest amount the product handles, in minor units: 10^13 (a hundred billion major). */
export const MAX_MINOR = 1e13;

/** Rounds a real number to the nearest integer, half away from zero, ignoring float noise. */
export function roundHalfAwayFromZero(x: number): number {
  if (!Number.isFinite(x)) throw new RangeError(`not a finite number: ${x}`);
  const abs = Math.abs(x);
  const fraction = abs - Math.floor(abs);
  // Folding x to 15 significant digits (exact for any double; beyond is representation noise)
  // moves it by at most abs * 5e-15, which can only change the result next to a .5 boundary;
  // elsewhere plain rounding gives the same answer without the string round trip.
  const nearHalf = Math.abs(fraction - 0.5) <= Math.max(abs, 1) * 1e-12;
  const rounded = nearHalf ? Math.round(Math.abs(Number(x.toPrecision(15)))) : Math.round(abs);
  return x < 0 && rounded !== 0 ? -rounded : rounded;
}

function assertInRange(minor: number): number {
  if (Math.abs(minor) > MAX_MINOR) throw new RangeError(`amount out of range: ${minor}`);
  return minor;
}

/** Major units (12.34) to integer minor units (1234), rounded to 2 decimals. */
export const toMinor = (amount: number): number =>
  assertInRange(roundHalfAwayFromZero(amount * MINOR_PER_MAJOR));

/** Integer minor units to the nearest double of the 2-decimal major amount. */
export function fromMinor(minor: number): number {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`minor units must be an integer: ${minor}`);
  return minor / MINOR_PER_MAJOR;
}

/** Section 9: "amounts rounded to 2 decimals". */
export const roundMoney = (amount: number): number => fromMinor(toMinor(amount));

/** Rounds a fractional minor-unit value (from a rate times a distance, say) to whole minor units. */
export const roundMinor = (minor: number): number => assertInRange(roundHalfAwayFromZero(minor));

/** A percentage of an amount in minor units, rounded to whole minor units. */
export const percentOfMinor = (minor: number, percent: number): number =>
  roundMinor((minor * percent) / 100);

export const sumMinor = (amounts: Iterable<number>): number => {
  let total = 0;
  for (const amount of amounts) total += amount;
  return assertInRange(total);
};

/** True when a value is a finite number with at most 2 decimals within the product's range. */
export function isMoneyAmount(value: unknown): value is number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  if (Math.abs(value) * MINOR_PER_MAJOR > MAX_MINOR) return false;
  const scaled = value * MINOR_PER_MAJOR;
  const rounded = roundHalfAwayFromZero(scaled);
  // An exact count of minor units needs no rounding to 15 digits (a string made for every amount checked).
  return rounded === scaled || rounded === Number(scaled.toPrecision(15));
}

type CurrencySettings = { symbol: string; code: string };

/**
 * Formats minor units with the settings' currency symbol, e.g. "$1,234.50"; with `withCode`
 * the code follows ("$1,234.50 USD"). Grouping follows the locale (default en).
 */
export function formatMoney(
  minor: number,
  currency: CurrencySettings,
  options: { withCode?: boolean; locale?: string } = {},
): string {
  const digits = new Intl.NumberFormat(options.locale ?? 'en', {
    minimumFractionDigits: MONEY_DECIMALS,
    maximumFractionDigits: MONEY_DECIMALS,
  }).format(Math.abs(fromMinor(minor)));
  const sign = minor < 0 ? '-' : '';
  const text = `${sign}${currency.symbol}${digits}`;
  return options.withCode && currency.code ? `${text} ${currency.code}` : text;
}

/**
 * The symbol of a record's own currency (issue 17: a trip keeps the currency it was made in): the
 * settings' symbol for the currency in force, else the usual narrow symbol of the ISO code (GBP:
 * £), else the code followed by a space.
 */
export function currencySymbol(code: string, inForce: CurrencySettings): string {
  if (code === '' || code.toUpperCase() === inForce.code.toUpperCase()) return inForce.symbol;
  try {
    const symbol = new Intl.NumberFormat('en', { style: 'currency', currency: code, currencyDisplay: 'narrowSymbol' })
      .formatToParts(0)
      .find((part) => part.type === 'currency')?.value;
    if (symbol !== undefined && !/^[A-Za-z]{2,}$/.test(symbol)) return symbol;
  } catch {
    // Not an ISO 4217 code: the code itself is shown.
  }
  return `${code} `;
}
