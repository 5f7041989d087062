import type { Estimate, User } from '@rideway/contract';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { SETTINGS } from '../../api/settings';
import { fakeApi } from '../../test/fake-api';
import { queryWrapper } from '../../test/render';
import { BookingForm } from './BookingForm';
import { EstimateDialog } from './EstimateDialog';

const ESTIMATE: Estimate = { estimateFare: 12.5, totalCost: 11, convenience_fees: 1.5, grandTotal: 12.5, distance: 3.2, duration: 600, approximate: false };

/** The settings the server answers; `appcat` switches delivery mode on. */
const settingsOf = (appcat: 'taxi' | 'delivery') => ({ appName: 'Rideway', symbol: '£', code: 'GBP', appcat });
const settingsAnswer = (appcat: 'taxi' | 'delivery') => ({ status: 200, body: { settings: settingsOf(appcat) } });

function openForm(me: Pick<User, 'id' | 'usertype'> | null) {
  const calls = fakeApi({ 'GET /api/settings': settingsAnswer('taxi'), 'GET /api/cartypes': { status: 200, body: { cartypes: [] } } });
  const router = createMemoryRouter(
    [
      { path: '/', element: <BookingForm me={me as User | null} /> },
      { path: '/login', element: <h1>login page</h1> },
    ],
    { initialEntries: ['/'] },
  );
  render(<RouterProvider router={router} />, { wrapper: queryWrapper().wrapper });
  return { router, calls };
}

describe('the booking form\'s feedback (section 5 in section 8\'s Alert dialog)', () => {
  it('asks a visitor to sign in, with a button to the login page', async () => {
    const user = userEvent.setup();
    const { router, calls } = openForm(null);
    await user.click(screen.getByRole('button', { name: 'book' }));
    const alert = await screen.findByRole('dialog', { name: 'alert' });
    expect(within(alert).getByText('must_login')).toBeTruthy();
    await user.click(within(alert).getByRole('button', { name: 'sign_in' }));
    expect(await screen.findByRole('heading', { name: 'login page' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('tells a rider what is missing, with Close only', async () => {
    const user = userEvent.setup();
    openForm({ id: 'r1', usertype: 'rider' });
    await user.click(screen.getByRole('button', { name: 'book' }));
    const alert = await screen.findByRole('dialog', { name: 'alert' });
    expect(within(alert).getByText('select_proper')).toBeTruthy();
    expect(within(alert).queryByRole('button', { name: 'sign_in' })).toBeNull();
    await user.click(within(alert).getByRole('button', { name: 'close' }));
    await waitFor(() => { expect(screen.queryByRole('dialog', { name: 'alert' })).toBeNull(); });
  });
});

/** The dialog opens after the form has read the settings, so they are in the cache already. */
function openEstimate(appcat: 'taxi' | 'delivery', providers?: { name: string; link: string }[]) {
  fakeApi({ 'GET /api/settings': settingsAnswer(appcat), ...(providers ? { 'GET /get_providers': { status: 200, body: providers } } : {}) });
  const { client, wrapper } = queryWrapper();
  client.setQueryData(SETTINGS, settingsOf(appcat));
  const onConfirm = vi.fn();
  const onInvalid = vi.fn();
  render(<EstimateDialog estimate={ESTIMATE} busy={false} onConfirm={onConfirm} onCancel={() => undefined} onInvalid={onInvalid} />, { wrapper });
  return { onConfirm, onInvalid };
}

describe('the estimate dialog (section 4)', () => {
  it('shows the fare and confirms with the chosen payment mode and promo code', async () => {
    const user = userEvent.setup();
    const { onConfirm } = openEstimate('taxi');
    expect(screen.getByTestId('estimate-fare').textContent).toBe('£12.50 GBP');
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'payment_cash' }).checked).toBe(true);
    await user.click(screen.getByRole('radio', { name: 'payment_wallet' }));
    await user.type(screen.getByRole('textbox', { name: 'promo_code' }), 'save10');
    await user.click(screen.getByRole('button', { name: 'confirm_booking' }));
    expect(onConfirm).toHaveBeenCalledExactlyOnceWith({ payment_mode: 'wallet', promo: 'SAVE10' });
  });

  it('in delivery mode starts on card and refuses a parcel without its recipient', async () => {
    const user = userEvent.setup();
    const { onConfirm, onInvalid } = openEstimate('delivery');
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'payment_card' }).checked).toBe(true);
    expect(screen.getByRole('textbox', { name: 'deliveryPerson' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'confirm_booking' }));
    expect(onInvalid).toHaveBeenCalledExactlyOnceWith('deliveryDetailMissing');
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('offers no card when no payment provider is in force (issue 15): a delivery is paid from the wallet', async () => {
    const user = userEvent.setup();
    const { onConfirm } = openEstimate('delivery', []);
    await waitFor(() => { expect(screen.queryByRole('radio', { name: 'payment_card' })).toBeNull(); });
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'payment_wallet' }).checked).toBe(true);
    await user.type(screen.getByRole('textbox', { name: 'deliveryPerson' }), 'Ann Lee');
    await user.type(screen.getByRole('textbox', { name: 'deliveryPersonPhone' }), '020 7946 0958');
    await user.click(screen.getByRole('button', { name: 'confirm_booking' }));
    expect(onConfirm).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ payment_mode: 'wallet' }));
  });

  it('offers card when a provider is listed', async () => {
    openEstimate('delivery', [{ name: 'test', link: '/api/payments/test/checkout' }]);
    await waitFor(() => { expect(screen.getByRole<HTMLInputElement>('radio', { name: 'payment_card' }).checked).toBe(true); });
  });
});
