import { isBookLaterLeadMet, type AppCategory, type UserType } from '../booking-status';
import { isLatLng, type LatLng } from '../geo';
import { fail, ok, type Result } from '../result';
import { fieldOf, isNonBlank, MAX_NAME_LENGTH, numberOf, textOf } from './fields';
import { DELIVERY_PHONE_MIN_EXCLUSIVE } from '../spec-constants';

export type Place = LatLng & { add: string };

export type DeliveryDetails = {
  deliveryPerson: string;
  deliveryPersonPhone: string;
  pickUpInstructions: string;
  deliveryInstructions: string;
};

export type BookingFormFields = {
  pickup: Place;
  drop: Place;
  carType: string;
  bookLater: boolean;
  /** Epoch ms; `now` for book now. */
  tripdate: number;
  /** The rider's uid, admin form only. */
  customer?: string;
  delivery?: DeliveryDetails;
};

export type BookingFormContext = {
  /** The rider form on the home page, or the admin's form at /addbookings. */
  form: 'rider' | 'admin';
  /** The signed-in user, or null. */
  user: { usertype: UserType } | null;
  appCategory: AppCategory;
  now: number;
};

const MAX_ADDRESS_LENGTH = 300;
const MAX_INSTRUCTIONS_LENGTH = 500;
// Section 5: digits, spaces or dashes (an optional leading plus), at least 7, then an optional
// extension such as "x12", "ext. 12" or "#12".
const DELIVERY_PHONE = /^\+?[\d -]{7,20}(?:\s*(?:x|ext\.?|#)\s*\d{1,6})?$/i;

function placeOf(value: unknown): Place | undefined {
  if (!isLatLng(value)) return undefined;
  const add = textOf(fieldOf(value, 'add'), MAX_ADDRESS_LENGTH);
  if (add === undefined || !add.trim()) return undefined;
  return { lat: value.lat, lng: value.lng, add: add.trim() };
}

/** Section 5: the delivery phone is longer than 6 characters and matches the phone pattern. */
export const isDeliveryPhone = (value: unknown): value is string =>
  typeof value === 'string' && value.trim().length > DELIVERY_PHONE_MIN_EXCLUSIVE && DELIVERY_PHONE.test(value.trim());

/**
 * Section 5 delivery details: a recipient name that is not blank and a valid phone, else
 * deliveryDetailMissing; instructions are optional text.
 */
export function validateDeliveryDetails(input: unknown): Result<DeliveryDetails> {
  const person = fieldOf(input, 'deliveryPerson');
  const phone = fieldOf(input, 'deliveryPersonPhone');
  const pickUp = fieldOf(input, 'pickUpInstructions') ?? '';
  const deliver = fieldOf(input, 'deliveryInstructions') ?? '';
  if (!isNonBlank(person, MAX_NAME_LENGTH)) return fail('deliveryDetailMissing', 'deliveryPerson');
  if (!isDeliveryPhone(phone)) return fail('deliveryDetailMissing', 'deliveryPersonPhone');
  const pickUpText = textOf(pickUp, MAX_INSTRUCTIONS_LENGTH);
  const deliverText = textOf(deliver, MAX_INSTRUCTIONS_LENGTH);
  if (pickUpText === undefined) return fail('deliveryDetailMissing', 'pickUpInstructions');
  if (deliverText === undefined) return fail('deliveryDetailMissing', 'deliveryInstructions');
  return ok({
    deliveryPerson: person.trim(),
    deliveryPersonPhone: phone.trim(),
    pickUpInstructions: pickUpText.trim(),
    deliveryInstructions: deliverText.trim(),
  });
}

/**
 * Section 5 booking forms, in the order a person meets them: signed in (must_login); the rider
 * form is for riders (user_issue_contact_admin); pickup, drop, car type and, on the admin form, a
 * rider (select_proper); book later needs a date-time (select_proper) at least 15 minutes ahead
 * (past_booking_error); delivery needs its details (deliveryDetailMissing).
 */
export function validateBookingForm(input: unknown, ctx: BookingFormContext): Result<BookingFormFields> {
  if (!ctx.user) return fail('must_login');
  if (ctx.form === 'rider' && ctx.user.usertype !== 'rider') return fail('user_issue_contact_admin');
  if (ctx.form === 'admin' && ctx.user.usertype !== 'admin') return fail('forbidden');
  const pickup = placeOf(fieldOf(input, 'pickup'));
  if (!pickup) return fail('select_proper', 'pickup');
  const drop = placeOf(fieldOf(input, 'drop'));
  if (!drop) return fail('select_proper', 'drop');
  const carType = fieldOf(input, 'carType');
  if (!isNonBlank(carType, MAX_NAME_LENGTH)) return fail('select_proper', 'carType');
  const fields: BookingFormFields = { pickup, drop, carType: carType.trim(), bookLater: false, tripdate: ctx.now };
  if (ctx.form === 'admin') {
    const customer = fieldOf(input, 'customer');
    if (!isNonBlank(customer, 128)) return fail('select_proper', 'customer');
    fields.customer = customer.trim();
  }
  const bookLater = fieldOf(input, 'bookLater');
  if (bookLater !== undefined && typeof bookLater !== 'boolean') return fail('select_proper', 'bookLater');
  if (bookLater) {
    const tripdate = numberOf(fieldOf(input, 'tripdate'));
    if (tripdate === undefined || !Number.isSafeInteger(tripdate) || tripdate <= 0) {
      return fail('select_proper', 'tripdate');
    }
    if (!isBookLaterLeadMet(tripdate, ctx.now)) return fail('past_booking_error', 'tripdate');
    fields.bookLater = true;
    fields.tripdate = tripdate;
  }
  if (ctx.appCategory === 'delivery') {
    const delivery = validateDeliveryDetails(input);
    if (!delivery.ok) return delivery;
    fields.delivery = delivery.value;
  }
  return ok(fields);
}
