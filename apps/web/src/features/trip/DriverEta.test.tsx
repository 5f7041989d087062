import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { bookingOf } from '../../test/booking';
import { fakeApi, refusal } from '../../test/fake-api';
import { queryWrapper } from '../../test/render';
import { DriverEta } from './DriverEta';

const settings = { 'GET /api/settings': { status: 200, body: { settings: {} } } };

describe("the rider's ETA line (issue 16)", () => {
  it('says how far the driver is while it comes', async () => {
    fakeApi({ ...settings, 'GET /api/bookings/b1/eta': { status: 200, body: { target: 'pickup', distance: 1.24, duration: 250, approximate: false, at: 1 } } });
    render(<DriverEta booking={bookingOf({ status: 'ACCEPTED' })} driverAt={null} />, { wrapper: queryWrapper().wrapper });
    expect((await screen.findByTestId('driver-eta')).textContent).toBe('driver_eta_pickup');
  });

  it('says when the trip arrives once started', async () => {
    fakeApi({ ...settings, 'GET /api/bookings/b1/eta': { status: 200, body: { target: 'drop', distance: 4, duration: 600, approximate: false, at: 1 } } });
    render(<DriverEta booking={bookingOf({ status: 'STARTED' })} driverAt={null} />, { wrapper: queryWrapper().wrapper });
    expect((await screen.findByTestId('driver-eta')).textContent).toBe('driver_eta_drop');
  });

  it('shows nothing, and asks nothing, before a driver took the trip or after the drop; nothing either when the server has no ETA', async () => {
    const calls = fakeApi({ ...settings, 'GET /api/bookings/b1/eta': refusal(404, 'location_fetch_error') });
    const { rerender } = render(<DriverEta booking={bookingOf({ status: 'REACHED' })} driverAt={null} />, { wrapper: queryWrapper().wrapper });
    expect(calls.filter((call) => call.path.endsWith('/eta'))).toEqual([]);
    rerender(<DriverEta booking={bookingOf({ status: 'ACCEPTED' })} driverAt={null} />);
    await waitFor(() => { expect(calls.some((call) => call.path.endsWith('/eta'))).toBe(true); });
    expect(screen.queryByTestId('driver-eta')).toBeNull();
  });
});
