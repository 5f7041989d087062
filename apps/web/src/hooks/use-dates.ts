import { useTranslation } from 'react-i18next';
import { useSettings } from '../api/settings';
import { dateText, dateTimeText, monthText, timeText } from '../utils/date-text';

/**
 * Dates and times in the reader's language on the operator's clock (settings `timezone`, issue
 * 17): a rider abroad, an admin and a driver all read a trip's time as the city's.
 */
export function useDates() {
  const { i18n } = useTranslation();
  const { data: settings } = useSettings();
  const locale = i18n.language;
  const timeZone = settings?.timezone;
  return {
    timeZone,
    dateTime: (at: number | null | undefined) => dateTimeText(at, locale, timeZone),
    date: (at: number) => dateText(at, locale, timeZone),
    time: (at: number) => timeText(at, locale, timeZone),
    month: (year: number, month: number, withYear = true) => monthText(year, month, locale, withYear),
  };
}
