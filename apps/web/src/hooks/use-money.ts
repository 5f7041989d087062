import { currencySymbol, formatMoney, toMinor } from '@rideway/domain';
import { useSettings } from '../api/settings';

/**
 * `currency`: the record's own currency code (issue 17: a trip, a wallet entry or a withdrawal
 * keeps the currency it was made in); left out, the settings' currency. `withCode` adds the code.
 */
type MoneyOptions = { withCode?: boolean; currency?: string };

/**
 * Amounts in the settings' currency symbol, or in a record's own currency (and code when asked).
 * `recordCurrency`: the currency of the record every amount formatted belongs to (a booking's).
 */
export function useMoney(recordCurrency?: string): (amount: number, options?: boolean | MoneyOptions) => string {
  const { data: settings } = useSettings();
  const inForce = { symbol: settings?.symbol ?? '', code: settings?.code ?? '' };
  return (amount, options = false) => {
    const { withCode = false, currency = recordCurrency ?? inForce.code } = typeof options === 'boolean' ? { withCode: options } : options;
    return formatMoney(toMinor(amount), { symbol: currencySymbol(currency, inForce), code: currency }, { withCode });
  };
}
