import type { Booking, User } from '@rideway/contract';
import { NO_TAKER_REASON } from '@rideway/domain';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { fakeApi, refusal } from '../../test/fake-api';
import { queryWrapper } from '../../test/render';
import { searchPhase, SearchState } from './SearchState';

const rider = { id: 'r1', usertype: 'rider' } as User;
const booking = (fields: Partial<Booking>): Booking => ({ id: 'b1', customer: 'r1', status: 'NEW', bookLater: false, search_round: 1, driver: null, driver_name: null, cancelledBy: null, reason: null, retried_as: null, ...fields }) as Booking;
const untaken = booking({ status: 'CANCELLED', cancelledBy: 'system', reason: NO_TAKER_REASON });

function show(shown: Booking) {
  const router = createMemoryRouter([{ path: '/', element: <SearchState booking={shown} me={rider} /> }]);
  render(<RouterProvider router={router} />, { wrapper: queryWrapper().wrapper });
}

describe("a booking's search state in the rider's list (issue 17, point 1)", () => {
  it('names each phase of the search from the booking', () => {
    expect(searchPhase(booking({ bookLater: true, search_round: 0 }))).toBe('scheduled');
    expect(searchPhase(booking({ search_round: 0 }))).toBe('searching');
    expect(searchPhase(booking({ search_round: 1 }))).toBe('searching');
    expect(searchPhase(booking({ search_round: 3 }))).toBe('next_drivers');
    expect(searchPhase(booking({ status: 'ACCEPTED', driver: 'd1', driver_name: 'Dee' }))).toBe('found');
    expect(searchPhase(untaken)).toBe('no_driver');
    // Cancelled by the rider, or by the system for another reason, or a trip under way: no search to show.
    expect(searchPhase(booking({ status: 'CANCELLED', cancelledBy: 'rider', reason: NO_TAKER_REASON }))).toBeNull();
    expect(searchPhase(booking({ status: 'CANCELLED', cancelledBy: 'system', reason: 'Other' }))).toBeNull();
    expect(searchPhase(booking({ status: 'STARTED', driver: 'd1' }))).toBeNull();
  });

  it('offers the rider to book a trip nobody took again, and shows why a retry was refused', async () => {
    const user = userEvent.setup();
    const calls = fakeApi({ 'POST /api/bookings/b1/retry': refusal(409, 'no_driver_found_alert_messege') });
    show(untaken);
    expect(screen.getByText('search_no_driver')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'retry_booking' }));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'no_driver_found_alert_messege');
    expect(calls.filter((call) => call.path === '/api/bookings/b1/retry').map((call) => call.method)).toEqual(['POST']);
  });

  it('once retried, links the new booking instead of offering another retry', () => {
    fakeApi({});
    show({ ...untaken, retried_as: 'b2' });
    expect(screen.queryByRole('button', { name: 'retry_booking' })).toBeNull();
    expect(screen.getByRole('link', { name: 'retried_booking' }).getAttribute('href')).toBe('/bookings/b2');
  });

  it('offers no retry to anyone but the booking\'s rider', () => {
    fakeApi({});
    const router = createMemoryRouter([{ path: '/', element: <SearchState booking={{ ...untaken, customer: 'r2' }} me={rider} /> }]);
    render(<RouterProvider router={router} />, { wrapper: queryWrapper().wrapper });
    expect(screen.queryByRole('button', { name: 'retry_booking' })).toBeNull();
  });
});
