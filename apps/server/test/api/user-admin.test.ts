import { errorBody, type User, type UserDetail } from '@rideway/contract';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, outbox, twoFactor, users, userStatusChanges } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/accounts/accounts';
import sharp from 'sharp';
import { drop, pickup, sedan } from '../fixtures';
import { codeOf, createTestApp, ENGINES, PASSWORD, type TestApp } from '../harness';

/**
 * Issue 20 point 6: an admin's users. A search over name, email and mobile; one user's detail
 * page (an admin: any user but an admin; a fleet admin: its own drivers, another's is 404 like a
 * missing one); approval and suspension with a reason, recorded with who and when. Section 5:
 * "Sign-in blocked with require_approval when profile.approved is false", so a suspension ends
 * the user's sessions at once.
 */

describe.each(ENGINES)('admin users on %s (issue 20 point 6)', (engine) => {
  let t: TestApp;
  let admin: UserRow;
  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.makeUser('admin');
  });
  afterAll(() => t.close());

  const search = async (as: UserRow, term: string, usertype?: string) => {
    const query = new URLSearchParams({ search: term, ...(usertype ? { usertype } : {}) });
    const response = await t.request({ method: 'GET', url: `/api/users?${query.toString()}`, as });
    expect(response.statusCode).toBe(200);
    return response.json<{ users: User[] }>().users.map((user) => user.id);
  };
  const detail = (as: UserRow, id: string) => t.request({ method: 'GET', url: `/api/users/${id}/detail`, as });
  const approval = (as: UserRow, id: string, payload: Record<string, unknown>) => t.request({ method: 'POST', url: `/api/users/${id}/approval`, as, payload });
  const noticesTo = async (recipient: string) => (await t.db.select().from(outbox).where(eq(outbox.recipient, recipient))).map((row) => row.payload as { title?: string; msg?: string; subject?: string; text?: string });

  it('finds users by part of a name, the whole name, email or mobile, in any case', async () => {
    const tag = randomUUID().slice(0, 8);
    const rider = await t.makeUser('rider', { firstName: `Zelda${tag}`, lastName: 'Quartermaine', email: `zq.${tag}@Example.com`, mobile: `79${tag.replace(/\D/g, '7').slice(0, 6)}31` });
    const other = await t.makeUser('rider');
    expect(await search(admin, `zelda${tag}`.toUpperCase())).toEqual([rider.id]);
    expect(await search(admin, `${`Zelda${tag}`.slice(2)} quarterm`)).toEqual([rider.id]);
    expect(await search(admin, `ZQ.${tag}@example`)).toEqual([rider.id]);
    const mobile = rider.mobile ?? '';
    expect(await search(admin, mobile.slice(2, 9))).toEqual([rider.id]);
    // Typed as people type numbers: with a plus, spaces and a dash.
    expect(await search(admin, `+${mobile.slice(0, 3)} ${mobile.slice(3, 6)}-${mobile.slice(6)}`)).toEqual([rider.id]);
    expect(await search(admin, `zelda${tag}`, 'driver')).toEqual([]);
    expect(await search(admin, other.firstName)).toContain(other.id);
    expect(await search(admin, other.firstName)).not.toContain(rider.id);
  });

  it('takes % and _ literally, never as wildcards, and never lists an admin', async () => {
    const percent = await t.makeUser('rider', { firstName: 'Fifty%Off' });
    const underscore = await t.makeUser('rider', { firstName: 'Under_Score' });
    await t.makeUser('rider', { firstName: 'UnderXScore' });
    expect(await search(admin, '%')).toEqual([percent.id]);
    expect(await search(admin, 'under_')).toEqual([underscore.id]);
    expect(await search(admin, '\\')).toEqual([]);
    expect(await search(admin, admin.firstName)).toEqual([]);
  });

  it('answers at most 100 matches, and an empty search is the plain list', async () => {
    const tag = `Many${randomUUID().slice(0, 6)}`;
    for (let i = 0; i < 101; i += 1) await t.makeUser('rider', { firstName: tag });
    expect(await search(admin, tag)).toHaveLength(100);
    const plain = await t.request({ method: 'GET', url: '/api/users?search=', as: admin });
    expect(plain.json<{ users: User[] }>().users.length).toBeGreaterThan(101);
    const tooLong = await t.request({ method: 'GET', url: `/api/users?search=${'x'.repeat(101)}`, as: admin });
    expect(tooLong.statusCode).toBe(400);
  });

  it("a fleet admin searches only its own drivers", async () => {
    const fleet = await t.makeUser('fleetadmin');
    const otherFleet = await t.makeUser('fleetadmin');
    const name = `Shared${randomUUID().slice(0, 6)}`;
    const own = await t.makeUser('driver', { firstName: name, fleetadmin: fleet.id });
    const foreign = await t.makeUser('driver', { firstName: name, fleetadmin: otherFleet.id });
    await t.makeUser('rider', { firstName: name });
    expect(await search(fleet, name)).toEqual([own.id]);
    expect(await search(fleet, name, 'rider')).toEqual([own.id]);
    expect(await search(otherFleet, name)).toEqual([foreign.id]);
    expect((await search(admin, name)).sort()).toHaveLength(3);
  });

  it("shows a driver's profile, documents, trips, wallet, ratings and history", async () => {
    // With a car: its registration and insurance are seeded with it (issue 20 point 3).
    const driver = await t.makeUser('driver', { carType: 'Sedan' });
    await t.db.update(users).set({ ratings: { userrating: 4.5, details: [{ user: 'r1', rate: 4 }, { user: 'r2', rate: 5 }] } }).where(eq(users.id, driver.id));
    await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: driver.id, amount: 12.5 } });
    const response = await detail(admin, driver.id);
    expect(response.statusCode).toBe(200);
    const body = response.json<UserDetail>();
    expect(body.user).toMatchObject({ id: driver.id, email: driver.email, usertype: 'driver', walletBalance: 12.5 });
    // The harness seeds every document approved until 2036.
    expect(body.documents.documents.map((document) => document.status)).toEqual(['approved', 'approved', 'approved', 'approved', 'approved']);
    expect(body.documents.problems).toEqual([]);
    expect(body.trips).toEqual({ asRider: 0, asDriver: 0, recent: [] });
    expect(body.wallet.walletBalance).toBe(12.5);
    expect(body.wallet.recent).toEqual([expect.objectContaining({ type: 'Credit', amount: 12.5, txRef: 'AdminCredit' })]);
    expect(body.ratings).toEqual({ userrating: 4.5, count: 2, recent: [] });
    expect(body.statusHistory).toEqual([]);
    // A driver has no second factor to reset; a fleet admin's shows whether it is on.
    expect(body.twoFactor).toBeNull();
    const fleet = await t.makeUser('fleetadmin');
    expect((await detail(admin, fleet.id)).json<UserDetail>().twoFactor).toEqual({ enabled: false });
    await t.db.insert(twoFactor).values({ uid: fleet.id, secret: 'JBSWY3DPEHPK3PXP', createdAt: t.clock.now, enabledAt: t.clock.now });
    expect((await detail(admin, fleet.id)).json<UserDetail>().twoFactor).toEqual({ enabled: true });
  });

  it("shows a driver's vehicles: the active one, and another rejected with its reason", async () => {
    for (const name of ['Sedan', 'SUV']) await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: { ...sedan, name } });
    const driver = await t.makeUser('driver', { carType: 'Sedan', vehicleNumber: 'DET 001' });
    const png = `data:image/png;base64,${(await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366aa' } }).png().toBuffer()).toString('base64')}`;
    // Listed oldest first: the second vehicle comes a minute after the first.
    t.advance(60_000);
    const added = await t.request({ method: 'POST', url: '/api/driver/vehicles', as: driver, payload: { carType: 'SUV', vehicleMake: 'Kia', vehicleModel: 'Sportage', vehicleNumber: 'DET 002', image: png } });
    expect(added.statusCode, added.body).toBe(201);
    const second = added.json<{ vehicle: { id: string } }>().vehicle.id;
    expect((await t.request({ method: 'POST', url: `/api/vehicles/${second}/reject`, as: admin, payload: { reason: 'Plate unreadable' } })).statusCode).toBe(200);

    const { vehicles } = (await detail(admin, driver.id)).json<UserDetail>();
    expect(vehicles.map(({ vehicleNumber, carType, active, status, reason }) => ({ vehicleNumber, carType, active, status, reason }))).toEqual([
      { vehicleNumber: 'DET 001', carType: 'Sedan', active: true, status: 'approved', reason: null },
      { vehicleNumber: 'DET 002', carType: 'SUV', active: false, status: 'rejected', reason: 'Plate unreadable' },
    ]);
    // The photo is the stored one, served by the files route to the admin.
    const photo = vehicles[1]?.image ?? '';
    expect(photo).toMatch(/^\/api\/files\//);
    expect((await t.request({ method: 'GET', url: photo, as: admin })).statusCode).toBe(200);
    // A rider has no detail of it.
    expect((await detail(await t.makeUser('rider'), driver.id)).statusCode).toBe(403);
  });

  it('shows the detail to an admin and the own fleet admin only: anyone else gets 403, or 404 like a missing id', async () => {
    const fleet = await t.makeUser('fleetadmin');
    const otherFleet = await t.makeUser('fleetadmin');
    const driver = await t.makeUser('driver', { fleetadmin: fleet.id });
    const rider = await t.makeUser('rider');
    const otherAdmin = await t.makeUser('admin');
    expect((await detail(fleet, driver.id)).statusCode).toBe(200);
    const missing = await detail(otherFleet, randomUUID());
    const foreign = await detail(otherFleet, driver.id);
    expect([foreign.statusCode, foreign.json()]).toEqual([404, missing.json()]);
    expect([(await detail(fleet, rider.id)).statusCode]).toEqual([404]);
    expect([(await detail(admin, otherAdmin.id)).statusCode, (await detail(admin, admin.id)).statusCode]).toEqual([404, 404]);
    for (const as of [rider, driver]) expect([(await detail(as, driver.id)).statusCode, codeOf(await detail(as, driver.id))]).toEqual([403, 'forbidden']);
  });

  it("a fleet admin sees the trips its driver drove, never the rides it took as a rider; an admin sees both", async () => {
    const fleet = await t.makeUser('fleetadmin');
    const driver = await t.makeUser('driver', { fleetadmin: fleet.id, carType: 'Sedan' });
    const rider = await t.makeUser('rider');
    const trip = (customer: string, driverId: string | null, add: string) => ({
      id: randomUUID(), reference: randomUUID().slice(0, 8), status: 'COMPLETE', carType: 'Sedan', customer, customerName: 'R', pickup: { ...pickup, add }, drop,
      estimateMinor: 1500, estimateDistance: 3, estimateTime: 600, bookingDate: t.clock.now, tripdate: t.clock.now, tripCostMinor: 1500, currency: 'GBP',
      convenienceFeesMinor: 150, driverShareMinor: 1350, customerPaidMinor: 1500, driver: driverId, driverName: 'Dee Driver', vehicleNumber: 'AB12', updatedAt: t.clock.now,
    });
    // One trip it drove; one ride it took itself, from its home, with another driver.
    await t.db.insert(bookings).values([trip(rider.id, driver.id, 'A station'), trip(driver.id, null, "The driver's home")]);
    const forFleet = (await detail(fleet, driver.id)).json<UserDetail>().trips;
    expect(forFleet.asRider).toBeNull();
    expect(forFleet.asDriver).toBe(1);
    expect(forFleet.recent.map((row) => [row.role, row.pickupAddress])).toEqual([['driver', 'A station']]);
    const forAdmin = (await detail(admin, driver.id)).json<UserDetail>().trips;
    expect([forAdmin.asRider, forAdmin.asDriver]).toEqual([1, 1]);
    expect(forAdmin.recent.map((row) => row.pickupAddress).sort()).toEqual(['A station', "The driver's home"]);
  });

  it('suspending needs a reason, which the user reads in its language', async () => {
    const rider = await t.makeUser('rider');
    await t.db.update(users).set({ language: 'es' }).where(eq(users.id, rider.id));
    for (const payload of [{ approved: false }, { approved: false, reason: '   ' }]) {
      const refused = await approval(admin, rider.id, payload);
      expect([refused.statusCode, refused.json()]).toEqual([400, errorBody('suspend_reason_required', { field: 'reason' })]);
    }
    expect(await noticesTo(rider.id)).toEqual([]);
    const done = await approval(admin, rider.id, { approved: false, reason: 'Fraude con tarjetas' });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ changed: true, user: { approved: false } });
    expect(await noticesTo(rider.id)).toEqual([{ title: 'Tu cuenta', msg: 'Tu cuenta fue suspendida: Fraude con tarjetas' }]);
    expect(await noticesTo(rider.email ?? '')).toEqual([{ subject: 'Tu cuenta', text: 'Tu cuenta fue suspendida: Fraude con tarjetas' }]);
  });

  it("a suspension ends the user's sessions and takes a driver offline; it cannot sign in until approved again", async () => {
    const driver = await t.makeUser('driver');
    await t.goOnline(driver);
    expect(await t.app.ctx.live.geo.get(driver.id)).toBeDefined();
    expect((await t.request({ method: 'GET', url: '/api/me', as: driver })).statusCode).toBe(200);
    const suspended = await approval(admin, driver.id, { approved: false, reason: 'Complaints about driving' });
    expect(suspended.json()).toMatchObject({ changed: true, user: { approved: false, driverActiveStatus: false } });
    const out = await t.request({ method: 'GET', url: '/api/me', as: driver });
    expect([out.statusCode, codeOf(out)]).toEqual([401, 'not_logged_in']);
    expect(await t.app.ctx.live.geo.get(driver.id)).toBeUndefined();
    const login = () => t.request({ method: 'POST', url: '/api/auth/login', payload: { email: driver.email, password: PASSWORD } });
    expect([(await login()).statusCode, codeOf(await login())]).toEqual([403, 'require_approval']);

    // Approved again: told so once; a repeat changes nothing and tells nobody again.
    const approved = await approval(admin, driver.id, { approved: true });
    expect(approved.json()).toMatchObject({ changed: true, user: { approved: true } });
    const repeat = await approval(admin, driver.id, { approved: true });
    expect(repeat.json()).toMatchObject({ changed: false, user: { approved: true } });
    expect((await noticesTo(driver.id)).map((notice) => notice.msg)).toEqual(['Your account was suspended: Complaints about driving', 'Your account was approved. You can sign in now.']);
    expect((await login()).statusCode).toBe(200);

    const history = (await detail(admin, driver.id)).json<UserDetail>().statusHistory;
    expect(history).toEqual([
      { approved: true, reason: null, changedBy: { id: admin.id, name: `${admin.firstName} ${admin.lastName}` }, at: expect.any(Number) },
      { approved: false, reason: 'Complaints about driving', changedBy: { id: admin.id, name: `${admin.firstName} ${admin.lastName}` }, at: expect.any(Number) },
    ]);
  });

  it('approving a driver waiting for approval tells it, and an approval changed in the table joins the history', async () => {
    const driver = await t.makeUser('driver', { approved: false });
    await t.db.update(users).set({ language: 'ar' }).where(eq(users.id, driver.id));
    expect((await approval(admin, driver.id, { approved: true, reason: 'Papers checked' })).json()).toMatchObject({ changed: true });
    expect(await noticesTo(driver.id)).toEqual([{ title: 'حسابك', msg: 'تمت الموافقة على حسابك. يمكنك تسجيل الدخول الآن.' }]);
    await t.goOnline(driver);
    const patched = await t.request({ method: 'PATCH', url: `/api/users/${driver.id}`, as: admin, payload: { approved: false } });
    expect(patched.json()).toMatchObject({ user: { approved: false, driverActiveStatus: false } });
    expect(await t.app.ctx.live.geo.get(driver.id)).toBeUndefined();
    const rows = await t.db.select().from(userStatusChanges).where(eq(userStatusChanges.uid, driver.id));
    expect(rows.map((row) => [row.approved, row.reason])).toEqual([[true, 'Papers checked'], [false, null]]);
  });

  it('refuses an admin target, the own account, a fleet admin, and a flood (429)', async () => {
    const otherAdmin = await t.makeUser('admin');
    const fleet = await t.makeUser('fleetadmin');
    const own = await t.makeUser('driver', { fleetadmin: fleet.id });
    const target = await approval(admin, otherAdmin.id, { approved: false, reason: 'x' });
    expect([target.statusCode, codeOf(target)]).toEqual([404, 'not_found']);
    const self = await approval(admin, admin.id, { approved: false, reason: 'x' });
    expect([self.statusCode, codeOf(self)]).toEqual([403, 'approval_own_account']);
    const byFleet = await approval(fleet, own.id, { approved: false, reason: 'x' });
    expect([byFleet.statusCode, codeOf(byFleet)]).toEqual([403, 'forbidden']);
    const strictBody = await approval(admin, own.id, { approved: false, reason: 'x', walletBalance: 5 });
    expect(strictBody.statusCode).toBe(400);
    const [otherReloaded, ownReloaded] = await Promise.all([otherAdmin.id, own.id].map(async (id) => (await t.db.select().from(users).where(eq(users.id, id)))[0]));
    expect([otherReloaded?.approved, ownReloaded?.approved]).toEqual([true, true]);

    const flooder = await t.makeUser('admin');
    const rider = await t.makeUser('rider');
    const statuses: number[] = [];
    for (let i = 0; i < 32; i += 1) statuses.push((await approval(flooder, rider.id, { approved: true })).statusCode);
    expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
    const refused = await approval(flooder, rider.id, { approved: true });
    expect([refused.statusCode, refused.json()]).toEqual([429, errorBody('too_many_requests')]);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('in demo mode a published admin login cannot suspend or approve anyone', async () => {
    const rider = await t.makeUser('rider');
    await t.setSettings({ AllowCriticalEditsAdmin: false });
    try {
      const refused = await approval(admin, rider.id, { approved: false, reason: 'Spam' });
      expect([refused.statusCode, codeOf(refused)]).toEqual([403, 'demo_mode']);
    } finally {
      await t.setSettings({ AllowCriticalEditsAdmin: true });
    }
    expect((await t.db.select().from(users).where(eq(users.id, rider.id)))[0]?.approved).toBe(true);
  });

  it("erases the approval history's reasons when the account is deleted", async () => {
    const rider = await t.makeUser('rider');
    await approval(admin, rider.id, { approved: false, reason: 'Abusive messages' });
    expect((await t.request({ method: 'DELETE', url: `/api/users/${rider.id}`, as: admin })).statusCode).toBe(204);
    expect(await t.db.select().from(userStatusChanges).where(eq(userStatusChanges.uid, rider.id))).toEqual([]);
  });
});
