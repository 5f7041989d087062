/**
 * Issue 23 point 8: every admin and fleet-admin change (users, approvals, documents and vehicles,
 * settings, car types, cancel reasons, promos, notifications, wallet credits, withdraws, refunds,
 * an admin's bookings, messages sent again) is one entry of the audit log, written in the
 * change's transaction: who, when, what, the changed fields before and after, secrets redacted.
 * A refused change leaves none. GET /api/audit is the admins' only, searched and paged.
 */
import { randomUUID } from 'node:crypto';
import { errorBody, type AuditEntry, type AuditLogPage } from '@rideway/contract';
import { REDACTED, ERASED } from '@rideway/domain';
import { asc, eq, gt, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAudit } from '../../src/audit/record';
import { auditLog, bookings, outbox, refunds, twoFactor, users } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { drop, pickup, sedan } from '../fixtures';
import { codeOf, createTestApp, driveTrip, ENGINES, type TestApp } from '../harness';

type Row = typeof auditLog.$inferSelect;

let png = '';
beforeAll(async () => {
  png = `data:image/png;base64,${(await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366aa' } }).png().toBuffer()).toString('base64')}`;
});

let people = 0;
/** A person's fields for POST /api/users, unique in this run. */
const person = (extra: Record<string, unknown> = {}) => {
  people += 1;
  const stamp = `${String(Date.now()).slice(-6)}${String(people).padStart(3, '0')}`;
  return { firstName: 'Uma', lastName: `Audit${stamp}`, email: `uma.${stamp}@example.com`, mobile: `6${stamp}`, usertype: 'rider', ...extra };
};

