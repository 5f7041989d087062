import { isEarningStatus, type BookingStatus } from './booking-status';
import { fromMinor, toMinor } from './money';

/**
 * Section 9 earnings. These are the reference definitions: the server computes the same sums
 * in SQL, and its tests compare against these.
 */

export type EarningBooking = {
  status: BookingStatus;
  /** When the trip happened (epoch ms); it decides the month. */
  tripdate: number;
  trip_cost: number;
  discount: number;
  customer_paid: number;
  convenience_fees: number;
  driver_share: number;
  driver?: string | null;
  driver_name?: string | null;
  vehicle_number?: string | null;
  /** The currency the booking was made in (issue 17); sums never mix currencies. */
  currency?: string;
};

export const MONTH_NAMES = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
] as const;

type CalendarMonth = { year: number; month: number; day: number };

/** The calendar year, month (1 to 12) and day of an instant in a time zone. */
export function calendarDate(at: number, timeZone = 'UTC'): CalendarMonth {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(at);
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value);
  return { year: get('year'), month: get('month'), day: get('day') };
}

/** Section 3 earning report row, money in major units. */
type EarningReportRow = {
  year: number;
  month: number;
  monthsName: string;
  currency: string;
  bookings: number;
  tripCost: number;
  rideCost: number;
  convenienceFee: number;
  discountAmount: number;
  customerPaid: number;
  driverShare: number;
  myEarning: number;
  profit: number;
};

/** Section 3 driver earning row, money in major units. */
type DriverEarningRow = {
  year: number;
  month: number;
  monthsName: string;
  currency: string;
  driver: string;
  driverName: string;
  driverVehicleNo: string;
  bookings: number;
  driverShare: number;
};

type Sums = { bookings: number; tripCost: number; discount: number; customerPaid: number; fee: number; driverShare: number };
const emptySums = (): Sums => ({ bookings: 0, tripCost: 0, discount: 0, customerPaid: 0, fee: 0, driverShare: 0 });

function addTo(sums: Sums, booking: EarningBooking): void {
  sums.bookings += 1;
  sums.tripCost += toMinor(booking.trip_cost);
  sums.discount += toMinor(booking.discount);
  sums.customerPaid += toMinor(booking.customer_paid);
  sums.fee += toMinor(booking.convenience_fees);
  sums.driverShare += toMinor(booking.driver_share);
}

type Period = { year: number; month: number; currency: string };
const newestFirst = (a: Period, b: Period): number => b.year - a.year || b.month - a.month;
const byCurrency = (a: Period, b: Period): number => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0);

/**
 * Section 9: PAID and COMPLETE bookings by month: trip cost, discount, customer paid, fees and
 * driver share summed; ride cost = trip cost - fee; own earning = customer paid - driver share;
 * profit = fee - discount (section 3). A month with trips in two currencies has a row for each
 * (issue 17). Newest month first, then by currency code.
 */
export function earningsByMonth(bookings: readonly EarningBooking[], timeZone = 'UTC'): EarningReportRow[] {
  const groups = new Map<string, Period & { sums: Sums }>();
  for (const booking of bookings) {
    if (!isEarningStatus(booking.status)) continue;
    const { year, month } = calendarDate(booking.tripdate, timeZone);
    const currency = booking.currency ?? '';
    const key = `${year}-${month}-${currency}`;
    const group = groups.get(key) ?? { year, month, currency, sums: emptySums() };
    addTo(group.sums, booking);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => newestFirst(a, b) || byCurrency(a, b)).map(({ year, month, currency, sums }) => ({
    year,
    month,
    monthsName: MONTH_NAMES[month - 1] ?? '',
    currency,
    bookings: sums.bookings,
    tripCost: fromMinor(sums.tripCost),
    rideCost: fromMinor(sums.tripCost - sums.fee),
    convenienceFee: fromMinor(sums.fee),
    discountAmount: fromMinor(sums.discount),
    customerPaid: fromMinor(sums.customerPaid),
    driverShare: fromMinor(sums.driverShare),
    myEarning: fromMinor(sums.customerPaid - sums.driverShare),
    profit: fromMinor(sums.fee - sums.discount),
  }));
}

/** Section 9: PAID and COMPLETE bookings by month, driver and currency, summing driver share. Newest month first, then by name, then currency. */
export function driverEarningsByMonth(bookings: readonly EarningBooking[], timeZone = 'UTC'): DriverEarningRow[] {
  const groups = new Map<string, Omit<DriverEarningRow, 'monthsName' | 'driverShare'> & { share: number }>();
  for (const booking of bookings) {
    if (!isEarningStatus(booking.status) || !booking.driver) continue;
    const { year, month } = calendarDate(booking.tripdate, timeZone);
    const currency = booking.currency ?? '';
    const key = `${year}-${month}-${booking.driver}-${currency}`;
    const group = groups.get(key) ?? {
      year,
      month,
      currency,
      driver: booking.driver,
      driverName: booking.driver_name ?? '',
      driverVehicleNo: booking.vehicle_number ?? '',
      bookings: 0,
      share: 0,
    };
    group.bookings += 1;
    group.share += toMinor(booking.driver_share);
    groups.set(key, group);
  }
  return [...groups.values()]
    .sort((a, b) => newestFirst(a, b) || a.driverName.localeCompare(b.driverName) || byCurrency(a, b))
    .map(({ share, ...row }) => ({ ...row, monthsName: MONTH_NAMES[row.month - 1] ?? '', driverShare: fromMinor(share) }));
}

type GrossEarnings = { today: number; thisMonth: number; total: number };

/**
 * Section 4 and 9: the dashboard cards sum convenience_fees of PAID and COMPLETE bookings with
 * fees above 0; given a currency, only the bookings made in it (issue 17: sums never mix currencies).
 */
export function grossEarnings(bookings: readonly EarningBooking[], now: number, timeZone = 'UTC', currency?: string): GrossEarnings {
  const current = calendarDate(now, timeZone);
  let today = 0;
  let thisMonth = 0;
  let total = 0;
  for (const booking of bookings) {
    const fee = toMinor(booking.convenience_fees);
    if (!isEarningStatus(booking.status) || fee <= 0 || (currency !== undefined && (booking.currency ?? '') !== currency)) continue;
    total += fee;
    const date = calendarDate(booking.tripdate, timeZone);
    if (date.year === current.year && date.month === current.month) {
      thisMonth += fee;
      if (date.day === current.day) today += fee;
    }
  }
  return { today: fromMinor(today), thisMonth: fromMinor(thisMonth), total: fromMinor(total) };
}
