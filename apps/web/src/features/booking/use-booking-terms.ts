import type { BookingRequest } from '@rideway/contract';
import { ok, validateDeliveryDetails, type Result } from '@rideway/domain';
import { useState } from 'react';

/** What the rider settles in the estimate dialog, sent with the booking. */
export type BookingTerms = Pick<BookingRequest, 'payment_mode' | 'promo' | 'deliveryPerson' | 'deliveryPersonPhone' | 'pickUpInstructions' | 'deliveryInstructions'>;

export const PAYMENT_MODES = ['cash', 'wallet', 'card'] as const;
export type PaymentMode = (typeof PAYMENT_MODES)[number];

export const DELIVERY_FIELDS = ['deliveryPerson', 'deliveryPersonPhone', 'pickUpInstructions', 'deliveryInstructions'] as const;
type DeliveryField = (typeof DELIVERY_FIELDS)[number];

const NO_DETAILS: Record<DeliveryField, string> = { deliveryPerson: '', deliveryPersonPhone: '', pickUpInstructions: '', deliveryInstructions: '' };

/**
 * Section 4's estimate dialog's choices: how to pay (card first in delivery mode, cash
 * otherwise), a promo code, and in delivery mode who receives the parcel. `terms()` checks them
 * (section 5: deliveryDetailMissing) and gives what goes with the booking, or the refusal's key.
 * Without a card provider (`cardOffered` false: /get_providers is empty) card is not a choice: a
 * delivery is paid ahead from the wallet, a ride in cash.
 */
export function useBookingTerms(delivery: boolean, cardOffered = true) {
  const [chosenMode, setPaymentMode] = useState<PaymentMode>(delivery ? 'card' : 'cash');
  const paymentMode: PaymentMode = chosenMode === 'card' && !cardOffered ? (delivery ? 'wallet' : 'cash') : chosenMode;
  const [promo, setPromo] = useState('');
  const [details, setDetails] = useState(NO_DETAILS);
  return {
    paymentMode,
    setPaymentMode,
    promo,
    setPromo,
    details,
    setDetail: (field: DeliveryField, value: string) => { setDetails((current) => ({ ...current, [field]: value })); },
    terms: (): Result<BookingTerms> => {
      // Promo codes are stored in capitals; a blank one is no promo.
      const terms: BookingTerms = { payment_mode: paymentMode, ...(promo.trim() ? { promo: promo.trim().toUpperCase() } : {}) };
      if (!delivery) return ok(terms);
      const checked = validateDeliveryDetails(details);
      return checked.ok ? ok({ ...terms, ...checked.value }) : checked;
    },
  };
}
