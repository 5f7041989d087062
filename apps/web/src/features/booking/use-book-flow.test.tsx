import type { CarType, Estimate } from '@rideway/contract';
import type { Place, UserType } from '@rideway/domain';
import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, refusal, type ApiAnswer } from '../../test/fake-api';
import { queryWrapper } from '../../test/render';
import { useBookFlow, type BookingDraft } from './use-book-flow';

const PICKUP: Place = { lat: 51.5007, lng: -0.1246, add: 'Westminster' };
const DROP: Place = { lat: 51.5033, lng: -0.1195, add: 'London Eye' };
const ESTIMATE: Estimate = { estimateFare: 12.5, totalCost: 11, convenience_fees: 1.5, grandTotal: 12.5, distance: 3.2, duration: 600, approximate: false };

const carType = (name: string, parcels = false): CarType => ({
  id: name.toLowerCase(),
  name,
  image: '',
  base_fare: 2,
  rate_per_unit_distance: 1,
  rate_per_hour: 10,
  min_fare: 5,
  convenience_fees: 10,
  convenience_fee_type: 'percentage',
  extra_info: '',
  createdAt: 0,
  parcelTypes: parcels ? [{ description: 'Box', amount: 2 }, { description: 'Crate', amount: 5 }] : [],
  options: [],
  cancelSlab: [],
});
const CAR_TYPES = [carType('Economy'), carType('Van', true)];

const draft = (changes: Partial<BookingDraft> = {}): BookingDraft => ({ pickup: PICKUP, drop: DROP, carType: 'Economy', bookLater: false, tripdate: Date.now(), ...changes });

function renderFlow(options: { usertype?: UserType | null; form?: 'rider' | 'admin'; delivery?: boolean; estimate?: ApiAnswer; booking?: ApiAnswer } = {}) {
  const calls = fakeApi({
    'POST /api/estimates': options.estimate ?? { status: 200, body: ESTIMATE },
    'POST /api/bookings': options.booking ?? { status: 201, body: { id: 'b1', booking_id: 'RW0001', status: 'NEW' } },
  });
  const onFailure = vi.fn<(key: string) => void>();
  const usertype = options.usertype === undefined ? 'rider' : options.usertype;
  const { wrapper } = queryWrapper();
  const { result } = renderHook(
    () => useBookFlow({ form: options.form ?? 'rider', user: usertype ? { usertype } : null, carTypes: CAR_TYPES, delivery: options.delivery ?? false, onFailure }),
    { wrapper },
  );
  return { result, calls, onFailure };
}

