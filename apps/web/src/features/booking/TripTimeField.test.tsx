import { toDateTimeLocal } from '@rideway/domain';
import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../test/fake-api';
import { queryWrapper } from '../../test/render';
import { earliestTripTime, TripTimeField } from './TripTimeField';

function Field({ initial }: { initial: string }) {
  const [value, setValue] = useState<string | null>(null);
  return <TripTimeField value={value ?? initial} onChange={setValue} zone={undefined} changed={value !== null} />;
}

describe('the book-later time shows and keeps the 15-minute rule (issue 17, point 2)', () => {
  it('rounds the earliest time up to a whole minute at least 15 minutes ahead', () => {
    const at = Date.UTC(2026, 10, 24, 10, 0, 30);
    expect(earliestTripTime(at)).toBe(Date.UTC(2026, 10, 24, 10, 16, 0));
    expect(earliestTripTime(Date.UTC(2026, 10, 24, 10, 0, 0))).toBe(Date.UTC(2026, 10, 24, 10, 15, 0));
  });

  it('starts at the current time with the rule and the earliest time shown, and the picker refusing earlier times', () => {
    const now = Date.now();
    fakeApi({});
    render(<Field initial={toDateTimeLocal(now)} />, { wrapper: queryWrapper().wrapper });
    const field = screen.getByLabelText<HTMLInputElement>('trip_date');
    expect([toDateTimeLocal(now - 60_000), toDateTimeLocal(now)]).toContain(field.value);
    const earliest = [toDateTimeLocal(earliestTripTime(now)), toDateTimeLocal(earliestTripTime(now + 60_000))];
    expect(earliest).toContain(field.min);
    expect(screen.getByTestId('trip-time-rule').textContent).toBe('trip_time_rule');
    // The untouched default is not marked: the rule is only shown.
    expect(field.getAttribute('aria-invalid')).toBe('false');
    expect(screen.queryByText('past_booking_error')).toBeNull();
  });

  it('marks a time set earlier than 15 minutes ahead at once, and clears the mark for a time after it', () => {
    const now = Date.now();
    fakeApi({});
    render(<Field initial={toDateTimeLocal(now)} />, { wrapper: queryWrapper().wrapper });
    const field = screen.getByLabelText<HTMLInputElement>('trip_date');
    fireEvent.change(field, { target: { value: toDateTimeLocal(now + 5 * 60_000) } });
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('past_booking_error')).toBeTruthy();
    fireEvent.change(field, { target: { value: toDateTimeLocal(now + 30 * 60_000) } });
    expect(field.getAttribute('aria-invalid')).toBe('false');
    expect(screen.queryByText('past_booking_error')).toBeNull();
  });
});
