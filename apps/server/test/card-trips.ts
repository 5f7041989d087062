import type { Settings } from '@rideway/contract';
import { toMinor } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bookings } from '../src/db/schema';
import type { UserRow } from '../src/modules/users/accounts';
import { drop, pickup } from './fixtures';
import { driveTrip, type TestApp } from './harness';

/**
 * The two card payments every payment provider's API tests start from (Sedan, the fixtures'
 * pickup and drop): a delivery paid ahead, and a trip its driver has driven to the drop.
 */

/** A card delivery (the settings' appcat is delivery): PAYMENT_PENDING until the provider says it is paid. */
export async function cardDelivery(t: TestApp, rider: UserRow): Promise<{ id: string; paidMinor: number }> {
  const created = await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', payment_mode: 'card', deliveryPerson: 'Sam', deliveryPersonPhone: '555 0100' } });
  expect(created.statusCode, created.body).toBe(201);
  const booking = created.json<{ id: string; status: string; customer_paid: number }>();
  expect(booking.status).toBe('PAYMENT_PENDING');
  return { id: booking.id, paidMinor: toMinor(booking.customer_paid) };
}

/** A card taxi trip (with these settings: the provider's currency) the driver accepted and drove to the drop: its fare is due. */
export async function reachedCardTrip(t: TestApp, driver: UserRow, rider: UserRow, settings: Partial<Settings> = {}): Promise<{ id: string; paidMinor: number }> {
  await t.setSettings(settings);
  const created = await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', payment_mode: 'card' } });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json<{ id: string }>().id;
  await t.db.update(bookings).set({ requestedDrivers: { [driver.id]: true } }).where(eq(bookings.id, id));
  const accepted = await t.request({ method: 'POST', url: `/api/bookings/${id}/accept`, as: driver, payload: {} });
  expect(accepted.statusCode, accepted.body).toBe(200);
  const reached = await driveTrip(t, driver, id, [drop]);
  return { id, paidMinor: toMinor(reached.customer_paid) };
}

/** A form post's content type: payment pages and providers' returns post forms, not JSON. */
export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** An HTML page's text with its numeric character references read back (the checkout pages escape every value). */
export const unescapeHtml = (text: string): string => text.replace(/&#(\d+);/g, (_all, code: string) => String.fromCharCode(Number(code)));