describe('the book flow (section 4)', () => {
  it('asks a visitor to sign in and sends nothing', () => {
    const { result, calls, onFailure } = renderFlow({ usertype: null });
    act(() => { result.current.book(draft()); });
    expect(onFailure).toHaveBeenCalledExactlyOnceWith('must_login');
    expect(result.current.state.step).toBe('idle');
    expect(calls).toEqual([]);
  });

  it('answers each missing field with section 5 key before asking for an estimate', () => {
    const { result, calls, onFailure } = renderFlow();
    act(() => { result.current.book(draft({ pickup: null })); });
    act(() => { result.current.book(draft({ carType: '' })); });
    // Book later needs 15 minutes' lead.
    act(() => { result.current.book(draft({ bookLater: true, tripdate: Date.now() + 60_000 })); });
    expect(onFailure.mock.calls).toEqual([['select_proper'], ['select_proper'], ['past_booking_error']]);
    expect(calls).toEqual([]);
  });

  it('refuses the rider form to a driver, and the admin form without a rider', () => {
    const driver = renderFlow({ usertype: 'driver' });
    act(() => { driver.result.current.book(draft()); });
    expect(driver.onFailure).toHaveBeenCalledExactlyOnceWith('user_issue_contact_admin');
    const admin = renderFlow({ usertype: 'admin', form: 'admin' });
    act(() => { admin.result.current.book(draft()); });
    expect(admin.onFailure).toHaveBeenCalledExactlyOnceWith('select_proper');
  });

  it('asks for the estimate of the checked form and shows it', async () => {
    const { result, calls, onFailure } = renderFlow();
    act(() => { result.current.book(draft({ carType: ' Economy ' })); });
    expect(result.current.state.step).toBe('estimating');
    expect(result.current.busy).toBe(true);
    await waitFor(() => { expect(result.current.state.step).toBe('estimated'); });
    expect(calls).toEqual([{ method: 'POST', path: '/api/estimates', body: { pickup: PICKUP, drop: DROP, carType: 'Economy' } }]);
    const { state } = result.current;
    expect(state.step === 'estimated' && state.estimate).toEqual(ESTIMATE);
    expect(result.current.busy).toBe(false);
    expect(onFailure).not.toHaveBeenCalled();
  });

  it('shows a refused estimate as its key and goes back to the form', async () => {
    const { result, onFailure } = renderFlow({ estimate: refusal(422, 'no_route_found') });
    act(() => { result.current.book(draft()); });
    await waitFor(() => { expect(onFailure).toHaveBeenCalledExactlyOnceWith('no_route_found'); });
    expect(result.current.state.step).toBe('idle');
  });

  it('in delivery mode asks for the parcel type first and estimates with the choice', async () => {
    const { result, calls } = renderFlow({ delivery: true });
    act(() => { result.current.book(draft({ carType: 'Van' })); });
    const { state } = result.current;
    expect(state.step).toBe('choosing');
    expect(state.step === 'choosing' && state.carType.name).toBe('Van');
    expect(calls).toEqual([]);
    act(() => { result.current.choose({ parcelTypeIndex: 1 }); });
    await waitFor(() => { expect(result.current.state.step).toBe('estimated'); });
    expect(calls[0]?.body).toEqual({ pickup: PICKUP, drop: DROP, carType: 'Van', parcelTypeIndex: 1 });
  });

  it('estimates at once in delivery mode for a car type without parcel choices', async () => {
    const { result, calls } = renderFlow({ delivery: true });
    act(() => { result.current.book(draft()); });
    await waitFor(() => { expect(result.current.state.step).toBe('estimated'); });
    expect(calls[0]?.body).toEqual({ pickup: PICKUP, drop: DROP, carType: 'Economy' });
  });

  it('books with the estimate dialog\'s terms and the book-later date', async () => {
    const { result, calls } = renderFlow();
    const tripdate = Date.now() + 60 * 60_000;
    act(() => { result.current.book(draft({ bookLater: true, tripdate })); });
    await waitFor(() => { expect(result.current.state.step).toBe('estimated'); });
    act(() => { result.current.confirm({ payment_mode: 'wallet', promo: 'SAVE10' }); });
    await waitFor(() => { expect(result.current.state.step).toBe('booked'); });
    expect(calls[1]).toEqual({ method: 'POST', path: '/api/bookings', body: { pickup: PICKUP, drop: DROP, carType: 'Economy', bookLater: true, tripdate, payment_mode: 'wallet', promo: 'SAVE10' } });
    const { state } = result.current;
    expect(state.step === 'booked' && state.booking.booking_id).toBe('RW0001');
  });

  it('books now without a trip date, and for the admin\'s chosen rider', async () => {
    const { result, calls } = renderFlow({ usertype: 'admin', form: 'admin' });
    act(() => { result.current.book(draft({ customer: 'rider-1' })); });
    await waitFor(() => { expect(result.current.state.step).toBe('estimated'); });
    act(() => { result.current.confirm({ payment_mode: 'cash' }); });
    await waitFor(() => { expect(result.current.state.step).toBe('booked'); });
    expect(calls[1]?.body).toEqual({ pickup: PICKUP, drop: DROP, carType: 'Economy', bookLater: false, customer: 'rider-1', payment_mode: 'cash' });
  });

  it('goes on to the payment dialog for a booking that waits for its card payment', async () => {
    const { result } = renderFlow({ booking: { status: 201, body: { id: 'b2', booking_id: 'RW0002', status: 'PAYMENT_PENDING' } } });
    act(() => { result.current.book(draft()); });
    await waitFor(() => { expect(result.current.state.step).toBe('estimated'); });
    act(() => { result.current.confirm({ payment_mode: 'card' }); });
    await waitFor(() => { expect(result.current.state.step).toBe('paying'); });
    const { state } = result.current;
    expect(state.step === 'paying' && state.booking.id).toBe('b2');
  });

  it('keeps the estimate open when the booking is refused, with the refusal\'s key', async () => {
    const { result, onFailure } = renderFlow({ booking: refusal(422, 'insufficient_balance') });
    act(() => { result.current.book(draft()); });
    await waitFor(() => { expect(result.current.state.step).toBe('estimated'); });
    act(() => { result.current.confirm({ payment_mode: 'wallet' }); });
    await waitFor(() => { expect(onFailure).toHaveBeenCalledExactlyOnceWith('insufficient_balance'); });
    expect(result.current.state.step).toBe('estimated');
  });

  it('ignores a confirm or a choice out of turn, and reset goes back to the form', async () => {
    const { result, calls } = renderFlow();
    act(() => {
      result.current.confirm({ payment_mode: 'cash' });
      result.current.choose({ parcelTypeIndex: 0 });
    });
    expect(calls).toEqual([]);
    act(() => { result.current.book(draft()); });
    await waitFor(() => { expect(result.current.state.step).toBe('estimated'); });
    act(() => { result.current.reset(); });
    expect(result.current.state.step).toBe('idle');
  });

  it('passes the estimate dialog\'s refusal on as it is', () => {
    const { result, onFailure } = renderFlow();
    act(() => { result.current.invalid('deliveryDetailMissing'); });
    expect(onFailure).toHaveBeenCalledExactlyOnceWith('deliveryDetailMissing');
  });
});
