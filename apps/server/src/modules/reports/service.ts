import type { DriverEarningRow, EarningReportRow, GrossEarningsCards } from '@rideway/contract';
import { calendarDate, EARNING_STATUSES, fromMinor, MONTH_NAMES } from '@rideway/domain';
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { AppContext } from '../../context';
import { bookings } from '../../db/schema';
import type { Actor } from '../../http/actor';

/**
 * Section 9 reports, aggregated by the database (never by loading bookings): PAID and COMPLETE
 * bookings by calendar month in UTC. The domain's earnings functions are the reference the tests
 * compare these with.
 */

const counted = inArray(bookings.status, [...EARNING_STATUSES]);
const year = sql<number>`extract(year from to_timestamp(${bookings.tripdate} / 1000.0) at time zone 'UTC')::int`;
const month = sql<number>`extract(month from to_timestamp(${bookings.tripdate} / 1000.0) at time zone 'UTC')::int`;
const total = (column: AnyPgColumn) => sql<string>`sum(${column})`;

const monthName = (m: number): string => MONTH_NAMES[m - 1] ?? '';
const scopeFor = (actor: Actor) => {
  if (actor.usertype === 'fleetadmin') return eq(bookings.fleetadmin, actor.uid);
  if (actor.usertype === 'driver') return eq(bookings.driver, actor.uid);
  return undefined;
};

export async function earningsReport(ctx: AppContext): Promise<EarningReportRow[]> {
  const rows = await ctx.db
    .select({
      year,
      month,
      bookings: sql<string>`count(*)`,
      tripCost: total(bookings.tripCostMinor),
      discount: total(bookings.discountMinor),
      customerPaid: total(bookings.customerPaidMinor),
      fee: total(bookings.convenienceFeesMinor),
      driverShare: total(bookings.driverShareMinor),
    })
    .from(bookings)
    .where(counted)
    .groupBy(year, month)
    .orderBy(sql`1 desc, 2 desc`);
  return rows.map((row) => {
    const [tripCost, discount, customerPaid, fee, driverShare] = [row.tripCost, row.discount, row.customerPaid, row.fee, row.driverShare].map(Number) as [number, number, number, number, number];
    return {
      year: row.year,
      month: row.month,
      monthsName: monthName(row.month),
      bookings: Number(row.bookings),
      tripCost: fromMinor(tripCost),
      rideCost: fromMinor(tripCost - fee),
      convenienceFee: fromMinor(fee),
      discountAmount: fromMinor(discount),
      customerPaid: fromMinor(customerPaid),
      driverShare: fromMinor(driverShare),
      myEarning: fromMinor(customerPaid - driverShare),
      profit: fromMinor(fee - discount),
    };
  });
}

/** By month and driver; a fleet admin sees only its drivers' trips, a driver only its own. */
export async function driverEarningsReport(ctx: AppContext, actor: Actor): Promise<DriverEarningRow[]> {
  const rows = await ctx.db
    .select({
      year,
      month,
      driver: bookings.driver,
      // A trip may lack the name or vehicle number: '' as in the domain's reference report.
      driverName: sql<string>`coalesce(max(${bookings.driverName}), '')`,
      driverVehicleNo: sql<string>`coalesce(max(${bookings.vehicleNumber}), '')`,
      bookings: sql<string>`count(*)`,
      driverShare: total(bookings.driverShareMinor),
    })
    .from(bookings)
    .where(and(counted, sql`${bookings.driver} is not null`, scopeFor(actor)))
    .groupBy(year, month, bookings.driver)
    .orderBy(sql`1 desc, 2 desc, 4 asc`);
  return rows.map((row) => ({
    year: row.year,
    month: row.month,
    monthsName: monthName(row.month),
    driver: row.driver ?? '',
    driverName: row.driverName,
    driverVehicleNo: row.driverVehicleNo,
    bookings: Number(row.bookings),
    driverShare: fromMinor(Number(row.driverShare)),
  }));
}

const startOfUtcDay = (at: number): number => {
  const { year: y, month: m, day } = calendarDate(at, 'UTC');
  return Date.UTC(y, m - 1, day);
};

/** Section 4: the dashboard's gross cards sum convenience_fees above 0 of PAID and COMPLETE bookings. */
export async function grossEarningsCards(ctx: AppContext, actor: Actor): Promise<GrossEarningsCards> {
  const now = ctx.now();
  const dayStart = startOfUtcDay(now);
  const { year: y, month: m } = calendarDate(now, 'UTC');
  const monthStart = Date.UTC(y, m - 1, 1);
  const fee = bookings.convenienceFeesMinor;
  const rows = await ctx.db
    .select({
      today: sql<string>`coalesce(sum(${fee}) filter (where ${bookings.tripdate} >= ${dayStart}), 0)`,
      thisMonth: sql<string>`coalesce(sum(${fee}) filter (where ${bookings.tripdate} >= ${monthStart}), 0)`,
      total: sql<string>`coalesce(sum(${fee}), 0)`,
    })
    .from(bookings)
    .where(and(counted, gt(fee, 0), scopeFor(actor)));
  const row = rows[0];
  return { today: fromMinor(Number(row?.today ?? 0)), thisMonth: fromMinor(Number(row?.thisMonth ?? 0)), total: fromMinor(Number(row?.total ?? 0)) };
}
