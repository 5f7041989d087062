import type { GridColDef } from '@mui/x-data-grid';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { RowEditDialog } from './RowEditDialog';

type Rider = { id: string; firstName: string; approved: boolean; carType: string; limit: number; walletBalance: number };
const row: Rider = { id: 'u1', firstName: 'Ann', approved: true, carType: 'Economy', limit: 100, walletBalance: 12 };
const columns: GridColDef<Rider>[] = [
  { field: 'firstName', headerName: 'First name', editable: true },
  { field: 'approved', headerName: 'Approved', type: 'boolean', editable: true },
  { field: 'carType', headerName: 'Vehicle type', type: 'singleSelect', editable: true, valueOptions: [{ value: 'Economy', label: 'Economy car' }, { value: 'Comfort', label: 'Comfort car' }] },
  { field: 'limit', headerName: 'Limit', type: 'number', editable: true },
  { field: 'walletBalance', headerName: 'Wallet', type: 'number' },
];

function open() {
  const onSave = vi.fn();
  const onClose = vi.fn();
  render(<RowEditDialog row={row} columns={columns} busy={false} onSave={onSave} onClose={onClose} />);
  return { onSave, onClose, user: userEvent.setup() };
}

describe('editing a table row in a dialog, confirmed before it is sent (issue 17)', () => {
  it('offers the editable columns only, filled with the row', () => {
    open();
    expect(screen.getByLabelText('First name')).toHaveProperty('value', 'Ann');
    expect(screen.getByRole('switch', { name: 'Approved' })).toHaveProperty('checked', true);
    expect(screen.getByLabelText(/^Limit/)).toHaveProperty('value', '100');
    expect(screen.queryByLabelText('Wallet')).toBeNull();
  });

  it('shows each change before and after, and sends the row only on Confirm', async () => {
    const { onSave, user } = open();
    await user.clear(screen.getByLabelText('First name'));
    await user.type(screen.getByLabelText('First name'), 'Anne');
    await user.click(screen.getByRole('switch', { name: 'Approved' }));
    await user.clear(screen.getByLabelText(/^Limit/));
    await user.type(screen.getByLabelText(/^Limit/), '50');
    await user.click(screen.getByRole('combobox', { name: 'Vehicle type' }));
    await user.click(screen.getByRole('option', { name: 'Comfort car' }));
    await user.click(screen.getByRole('button', { name: 'save' }));
    expect(onSave).not.toHaveBeenCalled();
    const changes = screen.getByRole('table', { name: 'confirm_changes' });
    const text = (name: string) => within(changes).getByRole('rowheader', { name }).closest('tr')?.textContent;
    expect(text('First name')).toBe('First nameAnnAnne');
    expect(text('Approved')).toBe('Approvedyesno');
    expect(text('Vehicle type')).toBe('Vehicle typeEconomy carComfort car');
    expect(text('Limit')).toBe('Limit10050');
    // Back keeps what was typed.
    await user.click(screen.getByRole('button', { name: 'back' }));
    expect(screen.getByLabelText('First name')).toHaveProperty('value', 'Anne');
    await user.click(screen.getByRole('button', { name: 'save' }));
    await user.click(screen.getByRole('button', { name: 'confirm' }));
    expect(onSave).toHaveBeenCalledWith({ ...row, firstName: 'Anne', approved: false, carType: 'Comfort', limit: 50 });
  });

  it("returns from the confirmation to the fields with a refusal on its field, or on the form when it names none (issue 17)", async () => {
    const onSave = vi.fn<(edited: Rider) => Promise<unknown>>()
      .mockRejectedValueOnce(new ApiError(400, 'validation_error', 'x', 'limit'))
      .mockRejectedValueOnce(new ApiError(403, 'demo_mode', 'x'));
    render(<RowEditDialog row={row} columns={columns} busy={false} onSave={onSave} onClose={vi.fn()} />);
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText(/^Limit/));
    await user.type(screen.getByLabelText(/^Limit/), '-5');
    await user.click(screen.getByRole('button', { name: 'save' }));
    await user.click(screen.getByRole('button', { name: 'confirm' }));
    const limit = screen.getByLabelText(/^Limit/);
    expect(await screen.findByText('validation_error')).toBeTruthy();
    expect(limit.getAttribute('aria-invalid')).toBe('true');
    expect(limit).toHaveProperty('value', '-5');
    expect(screen.queryByRole('table', { name: 'confirm_changes' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'save' }));
    await user.click(screen.getByRole('button', { name: 'confirm' }));
    expect((await screen.findByTestId('form-error')).textContent).toBe('demo_mode');
    expect(onSave).toHaveBeenCalledTimes(2);
  });

  it('closes without sending when nothing changed', async () => {
    const { onSave, onClose, user } = open();
    await user.click(screen.getByRole('button', { name: 'save' }));
    expect(onSave).not.toHaveBeenCalled();
    expect(onClose).toHaveBeenCalled();
  });
});
