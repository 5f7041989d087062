const pad = (n: number): string => String(n).padStart(2, '0');

/** Section 9's date helper: local time as yyyy-mm-ddThh:mm (a datetime-local input's value). */
export function toDateTimeLocal(at: Date | number): string {
  const d = typeof at === 'number' ? new Date(at) : at;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The inverse: a yyyy-mm-ddThh:mm local value to epoch ms, or undefined when malformed. */
export function fromDateTimeLocal(value: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  const d = new Date(year, month - 1, day, hour, minute);
  const roundTrips =
    d.getFullYear() === year && d.getMonth() === month - 1 && d.getDate() === day && d.getHours() === hour && d.getMinutes() === minute;
  return roundTrips ? d.getTime() : undefined;
}
