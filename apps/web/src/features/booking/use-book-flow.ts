import type { Booking, CarType, Estimate, PromoCheck } from '@rideway/contract';
import { validateBookingForm, type BookingFormFields, type ErrorKey, type Place, type UserType } from '@rideway/domain';
import { useState } from 'react';
import { errorKey } from '../../api/client';
import { requestEstimate, useCreateBooking } from '../../api/bookings';
import { requestPromoCheck } from '../../api/promo-check';
import { enableWebPush } from '../../api/push';
import type { Choices } from './ChoiceDialog';
import type { BookingTerms } from './use-booking-terms';

export type BookingDraft = { pickup: Place | null; drop: Place | null; carType: string; bookLater: boolean; tripdate: number; customer?: string };

/** Where the book flow stands: each step's dialog shows while the flow is in it. */
type BookStep =
  | { step: 'idle' }
  | { step: 'choosing'; fields: BookingFormFields; carType: CarType }
  | { step: 'estimating' }
  | { step: 'estimated'; fields: BookingFormFields; choices: Choices; estimate: Estimate }
  | { step: 'paying'; booking: Booking }
  | { step: 'booked'; booking: Booking };

/**
 * Section 4's book flow: the form is checked (section 5), then the parcel chooser when the car
 * type has parcel types or options, then the estimate, its dialog, and the booking. A PAYMENT_PENDING
 * booking goes on to the payment dialog. Each failure is a message key for the Alert dialog.
 */
export function useBookFlow(context: { form: 'rider' | 'admin'; user: { usertype: UserType } | null; carTypes: CarType[]; delivery: boolean; onFailure: (key: string) => void }) {
  const [state, setState] = useState<BookStep>({ step: 'idle' });
  const create = useCreateBooking();
  const { onFailure } = context;

  const estimate = (fields: BookingFormFields, choices: Choices) => {
    setState({ step: 'estimating' });
    requestEstimate({ pickup: fields.pickup, drop: fields.drop, carType: fields.carType, ...choices }).then(
      (answer) => { setState({ step: 'estimated', fields, choices, estimate: answer }); },
      (error: unknown) => {
        setState({ step: 'idle' });
        onFailure(errorKey(error));
      },
    );
  };

  return {
    state,
    busy: create.isPending || state.step === 'estimating',
    book: (draft: BookingDraft) => {
      // Delivery details are asked for in the estimate dialog, so they are checked there.
      const checked = validateBookingForm(draft, { form: context.form, user: context.user, appCategory: 'taxi', now: Date.now() });
      if (!checked.ok) {
        onFailure(checked.key);
        return;
      }
      const carType = context.carTypes.find((type) => type.name === checked.value.carType);
      if (context.delivery && carType && (carType.parcelTypes.length > 0 || carType.options.length > 0)) setState({ step: 'choosing', fields: checked.value, carType });
      else estimate(checked.value, {});
    },
    choose: (choices: Choices) => {
      if (state.step === 'choosing') estimate(state.fields, choices);
    },
    confirm: (terms: BookingTerms) => {
      if (state.step !== 'estimated') return;
      const { fields, choices } = state;
      create.mutate(
        { pickup: fields.pickup, drop: fields.drop, carType: fields.carType, bookLater: fields.bookLater, ...(fields.bookLater ? { tripdate: fields.tripdate } : {}), ...(fields.customer ? { customer: fields.customer } : {}), ...choices, ...terms },
        {
          onSuccess: (booking) => {
            setState(booking.status === 'PAYMENT_PENDING' ? { step: 'paying', booking } : { step: 'booked', booking });
            // Issue 19: a rider who has just booked wants to hear of the driver: the moment to ask for notifications.
            if (context.form === 'rider') void enableWebPush({ ask: true });
          },
          onError: (error) => { onFailure(errorKey(error)); },
        },
      );
    },
    /** Issue 17: Apply in the estimate dialog, for the trip estimated (and the admin form's rider). */
    checkPromo: (promo: string): Promise<PromoCheck> => {
      if (state.step !== 'estimated') return Promise.reject(new Error('no estimate to apply a promo to'));
      const { fields, choices } = state;
      return requestPromoCheck({ pickup: fields.pickup, drop: fields.drop, carType: fields.carType, promo, ...choices, ...(fields.customer ? { customer: fields.customer } : {}) });
    },
    invalid: (key: ErrorKey) => {
      onFailure(key);
    },
    reset: () => {
      setState({ step: 'idle' });
    },
  };
}
