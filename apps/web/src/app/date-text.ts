/** An instant as a date and time in the reader's language; nothing for a missing one. */
export const dateTimeText = (at: number | null | undefined, locale: string): string =>
  at ? new Date(at).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' }) : '';

/** An instant as a date in the reader's language. */
export const dateText = (at: number, locale: string): string => new Date(at).toLocaleDateString(locale, { dateStyle: 'medium' });
