import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { drop, pickup, PNG, sedan } from '../fixtures';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';

/**
 * Issue 15, point 3: every check runs before a byte is stored, a failed request leaves no file,
 * and a replaced or deleted image's file goes with it. Trip photos and car type images, the two
 * upload paths that stored their bytes before the checks of their database write.
 */
describe.each(ENGINES)('stored images on %s (issue 15 point 3)', (engine) => {
  let t: TestApp;
  let admin: UserRow;
  /** Keys the storage holds now, as seen through its port. */
  const stored = new Set<string>();

  beforeAll(async () => {
    t = await createTestApp(engine);
    const storage = t.app.ctx.storage;
    const put = storage.put.bind(storage);
    const remove = storage.delete.bind(storage);
    storage.put = async (folder, bytes, extension) => {
      const key = await put(folder, bytes, extension);
      stored.add(key);
      return key;
    };
    storage.delete = async (key) => {
      await remove(key);
      stored.delete(key);
    };
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
  });
  afterAll(() => t.close());

  const inFolder = (folder: string) => [...stored].filter((key) => key.startsWith(`${folder}/`));

  const acceptedDelivery = async () => {
    await t.setSettings({ appcat: 'delivery' });
    const driver = await t.makeUser('driver', { carType: 'Sedan' });
    await t.goOnline(driver);
    const rider = await t.makeUser('rider');
    const booked = await t.request({ method: 'POST', url: '/api/bookings', as: admin, payload: { pickup, drop, carType: 'Sedan', customer: rider.id, deliveryPerson: 'Sam', deliveryPersonPhone: '555 0100' } });
    const id = booked.json().id as string;
    await t.db.update(bookings).set({ requestedDrivers: { [driver.id]: true } }).where(eq(bookings.id, id));
    expect((await t.request({ method: 'POST', url: `/api/bookings/${id}/accept`, as: driver })).statusCode).toBe(200);
    return { id, driver, rider };
  };
  const photo = (as: UserRow, id: string, kind: string) => t.request({ method: 'POST', url: `/api/bookings/${id}/photos`, as, payload: { kind, image: PNG } });

  it('a refused trip photo stores no file, and a retaken one replaces the earlier file', async () => {
    const { id, driver, rider } = await acceptedDelivery();
    const before = inFolder('trips').length;
    const stranger = await t.makeUser('driver', { carType: 'Sedan' });
    expect(codeOf(await photo(stranger, id, 'pickup'))).toBe('not_found');
    expect(codeOf(await photo(rider, id, 'pickup'))).toBe('forbidden');
    expect(codeOf(await photo(driver, id, 'deliver'))).toBe('invalid_transition');
    expect(inFolder('trips')).toHaveLength(before);

    const first = (await photo(driver, id, 'pickup')).json().pickup_image as string;
    const second = (await photo(driver, id, 'pickup')).json().pickup_image as string;
    expect(second).not.toBe(first);
    expect(inFolder('trips')).toEqual([...inFolder('trips').filter((key) => !first.endsWith(key))]);
    expect(inFolder('trips')).toHaveLength(before + 1);
    expect((await t.request({ method: 'GET', url: first, as: admin })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: second, as: admin })).statusCode).toBe(200);
  });

  it('a car type refused for its name or fee, or edited while missing, stores no image; a replaced or deleted one removes its file', async () => {
    const before = inFolder('cartypes').length;
    const taken = await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: { ...sedan, image: PNG } });
    expect([taken.statusCode, codeOf(taken)]).toEqual([400, 'validation_error']);
    const missing = await t.request({ method: 'PATCH', url: '/api/cartypes/00000000-0000-4000-8000-000000000000', as: admin, payload: { image: PNG } });
    expect(codeOf(missing)).toBe('not_found');
    expect(inFolder('cartypes')).toHaveLength(before);

    const created = await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: { ...sedan, name: 'Van', image: PNG } });
    expect(created.statusCode).toBe(201);
    const van = created.json().cartype as { id: string; image: string };
    expect(inFolder('cartypes')).toHaveLength(before + 1);
    const badFee = await t.request({ method: 'PATCH', url: `/api/cartypes/${van.id}`, as: admin, payload: { image: PNG, convenience_fee_type: 'percentage', convenience_fees: 150 } });
    expect(codeOf(badFee)).toBe('validation_error');
    expect(inFolder('cartypes')).toHaveLength(before + 1);

    const edited = (await t.request({ method: 'PATCH', url: `/api/cartypes/${van.id}`, as: admin, payload: { image: PNG } })).json().cartype as { image: string };
    expect(edited.image).not.toBe(van.image);
    expect(inFolder('cartypes')).toHaveLength(before + 1);
    expect((await t.request({ method: 'GET', url: van.image })).statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `/api/cartypes/${van.id}`, as: admin })).statusCode).toBe(204);
    expect(inFolder('cartypes')).toHaveLength(before);
  });
});
