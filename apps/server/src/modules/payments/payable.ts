import type { BookingStatus } from '@rideway/domain';
import { PROVIDER_PAYMENT_STATUSES } from '../bookings';
import type { BookingRow } from '../dispatch/booking-view';

/** A rider may also pay a trip by card straight from REACHED (decisions.md, payment paths). */
const CARD_PAYABLE: readonly BookingStatus[] = [...PROVIDER_PAYMENT_STATUSES, 'REACHED'];

/** True while a card may pay the booking: it owes a payment through a provider, and was not paid ahead already. */
export const isCardPayable = (booking: Pick<BookingRow, 'status' | 'prepaid'>): boolean =>
  CARD_PAYABLE.includes(booking.status as BookingStatus) && (!booking.prepaid || booking.status === 'PAYMENT_PENDING');
