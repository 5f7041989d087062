import type { User } from '@rideway/contract';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { fakeApi, refusal } from '../../test/fake-api';
import { queryWrapper } from '../../test/render';
import { DeleteAccountCard } from './DeleteAccountCard';
import { PasswordCard } from './PasswordCard';

const ME: User = {
  id: 'u-1', firstName: 'Pat', lastName: 'Private', mobile: '5550100', email: 'pat@example.com', usertype: 'rider', loginType: 'email', approved: true,
  createdAt: 1, createdByAdmin: false, referralId: null, signupViaReferral: null, walletBalance: 0, profile_image: null, pushToken: null, userPlatform: null,
  fleetadmin: null, driverActiveStatus: false, queue: false, location: null, carType: null, vehicleMake: null, vehicleModel: null, vehicleNumber: null,
  other_info: null, licenseImage: null, ratings: null, bankName: null, bankCode: null, bankAccount: null, savedAddresses: [],
};

function withRouter(node: React.ReactNode) {
  const { wrapper: Wrapper } = queryWrapper();
  return render(
    <Wrapper>
      <MemoryRouter initialEntries={['/profile']}>
        <Routes>
          <Route path="/profile" element={node} />
          <Route path="/login" element={<p>login page</p>} />
        </Routes>
      </MemoryRouter>
    </Wrapper>,
  );
}

describe("the profile's account cards (issue 20)", () => {
  it('deletes the account only once DELETE is typed; a refusal shows in the dialog, success leaves for the sign-in page', async () => {
    let refuse = true;
    const calls = fakeApi({ 'DELETE /api/users/u-1': () => (refuse ? refusal(409, 'account_has_active_trip') : { status: 204 }) });
    const user = userEvent.setup();
    withRouter(<DeleteAccountCard me={{ ...ME, walletBalance: 12 }} />);
    await user.click(screen.getByRole('button', { name: 'delete_account' }));
    const dialog = screen.getByRole('dialog', { name: 'delete_account' });
    // Money left in the wallet is pointed out before it is lost.
    expect(within(dialog).getByText('delete_account_wallet_warning')).toBeTruthy();
    const confirm = within(dialog).getByRole('button', { name: 'delete_account_forever' });
    expect(confirm.hasAttribute('disabled')).toBe(true);
    await user.type(within(dialog).getByLabelText('delete_account_confirm_label'), 'delete');
    expect(confirm.hasAttribute('disabled')).toBe(true);
    await user.clear(within(dialog).getByLabelText('delete_account_confirm_label'));
    await user.type(within(dialog).getByLabelText('delete_account_confirm_label'), 'DELETE');
    await user.click(confirm);
    expect(await within(dialog).findByText('account_has_active_trip')).toBeTruthy();
    refuse = false;
    await user.click(confirm);
    expect(await screen.findByText('login page')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual(['/api/users/u-1', '/api/users/u-1']);
  });

  it('puts a wrong current password on its field, and clears the form after a change', async () => {
    let wrong = true;
    const calls = fakeApi({ 'POST /api/me/password': () => (wrong ? refusal(400, 'wrong_current_password', 'currentPassword') : { status: 200, body: { ok: true } }) });
    const user = userEvent.setup();
    withRouter(<PasswordCard me={ME} />);
    await user.type(screen.getByLabelText(/current_password/), 'nope12');
    await user.type(screen.getByLabelText(/new_password/), 'better1');
    await user.click(screen.getByRole('button', { name: 'change_password' }));
    await waitFor(() => { expect(screen.getByLabelText(/current_password/).getAttribute('aria-invalid')).toBe('true'); });
    expect(screen.getByText('wrong_current_password')).toBeTruthy();
    wrong = false;
    await user.click(screen.getByRole('button', { name: 'change_password' }));
    expect(await screen.findByText('password_change_done')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>(/new_password/).value).toBe('');
    expect(calls.map((call) => call.body)).toEqual([{ currentPassword: 'nope12', newPassword: 'better1' }, { currentPassword: 'nope12', newPassword: 'better1' }]);
  });

  it('lets an account without a password leave the current one empty', async () => {
    const calls = fakeApi({ 'POST /api/me/password': { status: 200, body: { ok: true } } });
    const user = userEvent.setup();
    withRouter(<PasswordCard me={{ ...ME, loginType: 'phone' }} />);
    expect(screen.getByText('set_password_help')).toBeTruthy();
    await user.type(screen.getByLabelText(/new_password/), 'first1');
    await user.click(screen.getByRole('button', { name: 'change_password' }));
    await screen.findByText('password_change_done');
    expect(calls[0]?.body).toEqual({ newPassword: 'first1' });
  });
});
