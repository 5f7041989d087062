import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { bookingOf } from '../../test/booking';
import { fakeApi } from '../../test/fake-api';
import { queryWrapper } from '../../test/render';
import { DriverTripPanel } from './DriverTripPanel';
import { announceCancel } from './offer-alert';

vi.mock('./offer-alert', () => ({ announceCancel: vi.fn(), announceOffer: vi.fn() }));

const delivery = {
  deliveryPerson: 'Sam Recipient',
  deliveryPersonPhone: '555 0100',
  pickUpInstructions: 'Ring the bell twice',
  deliveryInstructions: 'Leave at reception',
  parcelTypeSelected: { description: 'Documents', amount: 1 },
  optionSelected: { description: 'Fragile', amount: 2 },
};

describe("the driver's trip panel (issue 17)", () => {
  it("a delivery, once accepted, names its recipient (a tap to call), the instructions and the parcel's type and option", () => {
    fakeApi({ 'GET /api/settings': { status: 200, body: { settings: { appcat: 'delivery' } } } });
    render(<DriverTripPanel booking={bookingOf({ status: 'ACCEPTED', ...delivery })} />, { wrapper: queryWrapper().wrapper });
    const details = screen.getByTestId('delivery-details');
    for (const text of ['Sam Recipient', 'Ring the bell twice', 'Leave at reception', 'Documents', 'Fragile']) expect(details.textContent).toContain(text);
    expect(within(details).getByRole('link', { name: '555 0100' }).getAttribute('href')).toBe('tel:5550100');
  });

  it('a taxi trip shows no delivery details', () => {
    fakeApi({ 'GET /api/settings': { status: 200, body: { settings: {} } } });
    render(<DriverTripPanel booking={bookingOf({ status: 'ACCEPTED' })} />, { wrapper: queryWrapper().wrapper });
    expect(screen.queryByTestId('delivery-details')).toBeNull();
  });

  it("the rider's cancel while the driver is on the way sounds once and says who cancelled and why", async () => {
    fakeApi({ 'GET /api/settings': { status: 200, body: { settings: {} } } });
    const { wrapper } = queryWrapper();
    const { rerender } = render(<DriverTripPanel booking={bookingOf({ status: 'ACCEPTED' })} />, { wrapper });
    expect(announceCancel).not.toHaveBeenCalled();
    const cancelled = bookingOf({ status: 'CANCELLED', cancelledBy: 'rider', reason: 'Changed my plans' });
    rerender(<DriverTripPanel booking={cancelled} />);
    const dialog = await screen.findByRole('dialog', { name: 'alert' });
    expect(dialog.textContent).toContain('trip_cancelled_by_rider cancel_reason_title: Changed my plans');
    rerender(<DriverTripPanel booking={{ ...cancelled }} />);
    expect(announceCancel).toHaveBeenCalledTimes(1);
  });
});
