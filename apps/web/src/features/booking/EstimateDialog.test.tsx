import type { Estimate, PromoCheck } from '@rideway/contract';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { SETTINGS } from '../../api/settings';
import { fakeApi } from '../../test/fake-api';
import { queryWrapper } from '../../test/render';
import { EstimateDialog } from './EstimateDialog';

const ESTIMATE: Estimate = { estimateFare: 12.17, totalCost: 11.06, convenience_fees: 1.11, grandTotal: 12.17, distance: 5.2, duration: 1080, approximate: false };
const SETTINGS_ANSWER = { appName: 'Rideway', symbol: '£', code: 'GBP', appcat: 'taxi' };
const APPLIED: PromoCheck = { promo_details: { promo_name: 'WELCOME10', promo_discount_type: 'percentage', promo_discount_value: 10 }, estimateFare: 12.17, discount: 1.22, customer_paid: 10.95 };

/** The dialog with a server that refuses FLAT3 (below its minimum order) and accepts WELCOME10. */
function openDialog() {
  fakeApi({ 'GET /api/settings': { status: 200, body: { settings: SETTINGS_ANSWER } }, 'GET /get_providers': { status: 200, body: [] } });
  const { client, wrapper } = queryWrapper();
  client.setQueryData(SETTINGS, SETTINGS_ANSWER);
  const onConfirm = vi.fn();
  const onApplyPromo = vi.fn((promo: string) =>
    promo === 'WELCOME10' ? Promise.resolve(APPLIED) : Promise.reject(new ApiError(400, promo === 'FLAT3' ? 'promo_min_order' : 'promo_not_found', 'refused', 'promo')),
  );
  render(<EstimateDialog estimate={ESTIMATE} busy={false} onConfirm={onConfirm} onCancel={() => undefined} onInvalid={() => undefined} onApplyPromo={onApplyPromo} />, { wrapper });
  return { onConfirm, onApplyPromo, user: userEvent.setup() };
}

describe("the estimate dialog's promo Apply (issue 17)", () => {
  it("shows a refused code's key at the field, and books nothing", async () => {
    const { onConfirm, onApplyPromo, user } = openDialog();
    const field = screen.getByRole('textbox', { name: 'promo_code' });
    await user.type(field, 'flat3');
    await user.click(screen.getByRole('button', { name: 'apply_promo' }));
    expect(await screen.findByText('promo_min_order')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(onApplyPromo).toHaveBeenCalledExactlyOnceWith('FLAT3');
    expect(screen.queryByTestId('promo-discount')).toBeNull();
    // Confirm with the refused code asks again and stays in the dialog.
    await user.click(screen.getByRole('button', { name: 'confirm_booking' }));
    await waitFor(() => { expect(onApplyPromo).toHaveBeenCalledTimes(2); });
    expect(onConfirm).not.toHaveBeenCalled();
    // Typing again clears the refusal.
    await user.clear(field);
    expect(screen.queryByText('promo_min_order')).toBeNull();
  });

  it("shows an accepted code's discount and the new total, and Confirm books with that code", async () => {
    const { onConfirm, onApplyPromo, user } = openDialog();
    await user.type(screen.getByRole('textbox', { name: 'promo_code' }), 'welcome10{Enter}');
    expect((await screen.findByTestId('promo-discount')).textContent).toBe('−£1.22');
    expect(screen.getByTestId('promo-total').textContent).toBe('£10.95 GBP');
    await user.click(screen.getByRole('button', { name: 'confirm_booking' }));
    await waitFor(() => { expect(onConfirm).toHaveBeenCalledExactlyOnceWith({ payment_mode: 'cash', promo: 'WELCOME10' }); });
    // Applied once: Confirm did not ask again.
    expect(onApplyPromo).toHaveBeenCalledTimes(1);
  });

  it('applies a code typed but not applied when confirming', async () => {
    const { onConfirm, onApplyPromo, user } = openDialog();
    await user.type(screen.getByRole('textbox', { name: 'promo_code' }), 'WELCOME10');
    await user.click(screen.getByRole('button', { name: 'confirm_booking' }));
    await waitFor(() => { expect(onConfirm).toHaveBeenCalledExactlyOnceWith({ payment_mode: 'cash', promo: 'WELCOME10' }); });
    expect(onApplyPromo).toHaveBeenCalledExactlyOnceWith('WELCOME10');
  });

  it('offers no Apply without a code, and books without one', async () => {
    const { onConfirm, onApplyPromo, user } = openDialog();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'apply_promo' }).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'confirm_booking' }));
    await waitFor(() => { expect(onConfirm).toHaveBeenCalledExactlyOnceWith({ payment_mode: 'cash' }); });
    expect(onApplyPromo).not.toHaveBeenCalled();
  });
});
