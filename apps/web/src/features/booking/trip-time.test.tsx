import type { User } from '@rideway/contract';
import { toDateTimeLocal } from '@rideway/domain';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../test/fake-api';
import { queryWrapper } from '../../test/render';
import { BookingForm } from './BookingForm';

/** Issue 17: a later trip's time is the city's clock, the operator's time zone, wherever the browser is. */
describe('the book-later time is on the operator clock', () => {
  it('starts at the current time in the operator zone and says which zone it is', async () => {
    const user = userEvent.setup();
    const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    // A zone other than the browser's, so the field names it.
    const zone = browserZone === 'Pacific/Kiritimati' ? 'Pacific/Pago_Pago' : 'Pacific/Kiritimati';
    fakeApi({ 'GET /api/settings': { status: 200, body: { settings: { appName: 'Rideway', symbol: '£', code: 'GBP', appcat: 'taxi', timezone: zone } } }, 'GET /api/cartypes': { status: 200, body: { cartypes: [] } } });
    const router = createMemoryRouter([{ path: '/', element: <BookingForm me={{ id: 'r1', usertype: 'rider' } as User} /> }]);
    render(<RouterProvider router={router} />, { wrapper: queryWrapper().wrapper });
    await user.click(screen.getByRole('combobox', { name: 'booking_type' }));
    await user.click(await screen.findByRole('option', { name: 'book_later' }));
    expect(await screen.findByText('trip_time_zone')).toBeTruthy();
    const field = screen.getByLabelText<HTMLInputElement>('trip_date');
    // The minute may turn between the render and this line.
    const expected = [toDateTimeLocal(Date.now() - 60_000, zone), toDateTimeLocal(Date.now(), zone)];
    expect(expected).toContain(field.value);
  });
});
