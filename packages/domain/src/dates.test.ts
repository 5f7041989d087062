import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromDateTimeLocal, isTimeZone, startOfDayIn, startOfMonthIn, toDateTimeLocal, wallClockIn } from './dates';

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

const DAY = 24 * 3600_000;

describe('issue 17: times in the operator time zone', () => {
  it('accepts IANA names and refuses offsets, POSIX strings and unknown names', () => {
    for (const name of ['UTC', 'Europe/London', 'America/Argentina/Buenos_Aires', 'America/Port-au-Prince', 'Etc/GMT+5']) expect(isTimeZone(name)).toBe(true);
    for (const name of ['', '+05:30', 'UTC+3', 'Mars/Olympus', 'Europe/London; drop table', 'x'.repeat(65)]) expect(isTimeZone(name)).toBe(false);
  });

  it('reads and writes a datetime-local value in a zone, whatever the browser zone', () => {
    // 09:00 in London in summer is 08:00 UTC; in winter it is 09:00 UTC.
    expect(fromDateTimeLocal('2026-07-01T09:00', 'Europe/London')).toBe(Date.UTC(2026, 6, 1, 8, 0));
    expect(fromDateTimeLocal('2026-12-01T09:00', 'Europe/London')).toBe(Date.UTC(2026, 11, 1, 9, 0));
    expect(fromDateTimeLocal('2026-12-01T09:00', 'Asia/Kolkata')).toBe(Date.UTC(2026, 11, 1, 3, 30));
    expect(toDateTimeLocal(Date.UTC(2026, 6, 1, 8, 0), 'Europe/London')).toBe('2026-07-01T09:00');
    expect(toDateTimeLocal(Date.UTC(2026, 11, 31, 23, 30), 'Asia/Tokyo')).toBe('2027-01-01T08:30');
    expect(fromDateTimeLocal('2026-02-30T10:00', 'Europe/London')).toBeUndefined();
  });

  it('reads a skipped time after the jump and a repeated time at its first occurrence', () => {
    // London springs forward at 01:00 UTC on 29 March 2026: 01:30 local does not exist.
    expect(fromDateTimeLocal('2026-03-29T01:30', 'Europe/London')).toBe(Date.UTC(2026, 2, 29, 1, 30));
    expect(toDateTimeLocal(Date.UTC(2026, 2, 29, 1, 30), 'Europe/London')).toBe('2026-03-29T02:30');
    // It falls back at 01:00 UTC on 25 October 2026: 01:30 local happens at 00:30 and at 01:30 UTC.
    expect(fromDateTimeLocal('2026-10-25T01:30', 'Europe/London')).toBe(Date.UTC(2026, 9, 25, 0, 30));
  });

  it('property: a wall-clock minute read back names the same minute, on and around every transition', () => {
    const zones = ['Europe/London', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'UTC'];
    fc.assert(
      fc.property(fc.constantFrom(...zones), fc.integer({ min: Date.UTC(2025, 0, 1) / 60_000, max: Date.UTC(2028, 0, 1) / 60_000 }), (zone, minute) => {
        const at = minute * 60_000;
        const text = toDateTimeLocal(at, zone);
        const back = fromDateTimeLocal(text, zone) ?? Number.NaN;
        expect(toDateTimeLocal(back, zone)).toBe(text);
        expect(back).toBeLessThanOrEqual(at);
      }),
      { numRuns: 1000 },
    );
    // Every quarter hour of the days the zones above change their clocks in 2026.
    const transitions = [Date.UTC(2026, 2, 8), Date.UTC(2026, 2, 29), Date.UTC(2026, 3, 5), Date.UTC(2026, 9, 4), Date.UTC(2026, 9, 25), Date.UTC(2026, 10, 1)];
    for (const zone of zones) {
      for (const day of transitions) {
        for (let at = day - DAY; at < day + DAY; at += 15 * 60_000) {
          const text = toDateTimeLocal(at, zone);
          expect(toDateTimeLocal(fromDateTimeLocal(text, zone) ?? 0, zone)).toBe(text);
        }
      }
    }
  });

  it('finds the start of the day and of the month in a zone', () => {
    // 00:30 UTC on 1 November 2026 is still 31 October in New York (EDT until 1 November 06:00 UTC).
    const at = Date.UTC(2026, 10, 1, 0, 30);
    expect(startOfDayIn(at, 'America/New_York')).toBe(Date.UTC(2026, 9, 31, 4, 0));
    expect(startOfMonthIn(at, 'America/New_York')).toBe(Date.UTC(2026, 9, 1, 4, 0));
    expect(startOfMonthIn(at, 'Europe/London')).toBe(Date.UTC(2026, 10, 1, 0, 0));
    expect(startOfDayIn(Date.UTC(2026, 6, 15, 12), 'Europe/London')).toBe(Date.UTC(2026, 6, 14, 23, 0));
    expect(wallClockIn(Date.UTC(2026, 6, 14, 23, 0), 'Europe/London')).toEqual({ year: 2026, month: 7, day: 15, hour: 0, minute: 0 });
  });
});
