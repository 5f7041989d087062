import { describe, expect, it } from 'vitest';
import { isDeliveryPhone, validateBookingForm, validateDeliveryDetails, type BookingFormContext } from './booking-form';

const now = Date.parse('2026-11-22T10:00:00Z');
const riderForm: BookingFormContext = { form: 'rider', user: { usertype: 'rider' }, appCategory: 'taxi', now };
const adminForm: BookingFormContext = { ...riderForm, form: 'admin', user: { usertype: 'admin' } };
const pickup = { lat: 51.5, lng: -0.12, add: 'Station Road' };
const drop = { lat: 51.52, lng: -0.1, add: 'High Street' };
const form = { pickup, drop, carType: 'Sedan' };
const delivery = { deliveryPerson: 'Sam', deliveryPersonPhone: '555 0100', pickUpInstructions: 'Ring twice', deliveryInstructions: '' };

describe('section 5: the booking forms', () => {
  it('accepts book now with pickup, drop and car type', () => {
    expect(validateBookingForm(form, riderForm)).toEqual({
      ok: true,
      value: { pickup, drop, carType: 'Sedan', bookLater: false, tripdate: now },
    });
  });

  it("needs a signed-in user ('must login')", () => {
    expect(validateBookingForm(form, { ...riderForm, user: null })).toEqual({ ok: false, key: 'must_login' });
  });

  it("sends a signed-in non-rider on the rider form to the admin ('user issue contact admin')", () => {
    for (const usertype of ['driver', 'fleetadmin', 'admin'] as const) {
      expect(validateBookingForm(form, { ...riderForm, user: { usertype } })).toEqual({ ok: false, key: 'user_issue_contact_admin' });
    }
  });

  it('needs pickup, drop and car type (select_proper)', () => {
    expect(validateBookingForm({ ...form, pickup: undefined }, riderForm)).toEqual({ ok: false, key: 'select_proper', field: 'pickup' });
    expect(validateBookingForm({ ...form, drop: { ...drop, add: ' ' } }, riderForm)).toEqual({ ok: false, key: 'select_proper', field: 'drop' });
    expect(validateBookingForm({ ...form, drop: { ...drop, lat: 200 } }, riderForm)).toEqual({ ok: false, key: 'select_proper', field: 'drop' });
    expect(validateBookingForm({ ...form, carType: '' }, riderForm)).toEqual({ ok: false, key: 'select_proper', field: 'carType' });
  });

  it('on the admin form also needs a rider (select_proper); only admins use it', () => {
    expect(validateBookingForm(form, adminForm)).toEqual({ ok: false, key: 'select_proper', field: 'customer' });
    expect(validateBookingForm({ ...form, customer: 'rider-1' }, adminForm).ok).toBe(true);
    expect(validateBookingForm({ ...form, customer: 'rider-1' }, { ...adminForm, user: { usertype: 'rider' } })).toEqual({ ok: false, key: 'forbidden' });
  });

  it('book later needs a date-time (select_proper) at least 15 minutes ahead (past_booking_error)', () => {
    expect(validateBookingForm({ ...form, bookLater: true }, riderForm)).toEqual({ ok: false, key: 'select_proper', field: 'tripdate' });
    expect(validateBookingForm({ ...form, bookLater: true, tripdate: now + 14 * 60_000 }, riderForm)).toEqual({
      ok: false,
      key: 'past_booking_error',
      field: 'tripdate',
    });
    expect(validateBookingForm({ ...form, bookLater: true, tripdate: now + 15 * 60_000 }, riderForm)).toEqual({
      ok: true,
      value: { pickup, drop, carType: 'Sedan', bookLater: true, tripdate: now + 15 * 60_000 },
    });
    expect(validateBookingForm({ ...form, bookLater: 'yes' }, riderForm)).toEqual({ ok: false, key: 'select_proper', field: 'bookLater' });
  });

  it('in delivery needs a recipient and a phone (deliveryDetailMissing)', () => {
    const deliveryForm = { ...riderForm, appCategory: 'delivery' as const };
    expect(validateBookingForm(form, deliveryForm)).toEqual({ ok: false, key: 'deliveryDetailMissing', field: 'deliveryPerson' });
    const result = validateBookingForm({ ...form, ...delivery }, deliveryForm);
    expect(result.ok && result.value.delivery).toEqual({ ...delivery, deliveryInstructions: '' });
    expect(validateDeliveryDetails({ ...delivery, deliveryPersonPhone: '12345' })).toEqual({
      ok: false,
      key: 'deliveryDetailMissing',
      field: 'deliveryPersonPhone',
    });
    expect(validateDeliveryDetails({ ...delivery, pickUpInstructions: 'x'.repeat(501) })).toEqual({
      ok: false,
      key: 'deliveryDetailMissing',
      field: 'pickUpInstructions',
    });
  });

  it('section 5: a delivery phone is longer than 6, of digits, spaces or dashes, with an optional extension', () => {
    for (const phone of ['5550100', '555-0100', '+44 20 7946 0958', '555 0100 x12', '555-0100 ext. 7', '5550100#3']) {
      expect(isDeliveryPhone(phone)).toBe(true);
    }
    for (const phone of ['555010', '555.0100', 'call me', '555-0100 ext', '', 5550100]) {
      expect(isDeliveryPhone(phone)).toBe(false);
    }
  });
});
