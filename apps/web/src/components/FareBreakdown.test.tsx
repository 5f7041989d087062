import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../api/settings';
import { bookingOf } from '../test/booking';
import { fakeApi } from '../test/fake-api';
import { queryWrapper } from '../test/render';
import { FareBreakdown } from './FareBreakdown';

function show(booking: ReturnType<typeof bookingOf>) {
  const settings = { appName: 'Rideway', symbol: '£', code: 'GBP', appcat: 'taxi', convert_to_mile: true };
  fakeApi({ 'GET /api/settings': { status: 200, body: { settings } } });
  const { client, wrapper } = queryWrapper();
  client.setQueryData(SETTINGS, settings);
  return render(<FareBreakdown booking={booking} />, { wrapper });
}

const row = (key: string) => document.querySelector(`[data-fare-row="${key}"]`)?.textContent;

describe('the fare breakdown (issue 17): estimate 12.17, charged 9.34, explained', () => {
  it('lists the parts, the fee, the discount, the total and how it was paid', () => {
    show(bookingOf());
    expect(screen.getByRole('region', { name: 'fare_breakdown' })).toBeTruthy();
    expect(row('base')).toBe('fare_base£2.50');
    expect(row('distance')).toBe('fare_distance£4.92');
    expect(row('time')).toBe('fare_time£3.60');
    expect(row('minimum')).toBe('fare_minimum£0.20');
    expect(row('extras')).toBeUndefined();
    expect(row('cap')).toBeUndefined();
    expect(row('fee')).toBe('convenience_fees£1.12');
    expect(row('trip_cost')).toBe('fare_trip_cost£12.34');
    expect(row('discount')).toBe('promo_discount−£3.00');
    expect(screen.getByTestId('fare-total').textContent).toBe('£9.34');
    expect(row('wallet')).toBe('fare_paid_by£5.00');
    expect(row('card')).toBe('fare_paid_by£4.34');
    expect(row('cash')).toBeUndefined();
    // The estimate and what the fare was measured on, since they differ.
    expect(screen.getByTestId('fare-note').textContent).toBe('fare_estimate_note fare_driven_note');
  });

  it('before payment says how it is to be paid; a capped fare says so; no note before the drop', () => {
    show(bookingOf({ status: 'STARTED', trip_end_time: null, trip_cost: 12.17, fareCapped: true, uncappedFare: 20, fare_breakdown: { base_fare: 2.5, distance_fare: 5, time_fare: 4, extras: 0, min_fare_top_up: 0, fare_cap_reduction: 1 } }));
    const region = screen.getByRole('region', { name: 'fare_breakdown' });
    expect(within(region).getByText('fare_to_pay_by')).toBeTruthy();
    expect(row('cap')).toBe('fare_cap−£1.00');
    expect(row('wallet')).toBeUndefined();
    expect(screen.queryByTestId('fare-note')).toBeNull();
    expect(screen.getByText('fare_capped_note')).toBeTruthy();
  });

  it('shows what it can of a booking without recorded parts, and nothing for a cancelled one', () => {
    const { unmount } = show(bookingOf({ fare_breakdown: null }));
    expect(row('base')).toBeUndefined();
    expect(row('trip_cost')).toBe('fare_trip_cost£12.34');
    unmount();
    show(bookingOf({ status: 'CANCELLED' }));
    expect(screen.queryByRole('region', { name: 'fare_breakdown' })).toBeNull();
  });
});
