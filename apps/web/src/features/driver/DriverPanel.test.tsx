import type { DriverOffer, User } from '@rideway/contract';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { bookingOf } from '../../test/booking';
import { fakeApi } from '../../test/fake-api';
import { queryWrapper } from '../../test/render';
import { DriverPanel } from './DriverPanel';

vi.mock('../../api/live', () => ({ useLiveTopic: () => undefined }));

const me = { id: 'd1', usertype: 'driver', driverActiveStatus: true, carType: 'Economy', vehicleNumber: 'LD21 ABC' } as User;
const offer = (id: string): DriverOffer => ({
  ...bookingOf({ id, booking_id: `RW${id}`, status: 'NEW', driver: null }),
  pickupLeg: { distance: 1.8, duration: 240 },
  offerExpiresAt: Date.now() + 20_000,
});

function renderPanel() {
  const { wrapper: Queries } = queryWrapper();
  return render(
    <MemoryRouter>
      <Queries>
        <DriverPanel me={me} />
      </Queries>
    </MemoryRouter>,
  );
}

describe("the driver's offers (issue 17)", () => {
  it("shows each offer's countdown and leg to the pickup, and a decline takes it off at once", async () => {
    let tasks = [offer('b1'), offer('b2')];
    const calls = fakeApi({
      'GET /api/driver/tasks': () => ({ status: 200, body: { tasks } }),
      'GET /api/bookings': { status: 200, body: { bookings: [] } },
      'GET /api/settings': { status: 200, body: { settings: {} } },
      'POST /api/bookings/b1/decline': () => {
        tasks = tasks.filter((task) => task.id !== 'b1');
        return { status: 200, body: { bookingId: 'b1' } };
      },
    });
    renderPanel();
    const first = await screen.findByRole('article', { name: 'trip_offer RWb1' });
    expect(within(first).getByTestId('offer-countdown').textContent).toBe('offer_expires_in');
    expect(within(first).getByTestId('pickup-leg').textContent).toBe('pickup_leg');
    await userEvent.setup().click(within(first).getByRole('button', { name: 'decline_offer' }));
    await waitFor(() => { expect(screen.queryByRole('article', { name: 'trip_offer RWb1' })).toBeNull(); });
    expect(screen.getByRole('article', { name: 'trip_offer RWb2' })).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual(['/api/bookings/b1/decline']);
  });

  it('an offer without a known leg or timeout shows neither', async () => {
    fakeApi({
      'GET /api/driver/tasks': { status: 200, body: { tasks: [{ ...offer('b3'), pickupLeg: null, offerExpiresAt: null }] } },
      'GET /api/bookings': { status: 200, body: { bookings: [] } },
      'GET /api/settings': { status: 200, body: { settings: {} } },
    });
    renderPanel();
    const card = await screen.findByRole('article', { name: 'trip_offer RWb3' });
    expect(within(card).queryByTestId('offer-countdown')).toBeNull();
    expect(within(card).queryByTestId('pickup-leg')).toBeNull();
  });
});
