import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BOOKING_STATUSES } from './booking-status';
import { calendarDate, driverEarningsByMonth, earningsByMonth, grossEarnings, type EarningBooking } from './earnings';
import { toMinor } from './money';

const at = (iso: string): number => Date.parse(iso);
const trip = (extra: Partial<EarningBooking>): EarningBooking => ({
  status: 'COMPLETE',
  tripdate: at('2026-11-10T12:00:00Z'),
  trip_cost: 25.85,
  discount: 5,
  customer_paid: 20.85,
  convenience_fees: 2.35,
  driver_share: 23.5,
  driver: 'd1',
  driver_name: 'Dee',
  vehicle_number: 'AB-1',
  ...extra,
});

describe('section 9: earnings reports group PAID and COMPLETE bookings by month', () => {
  const bookings = [
    trip({}),
    trip({ status: 'PAID', trip_cost: 10.1, discount: 0, customer_paid: 10.1, convenience_fees: 0.2, driver_share: 9.9 }),
    trip({ tripdate: at('2026-10-31T23:00:00Z') }),
    trip({ status: 'CANCELLED' }),
    trip({ status: 'REACHED' }),
  ];

  it('sums trip cost, discount, customer paid, fees and driver share; ride cost, own earning and profit', () => {
    const rows = earningsByMonth(bookings);
    expect(rows).toEqual([
      {
        year: 2026,
        month: 11,
        monthsName: 'November',
        currency: '',
        bookings: 2,
        tripCost: 35.95,
        rideCost: 33.4, // trip cost - fee
        convenienceFee: 2.55,
        discountAmount: 5,
        customerPaid: 30.95,
        driverShare: 33.4,
        myEarning: -2.45, // customer paid - driver share: the discount costs the platform more than its fees here
        profit: -2.45, // fee - discount (section 3)
      },
      {
        year: 2026,
        month: 10,
        monthsName: 'October',
        currency: '',
        bookings: 1,
        tripCost: 25.85,
        rideCost: 23.5,
        convenienceFee: 2.35,
        discountAmount: 5,
        customerPaid: 20.85,
        driverShare: 23.5,
        myEarning: -2.65,
        profit: -2.65,
      },
    ]);
  });

  it('reads months in the given time zone', () => {
    // 23:00 UTC on 31 October is 1 November in Paris.
    expect(earningsByMonth([bookings[2]!], 'Europe/Paris')[0]!.monthsName).toBe('November');
    expect(calendarDate(at('2026-10-31T23:00:00Z'), 'Europe/Paris')).toEqual({ year: 2026, month: 11, day: 1 });
  });

  it('never sums two currencies: a month with trips in each has a row for each (issue 17)', () => {
    const mixed = [trip({ currency: 'GBP' }), trip({ currency: 'USD', trip_cost: 10, discount: 0, customer_paid: 10 }), trip({ currency: 'GBP' })];
    expect(earningsByMonth(mixed).map((row) => [row.currency, row.bookings, row.tripCost])).toEqual([['GBP', 2, 51.7], ['USD', 1, 10]]);
    expect(driverEarningsByMonth(mixed).map((row) => [row.currency, row.bookings, row.driverShare])).toEqual([['GBP', 2, 47], ['USD', 1, 23.5]]);
    const now = at('2026-11-22T15:00:00Z');
    expect(grossEarnings(mixed, now, 'UTC', 'USD').total).toBe(2.35);
    expect(grossEarnings(mixed, now, 'UTC', 'GBP').total).toBe(4.7);
  });

  it('groups driver earnings by month and driver', () => {
    const rows = driverEarningsByMonth([
      ...bookings,
      trip({ driver: 'd2', driver_name: 'Ann', vehicle_number: 'ZZ-9', driver_share: 7.77 }),
      trip({ driver: null }),
    ]);
    expect(rows).toEqual([
      { year: 2026, month: 11, monthsName: 'November', currency: '', driver: 'd2', driverName: 'Ann', driverVehicleNo: 'ZZ-9', bookings: 1, driverShare: 7.77 },
      { year: 2026, month: 11, monthsName: 'November', currency: '', driver: 'd1', driverName: 'Dee', driverVehicleNo: 'AB-1', bookings: 2, driverShare: 33.4 },
      { year: 2026, month: 10, monthsName: 'October', currency: '', driver: 'd1', driverName: 'Dee', driverVehicleNo: 'AB-1', bookings: 1, driverShare: 23.5 },
    ]);
  });

  it('property: the monthly rows add up to the whole, to the cent', () => {
    const cents = fc.integer({ min: 0, max: 1_000_000 }).map((m) => m / 100);
    const booking = fc.record({
      status: fc.constantFrom(...BOOKING_STATUSES),
      tripdate: fc.integer({ min: at('2025-01-01T00:00:00Z'), max: at('2026-12-31T00:00:00Z') }),
      trip_cost: cents,
      discount: cents,
      customer_paid: cents,
      convenience_fees: cents,
      driver_share: cents,
    });
    fc.assert(
      fc.property(fc.array(booking, { maxLength: 60 }), (list) => {
        const counted = list.filter((b) => b.status === 'PAID' || b.status === 'COMPLETE');
        const rows = earningsByMonth(list);
        const sum = (pick: (r: (typeof rows)[number]) => number) => rows.reduce((t, r) => t + toMinor(pick(r)), 0);
        expect(sum((r) => r.tripCost)).toBe(counted.reduce((t, b) => t + toMinor(b.trip_cost), 0));
        expect(sum((r) => r.profit)).toBe(counted.reduce((t, b) => t + toMinor(b.convenience_fees) - toMinor(b.discount), 0));
        expect(rows.reduce((t, r) => t + r.bookings, 0)).toBe(counted.length);
      }),
    );
  });
});

describe('section 4: gross earnings cards count PAID and COMPLETE bookings with convenience_fees above 0', () => {
  it('sums fees for today, this month and in total', () => {
    const now = at('2026-11-22T15:00:00Z');
    const cards = grossEarnings(
      [
        trip({ tripdate: at('2026-11-22T08:00:00Z'), convenience_fees: 1.1 }),
        trip({ tripdate: at('2026-11-03T08:00:00Z'), convenience_fees: 2.2, status: 'PAID' }),
        trip({ tripdate: at('2025-11-22T08:00:00Z'), convenience_fees: 3.3 }),
        trip({ tripdate: at('2026-11-22T09:00:00Z'), convenience_fees: 0 }),
        trip({ tripdate: at('2026-11-22T09:00:00Z'), convenience_fees: 9, status: 'STARTED' }),
      ],
      now,
    );
    expect(cards).toEqual({ today: 1.1, thisMonth: 3.3, total: 6.6 });
  });
});
