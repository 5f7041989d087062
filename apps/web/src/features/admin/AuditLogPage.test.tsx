import type { AuditEntry } from '@rideway/contract';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../test/fake-api';
import { queryWrapper } from '../../test/render';
import { AuditLogPage } from './AuditLogPage';

const entry = (id: number, changes: Partial<AuditEntry> = {}): AuditEntry => ({
  id,
  at: 1_795_000_000_000 + id,
  actor: { uid: 'a1', usertype: 'admin', name: 'Ada Admin', email: 'ada@example.com' },
  action: 'settings.update',
  entityType: 'settings',
  entityId: 'settings',
  entityName: null,
  before: { bonus: 5 },
  after: { bonus: 7.5 },
  requestId: `req-${String(id)}`,
  ...changes,
});

function renderPage() {
  const { wrapper: Queries } = queryWrapper();
  return render(
    <MemoryRouter>
      <Queries>
        <AuditLogPage />
      </Queries>
    </MemoryRouter>,
  );
}

describe("the admins' audit log page (issue 23 point 8)", () => {
  it('shows older entries on asking, with the last page\'s cursor, and opens an entry with its values before and after', async () => {
    const calls = fakeApi({
      'GET /api/settings': { status: 200, body: { settings: { AllowCriticalEditsAdmin: true } } },
      'GET /api/audit': { status: 200, body: { entries: [entry(9)], nextBefore: 9 } },
      'GET /api/audit?before=9': { status: 200, body: { entries: [entry(4, { action: 'wallet.credit', entityType: 'wallet', entityId: 'u1', entityName: 'Rita Rider', before: { walletBalance: 0, amount: null }, after: { walletBalance: 12.5, amount: 12.5 } })], nextBefore: null } },
    });
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByRole('button', { name: 'audit_action_settings_update' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'audit_show_older' }));
    await user.click(await screen.findByRole('button', { name: 'audit_action_wallet_credit' }));
    expect(calls.map((call) => call.path)).toContain('/api/audit?before=9');
    // The last page said there is none older.
    expect(screen.queryByRole('button', { name: 'audit_show_older' })).toBeNull();

    const dialog = screen.getByRole('dialog', { name: 'audit_action_wallet_credit' });
    expect(within(dialog).getByText('Ada Admin · ada@example.com · usertype_admin')).toBeTruthy();
    const balance = within(dialog).getByRole('row', { name: /walletBalance/ });
    expect(within(balance).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['0', '12.5']);
    const amount = within(dialog).getByRole('row', { name: /amount/ });
    expect(within(amount).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['audit_no_value', '12.5']);
  });

  it('sends the search after typing pauses, and a chosen action with it', async () => {
    const calls = fakeApi({
      'GET /api/settings': { status: 200, body: { settings: { AllowCriticalEditsAdmin: true } } },
      'GET /api/audit': { status: 200, body: { entries: [], nextBefore: null } },
      'GET /api/audit?search=Ada': { status: 200, body: { entries: [entry(3)], nextBefore: null } },
      'GET /api/audit?search=Ada&action=wallet.credit': { status: 200, body: { entries: [], nextBefore: null } },
    });
    const user = userEvent.setup();
    renderPage();
    await user.type(await screen.findByRole('searchbox', { name: 'audit_search' }), 'Ada');
    expect(await screen.findByRole('button', { name: 'audit_action_settings_update' })).toBeTruthy();
    await user.click(screen.getByRole('combobox', { name: 'audit_action' }));
    await user.click(screen.getByRole('option', { name: 'audit_action_wallet_credit' }));
    await screen.findByText('no_data_available');
    expect(calls.map((call) => call.path).filter((path) => path.startsWith('/api/audit'))).toEqual(['/api/audit', '/api/audit?search=Ada', '/api/audit?search=Ada&action=wallet.credit']);
  });
});
