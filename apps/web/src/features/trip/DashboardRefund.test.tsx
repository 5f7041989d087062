import type { RefundRecord } from '@rideway/contract';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, refusal } from '../../test/fake-api';
import { queryWrapper } from '../../test/render';
import { DashboardRefund } from './DashboardRefund';

const REFUND: RefundRecord = { id: 7, kind: 'admin', provider: 'payfast', transactionId: '2300101', amount: 1.5, currency: 'ZAR', status: 'awaiting_dashboard', providerRefundId: null, reason: 'Detour', createdAt: 1, confirmedAt: null };
const URL = 'POST /api/refunds/7/dashboard-confirmation';

describe("a refund made in the provider's dashboard (issue 22)", () => {
  it('tells the admin what to refund, and sends only the trimmed reference', async () => {
    const calls = fakeApi({ [URL]: { status: 200, body: { payments: [], refunds: [{ ...REFUND, status: 'succeeded', providerRefundId: 'PF-1' }], refundable: 0 } } });
    const user = userEvent.setup();
    render(<DashboardRefund bookingId="b1" refund={REFUND} />, { wrapper: queryWrapper().wrapper });
    expect(screen.getByTestId('dashboard-refund-7').textContent).toContain('refund_dashboard_instruction');
    await user.click(screen.getByRole('button', { name: 'refund_dashboard_confirm' }));
    expect(screen.getByRole('dialog')).toBeTruthy();
    const submit = screen.getAllByRole<HTMLButtonElement>('button', { name: 'refund_dashboard_confirm' }).at(-1);
    expect(submit?.disabled).toBe(true);
    await user.type(screen.getByRole('textbox', { name: /refund_dashboard_reference/ }), ' PF-1 ');
    if (submit) await user.click(submit);
    await waitFor(() => { expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([{ providerRefundId: 'PF-1' }]); });
    expect(await screen.findByText('refund_dashboard_confirmed')).toBeTruthy();
  });

  it("shows the server's refusal in the dialog", async () => {
    fakeApi({ [URL]: refusal(409, 'refund_not_awaiting_dashboard') });
    const user = userEvent.setup();
    render(<DashboardRefund bookingId="b1" refund={REFUND} />, { wrapper: queryWrapper().wrapper });
    await user.click(screen.getByRole('button', { name: 'refund_dashboard_confirm' }));
    await user.type(screen.getByRole('textbox', { name: /refund_dashboard_reference/ }), 'PF-2');
    const submit = screen.getAllByRole('button', { name: 'refund_dashboard_confirm' }).at(-1);
    if (submit) await user.click(submit);
    expect(await screen.findByText('refund_not_awaiting_dashboard')).toBeTruthy();
  });
});
