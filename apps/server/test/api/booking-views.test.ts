import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, users } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { drop, pickup, sedan } from '../fixtures';
import { createTestApp, ENGINES, type TestApp } from '../harness';

type View = { customer_email: string; customer_contact: string; customer_token: string | null; driver_token: string | null };

describe.each(ENGINES)('the booking each party sees on %s (issue 15: no push tokens or early contact)', (engine) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(engine);
    const admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
  });
  afterAll(() => t.close());

  it('an offered driver sees no rider email or phone; the accepting driver does; nobody sees the other party push token', async () => {
    const rider = await t.makeUser('rider', { mobile: '+447700900123' });
    await t.db.update(users).set({ pushToken: 'rider-push-token' }).where(eq(users.id, rider.id));
    const driver = await t.makeUser('driver', { carType: 'Sedan' });
    const other = await t.makeUser('driver', { carType: 'Sedan' });
    await t.db.update(users).set({ pushToken: 'driver-push-token' }).where(eq(users.id, driver.id));
    await t.goOnline(driver);
    const id = (await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan' } })).json<{ id: string }>().id;
    await t.db.update(bookings).set({ requestedDrivers: { [driver.id]: true, [other.id]: true } }).where(eq(bookings.id, id));
    const seen = async (user: UserRow) => (await t.request({ method: 'GET', url: `/api/bookings/${id}`, as: user })).json<View>();

    for (const offered of [driver, other]) expect(await seen(offered)).toMatchObject({ customer_email: '', customer_contact: '', customer_token: null });
    const tasks = (await t.request({ method: 'GET', url: '/api/driver/tasks', as: other })).json<{ tasks: (View & { id: string })[] }>().tasks;
    for (const task of tasks.filter((x) => x.id === id)) expect(task).toMatchObject({ customer_email: '', customer_contact: '', customer_token: null });
    expect(await seen(rider)).toMatchObject({ customer_token: 'rider-push-token', customer_contact: '+447700900123' });

    expect((await t.request({ method: 'POST', url: `/api/bookings/${id}/accept`, as: driver })).statusCode).toBe(200);
    const accepted = await seen(driver);
    expect(accepted).toMatchObject({ customer_contact: '+447700900123', customer_token: null, driver_token: 'driver-push-token' });
    expect(accepted.customer_email).not.toBe('');
    expect(await seen(rider)).toMatchObject({ customer_token: 'rider-push-token', driver_token: null });
  });

  it('the live offer carries no rider email, phone or push token', async () => {
    const rider = await t.makeUser('rider', { mobile: '+447700900456' });
    await t.db.update(users).set({ pushToken: 'rider-push-token' }).where(eq(users.id, rider.id));
    const driver = await t.makeUser('driver', { carType: 'Sedan' });
    await t.goOnline(driver);
    const live = await t.live(driver);
    await live.subscribe('user:me');
    const id = (await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan' } })).json<{ id: string }>().id;
    const offer = await live.next((m) => m.event === 'offer' && (m.data as { id: string }).id === id);
    expect(offer.data).toMatchObject({ customer_email: '', customer_contact: '', customer_token: null, driver_token: null });
  });
});
