import { seedApprovedDocuments } from '../modules/documents/seed';
import type { FileStorage } from '../providers/storage';
import { randomUUID } from 'node:crypto';
import {
  bookingReference,
  driverShare,
  fareBreakdownMinor,
  fareForMinor,
  fromMinor,
  greatCircleKm,
  kmInUnit,
  renumberCancelReasons,
  settlePayment,
  toMinor,
  type FareRates,
} from '@rideway/domain';
import type { Db, Tx } from '../db/client';
import { eq } from 'drizzle-orm';
import { bookings, cancelReasons, carTypes, promos, users } from '../db/schema';
import { insertAccount } from '../modules/users/accounts';
import { appendEntry } from '../modules/wallet/ledger';
import { DEFAULT_SETTINGS } from '../modules/settings/defaults';
import { dataChanged } from '../db/read-cache';
import { saveSettings } from '../modules/settings/service';
import { hashPassword } from '../modules/auth/passwords';
import { markDemoDatabase } from '../providers/payments/in-force';

const DEMO_PASSWORD = 'demo123';
export type DemoLogin = { role: string; email: string };

/** The demo city: central London, with named places riders can pick. */
const DEMO_CITY = { name: 'London', center: { lat: 51.5074, lng: -0.1278 } };

/**
 * The demo's settings match its city (issue 17): pounds, miles (UK roads are signed in miles),
 * British phone numbers and London's clock.
 */
export const DEMO_LOCALE = { symbol: '£', code: 'GBP', country: 'United Kingdom', convert_to_mile: true, timezone: 'Europe/London' } as const;
const PLACES = [
  { add: "King's Cross Station, London", lat: 51.5308, lng: -0.1238 },
  { add: 'Tower of London, London', lat: 51.5081, lng: -0.0759 },
  { add: 'British Museum, London', lat: 51.5194, lng: -0.127 },
  { add: 'Paddington Station, London', lat: 51.5154, lng: -0.1755 },
  { add: 'Canary Wharf, London', lat: 51.5054, lng: -0.0235 },
  { add: 'Camden Market, London', lat: 51.5415, lng: -0.1466 },
];

type PricedChoice = { description: string; amount: number };
type DemoCarType = FareRates & { name: string; image: string; extra_info: string; cancelSlab: { minsDelayed: number; amount: number }[]; parcelTypes: PricedChoice[]; options: PricedChoice[] };

// Parcel types and options only count in the delivery category (section 4).
const PARCELS: PricedChoice[] = [{ description: 'Documents', amount: 0 }, { description: 'Small box', amount: 2 }, { description: 'Large box', amount: 5 }];
const OPTIONS: PricedChoice[] = [{ description: 'Standard', amount: 0 }, { description: 'Fragile handling', amount: 3 }];

// The images are the web app's (apps/web/public/cars), served beside it.
const CAR_TYPES: DemoCarType[] = [
  { name: 'Economy', image: '/cars/economy.svg', base_fare: 2.5, rate_per_unit_distance: 1.1, rate_per_hour: 12, min_fare: 6, convenience_fees: 10, convenience_fee_type: 'percentage', extra_info: '4 seats', cancelSlab: [{ minsDelayed: 3, amount: 2 }, { minsDelayed: 10, amount: 5 }], parcelTypes: PARCELS, options: OPTIONS },
  { name: 'Comfort', image: '/cars/comfort.svg', base_fare: 3.5, rate_per_unit_distance: 1.6, rate_per_hour: 18, min_fare: 9, convenience_fees: 12, convenience_fee_type: 'percentage', extra_info: '4 seats, newer cars', cancelSlab: [{ minsDelayed: 3, amount: 3 }, { minsDelayed: 10, amount: 7 }], parcelTypes: PARCELS, options: OPTIONS },
  { name: 'XL', image: '/cars/xl.svg', base_fare: 5, rate_per_unit_distance: 2.2, rate_per_hour: 24, min_fare: 14, convenience_fees: 2.5, convenience_fee_type: 'flat', extra_info: '6 seats', cancelSlab: [{ minsDelayed: 5, amount: 5 }], parcelTypes: [...PARCELS, { description: 'Furniture', amount: 15 }], options: OPTIONS },
];

const CANCEL_REASONS = ['Driver is taking too long', 'Changed my plans', 'Booked by mistake', 'Found another ride', 'Other'];

/**
 * Seeds a demo installation on an empty database; answers the logins it created. With storage, the
 * drivers' documents get specimen pictures an admin can open in the review screens.
 */
