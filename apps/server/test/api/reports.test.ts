import { driverEarningsByMonth, earningsByMonth, fromMinor, grossEarnings, type BookingStatus } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, users } from '../../src/db/schema';
import { DEMO_LOCALE, seedDemoData } from '../../src/seed/demo-data';
import { createTestApp, ENGINES, type TestApp } from '../harness';

describe.each(ENGINES)('section 9 reports computed in SQL on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
    await seedDemoData(t.db, t.clock.now);
  });
  afterAll(() => t.close());

  const admin = async () => (await t.db.select().from(users).where(eq(users.email, 'admin@rideway.demo')))[0]!;
  const fleet = async () => (await t.db.select().from(users).where(eq(users.email, 'fleet@rideway.demo')))[0]!;
  const reference = async () =>
    (await t.db.select().from(bookings)).map((row) => ({
      status: row.status as BookingStatus,
      tripdate: row.tripdate,
      trip_cost: fromMinor(row.tripCostMinor),
      discount: fromMinor(row.discountMinor),
      customer_paid: fromMinor(row.customerPaidMinor),
      convenience_fees: fromMinor(row.convenienceFeesMinor),
      driver_share: fromMinor(row.driverShareMinor),
      driver: row.driver,
      driver_name: row.driverName,
      vehicle_number: row.vehicleNumber,
      fleetadmin: row.fleetadmin,
      currency: row.currency,
    }));
  // The demo's months are London's (issue 17).
  const zone = DEMO_LOCALE.timezone;

  it('earnings by month agree with the domain to the cent', async () => {
    const rows = (await t.request({ method: 'GET', url: '/api/reports/earnings', as: await admin() })).json().rows;
    expect(rows.length).toBeGreaterThan(1);
    expect(rows).toEqual(earningsByMonth(await reference(), zone));
  });

  it('driver earnings by month and driver agree with the domain; a fleet admin sees only its drivers', async () => {
    const all = (await t.request({ method: 'GET', url: '/api/reports/driver-earnings', as: await admin() })).json().rows;
    const byKey = (rows: { year: number; month: number; driver: string }[]) => [...rows].sort((a, b) => `${a.year}${a.month}${a.driver}`.localeCompare(`${b.year}${b.month}${b.driver}`));
    expect(byKey(all)).toEqual(byKey(driverEarningsByMonth(await reference(), zone)));
    const owner = await fleet();
    const own = (await t.request({ method: 'GET', url: '/api/reports/driver-earnings', as: owner })).json().rows;
    expect(own.length).toBeGreaterThan(0);
    expect(byKey(own)).toEqual(byKey(driverEarningsByMonth((await reference()).filter((b) => b.fleetadmin === owner.id), zone)));
  });

  it('the dashboard cards sum fees of PAID and COMPLETE bookings today, this month and in total', async () => {
    const cards = (await t.request({ method: 'GET', url: '/api/dashboard', as: await admin() })).json().earnings;
    expect(cards).toEqual({ ...grossEarnings(await reference(), t.clock.now, zone, DEMO_LOCALE.code), currency: DEMO_LOCALE.code });
    expect(cards.total).toBeGreaterThan(0);
  });
});
