import { formatMoney, toMinor } from '@rideway/domain';
import { useSettings } from '../api/settings';

/** Amounts in the settings' currency symbol (and code when asked). */
export function useMoney(): (amount: number, withCode?: boolean) => string {
  const { data: settings } = useSettings();
  const currency = { symbol: settings?.symbol ?? '', code: settings?.code ?? '' };
  return (amount, withCode = false) => formatMoney(toMinor(amount), currency, { withCode });
}
