import { describe, expect, it } from 'vitest';
import { fromDateTimeLocal, toDateTimeLocal } from './dates';

describe('section 9: the date helper returns yyyy-mm-ddThh:mm', () => {
  it('formats local time with zero padding', () => {
    expect(toDateTimeLocal(new Date(2026, 0, 5, 7, 3, 59))).toBe('2026-01-05T07:03');
    expect(toDateTimeLocal(new Date(2026, 11, 31, 23, 59).getTime())).toBe('2026-12-31T23:59');
  });

  it('parses its own output back, and refuses malformed or impossible values', () => {
    const at = new Date(2026, 10, 22, 14, 30).getTime();
    expect(fromDateTimeLocal(toDateTimeLocal(at))).toBe(at);
    expect(fromDateTimeLocal('2026-02-30T10:00')).toBeUndefined();
    expect(fromDateTimeLocal('2026-11-22 10:00')).toBeUndefined();
    expect(fromDateTimeLocal('')).toBeUndefined();
  });
});
