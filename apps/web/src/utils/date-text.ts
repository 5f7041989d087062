/**
 * Times as the reader reads them: in the reader's language, on the operator's clock (settings
 * `timezone`, issue 17) when given, so a trip booked for 09:00 in London reads 09:00 wherever the
 * reader's browser is. `useDates` (hooks/use-dates.ts) supplies both.
 */

/** An instant as a date and time in the reader's language; nothing for a missing one. */
export const dateTimeText = (at: number | null | undefined, locale: string, timeZone?: string): string =>
  at ? new Date(at).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short', ...(timeZone ? { timeZone } : {}) }) : '';

/** A calendar month (1 to 12) as "November 2026", or "November", in the reader's language. */
export const monthText = (year: number, month: number, locale: string, withYear = true): string =>
  new Date(Date.UTC(year, month - 1, 1)).toLocaleString(locale, { month: 'long', ...(withYear ? { year: 'numeric' } : {}), timeZone: 'UTC' });

/** An instant as a date in the reader's language. */
export const dateText = (at: number, locale: string, timeZone?: string): string =>
  new Date(at).toLocaleDateString(locale, { dateStyle: 'medium', ...(timeZone ? { timeZone } : {}) });

/** An instant as a time of day in the reader's language. */
export const timeText = (at: number, locale: string, timeZone?: string): string =>
  new Date(at).toLocaleTimeString(locale, { timeStyle: 'short', ...(timeZone ? { timeZone } : {}) });
