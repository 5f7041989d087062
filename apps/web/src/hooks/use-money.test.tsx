import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../test/fake-api';
import { queryWrapper } from '../test/render';
import { useDates } from './use-dates';
import { useMoney } from './use-money';

const settings = { appName: 'Rideway', symbol: '$', code: 'USD', timezone: 'Europe/London' };

describe('issue 17: records in their own currency, times on the operator clock', () => {
  it('shows a record made in pounds with £ after the currency became dollars', async () => {
    fakeApi({ 'GET /api/settings': { status: 200, body: { settings } } });
    const { result } = renderHook(() => ({ plain: useMoney(), trip: useMoney('GBP') }), { wrapper: queryWrapper().wrapper });
    await waitFor(() => { expect(result.current.plain(12.5)).toBe('$12.50'); });
    expect(result.current.plain(12.5, true)).toBe('$12.50 USD');
    expect(result.current.trip(12.5)).toBe('£12.50');
    expect(result.current.trip(12.5, true)).toBe('£12.50 GBP');
    expect(result.current.plain(3, { currency: 'EUR' })).toBe('€3.00');
    expect(result.current.trip(3, { currency: 'USD', withCode: true })).toBe('$3.00 USD');
  });

  it('reads instants on the operator clock, whatever the browser zone', async () => {
    fakeApi({ 'GET /api/settings': { status: 200, body: { settings } } });
    const { result } = renderHook(() => useDates(), { wrapper: queryWrapper().wrapper });
    await waitFor(() => { expect(result.current.timeZone).toBe('Europe/London'); });
    // 08:00 UTC in July is 09:00 in London.
    expect(result.current.time(Date.UTC(2026, 6, 1, 8, 0))).toBe('9:00 AM');
    expect(result.current.dateTime(Date.UTC(2026, 11, 31, 23, 30))).toBe('Dec 31, 2026, 11:30 PM');
    expect(result.current.dateTime(null)).toBe('');
  });
});
