/** An instant as a date and time in the reader's language; nothing for a missing one. */
export const dateTimeText = (at: number | null | undefined, locale: string): string =>
  at ? new Date(at).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' }) : '';

/** A calendar month (1 to 12) as "November 2026", or "November", in the reader's language. */
export const monthText = (year: number, month: number, locale: string, withYear = true): string =>
  new Date(Date.UTC(year, month - 1, 1)).toLocaleString(locale, { month: 'long', ...(withYear ? { year: 'numeric' } : {}), timeZone: 'UTC' });

/** An instant as a date in the reader's language. */
export const dateText = (at: number, locale: string): string => new Date(at).toLocaleDateString(locale, { dateStyle: 'medium' });
