import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { bookingOf } from '../../test/booking';
import { DriverCard } from './DriverCard';

describe("the live page's driver card (issue 17)", () => {
  it("shows the driver, the rating, the car and its plate, and calls the driver's number", () => {
    render(<DriverCard booking={bookingOf({ status: 'ACCEPTED' })} />);
    const card = screen.getByRole('region', { name: 'your_driver' });
    expect(card.textContent).toContain('Dan Driver');
    expect(screen.getByTestId('driver-rating').textContent).toBe('driver_rating');
    expect(card.textContent).toContain('Toyota Prius · Economy');
    expect(screen.getByTestId('driver-plate').textContent).toBe('LD21 ABC');
    // No photo on file: the driver's initials stand in.
    expect(screen.getByText('DD')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'call_driver' }).getAttribute('href')).toBe('tel:+447700900123');
  });

  it('offers no call once the trip is paid, and says a driver without ratings is new', () => {
    render(<DriverCard booking={bookingOf({ status: 'COMPLETE', driverRating: 0, vehicleMake: null, vehicleModel: null })} />);
    expect(screen.queryByRole('link', { name: 'call_driver' })).toBeNull();
    expect(screen.getByTestId('driver-rating').textContent).toBe('new_driver');
    expect(screen.getByRole('region', { name: 'your_driver' }).textContent).toContain('Economy');
  });
});
