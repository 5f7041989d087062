const pad = (n: number): string => String(n).padStart(2, '0');
const DAY_MS = 24 * 3600_000;

/**
 * Section 9's date helper: yyyy-mm-ddThh:mm (a datetime-local input's value), in the browser's
 * local time, or in `timeZone` when given (the operator's, for book later: issue 17).
 */
export function toDateTimeLocal(at: Date | number, timeZone?: string): string {
  const ms = typeof at === 'number' ? at : at.getTime();
  if (timeZone !== undefined) {
    const w = wallClockIn(ms, timeZone);
    return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
  }
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * The inverse: a yyyy-mm-ddThh:mm value to epoch ms, read in the browser's local time or in
 * `timeZone`; undefined when malformed or not a calendar date (30 February).
 */
export function fromDateTimeLocal(value: string, timeZone?: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  if (timeZone !== undefined) {
    const calendar = new Date(Date.UTC(year, month - 1, day, hour, minute));
    const isCalendarTime =
      calendar.getUTCFullYear() === year && calendar.getUTCMonth() === month - 1 && calendar.getUTCDate() === day && calendar.getUTCHours() === hour && calendar.getUTCMinutes() === minute;
    return isCalendarTime ? instantOfWallClock({ year, month, day, hour, minute }, timeZone) : undefined;
  }
  const d = new Date(year, month - 1, day, hour, minute);
  const roundTrips =
    d.getFullYear() === year && d.getMonth() === month - 1 && d.getDate() === day && d.getHours() === hour && d.getMinutes() === minute;
  return roundTrips ? d.getTime() : undefined;
}

/**
 * The operator's time zone (issue 17): an IANA name Intl knows, such as Europe/London or UTC.
 * Offsets (+05:30) and POSIX strings (UTC+3) are refused: PostgreSQL, which groups the reports,
 * reads those with the opposite sign, so only names both read the same way are allowed.
 */
export function isTimeZone(name: string): boolean {
  if (name.length > 64 || !/^[A-Za-z][A-Za-z0-9_]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** A wall-clock time: calendar fields, month 1 to 12. */
export type WallClock = { year: number; month: number; day: number; hour: number; minute: number };

const wallFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock time (to the second) of an instant in a time zone. */
function wallClockSeconds(at: number, timeZone: string): WallClock & { second: number } {
  let format = wallFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    wallFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(at);
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
}

/** The wall-clock time of an instant in a time zone. */
export function wallClockIn(at: number, timeZone: string): WallClock {
  const { year, month, day, hour, minute } = wallClockSeconds(at, timeZone);
  return { year, month, day, hour, minute };
}

/** How far a zone's clocks are ahead of UTC at an instant, in ms (London in summer: 3,600,000). */
function zoneOffsetMs(at: number, timeZone: string): number {
  const whole = at - (((at % 1000) + 1000) % 1000);
  const w = wallClockSeconds(whole, timeZone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - whole;
}

/**
 * The instant a wall-clock time in a zone names. A time the clocks skip (the spring gap) is read
 * with the offset before the jump, so it lands after it (01:30 on London's spring-forward day is
 * 02:30), and a time the clocks repeat (the autumn overlap) is its first occurrence, as Temporal's
 * 'compatible' rule and phone clock apps do.
 */
export function instantOfWallClock(clock: WallClock, timeZone: string): number {
  const asUtc = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute);
  const before = asUtc - zoneOffsetMs(asUtc - DAY_MS, timeZone);
  const after = asUtc - zoneOffsetMs(asUtc + DAY_MS, timeZone);
  const names = (at: number): boolean => {
    const w = wallClockIn(at, timeZone);
    return w.year === clock.year && w.month === clock.month && w.day === clock.day && w.hour === clock.hour && w.minute === clock.minute;
  };
  const fitting = [before, after].filter(names);
  return fitting.length > 0 ? Math.min(...fitting) : before;
}

/** The first instant of the calendar day holding `at`, in a time zone. */
export const startOfDayIn = (at: number, timeZone: string): number =>
  instantOfWallClock({ ...wallClockIn(at, timeZone), hour: 0, minute: 0 }, timeZone);

/** The first instant of the calendar month holding `at`, in a time zone. */
export const startOfMonthIn = (at: number, timeZone: string): number =>
  instantOfWallClock({ ...wallClockIn(at, timeZone), day: 1, hour: 0, minute: 0 }, timeZone);
