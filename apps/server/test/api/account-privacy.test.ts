/**
 * Issue 20 point 2: the profile's photo, password, own data and account deletion. Deleting
 * anonymises: the bookings, ledger and reports stay for the books, everything personal goes.
 */
import { randomUUID } from 'node:crypto';
import { PROFILE_PHOTO_SIZE } from '@rideway/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { bookings, chats, outbox, pushSubscriptions, savedAddresses, sessions, users, walletEntries } from '../../src/db/schema';
import { createSession } from '../../src/modules/accounts/sessions';
import type { UserRow } from '../../src/modules/users/accounts';
import { drop, pickup, PNG, sedan } from '../fixtures';
import { codeOf, createTestApp, driveTrip, ENGINES, PASSWORD, reload, type TestApp } from '../harness';

/** Every request of this file from an address of its own: the address counts of the rate limits stay this run's. */
const ADDRESS = `10.${String(Math.floor(Math.random() * 250))}.${String(Math.floor(Math.random() * 250))}.${String(1 + Math.floor(Math.random() * 250))}`;

const dataUrl = (mime: string, bytes: Uint8Array) => `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;
const picture = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#3366cc' } });

describe.each(ENGINES)('account privacy on %s (issue 20 point 2)', (engine) => {
  let t: TestApp;
  let admin: UserRow;

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
  });
  afterAll(() => t.close());

  const req = (options: InjectOptions & { as?: UserRow | null }) => t.request({ remoteAddress: ADDRESS, ...options });
  const setPhoto = (as: UserRow | null, image: unknown) => req({ method: 'PUT', url: '/api/me/photo', as, payload: { image } });
  const changePassword = (as: UserRow, payload: Record<string, unknown>, token?: string) =>
    token === undefined ? req({ method: 'POST', url: '/api/me/password', as, payload }) : req({ method: 'POST', url: '/api/me/password', headers: { authorization: `Bearer ${token}` }, payload });
  const login = (email: string | null, password: string) => req({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  const meWith = (token: string) => req({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });

  /** A booking for the rider accepted by a fresh online driver. */
  const acceptedTrip = async (rider: UserRow, driverExtra: Record<string, unknown> = {}) => {
    const driver = await t.makeUser('driver', { carType: 'Sedan', vehicleNumber: 'PR1 VCY', ...driverExtra });
    await t.goOnline(driver);
    const booked = await req({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan' } });
    expect(booked.statusCode).toBe(201);
    const id = booked.json().id as string;
    await t.db.update(bookings).set({ requestedDrivers: { [driver.id]: true } }).where(eq(bookings.id, id));
    expect((await req({ method: 'POST', url: `/api/bookings/${id}/accept`, as: driver })).statusCode).toBe(200);
    return { id, driver };
  };
  /** A trip run to PAID in cash: the driver's wallet then owes the operator its fee (a negative balance). */
  const paidTrip = async (rider: UserRow, driverExtra: Record<string, unknown> = {}) => {
    const trip = await acceptedTrip(rider, driverExtra);
    await driveTrip(t, trip.driver, trip.id, [{ lat: 51.51955, lng: -0.09995 }, drop]);
    const paid = await req({ method: 'POST', url: `/api/bookings/${trip.id}/pay`, as: trip.driver, payload: { payment_mode: 'cash' } });
    expect(paid.json().status).toBe('PAID');
    return trip;
  };

  describe('photo', () => {
    it('checks the image by its bytes, scales it to a square JPEG, serves it and shows it to the other party of a trip', async () => {
      const rider = await t.makeUser('rider');
      // A JPEG declared as a PNG: the bytes decide.
      const jpeg = await picture(800, 600).jpeg().toBuffer();
      const set = await setPhoto(rider, dataUrl('image/png', jpeg));
      expect(set.statusCode).toBe(200);
      const url = set.json().user.profile_image as string;
      expect(url).toMatch(/^\/api\/files\/profiles\/[0-9a-f-]{36}\.jpg$/);
      const served = await req({ method: 'GET', url });
      expect([served.statusCode, served.headers['content-type']]).toEqual([200, 'image/jpeg']);
      const meta = await sharp(served.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', PROFILE_PHOTO_SIZE, PROFILE_PHOTO_SIZE]);
      // A WebP replaces it, and the replaced file is gone.
      const webp = await setPhoto(rider, dataUrl('image/webp', await picture(300, 900).webp().toBuffer()));
      expect(webp.statusCode).toBe(200);
      expect((await req({ method: 'GET', url })).statusCode).toBe(404);
      const current = webp.json().user.profile_image as string;
      expect((await reload(t, rider))?.profileImage).toBe(current);
      // The driver of the rider's trip sees the rider's photo, the rider the driver's.
      const driverJpeg = dataUrl('image/jpeg', await picture(400, 400).jpeg().toBuffer());
      const { id, driver } = await (async () => {
        const d = await t.makeUser('driver', { carType: 'Sedan', vehicleNumber: 'PH0 T0' });
        const driverPhoto = (await setPhoto(d, driverJpeg)).json().user.profile_image as string;
        await t.goOnline(d);
        const booked = await req({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan' } });
        await t.db.update(bookings).set({ requestedDrivers: { [d.id]: true } }).where(eq(bookings.id, booked.json().id as string));
        expect((await req({ method: 'POST', url: `/api/bookings/${booked.json().id as string}/accept`, as: d })).statusCode).toBe(200);
        return { id: booked.json().id as string, driver: { ...d, profileImage: driverPhoto } };
      })();
      const seenByDriver = (await req({ method: 'GET', url: `/api/bookings/${id}`, as: driver })).json();
      expect(seenByDriver.customer_image).toBe(current);
      const seenByRider = (await req({ method: 'GET', url: `/api/bookings/${id}`, as: rider })).json();
      expect(seenByRider.driver_image).toBe(driver.profileImage);
      // Removing it clears the profile and the file.
      const removed = await req({ method: 'DELETE', url: '/api/me/photo', as: rider });
      expect([removed.statusCode, removed.json().user.profile_image]).toEqual([200, null]);
      expect((await req({ method: 'GET', url: current })).statusCode).toBe(404);
    });

    it('refuses what is not a PNG, JPEG or WebP, or too large, with its key, and stores nothing', async () => {
      const rider = await t.makeUser('rider');
      const kept = (await setPhoto(rider, PNG)).json().user.profile_image as string;
      const put = vi.spyOn(t.app.ctx.storage, 'put');
      const gif = await picture(10, 10).gif().toBuffer();
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
      const refusals: [unknown, number, string][] = [
        ['data:image/png;base64,aGVsbG8=', 400, 'photo_invalid'],
        [dataUrl('image/gif', gif), 400, 'photo_invalid'],
        [dataUrl('image/svg+xml', svg), 400, 'photo_invalid'],
        [dataUrl('image/png', svg), 400, 'photo_invalid'],
        ['data:text/html;base64,PGgxPg==', 400, 'photo_invalid'],
        // A PNG's signature and then garbage.
        [dataUrl('image/png', Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)])), 400, 'photo_invalid'],
        ['', 400, 'photo_invalid'],
        [42, 400, 'photo_invalid'],
        [{ image: PNG }, 400, 'photo_invalid'],
        // Over 5 MiB once decoded, though the body is under the server's limit.
        [`data:image/jpeg;base64,${'A'.repeat(7_100_000)}`, 413, 'photo_too_large'],
      ];
      for (const [image, status, code] of refusals) {
        const response = await setPhoto(rider, image);
        expect([response.statusCode, codeOf(response)]).toEqual([status, code]);
      }
      // A small file that decodes to 100 million pixels: refused before it is drawn.
      const bomb = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#000' } }).png({ compressionLevel: 9 }).toBuffer();
      expect(codeOf(await setPhoto(rider, dataUrl('image/png', bomb)))).toBe('photo_invalid');
      expect(put).not.toHaveBeenCalled();
      put.mockRestore();
      expect((await reload(t, rider))?.profileImage).toBe(kept);
    });

    it("nobody sets another's photo, and a signed-out caller none", async () => {
      const rider = await t.makeUser('rider');
      const victim = await t.makeUser('driver');
      const attempts = [
        await req({ method: 'PUT', url: '/api/me/photo', as: rider, payload: { image: PNG, uid: victim.id } }),
        await req({ method: 'PUT', url: `/api/users/${victim.id}/photo`, as: rider, payload: { image: PNG } }),
        await req({ method: 'PATCH', url: `/api/users/${victim.id}`, as: admin, payload: { profile_image: '/api/files/profiles/x.jpg' } }),
        await req({ method: 'PATCH', url: '/api/me', as: rider, payload: { profile_image: '/api/files/profiles/x.jpg' } }),
      ];
      expect(attempts.map((response) => response.statusCode)).toEqual([400, 404, 400, 403]);
      expect((await setPhoto(null, PNG)).statusCode).toBe(401);
      expect((await req({ method: 'DELETE', url: '/api/me/photo' })).statusCode).toBe(401);
      expect((await reload(t, victim))?.profileImage).toBeNull();
      expect((await reload(t, rider))?.profileImage).toBeNull();
    });
  });

  describe('password', () => {
    it('needs the current password; the new one works, the old fails, other sessions and their sockets end, this one stays', async () => {
      const rider = await t.makeUser('rider');
      const mine = await t.tokenOf(rider);
      const other = await createSession(t.db, rider.id, t.clock.now);
      // The other session's socket.
      await t.live(rider);
      const address = t.app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const socket = new WebSocket(`ws://127.0.0.1:${String(port)}/api/ws`, { headers: { authorization: `Bearer ${other}` } });
      const closed = new Promise<number>((resolve) => socket.once('close', (code: number) => { resolve(code); }));
      await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });

      for (const payload of [{ newPassword: 'newpass1' }, { currentPassword: 'wrong1', newPassword: 'newpass1' }, { currentPassword: '', newPassword: 'newpass1' }]) {
        const wrong = await changePassword(rider, payload);
        expect([wrong.statusCode, codeOf(wrong), wrong.json().error.field]).toEqual([400, 'wrong_current_password', 'currentPassword']);
      }
      expect(codeOf(await changePassword(rider, { currentPassword: PASSWORD, newPassword: 'no spaces' }))).toBe('password_alphaNumeric_check');
      expect(codeOf(await changePassword(rider, { currentPassword: PASSWORD, newPassword: 'abc' }))).toBe('password_alphaNumeric_check');
      expect((await meWith(other)).statusCode).toBe(200);

      const changed = await changePassword(rider, { currentPassword: PASSWORD, newPassword: 'newpass1' });
      expect([changed.statusCode, changed.json()]).toEqual([200, { ok: true }]);
      expect((await meWith(mine)).statusCode).toBe(200);
      expect((await meWith(other)).statusCode).toBe(401);
      expect(await Promise.race([closed, new Promise((resolve) => setTimeout(() => { resolve('open'); }, 3000))])).toBe(4401);
      expect(codeOf(await login(rider.email, PASSWORD))).toBe('login_error');
      expect((await login(rider.email, 'newpass1')).statusCode).toBe(200);
      const sessionsLeft = await t.db.select().from(sessions).where(eq(sessions.uid, rider.id));
      expect(sessionsLeft).toHaveLength(2); // the one that changed it, and the new sign-in
    });

    it('an account without a password sets its first one without a current one, once', async () => {
      const phone = await t.makeUser('rider', { loginType: 'phone', passwordHash: null });
      expect((await changePassword(phone, { newPassword: 'first1' })).statusCode).toBe(200);
      expect(codeOf(await changePassword(phone, { newPassword: 'second1' }))).toBe('wrong_current_password');
      expect((await changePassword(phone, { currentPassword: 'first1', newPassword: 'second1' })).statusCode).toBe(200);
      expect((await login(phone.email, 'second1')).statusCode).toBe(200);
    });

    it('a flood of guesses meets 429 with Retry-After, and a signed-out caller 401', async () => {
      const rider = await t.makeUser('rider');
      const statuses: number[] = [];
      for (let i = 0; i < 11; i += 1) statuses.push((await changePassword(rider, { currentPassword: `guess${String(i)}`, newPassword: 'newpass1' })).statusCode);
      expect(statuses.slice(0, 10).every((status) => status === 400)).toBe(true);
      const refused = await changePassword(rider, { currentPassword: PASSWORD, newPassword: 'newpass1' });
      expect([refused.statusCode, codeOf(refused)]).toEqual([429, 'too_many_requests']);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Even the right password waits: the limit is per account, not per wrong answer.
      expect(codeOf(await login(rider.email, 'newpass1'))).toBe('login_error');
      expect((await req({ method: 'POST', url: '/api/me/password', payload: { currentPassword: PASSWORD, newPassword: 'newpass1' } })).statusCode).toBe(401);
    });
  });

  describe('my data', () => {
    it("holds the user's profile, trips, wallet, own chat messages, places and notifications; no secret and nobody else's data", async () => {
      const rider = await t.makeUser('rider', { bankAccount: 'RIDER-BANK-1' });
      await t.db.update(users).set({ pushToken: 'SECRET-PUSH-TOKEN' }).where(eq(users.id, rider.id));
      const { id, driver } = await acceptedTrip(rider);
      await req({ method: 'POST', url: `/api/bookings/${id}/chat`, as: rider, payload: { message: 'I am at the gate' } });
      await req({ method: 'POST', url: `/api/bookings/${id}/chat`, as: driver, payload: { message: 'DRIVER-SAYS-HELLO' } });
      await req({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: rider.id, amount: 12.5 } });
      await t.db.insert(savedAddresses).values({ uid: rider.id, description: 'Home street 1', lat: 51.5, lng: -0.1, count: 1, label: 'home' });
      const someoneElse = await t.makeUser('rider');
      await req({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: someoneElse.id, amount: 99 } });

      const response = await req({ method: 'GET', url: '/api/me/export', as: rider });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-disposition']).toMatch(/^attachment; filename="rideway-my-data-\d{4}-\d{2}-\d{2}\.json"$/);
      const data = response.json();
      expect(data.profile).toMatchObject({ id: rider.id, email: rider.email, bankAccount: 'RIDER-BANK-1', walletBalance: 12.5 });
      expect(data.trips).toEqual([expect.objectContaining({ id, role: 'rider', status: 'ACCEPTED', pickupAddress: pickup.add, dropAddress: drop.add, driver_share: null })]);
      expect(data.wallet).toEqual([expect.objectContaining({ type: 'Credit', amount: 12.5 })]);
      expect(data.chatMessages).toEqual([expect.objectContaining({ bookingId: id, message: 'I am at the gate' })]);
      expect(data.savedPlaces).toEqual([expect.objectContaining({ description: 'Home street 1', label: 'home' })]);
      expect(data.notifications.length).toBeGreaterThan(0);
      const text = response.body;
      // The driver's message reached the rider as a notification (the rider's own data), but is no chat message the rider wrote.
      expect(data.chatMessages.map((m: { message: string }) => m.message)).not.toContain('DRIVER-SAYS-HELLO');
      for (const secret of ['SECRET-PUSH-TOKEN', 'argon2', 'password', someoneElse.id, someoneElse.email ?? '', driver.email ?? '', driver.mobile ?? '', 'customer_token', 'driver_token', 'otp']) {
        expect(text).not.toContain(secret);
      }
      // The driver's copy holds the trip as driver, with its share.
      const driverData = (await req({ method: 'GET', url: '/api/me/export', as: driver })).json();
      expect(driverData.trips).toEqual([expect.objectContaining({ id, role: 'driver', otherParty: rider.firstName + ' ' + rider.lastName })]);
      expect(driverData.chatMessages.map((m: { message: string }) => m.message)).toEqual(['DRIVER-SAYS-HELLO']);
    });

    it('is for the signed-in user only, and a flood meets 429', async () => {
      expect((await req({ method: 'GET', url: '/api/me/export' })).statusCode).toBe(401);
      const rider = await t.makeUser('rider');
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) statuses.push((await req({ method: 'GET', url: '/api/me/export', as: rider })).statusCode);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    });
  });

  describe('deleting an account', () => {
    it('anonymises: personal data erased, email and mobile free again, bookings, ledger and reports unchanged, no sign-in', async () => {
      const rider = await t.makeUser('rider');
      const photo = (await setPhoto(rider, PNG)).json().user.profile_image as string;
      const { id, driver } = await paidTrip(rider);
      await req({ method: 'POST', url: `/api/bookings/${id}/complete`, as: rider, payload: { rating: 5 } });
      await req({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: rider.id, amount: 20 } });
      await t.db.insert(pushSubscriptions).values({ uid: rider.id, kind: 'fcm', endpoint: `tok-${randomUUID()}`, createdAt: t.clock.now });
      const ledgerSum = async () => Number((await t.db.select({ total: sql<string>`coalesce(sum(${walletEntries.amountMinor}), 0)` }).from(walletEntries))[0]?.total);
      const report = async () => (await req({ method: 'GET', url: '/api/reports/earnings', as: admin })).json().rows;
      const dashboard = async () => (await req({ method: 'GET', url: '/api/dashboard', as: admin })).json().earnings;
      const before = { ledger: await ledgerSum(), report: await report(), dashboard: await dashboard(), booking: (await t.db.select().from(bookings).where(eq(bookings.id, id)))[0] };
      const riderEntries = await t.db.select().from(walletEntries).where(eq(walletEntries.uid, rider.id));

      const deleted = await req({ method: 'DELETE', url: `/api/users/${rider.id}`, as: rider });
      expect(deleted.statusCode).toBe(204);
      expect(deleted.cookies.find((c) => c.name === 'rideway_session')?.value).toBe('');

      const row = await reload(t, rider);
      expect(row).toMatchObject({ firstName: 'Deleted', lastName: 'user', email: null, mobile: null, passwordHash: null, profileImage: null, pushToken: null, referralId: null });
      expect(row?.deletedAt).toBe(t.clock.now);
      expect((await req({ method: 'GET', url: photo })).statusCode).toBe(404);
      expect(await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.uid, rider.id))).toEqual([]);
      expect(await t.db.select().from(sessions).where(eq(sessions.uid, rider.id))).toEqual([]);
      expect(await t.db.select().from(outbox).where(and(eq(outbox.channel, 'push'), eq(outbox.recipient, rider.id)))).toEqual([]);
      // The books: the booking as it was (its stored names), every ledger entry, the same reports.
      expect((await t.db.select().from(bookings).where(eq(bookings.id, id)))[0]).toEqual(before.booking);
      expect(await t.db.select().from(walletEntries).where(eq(walletEntries.uid, rider.id))).toEqual(riderEntries);
      expect(await ledgerSum()).toBe(before.ledger);
      expect(await report()).toEqual(before.report);
      expect(await dashboard()).toEqual(before.dashboard);
      expect((await req({ method: 'GET', url: `/api/bookings/${id}`, as: driver })).json().customer_name).toBe(before.booking?.customerName);
      // No sign-in, no list, no second deletion.
      expect((await req({ method: 'GET', url: '/api/me', as: rider })).statusCode).toBe(401);
      expect(codeOf(await login(rider.email, PASSWORD))).toBe('login_error');
      const listed = (await req({ method: 'GET', url: '/api/users', as: admin })).json().users as { id: string }[];
      expect(listed.map((user) => user.id)).not.toContain(rider.id);
      expect(codeOf(await req({ method: 'DELETE', url: `/api/users/${rider.id}`, as: admin }))).toBe('not_found');
      expect(codeOf(await req({ method: 'PATCH', url: `/api/users/${rider.id}`, as: admin, payload: { firstName: 'Back' } }))).toBe('not_found');
      // The email and mobile sign up again, as a new account.
      const again = await req({ method: 'POST', url: '/api/auth/register', payload: { firstName: 'Again', lastName: 'Here', email: rider.email, mobile: rider.mobile, password: 'again1' } });
      expect(again.statusCode).toBe(201);
      expect(again.json().user.id).not.toBe(rider.id);
    });

    it('is refused while a trip is in progress, or while the wallet owes money, and changes nothing', async () => {
      const rider = await t.makeUser('rider');
      const { id, driver } = await acceptedTrip(rider);
      for (const target of [rider, driver]) {
        const refused = await req({ method: 'DELETE', url: `/api/users/${target.id}`, as: target });
        expect([refused.statusCode, codeOf(refused)]).toEqual([409, 'account_has_active_trip']);
        const byAdmin = await req({ method: 'DELETE', url: `/api/users/${target.id}`, as: admin });
        expect(codeOf(byAdmin)).toBe('account_has_active_trip');
        expect((await reload(t, target))?.deletedAt).toBeNull();
        expect((await req({ method: 'GET', url: '/api/me', as: target })).statusCode).toBe(200);
      }
      // Paid in cash, the driver owes the operator its fee.
      await driveTrip(t, driver, id, [{ lat: 51.51955, lng: -0.09995 }, drop]);
      await req({ method: 'POST', url: `/api/bookings/${id}/pay`, as: driver, payload: { payment_mode: 'cash' } });
      expect((await req({ method: 'GET', url: '/api/wallet', as: driver })).json().walletBalance).toBeLessThan(0);
      const owes = await req({ method: 'DELETE', url: `/api/users/${driver.id}`, as: driver });
      expect([owes.statusCode, codeOf(owes)]).toEqual([409, 'account_owes_money']);
      expect((await reload(t, driver))?.email).toBe(driver.email);
      // PAID only waits for an optional rating: the rider may go.
      expect((await req({ method: 'DELETE', url: `/api/users/${rider.id}`, as: rider })).statusCode).toBe(204);
    });

    it('a fleet admin deletes only its own drivers; a rider nobody but itself; anonymous nobody', async () => {
      const fleet = await t.makeUser('fleetadmin');
      const own = await t.makeUser('driver', { fleetadmin: fleet.id });
      const foreign = await t.makeUser('driver');
      const rider = await t.makeUser('rider');
      const otherRider = await t.makeUser('rider');
      expect(codeOf(await req({ method: 'DELETE', url: `/api/users/${foreign.id}`, as: fleet }))).toBe('not_found');
      expect(codeOf(await req({ method: 'DELETE', url: `/api/users/${rider.id}`, as: fleet }))).toBe('not_found');
      expect((await req({ method: 'DELETE', url: `/api/users/${otherRider.id}`, as: rider })).statusCode).toBe(404);
      expect((await req({ method: 'DELETE', url: `/api/users/${admin.id}`, as: rider })).statusCode).toBe(404);
      expect((await req({ method: 'DELETE', url: `/api/users/${rider.id}` })).statusCode).toBe(401);
      for (const user of [foreign, rider, otherRider]) expect((await reload(t, user))?.deletedAt).toBeNull();
      expect((await req({ method: 'DELETE', url: `/api/users/${own.id}`, as: fleet })).statusCode).toBe(204);
      expect((await reload(t, own))?.deletedAt).not.toBeNull();
      expect((await req({ method: 'GET', url: '/api/users', as: fleet })).json().users).toEqual([]);
      // A deleted fleet admin's drivers stay, with the admins.
      const kept = await t.makeUser('driver', { fleetadmin: fleet.id });
      expect((await req({ method: 'DELETE', url: `/api/users/${fleet.id}`, as: admin })).statusCode).toBe(204);
      expect((await reload(t, kept))?.fleetadmin).toBeNull();
    });

    it("a deleted driver's trips still count: its bookings keep its name and the reports their rows", async () => {
      const rider = await t.makeUser('rider');
      const { id, driver } = await paidTrip(rider);
      // The driver settles what it owes, then goes.
      const owed = -(await req({ method: 'GET', url: '/api/wallet', as: driver })).json().walletBalance;
      await req({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: driver.id, amount: owed } });
      const drivers = async () => (await req({ method: 'GET', url: '/api/reports/driver-earnings', as: admin })).json().rows;
      const before = await drivers();
      expect((await req({ method: 'DELETE', url: `/api/users/${driver.id}`, as: admin })).statusCode).toBe(204);
      expect(await drivers()).toEqual(before);
      const seen = (await req({ method: 'GET', url: `/api/bookings/${id}`, as: rider })).json();
      expect(seen.driver_name).toBe(`${driver.firstName} ${driver.lastName}`);
      expect((await t.db.select().from(chats)).every((chat) => typeof chat.message === 'string')).toBe(true);
    });

    it('a deleted account takes no wallet credit, is booked for by no admin, and as a referrer earns no bonus', async () => {
      const gone = await t.makeUser('rider');
      expect((await req({ method: 'DELETE', url: `/api/users/${gone.id}`, as: admin })).statusCode).toBe(204);
      const credit = await req({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: gone.id, amount: 10 } });
      expect([credit.statusCode, codeOf(credit)]).toEqual([404, 'not_found']);
      const booked = await req({ method: 'POST', url: '/api/bookings', as: admin, payload: { pickup, drop, carType: 'Sedan', customer: gone.id } });
      expect([booked.statusCode, codeOf(booked)]).toEqual([400, 'select_proper']);
      expect(await t.db.select().from(walletEntries).where(eq(walletEntries.uid, gone.id))).toEqual([]);

      // A rider referred by an account deleted since: the rider's first trip pays the rider's bonus only.
      await t.setSettings({ bonus: 5 });
      try {
        const referrer = await t.makeUser('rider');
        const referred = await t.makeUser('rider', { signupViaReferral: referrer.id });
        expect((await req({ method: 'DELETE', url: `/api/users/${referrer.id}`, as: admin })).statusCode).toBe(204);
        await paidTrip(referred);
        const bonuses = async (uid: string) => (await t.db.select().from(walletEntries).where(and(eq(walletEntries.uid, uid), eq(walletEntries.txRef, 'ReferralBonus')))).length;
        expect(await bonuses(referred.id)).toBe(1);
        expect(await bonuses(referrer.id)).toBe(0);
      } finally {
        await t.setSettings({});
      }
    });
  });
});
