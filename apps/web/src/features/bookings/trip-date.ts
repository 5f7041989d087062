import type { Booking } from '@rideway/contract';

/** A booking's trip date and time in the reader's language. */
export const tripDateText = (booking: Booking, locale: string): string =>
  new Date(booking.tripdate).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