describe.each(ENGINES)('the audit log on %s (issue 23 point 8)', (engine) => {
  let t: TestApp;
  let admin: UserRow;
  let fleet: UserRow;

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.makeUser('admin');
    fleet = await t.makeUser('fleetadmin');
    expect((await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan })).statusCode).toBe(201);
  });
  afterAll(() => t.close());

  /** The newest entry's id: what a test's change is counted after. */
  const mark = async (): Promise<number> => Number((await t.db.select({ id: sql<string>`coalesce(max(${auditLog.id}), 0)` }).from(auditLog))[0]?.id ?? 0);
  const since = (after: number): Promise<Row[]> => t.db.select().from(auditLog).where(gt(auditLog.id, after)).orderBy(asc(auditLog.id));
  /** Exactly one entry since `after`, made by `actor`; answers it. */
  async function onlyEntry(after: number, actor: UserRow, action: string): Promise<Row> {
    const rows = await since(after);
    expect(rows.map((row) => row.action)).toEqual([action]);
    const row = rows[0] as Row;
    expect({ actorUid: row.actorUid, actorUsertype: row.actorUsertype, at: row.at }).toEqual({ actorUid: actor.id, actorUsertype: actor.usertype, at: t.clock.now });
    expect(row.requestId).toEqual(expect.any(String));
    return row;
  }
  const userRow = async (id: string): Promise<UserRow> => (await t.db.select().from(users).where(eq(users.id, id)))[0] as UserRow;
  const list = (query = '', as: UserRow | null = admin) => t.request({ method: 'GET', url: `/api/audit${query ? `?${query}` : ''}`, as });
  const page = async (query = ''): Promise<AuditLogPage> => {
    const answer = await list(query);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<AuditLogPage>();
  };

  it("users: an admin's add, edit, suspension, approval and deletion are one entry each, with who, before and after", async () => {
    let at = await mark();
    const added = await t.request({ method: 'POST', url: '/api/users', as: admin, payload: person({ password: 'Pass1234' }) });
    expect(added.statusCode, added.body).toBe(201);
    const uid = added.json<{ user: { id: string; email: string } }>().user.id;
    const created = await onlyEntry(at, admin, 'user.create');
    expect(created).toMatchObject({ entityType: 'user', entityId: uid, before: null, after: expect.objectContaining({ firstName: 'Uma', usertype: 'rider', approved: true, passwordHash: REDACTED }) });

    at = await mark();
    expect((await t.request({ method: 'PATCH', url: `/api/users/${uid}`, as: admin, payload: { firstName: 'Umberta', bankAccount: '12345678' } })).statusCode).toBe(200);
    expect(await onlyEntry(at, admin, 'user.update')).toMatchObject({ before: { firstName: 'Uma', bankAccount: null }, after: { firstName: 'Umberta', bankAccount: '12345678' } });

    at = await mark();
    expect((await t.request({ method: 'POST', url: `/api/users/${uid}/approval`, as: admin, payload: { approved: false, reason: 'Repeated no-shows' } })).statusCode).toBe(200);
    expect(await onlyEntry(at, admin, 'user.suspend')).toMatchObject({ before: { approved: true, reason: null }, after: { approved: false, reason: 'Repeated no-shows' } });
    // A repeat changes nothing, so it is no entry.
    at = await mark();
    expect((await t.request({ method: 'POST', url: `/api/users/${uid}/approval`, as: admin, payload: { approved: false, reason: 'Again' } })).statusCode).toBe(200);
    expect(await since(at)).toEqual([]);
    expect((await t.request({ method: 'POST', url: `/api/users/${uid}/approval`, as: admin, payload: { approved: true } })).statusCode).toBe(200);
    expect(await onlyEntry(at, admin, 'user.approve')).toMatchObject({ before: { approved: false }, after: { approved: true } });

    // Issue 23 point 8 with the account privacy rule: the deletion is an entry, and the entries
    // about the account keep which fields changed, never the person's data.
    at = await mark();
    expect((await t.request({ method: 'DELETE', url: `/api/users/${uid}`, as: admin })).statusCode).toBe(204);
    expect(await onlyEntry(at, admin, 'user.delete')).toMatchObject({ entityId: uid, before: { deletedAt: null }, after: { deletedAt: t.clock.now } });
    const about = (await page(`search=${uid}&entityType=user`)).entries;
    expect(about.map((entry) => entry.action)).toEqual(['user.delete', 'user.approve', 'user.suspend', 'user.update', 'user.create']);
    expect(about.find((entry) => entry.action === 'user.create')?.after).toMatchObject({ firstName: ERASED, lastName: ERASED, email: ERASED, mobile: ERASED, usertype: 'rider', passwordHash: REDACTED });
    expect(about.find((entry) => entry.action === 'user.update')).toMatchObject({ before: { firstName: ERASED, bankAccount: null }, after: { firstName: ERASED, bankAccount: ERASED } });
    expect(about.find((entry) => entry.action === 'user.suspend')?.after).toMatchObject({ reason: ERASED, approved: false });
    expect(JSON.stringify(about)).not.toMatch(/Umberta|Repeated no-shows|12345678/);
  });

  it("an admin's reset of a staff member's two-factor sign-in is an entry, with the reason and no secret", async () => {
    const staff = await t.makeUser('fleetadmin');
    await t.db.insert(twoFactor).values({ uid: staff.id, secret: 'sealed-totp-secret', enabledAt: t.clock.now, createdAt: t.clock.now });
    const at = await mark();
    expect((await t.request({ method: 'POST', url: `/api/users/${staff.id}/two-factor/reset`, as: admin, payload: { reason: 'Lost phone' } })).statusCode).toBe(204);
    const row = await onlyEntry(at, admin, 'user.two_factor_reset');
    expect(row).toMatchObject({ entityId: staff.id, before: { twoFactorEnabled: true, reason: null }, after: { twoFactorEnabled: false, reason: 'Lost phone' } });
    expect(JSON.stringify(row)).not.toContain('sealed-totp-secret');
  });

  it("a fleet admin's changes on its own drivers are recorded as the fleet admin's: a driver added and edited, a document and a vehicle approved", async () => {
    let at = await mark();
    const added = await t.request({ method: 'POST', url: '/api/users', as: fleet, payload: person({ usertype: 'driver', firstName: 'Fred', carType: 'Sedan', password: 'Pass1234' }) });
    expect(added.statusCode, added.body).toBe(201);
    const driver = await userRow(added.json<{ user: { id: string } }>().user.id);
    expect(await onlyEntry(at, fleet, 'user.create')).toMatchObject({ entityId: driver.id, after: expect.objectContaining({ usertype: 'driver', fleetadmin: fleet.id, carType: 'Sedan' }) });

    at = await mark();
    expect((await t.request({ method: 'PATCH', url: `/api/users/${driver.id}`, as: fleet, payload: { lastName: 'Fleetwood' } })).statusCode).toBe(200);
    expect(await onlyEntry(at, fleet, 'user.update')).toMatchObject({ before: { lastName: driver.lastName }, after: { lastName: 'Fleetwood' } });

    const uploaded = await t.request({ method: 'PUT', url: '/api/driver/documents/id', as: driver, payload: { image: png, expiresOn: '2030-01-01' } });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const documentId = uploaded.json<{ document: { id: string } }>().document.id;
    at = await mark();
    expect((await t.request({ method: 'POST', url: `/api/documents/${documentId}/approve`, as: fleet })).statusCode).toBe(200);
    expect(await onlyEntry(at, fleet, 'document.approve')).toMatchObject({
      entityType: 'document',
      entityId: documentId,
      before: { status: 'pending', reviewedBy: null, reviewedAt: null },
      after: { status: 'approved', reviewedBy: fleet.id, reviewedAt: t.clock.now },
    });
    // Another fleet's admin is told it does not exist, and nothing is written.
    const other = await t.makeUser('fleetadmin');
    const licence = (await t.request({ method: 'PUT', url: '/api/driver/documents/licence_front', as: driver, payload: { image: png, expiresOn: '2030-01-01' } })).json<{ document: { id: string } }>().document.id;
    at = await mark();
    expect((await t.request({ method: 'POST', url: `/api/documents/${licence}/approve`, as: other })).statusCode).toBe(404);
    expect(await since(at)).toEqual([]);
    expect((await t.request({ method: 'POST', url: `/api/documents/${licence}/reject`, as: admin, payload: { reason: 'Blurred' } })).statusCode).toBe(200);
    expect(await onlyEntry(at, admin, 'document.reject')).toMatchObject({ before: { status: 'pending', reason: null }, after: { status: 'rejected', reason: 'Blurred' } });

    const car = await t.request({ method: 'POST', url: '/api/driver/vehicles', as: driver, payload: { carType: 'Sedan', vehicleMake: 'Skoda', vehicleModel: 'Octavia', vehicleNumber: `AU ${String(people)}`, image: png } });
    expect(car.statusCode, car.body).toBe(201);
    const vehicleId = car.json<{ vehicle: { id: string } }>().vehicle.id;
    at = await mark();
    expect((await t.request({ method: 'POST', url: `/api/vehicles/${vehicleId}/approve`, as: fleet })).statusCode).toBe(200);
    expect(await onlyEntry(at, fleet, 'vehicle.approve')).toMatchObject({ entityType: 'vehicle', entityId: vehicleId, before: { status: 'pending' }, after: { status: 'approved', reviewedBy: fleet.id } });
  });

  it('settings, car types, cancel reasons, promos and notifications: each add, edit and delete is an entry with the changed fields only', async () => {
    const { settings } = (await t.request({ method: 'GET', url: '/api/settings', as: admin })).json<{ settings: { bonus: number; appName: string } }>();
    let at = await mark();
    expect((await t.request({ method: 'PATCH', url: '/api/settings', as: admin, payload: { bonus: settings.bonus + 2.5, appName: 'Audit Rides', driverRadius: 10 } })).statusCode).toBe(200);
    expect(await onlyEntry(at, admin, 'settings.update')).toMatchObject({ entityType: 'settings', before: { bonus: settings.bonus, appName: settings.appName }, after: { bonus: settings.bonus + 2.5, appName: 'Audit Rides' } });
    expect(Object.keys((await since(at))[0]?.after ?? {}).sort()).toEqual(['appName', 'bonus']);
    // Saved again unchanged: no change, no entry.
    at = await mark();
    expect((await t.request({ method: 'PATCH', url: '/api/settings', as: admin, payload: { appName: 'Audit Rides' } })).statusCode).toBe(200);
    expect(await since(at)).toEqual([]);

    const van = await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: { ...sedan, name: 'Van' } });
    const vanId = van.json<{ cartype: { id: string } }>().cartype.id;
    expect(await onlyEntry(at, admin, 'cartype.create')).toMatchObject({ entityId: vanId, before: null, after: { name: 'Van', base_fare: 2.5, convenience_fee_type: 'percentage' } });
    at = await mark();
    expect((await t.request({ method: 'PATCH', url: `/api/cartypes/${vanId}`, as: admin, payload: { base_fare: 3.25 } })).statusCode).toBe(200);
    expect(await onlyEntry(at, admin, 'cartype.update')).toMatchObject({ before: { base_fare: 2.5 }, after: { base_fare: 3.25 } });
    at = await mark();
    expect((await t.request({ method: 'DELETE', url: `/api/cartypes/${vanId}`, as: admin })).statusCode).toBe(204);
    expect(await onlyEntry(at, admin, 'cartype.delete')).toMatchObject({ before: { name: 'Van', base_fare: 3.25 }, after: null });

    at = await mark();
    const reason = (await t.request({ method: 'POST', url: '/api/cancel-reasons', as: admin, payload: { label: 'Too slow' } })).json<{ reason: { id: string } }>().reason;
    expect(await onlyEntry(at, admin, 'cancelreason.create')).toMatchObject({ entityId: reason.id, after: { label: 'Too slow' } });
    at = await mark();
    await t.request({ method: 'PATCH', url: `/api/cancel-reasons/${reason.id}`, as: admin, payload: { label: 'Much too slow' } });
    expect(await onlyEntry(at, admin, 'cancelreason.update')).toMatchObject({ before: { label: 'Too slow' }, after: { label: 'Much too slow' } });
    at = await mark();
    expect((await t.request({ method: 'DELETE', url: `/api/cancel-reasons/${reason.id}`, as: admin })).statusCode).toBe(204);
    expect(await onlyEntry(at, admin, 'cancelreason.delete')).toMatchObject({ before: { label: 'Much too slow' }, after: null });

    at = await mark();
    const promo = (await t.request({ method: 'POST', url: '/api/promos', as: admin, payload: { promo_name: `AUDIT${String(people)}`, promo_discount_type: 'flat', promo_discount_value: 2, promo_validity: t.clock.now + 86_400_000, promo_usage_limit: 5 } })).json<{ promo: { id: string } }>().promo;
    expect(await onlyEntry(at, admin, 'promo.create')).toMatchObject({ entityId: promo.id, after: { promo_discount_value: 2, promo_usage_limit: 5 } });
    at = await mark();
    await t.request({ method: 'PATCH', url: `/api/promos/${promo.id}`, as: admin, payload: { promo_discount_value: 3, promo_usage_limit: 5 } });
    expect(await onlyEntry(at, admin, 'promo.update')).toEqual(expect.objectContaining({ before: { promo_discount_value: 2 }, after: { promo_discount_value: 3 } }));
    at = await mark();
    expect((await t.request({ method: 'DELETE', url: `/api/promos/${promo.id}`, as: admin })).statusCode).toBe(204);
    expect(await onlyEntry(at, admin, 'promo.delete')).toMatchObject({ before: { promo_discount_value: 3 }, after: null });

    const rider = await t.makeUser('rider');
    expect((await t.request({ method: 'POST', url: '/api/push/subscriptions', as: rider, payload: { kind: 'fcm', token: `tok-${randomUUID()}-android` } })).statusCode).toBe(201);
    at = await mark();
    const sent = await t.request({ method: 'POST', url: '/api/notifications', as: admin, payload: { usertype: 'rider', devicetype: 'ANDROID', title: 'Offer', body: 'Half price today' } });
    expect(sent.statusCode, sent.body).toBe(201);
    const notificationId = sent.json<{ notification: { id: string } }>().notification.id;
    expect(await onlyEntry(at, admin, 'notification.send')).toMatchObject({ entityId: notificationId, before: null, after: { title: 'Offer', body: 'Half price today', usertype: 'rider', recipients: 1 } });
    at = await mark();
    expect((await t.request({ method: 'DELETE', url: `/api/notifications/${notificationId}`, as: admin })).statusCode).toBe(204);
    expect(await onlyEntry(at, admin, 'notification.delete')).toMatchObject({ before: { title: 'Offer' }, after: null });
  });

  describe('money and bookings', () => {
    let driver: UserRow;
    beforeAll(async () => {
      driver = await t.makeUser('driver', { carType: 'Sedan', bankName: 'Bank', bankCode: '01', bankAccount: '123' });
    });

    it('a wallet credit: the balance before and after, and the credit', async () => {
      const rider = await t.makeUser('rider');
      const at = await mark();
      expect((await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: rider.id, amount: 12.5 } })).statusCode).toBe(200);
      expect(await onlyEntry(at, admin, 'wallet.credit')).toMatchObject({ entityType: 'wallet', entityId: rider.id, before: { walletBalance: 0, amount: null, txRef: null }, after: { walletBalance: 12.5, amount: 12.5, txRef: 'AdminCredit' } });
    });

    it('withdraw decisions: paid and rejected are an entry each; the driver\'s own request and a second decision are none', async () => {
      await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: driver.id, amount: 50 } });
      let at = await mark();
      const ask = async () => (await t.request({ method: 'POST', url: '/api/withdraws', as: driver, payload: { amount: 20 } })).json<{ withdraw: { id: string } }>().withdraw.id;
      const first = await ask();
      expect(await since(at)).toEqual([]);
      expect((await t.request({ method: 'POST', url: `/api/withdraws/${first}/complete`, as: admin })).statusCode).toBe(200);
      expect(await onlyEntry(at, admin, 'withdraw.complete')).toMatchObject({ entityId: first, before: { processed: false, procesDate: null }, after: { processed: true, procesDate: t.clock.now } });
      at = await mark();
      expect((await t.request({ method: 'POST', url: `/api/withdraws/${first}/reject`, as: admin })).statusCode).toBe(409);
      expect(await since(at)).toEqual([]);
      const second = await ask();
      expect((await t.request({ method: 'POST', url: `/api/withdraws/${second}/reject`, as: admin })).statusCode).toBe(200);
      expect(await onlyEntry(at, admin, 'withdraw.reject')).toMatchObject({ entityId: second, before: { rejected: false }, after: { rejected: true } });
    });

    /** A wallet trip the rider paid (PAID). */
    async function paidWalletTrip(rider: UserRow): Promise<string> {
      await t.goOnline(driver);
      const created = await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', payment_mode: 'wallet' } });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json<{ id: string }>().id;
      await t.db.update(bookings).set({ requestedDrivers: { [driver.id]: true } }).where(eq(bookings.id, id));
      expect((await t.request({ method: 'POST', url: `/api/bookings/${id}/accept`, as: driver, payload: {} })).statusCode).toBe(200);
      await driveTrip(t, driver, id, [drop]);
      expect((await t.request({ method: 'POST', url: `/api/bookings/${id}/pay`, as: rider, payload: { payment_mode: 'wallet' } })).json<{ status: string }>().status).toBe('PAID');
      return id;
    }

    it("refunds: an admin's refund and a confirmation of one made in a provider's dashboard, once each; the rider's trip is none", async () => {
      const rider = await t.makeUser('rider');
      await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: rider.id, amount: 100 } });
      let at = await mark();
      const bookingId = await paidWalletTrip(rider);
      expect(await since(at)).toEqual([]);
      expect((await t.request({ method: 'POST', url: `/api/bookings/${bookingId}/refunds`, as: admin, payload: { amount: 2, reason: 'Late' } })).statusCode).toBe(200);
      const refunded = await onlyEntry(at, admin, 'refund.create');
      expect(refunded).toMatchObject({ entityType: 'refund', before: null, after: { bookingId, amount: 2, provider: 'wallet', status: 'succeeded', kind: 'admin', reason: 'Late' } });
      expect(refunded.entityId).toMatch(/^\d+$/);
      // Over what is left: refused, no entry.
      at = await mark();
      expect(codeOf(await t.request({ method: 'POST', url: `/api/bookings/${bookingId}/refunds`, as: admin, payload: { amount: 1000, reason: 'Too much' } }))).toBe('refund_exceeds_paid');
      expect(await since(at)).toEqual([]);

      const waiting = (await t.db.insert(refunds).values({ bookingId, provider: 'payfast', transactionId: 'pf-1', amountMinor: 100, currency: 'GBP', status: 'awaiting_dashboard', kind: 'admin', reason: 'Dashboard', requestedBy: admin.id, createdAt: t.clock.now }).returning())[0];
      const confirm = () => t.request({ method: 'POST', url: `/api/refunds/${String(waiting?.id)}/dashboard-confirmation`, as: admin, payload: { providerRefundId: 'PF-R-1' } });
      expect((await confirm()).statusCode).toBe(200);
      expect(await onlyEntry(at, admin, 'refund.confirm')).toMatchObject({ entityId: String(waiting?.id), before: { status: 'awaiting_dashboard', providerRefundId: null, confirmedAt: null }, after: { status: 'succeeded', providerRefundId: 'PF-R-1', confirmedAt: t.clock.now } });
      at = await mark();
      expect(codeOf(await confirm())).toBe('refund_not_awaiting_dashboard');
      expect(await since(at)).toEqual([]);
    });

    it("an admin's booking for a rider, the driver it assigns and its cancel are entries; a rider's own cancel is none", async () => {
      await t.setSettings({ autoDispatch: false });
      try {
        await t.goOnline(driver);
        const rider = await t.makeUser('rider');
        let at = await mark();
        const booked = await t.request({ method: 'POST', url: '/api/bookings', as: admin, payload: { pickup, drop, carType: 'Sedan', payment_mode: 'cash', customer: rider.id } });
        expect(booked.statusCode, booked.body).toBe(201);
        const id = booked.json<{ id: string }>().id;
        expect(await onlyEntry(at, admin, 'booking.create')).toMatchObject({ entityId: id, before: null, after: { customer: rider.id, status: 'NEW', carType: 'Sedan', payment_mode: 'cash' } });
        at = await mark();
        expect((await t.request({ method: 'POST', url: `/api/bookings/${id}/assign`, as: admin, payload: { driver: driver.id } })).statusCode).toBe(200);
        expect(await onlyEntry(at, admin, 'booking.assign')).toMatchObject({ before: { requestedDrivers: {} }, after: { requestedDrivers: { [driver.id]: true } } });
        at = await mark();
        expect((await t.request({ method: 'POST', url: `/api/bookings/${id}/cancel`, as: admin, payload: { reason: 'Rider called' } })).statusCode).toBe(200);
        expect(await onlyEntry(at, admin, 'booking.cancel')).toMatchObject({ before: { status: 'NEW', reason: null }, after: { status: 'CANCELLED', reason: 'Rider called', cancelledBy: 'admin' } });

        const own = await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', payment_mode: 'cash' } });
        expect(own.statusCode, own.body).toBe(201);
        at = await mark();
        expect((await t.request({ method: 'POST', url: `/api/bookings/${own.json<{ id: string }>().id}/cancel`, as: rider, payload: { reason: 'Changed my mind' } })).statusCode).toBe(200);
        expect(await since(at)).toEqual([]);
      } finally {
        await t.setSettings({});
      }
    });
  });

  it('a failed message sent again by an admin: its delivery state before and after, without its text', async () => {
    const failed = (await t.db.insert(outbox).values({ channel: 'sms', recipient: '447700900123', payload: { text: 'Your code is 123456' }, createdAt: t.clock.now, attempts: 1, lastError: 'refused', failedAt: t.clock.now }).returning())[0];
    const at = await mark();
    expect((await t.request({ method: 'POST', url: `/api/outbox/${String(failed?.id)}/retry`, as: admin, payload: {} })).statusCode).toBe(200);
    const row = await onlyEntry(at, admin, 'message.retry');
    expect(row).toMatchObject({ entityType: 'message', before: { state: 'failed', attempts: 1, lastError: 'refused', failedAt: t.clock.now }, after: { state: 'waiting', attempts: 0, lastError: null, failedAt: null } });
    expect(JSON.stringify(row)).not.toContain('123456');
  });

  it('a refused change leaves no entry: bad input (400), not allowed (403), in conflict (409)', async () => {
    const driver = await t.makeUser('driver', { fleetadmin: fleet.id });
    const rider = await t.makeUser('rider');
    const at = await mark();
    const refusals = [
      await t.request({ method: 'PATCH', url: '/api/settings', as: admin, payload: { bonus: -1 } }),
      await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: { ...sedan, name: 'Odd', convenience_fees: 150 } }),
      await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: rider.id, amount: 0 } }),
      // A fleet admin may not withdraw its driver's approval; a rider may not change settings.
      await t.request({ method: 'PATCH', url: `/api/users/${driver.id}`, as: fleet, payload: { approved: false } }),
      await t.request({ method: 'PATCH', url: '/api/settings', as: rider, payload: { bonus: 1 } }),
      await t.request({ method: 'PATCH', url: `/api/users/${rider.id}`, as: admin, payload: { email: admin.email } }),
    ];
    expect(refusals.map((answer) => [answer.statusCode, codeOf(answer)])).toEqual([
      [400, 'proper_bonus'],
      [400, 'validation_error'],
      [400, 'no_details_error'],
      [403, 'forbidden'],
      [403, 'forbidden'],
      [409, 'user_exists'],
    ]);
    // Demo mode refuses a critical edit inside its transaction (section 6).
    await t.setSettings({ AllowCriticalEditsAdmin: false });
    try {
      expect(codeOf(await t.request({ method: 'PATCH', url: '/api/settings', as: admin, payload: { bonus: 1 } }))).toBe('demo_mode');
    } finally {
      await t.setSettings({});
    }
    expect(await since(at)).toEqual([]);
  });

  it("an entry is written in its change's transaction: a change that fails after it leaves neither", async () => {
    const at = await mark();
    const failing = t.db.transaction(async (tx) => {
      await tx.update(users).set({ lastName: 'Never' }).where(eq(users.id, admin.id));
      await recordAudit(tx, { actor: { uid: admin.id, usertype: admin.usertype }, action: 'user.update', entityId: admin.id, before: { lastName: admin.lastName }, after: { lastName: 'Never' }, at: t.clock.now });
      throw new Error('the change failed after its entry');
    });
    await expect(failing).rejects.toThrow('the change failed after its entry');
    expect(await since(at)).toEqual([]);
    expect((await userRow(admin.id)).lastName).toBe(admin.lastName);
  });

  it('secrets never reach the log: the password and its hash are neither stored nor answered', async () => {
    const at = await mark();
    const password = `Sup3r${randomUUID().slice(0, 8)}`;
    const added = await t.request({ method: 'POST', url: '/api/users', as: admin, payload: person({ password }) });
    const uid = added.json<{ user: { id: string } }>().user.id;
    const hash = (await userRow(uid)).passwordHash ?? '';
    expect(hash).not.toBe('');
    const stored = JSON.stringify(await since(at));
    const answered = (await list(`search=${uid}`)).body;
    for (const text of [stored, answered]) {
      expect(text).toContain(REDACTED);
      expect(text).not.toContain(password);
      expect(text).not.toContain(hash);
    }
    // The session tokens of the test users are never in it either.
    expect(stored).not.toContain(await t.tokenOf(admin));
  });

  it('search and filters: by actor name or email, entity id or name, action; by action, kind and dates; newest first, a page at a time', async () => {
    const zelda = await t.makeUser('admin', { firstName: 'Zelda', lastName: `Searcher${String(people)}` });
    const rita = await t.makeUser('rider', { firstName: 'Rita', lastName: `Audited${String(people)}` });
    const days: number[] = [];
    for (const amount of [1, 2, 3]) {
      t.advance(86_400_000);
      days.push(t.clock.now);
      expect((await t.request({ method: 'POST', url: '/api/wallet/credit', as: zelda, payload: { uid: rita.id, amount } })).statusCode).toBe(200);
    }
    const amounts = (entries: AuditEntry[]) => entries.map((entry) => entry.after?.amount);

    const byName = await page('search=zelda%20searcher');
    expect(amounts(byName.entries)).toEqual([3, 2, 1]);
    expect(byName.entries[0]).toMatchObject({
      at: days[2],
      actor: { uid: zelda.id, usertype: 'admin', name: `Zelda ${zelda.lastName}`, email: zelda.email },
      action: 'wallet.credit',
      entityType: 'wallet',
      entityId: rita.id,
      entityName: `Rita ${rita.lastName}`,
      before: { walletBalance: 3, amount: null, txRef: null },
      after: { walletBalance: 6, amount: 3, txRef: 'AdminCredit' },
    });
    expect(amounts((await page(`search=${encodeURIComponent(zelda.email ?? '')}`)).entries)).toEqual([3, 2, 1]);
    expect(amounts((await page(`search=${rita.id}`)).entries)).toEqual([3, 2, 1]);
    expect(amounts((await page(`search=${encodeURIComponent(rita.lastName)}`)).entries)).toEqual([3, 2, 1]);
    expect(amounts((await page(`search=${encodeURIComponent(rita.email ?? '')}`)).entries)).toEqual([3, 2, 1]);
    expect((await page(`search=WALLET.CR`)).entries.map((entry) => entry.action)).toContain('wallet.credit');
    expect(amounts((await page(`search=Zelda&action=wallet.credit&entityType=wallet`)).entries)).toEqual([3, 2, 1]);
    expect((await page(`search=Zelda&action=settings.update`)).entries).toEqual([]);
    expect((await page(`search=Zelda&entityType=user`)).entries).toEqual([]);
    // A wildcard is a plain character: nothing holds a literal %.
    expect((await page('search=%25')).entries).toEqual([]);
    // The middle day, both ends included.
    expect(amounts((await page(`search=Zelda&from=${String(days[1])}&to=${String(days[1])}`)).entries)).toEqual([2]);
    expect(amounts((await page(`search=Zelda&from=${String(days[1])}`)).entries)).toEqual([3, 2]);

    const first = await page('search=Zelda&limit=2');
    expect(amounts(first.entries)).toEqual([3, 2]);
    expect(first.nextBefore).toBe(first.entries[1]?.id);
    const second = await page(`search=Zelda&limit=2&before=${String(first.nextBefore)}`);
    expect([amounts(second.entries), second.nextBefore]).toEqual([[1], null]);

    // Section 6, demo mode: the emails are hidden and a search cannot confirm one.
    await t.setSettings({ AllowCriticalEditsAdmin: false });
    try {
      expect((await page('search=Zelda&limit=1')).entries[0]?.actor.email).toBe('Hidden for Demo');
      expect((await page(`search=${encodeURIComponent(zelda.email ?? '')}`)).entries).toEqual([]);
      expect((await page(`search=${encodeURIComponent(rita.email ?? '')}`)).entries).toEqual([]);
    } finally {
      await t.setSettings({});
    }
  });

  it('only admins read it: riders, drivers and fleet admins 403, a visitor 401; a bad query is 400 with its field', async () => {
    for (const usertype of ['rider', 'driver', 'fleetadmin'] as const) {
      const refused = await list('', await t.makeUser(usertype));
      expect([refused.statusCode, codeOf(refused)]).toEqual([403, 'forbidden']);
    }
    const visitor = await list('', null);
    expect([visitor.statusCode, codeOf(visitor)]).toEqual([401, 'not_logged_in']);
    for (const [query, field] of [['from=20&to=10', 'to'], ['action=user.hack', 'action'], ['entityType=planet', 'entityType'], ['limit=0', 'limit'], ['limit=101', 'limit'], ['before=abc', 'before'], [`search=${'x'.repeat(101)}`, 'search']] as const) {
      const bad = await list(query);
      expect([query, bad.statusCode, bad.json()]).toEqual([query, 400, errorBody('validation_error', { field })]);
    }
  });
});

describe.each(ENGINES)('the audit log under a flood on %s (issue 23 point 8)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT_OVERRIDES: 'audit.user=3/1h' });
  });
  afterAll(() => t.close());

  it('a flood of reads is refused with 429 and Retry-After', async () => {
    const admin = await t.makeUser('admin');
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await t.request({ method: 'GET', url: '/api/audit', as: admin })).statusCode);
    expect(statuses).toEqual([200, 200, 200]);
    const refused = await t.request({ method: 'GET', url: '/api/audit?search=x', as: admin });
    expect([refused.statusCode, refused.json()]).toEqual([429, errorBody('too_many_requests')]);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600);
    // Another admin is counted on its own.
    expect((await t.request({ method: 'GET', url: '/api/audit', as: await t.makeUser('admin') })).statusCode).toBe(200);
  });
});
