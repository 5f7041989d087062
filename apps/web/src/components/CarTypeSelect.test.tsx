import type { CarType } from '@rideway/contract';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CarTypeSelect } from './CarTypeSelect';

const carType = (id: string, name: string) => ({ id, name, image: '' }) as CarType;
const TYPES = [carType('c1', 'Economy'), carType('c2', 'XL')];

describe("the vehicle dropdown's prices (issue 17, point 4)", () => {
  it('shows each car type with its price for the trip, and the chosen one with its price', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    const prices = new Map([['Economy', '£9.68'], ['XL', '£20.10']]);
    const { rerender } = render(<CarTypeSelect carTypes={TYPES} value="" onChange={onChange} prices={prices} />);
    await user.click(screen.getByRole('combobox', { name: 'vehicle_type' }));
    const listbox = screen.getByRole('listbox');
    expect(within(listbox).getAllByRole('option').map((option) => option.textContent)).toEqual(['select_car', 'Economy£9.68', 'XL£20.10']);
    await user.click(within(listbox).getByRole('option', { name: /XL/ }));
    expect(onChange).toHaveBeenCalledWith('XL');
    rerender(<CarTypeSelect carTypes={TYPES} value="XL" onChange={onChange} prices={prices} />);
    expect(screen.getByRole('combobox', { name: 'vehicle_type' }).textContent).toContain('£20.10');
  });

  it('shows no price without the trip, and says when the prices are on their way', () => {
    render(<CarTypeSelect carTypes={TYPES} value="Economy" onChange={vi.fn()} note="car_prices_loading" />);
    const field = screen.getByRole('combobox', { name: 'vehicle_type' });
    expect(field.textContent).toBe('Economy');
    expect(screen.getByRole('status').textContent).toBe('car_prices_loading');
    expect(field.getAttribute('aria-describedby')).toBe(screen.getByRole('status').id);
  });
});
