import type { DriverEarningRow, EarningReportRow, GrossEarningsCards } from '@rideway/contract';
import { EARNING_STATUSES, fromMinor, MONTH_NAMES, startOfDayIn, startOfMonthIn } from '@rideway/domain';
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { AppContext } from '../../context';
import { bookings } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { getSettings } from '../settings/service';

/**
 * Section 9 reports, aggregated by the database (never by loading bookings): PAID and COMPLETE
 * bookings by calendar month in the operator's time zone (settings `timezone`, issue 17), one row
 * per currency the month's trips were made in, so sums never mix currencies. The domain's
 * earnings functions are the reference the tests compare these with.
 */

const counted = inArray(bookings.status, [...EARNING_STATUSES]);
// The zone is a bound parameter; the queries group by position, since two bindings of one
// expression are different expressions to PostgreSQL.
const inZone = (timeZone: string) => sql`(to_timestamp(${bookings.tripdate} / 1000.0) at time zone ${timeZone})`;
const yearIn = (timeZone: string) => sql<number>`extract(year from ${inZone(timeZone)})::int`;
const monthIn = (timeZone: string) => sql<number>`extract(month from ${inZone(timeZone)})::int`;
const total = (column: AnyPgColumn) => sql<string>`sum(${column})`;

const monthName = (m: number): string => MONTH_NAMES[m - 1] ?? '';
const scopeFor = (actor: Actor) => {
  if (actor.usertype === 'fleetadmin') return eq(bookings.fleetadmin, actor.uid);
  if (actor.usertype === 'driver') return eq(bookings.driver, actor.uid);
  return undefined;
};

export async function earningsReport(ctx: AppContext): Promise<EarningReportRow[]> {
  const { timezone } = await getSettings(ctx.db);
  const rows = await ctx.db
    .select({
      year: yearIn(timezone),
      month: monthIn(timezone),
      currency: bookings.currency,
      bookings: sql<string>`count(*)`,
      tripCost: total(bookings.tripCostMinor),
      discount: total(bookings.discountMinor),
      customerPaid: total(bookings.customerPaidMinor),
      fee: total(bookings.convenienceFeesMinor),
      driverShare: total(bookings.driverShareMinor),
    })
    .from(bookings)
    .where(counted)
    .groupBy(sql`1`, sql`2`, sql`3`)
    .orderBy(sql`1 desc, 2 desc, 3 asc`);
  return rows.map((row) => {
    const [tripCost, discount, customerPaid, fee, driverShare] = [row.tripCost, row.discount, row.customerPaid, row.fee, row.driverShare].map(Number) as [number, number, number, number, number];
    return {
      year: row.year,
      month: row.month,
      monthsName: monthName(row.month),
      currency: row.currency,
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

/** By month, driver and currency; a fleet admin sees only its drivers' trips, a driver only its own. */
export async function driverEarningsReport(ctx: AppContext, actor: Actor): Promise<DriverEarningRow[]> {
  const { timezone } = await getSettings(ctx.db);
  const rows = await ctx.db
    .select({
      year: yearIn(timezone),
      month: monthIn(timezone),
      driver: bookings.driver,
      currency: bookings.currency,
      // A trip may lack the name or vehicle number: '' as in the domain's reference report.
      driverName: sql<string>`coalesce(max(${bookings.driverName}), '')`,
      driverVehicleNo: sql<string>`coalesce(max(${bookings.vehicleNumber}), '')`,
      bookings: sql<string>`count(*)`,
      driverShare: total(bookings.driverShareMinor),
    })
    .from(bookings)
    .where(and(counted, sql`${bookings.driver} is not null`, scopeFor(actor)))
    .groupBy(sql`1`, sql`2`, sql`3`, sql`4`)
    .orderBy(sql`1 desc, 2 desc, 3 asc, 4 asc`);
  return rows.map((row) => ({
    year: row.year,
    month: row.month,
    monthsName: monthName(row.month),
    currency: row.currency,
    driver: row.driver ?? '',
    driverName: row.driverName,
    driverVehicleNo: row.driverVehicleNo,
    bookings: Number(row.bookings),
    driverShare: fromMinor(Number(row.driverShare)),
  }));
}

/**
 * Section 4: the dashboard's gross cards sum convenience_fees above 0 of PAID and COMPLETE
 * bookings: today and this month in the operator's time zone, of the trips made in the currency
 * in force (issue 17: a sum shown with one symbol never mixes currencies).
 */
export async function grossEarningsCards(ctx: AppContext, actor: Actor): Promise<GrossEarningsCards> {
  const { timezone, code } = await getSettings(ctx.db);
  const now = ctx.now();
  const dayStart = startOfDayIn(now, timezone);
  const monthStart = startOfMonthIn(now, timezone);
  // A day is 23 to 25 hours and a month 28 to 31 days: these land inside the next one.
  const nextDay = startOfDayIn(dayStart + 26 * 3600_000, timezone);
  const nextMonth = startOfMonthIn(monthStart + 32 * 24 * 3600_000, timezone);
  const fee = bookings.convenienceFeesMinor;
  const within = (from: number, to: number) => sql`${bookings.tripdate} >= ${from} and ${bookings.tripdate} < ${to}`;
  const rows = await ctx.db
    .select({
      today: sql<string>`coalesce(sum(${fee}) filter (where ${within(dayStart, nextDay)}), 0)`,
      thisMonth: sql<string>`coalesce(sum(${fee}) filter (where ${within(monthStart, nextMonth)}), 0)`,
      total: sql<string>`coalesce(sum(${fee}), 0)`,
    })
    .from(bookings)
    .where(and(counted, gt(fee, 0), eq(bookings.currency, code), scopeFor(actor)));
  const row = rows[0];
  return { today: fromMinor(Number(row?.today ?? 0)), thisMonth: fromMinor(Number(row?.thisMonth ?? 0)), total: fromMinor(Number(row?.total ?? 0)), currency: code };
}
