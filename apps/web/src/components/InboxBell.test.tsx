import type { InboxResponse, User } from '@rideway/contract';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../test/fake-api';
import { queryWrapper } from '../test/render';
import { InboxBell } from './InboxBell';

vi.mock('../api/live', () => ({ useLiveTopic: () => undefined }));

const me = { id: 'r1', usertype: 'rider' } as User;

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.hash}`}</p>;
}

function renderBell(user: User | null = me) {
  const { wrapper: Queries } = queryWrapper();
  return render(
    <MemoryRouter initialEntries={['/profile']}>
      <Queries>
        <InboxBell me={user} />
        <Routes>
          <Route path="*" element={<Where />} />
        </Routes>
      </Queries>
    </MemoryRouter>,
  );
}

const inbox = (): InboxResponse => ({
  unread: 2,
  notifications: [
    { id: 12, title: 'Rideway', msg: 'Your driver has arrived at the pickup.', screen: 'BookedCab', params: { bookingId: 'bk-1' }, createdAt: 1_795_000_000_000, readAt: null },
    { id: 11, title: 'Rideway', msg: 'A new trip request is waiting for you.', screen: 'DriverTrips', createdAt: 1_794_999_000_000, readAt: null },
    { id: 9, title: 'Wallet', msg: 'Added', screen: 'wallet', createdAt: 1_794_990_000_000, readAt: 1_794_991_000_000 },
  ],
});

describe('the inbox bell (issue 19)', () => {
  it('shows the unread count; opening a message marks it read and goes to its screen', async () => {
    const calls = fakeApi({
      'GET /api/me/notifications': () => ({ status: 200, body: inbox() }),
      'GET /api/settings': { status: 200, body: { settings: {} } },
      'POST /api/me/notifications/12/read': { status: 200, body: { unread: 1 } },
    });
    renderBell();
    const bell = await screen.findByRole('button', { name: 'inbox_open' });
    await waitFor(() => { expect(screen.getByTestId('inbox-unread').textContent).toBe('2'); });
    const user = userEvent.setup();
    await user.click(bell);
    const panel = await screen.findByRole('dialog', { name: 'inbox_title' });
    const rows = within(panel).getAllByRole('button').filter((row) => row.hasAttribute('data-unread'));
    expect(rows.map((row) => row.getAttribute('data-unread'))).toEqual(['true', 'true', 'false']);
    await user.click(within(panel).getByRole('button', { name: /arrived at the pickup/ }));
    await waitFor(() => { expect(screen.getByTestId('where').textContent).toBe('/bookings/bk-1'); });
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual(['/api/me/notifications/12/read']);
  });

  it('marks all read, and an already read message is not marked again', async () => {
    const calls = fakeApi({
      'GET /api/me/notifications': () => ({ status: 200, body: inbox() }),
      'GET /api/settings': { status: 200, body: { settings: {} } },
      'POST /api/me/notifications/read-all': { status: 200, body: { unread: 0 } },
    });
    renderBell();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'inbox_open' }));
    const panel = await screen.findByRole('dialog', { name: 'inbox_title' });
    await user.click(await within(panel).findByRole('button', { name: 'inbox_mark_all_read' }));
    await waitFor(() => { expect(within(panel).getByRole('button', { name: 'inbox_mark_all_read' }).hasAttribute('disabled')).toBe(true); });
    await user.click(within(panel).getByRole('button', { name: /Added/ }));
    await waitFor(() => { expect(screen.getByTestId('where').textContent).toBe('/profile'); });
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual(['/api/me/notifications/read-all']);
  });

  it('shows nothing and asks nothing for a visitor', () => {
    const calls = fakeApi({});
    renderBell(null);
    expect(screen.queryByRole('button', { name: 'inbox_open' })).toBeNull();
    expect(calls).toEqual([]);
  });
});