export async function seedDemoData(db: Db | Tx, now: number, storage?: FileStorage): Promise<DemoLogin[]> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  // Issue 21: settings, car types and cancel reasons are held by running processes; the demo's are
  // in force once the transaction is over (db/read-cache.ts).
  return db.transaction(async (tx) => {
    // This database now holds demo data: its embedded test payment provider is on (in-force.ts).
    await markDemoDatabase(tx, now);
    const settings = { ...DEFAULT_SETTINGS, ...DEMO_LOCALE, bonus: 5, CompanyName: 'Rideway Demo Ltd', contact_email: 'support@rideway.demo', driver_approval: true, otp_secure: false };
    await saveSettings(tx, settings);
    for (const [index, car] of CAR_TYPES.entries()) {
      await tx.insert(carTypes).values({
        id: randomUUID(),
        name: car.name,
        image: car.image,
        baseFareMinor: toMinor(car.base_fare),
        ratePerUnitDistanceMinor: toMinor(car.rate_per_unit_distance),
        ratePerHourMinor: toMinor(car.rate_per_hour),
        minFareMinor: toMinor(car.min_fare),
        convenienceFeesHundredths: toMinor(car.convenience_fees),
        convenienceFeeType: car.convenience_fee_type,
        extraInfo: car.extra_info,
        createdAt: now + index,
        cancelSlab: car.cancelSlab.map((slab) => ({ minsDelayed: slab.minsDelayed, amount: toMinor(slab.amount) })),
        parcelTypes: car.parcelTypes.map((choice) => ({ description: choice.description, amount: toMinor(choice.amount) })),
        options: car.options.map((choice) => ({ description: choice.description, amount: toMinor(choice.amount) })),
      });
    }
    for (const reason of renumberCancelReasons(CANCEL_REASONS.map((label) => ({ label })))) {
      await tx.insert(cancelReasons).values({ id: randomUUID(), ...reason });
    }
    const year = new Date(now).getUTCFullYear();
    await tx.insert(promos).values([
      { id: randomUUID(), promoName: 'WELCOME10', promoDescription: `10% off your trip, up to ${DEMO_LOCALE.symbol}5`, promoDiscountType: 'percentage', promoDiscountValueHundredths: 1000, maxPromoDiscountValueMinor: 500, minOrderMinor: 1000, promoValidity: Date.UTC(year + 1, 11, 31), promoUsageLimit: 1000, createdAt: now },
      { id: randomUUID(), promoName: 'FLAT3', promoDescription: `${DEMO_LOCALE.symbol}3 off trips over ${DEMO_LOCALE.symbol}15`, promoDiscountType: 'flat', promoDiscountValueHundredths: 300, maxPromoDiscountValueMinor: 0, minOrderMinor: 1500, promoValidity: Date.UTC(year + 1, 5, 30), promoUsageLimit: 500, createdAt: now },
    ]);

    const account = (firstName: string, lastName: string, email: string, mobile: string, usertype: 'admin' | 'fleetadmin' | 'driver' | 'rider', extra: Partial<Parameters<typeof insertAccount>[1]> = {}) =>
      insertAccount(tx, { firstName, lastName, email, mobile, usertype, passwordHash, loginType: 'email', approved: true, emailVerified: true, createdByAdmin: usertype !== 'admin', referralSource: 'admin', ...extra }, now);

    const admin = await account('Ada', 'Admin', 'admin@rideway.demo', '4470000001', 'admin');
    const fleet = await account('Fiona', 'Fleet', 'fleet@rideway.demo', '4470000002', 'fleetadmin');
    const drivers = [];
    const driverSpecs = [
      { first: 'Dan', last: 'Driver', email: 'driver1@rideway.demo', car: 'Economy', plate: 'LD21 ABC', fleet: fleet.id, at: { lat: 51.515, lng: -0.13 } },
      { first: 'Dora', last: 'Driver', email: 'driver2@rideway.demo', car: 'Comfort', plate: 'LD21 DEF', fleet: fleet.id, at: { lat: 51.503, lng: -0.119 } },
      { first: 'Omar', last: 'Online', email: 'driver3@rideway.demo', car: 'Economy', plate: 'LC70 GHJ', fleet: null, at: { lat: 51.511, lng: -0.098 } },
      { first: 'Olga', last: 'Online', email: 'driver4@rideway.demo', car: 'Comfort', plate: 'LC70 KLM', fleet: null, at: { lat: 51.52, lng: -0.155 } },
      { first: 'Oscar', last: 'Online', email: 'driver5@rideway.demo', car: 'XL', plate: 'LC70 NPR', fleet: null, at: { lat: 51.499, lng: -0.135 } },
    ];
    for (const [index, spec] of driverSpecs.entries()) {
      drivers.push(
        await account(spec.first, spec.last, spec.email, `44700001${String(index).padStart(2, '0')}`, 'driver', {
          carType: spec.car,
          vehicleNumber: spec.plate,
          vehicleMake: 'Toyota',
          vehicleModel: spec.car === 'XL' ? 'Sienna' : 'Prius',
          fleetadmin: spec.fleet,
          bankName: 'Demo Bank',
          bankCode: '040004',
          bankAccount: `1234567${index}`,
        }),
      );
    }
    const riders = [await account('Rita', 'Rider', 'rider1@rideway.demo', '4470000201', 'rider'), await account('Ravi', 'Rider', 'rider2@rideway.demo', '4470000202', 'rider')];

    // Drivers are online around the city; the dashboard and dispatch see them.
    for (const [index, driver] of drivers.entries()) {
      const at = driverSpecs[index]?.at ?? DEMO_CITY.center;
      await tx.update(users).set({ driverActiveStatus: true, locationLat: at.lat, locationLng: at.lng, locationAt: now }).where(eq(users.id, driver.id));
      // Issue 20: their documents are approved and valid for five years, so they may stay online.
      const holder = `${driver.firstName} ${driver.lastName}`;
      await seedApprovedDocuments(tx, driver.id, now, `${new Date(now).getUTCFullYear() + 5}-12-31`, storage && { files: storage, holder });
    }

    // Past trips, paid and complete, spread over the last three months, with their ledger moves.
    for (let trip = 0; trip < 12; trip += 1) {
      const rider = riders[trip % riders.length];
      const driver = drivers[trip % drivers.length];
      const spec = driverSpecs[trip % driverSpecs.length];
      const car = CAR_TYPES.find((c) => c.name === spec?.car);
      const pickup = PLACES[trip % PLACES.length];
      const drop = PLACES[(trip + 2) % PLACES.length];
      if (!rider || !driver || !spec || !car || !pickup || !drop) continue;
      const km = greatCircleKm(pickup, drop) * 1.3;
      const seconds = Math.round((km / 25) * 3600);
      // Trips are measured, and priced per unit, in the unit in force (miles here), as estimates are.
      const distance = Math.round(kmInUnit(km, settings.convert_to_mile) * 1000) / 1000;
      const fare = fareForMinor(car, { distance, duration: seconds });
      const tripdate = now - (trip * 7 + 1) * 24 * 3600 * 1000;
      const paymentMode = trip % 3 === 0 ? 'cash' : 'card';
      const share = toMinor(driverShare(fromMinor(fare.grandTotal), fromMinor(fare.convenience_fees)));
      const settlement = settlePayment({ trip_cost: fromMinor(fare.grandTotal), discount: 0, driver_share: fromMinor(share), payment_mode: paymentMode, prepaid: false });
      const id = randomUUID();
      await tx.insert(bookings).values({
        id,
        reference: bookingReference(),
        status: 'COMPLETE',
        carType: car.name,
        customer: rider.id,
        customerName: `${rider.firstName} ${rider.lastName}`,
        customerEmail: rider.email ?? '',
        customerContact: rider.mobile ?? '',
        pickup,
        drop,
        estimateMinor: fare.grandTotal,
        estimateDistance: distance,
        distance,
        estimateTime: seconds,
        tripdate,
        bookingDate: tripdate - 600_000,
        tripCostMinor: fare.grandTotal,
        currency: settings.code,
        convenienceFeesMinor: fare.convenience_fees,
        driverShareMinor: share,
        customerPaidMinor: settlement.customer_paid,
        cashPaymentAmountMinor: settlement.cashPaymentAmount,
        cardPaymentAmountMinor: settlement.cardPaymentAmount,
        payableAmountMinor: settlement.payableAmount,
        paymentMode,
        driver: driver.id,
        driverName: `${driver.firstName} ${driver.lastName}`,
        driverContact: driver.mobile,
        vehicleNumber: spec.plate,
        vehicleMake: driver.vehicleMake,
        vehicleModel: driver.vehicleModel,
        fareBreakdown: { ...fareBreakdownMinor(car, { distance, duration: seconds }), cap: 0 },
        fleetadmin: spec.fleet,
        acceptedAt: tripdate - 300_000,
        driverArriveTime: tripdate - 60_000,
        tripStartTime: tripdate,
        tripEndTime: tripdate + seconds * 1000,
        totalTripTime: seconds,
        rating: 5 - (trip % 2),
        updatedAt: tripdate + seconds * 1000,
      });
      for (const move of settlement.moves) {
        const uid = move.party === 'driver' ? driver.id : rider.id;
        await appendEntry(tx, { uid, type: move.type, amountMinor: move.amount, txRef: move.txRef, at: tripdate + seconds * 1000, bookingId: id });
      }
    }
    // Riders start with some wallet money to try wallet payments.
    for (const rider of riders) await appendEntry(tx, { uid: rider.id, type: 'Credit', amountMinor: 5000, txRef: 'AdminCredit', at: now });

    return [
      { role: 'admin', email: admin.email ?? '' },
      { role: 'fleetadmin', email: fleet.email ?? '' },
      ...drivers.map((driver) => ({ role: 'driver', email: driver.email ?? '' })),
      ...riders.map((rider) => ({ role: 'rider', email: rider.email ?? '' })),
    ];
  }).finally(() => dataChanged('settings', 'carTypes', 'cancelReasons'));
}
