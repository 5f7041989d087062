import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../src/db/schema';
import { createSession } from '../../src/modules/accounts/sessions';
import type { UserRow } from '../../src/modules/users/accounts';
import { codeOf, createTestApp, ENGINES, reload, type TestApp } from '../harness';

const BANK = { bankName: 'Driver Bank', bankCode: 'DRV001', bankAccount: 'GB00DRIVER0001' };
const ATTACKER_BANK = { bankName: 'Fleet Bank', bankCode: 'FLT001', bankAccount: 'GB00FLEET0001' };

describe.each(ENGINES)("a fleet admin cannot take over its driver's account on %s (issue 15)", (engine) => {
  let t: TestApp;
  let admin: UserRow;
  let fleet: UserRow;
  let driver: UserRow;

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.makeUser('admin');
    fleet = await t.makeUser('fleetadmin');
  });
  afterAll(() => t.close());

  const patch = (as: UserRow, id: string, payload: Record<string, unknown>, headers?: Record<string, string>) =>
    headers ? t.request({ method: 'PATCH', url: `/api/users/${id}`, headers, payload }) : t.request({ method: 'PATCH', url: `/api/users/${id}`, as, payload });
  const mailsTo = async (recipient: string) => t.db.select().from(outbox).where(eq(outbox.recipient, recipient));

  it('the takeover stops at its first step: email, mobile and bank fields are refused with field_not_editable, nothing stored', async () => {
    driver = await t.makeUser('driver', { fleetadmin: fleet.id, ...BANK });
    const attackerEmail = `fleet.owned.${randomUUID().slice(0, 6)}@example.com`;

    // Step 1 of the chain: the driver's email becomes the fleet admin's own.
    const email = await patch(fleet, driver.id, { email: attackerEmail });
    expect([email.statusCode, codeOf(email), email.json().error.field]).toEqual([403, 'field_not_editable', 'email']);
    // The bank account, alone or hidden among allowed fields: refused whole, nothing stored.
    const bank = await patch(fleet, driver.id, { firstName: 'Sneaky', vehicleNumber: 'X1', ...ATTACKER_BANK });
    expect([bank.statusCode, codeOf(bank), bank.json().error.field]).toEqual([403, 'field_not_editable', 'bankName']);
    for (const [field, value] of [['mobile', '700000999'], ['bankName', ATTACKER_BANK.bankName], ['bankCode', ATTACKER_BANK.bankCode], ['bankAccount', ATTACKER_BANK.bankAccount]] as const) {
      const refused = await patch(fleet, driver.id, { [field]: value });
      expect([refused.statusCode, codeOf(refused), refused.json().error.field]).toEqual([403, 'field_not_editable', field]);
    }
    const after = await reload(t, driver);
    expect(after).toMatchObject({ email: driver.email, mobile: driver.mobile, firstName: driver.firstName, vehicleNumber: driver.vehicleNumber, ...BANK });

    // Step 2 then goes nowhere: a reset asked for the fleet admin's address mails no link.
    await t.request({ method: 'POST', url: '/api/auth/password-reset', payload: { email: attackerEmail } });
    expect(await mailsTo(attackerEmail)).toEqual([]);
    // And the driver's withdrawal still goes to the driver's own account.
    expect((await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: driver.id, amount: 20 } })).statusCode).toBe(200);
    const withdraw = await t.request({ method: 'POST', url: '/api/withdraws', as: driver, payload: { amount: 10 } });
    expect(withdraw.statusCode).toBeLessThan(300);
    expect(JSON.stringify(withdraw.json())).toContain(BANK.bankAccount);
    expect(JSON.stringify(withdraw.json())).not.toContain(ATTACKER_BANK.bankAccount);
  });

  it('a fleet admin still edits names and vehicles, and a form sending contacts and approval back unchanged passes', async () => {
    const own = await t.makeUser('driver', { fleetadmin: fleet.id, ...BANK });
    const edited = await patch(fleet, own.id, { firstName: 'Renamed', vehicleNumber: 'AB12 CDE', email: own.email, mobile: own.mobile, approved: true, ...BANK });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().user).toMatchObject({ firstName: 'Renamed', vehicleNumber: 'AB12 CDE', email: own.email, ...BANK });
    // Approval stays an admin's.
    expect([(await patch(fleet, own.id, { approved: false })).statusCode]).toEqual([403]);
    expect((await reload(t, own))?.approved).toBe(true);
  });

  it("an admin still changes a driver's email, mobile and bank fields; the driver's sessions end", async () => {
    const target = await t.makeUser('driver', { fleetadmin: fleet.id, ...BANK });
    const token = await t.tokenOf(target);
    const email = `changed.${randomUUID().slice(0, 6)}@example.com`;
    const changed = await patch(admin, target.id, { email, mobile: '700000123', bankAccount: 'GB00NEW0001' });
    expect(changed.statusCode).toBe(200);
    expect(await reload(t, target)).toMatchObject({ email, mobile: '700000123', bankAccount: 'GB00NEW0001' });
    expect((await t.request({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(401);
  });

  it('bank fields alone change no session; a contact change by an admin on itself keeps its own session', async () => {
    const target = await t.makeUser('driver', { ...BANK });
    const token = await t.tokenOf(target);
    expect((await patch(admin, target.id, { bankAccount: 'GB00OTHER01' })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);

    const self = await t.makeUser('admin');
    const current = await createSession(t.db, self.id, t.clock.now);
    const elsewhere = await createSession(t.db, self.id, t.clock.now);
    const renamed = await patch(self, self.id, { email: `self.${randomUUID().slice(0, 6)}@example.com` }, { authorization: `Bearer ${current}` });
    expect(renamed.statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${current}` } })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${elsewhere}` } })).statusCode).toBe(401);
  });
});
