/**
 * Issue 17: an admin processes or rejects a withdraw request, once. A rejection gives the amount
 * back to the driver's wallet as a Credit naming the request. Written as attacks: the wrong
 * roles, a second decision, two decisions at once, a missing request, a flood, a fault halfway.
 */
import { randomUUID } from 'node:crypto';
import { errorBody } from '@rideway/contract';
import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, walletEntries, withdraws } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';

const BANK = { bankName: 'Bank', bankCode: '01', bankAccount: '123' };

describe.each(ENGINES)('withdraw decisions on %s (issue 17)', (engine) => {
  let t: TestApp;
  let admin: UserRow;
  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.makeUser('admin');
  });
  afterAll(() => t.close());

  /** A driver with `credit` in the wallet who asked to withdraw `amount`. */
  async function pending(credit = 30, amount = 20, extra: Parameters<TestApp['makeUser']>[1] = {}) {
    const driver = await t.makeUser('driver', { ...BANK, ...extra });
    expect((await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: driver.id, amount: credit } })).statusCode).toBe(200);
    const asked = await t.request({ method: 'POST', url: '/api/withdraws', as: driver, payload: { amount } });
    expect(asked.statusCode).toBe(201);
    return { driver, id: asked.json().withdraw.id as string };
  }
  const balanceOf = async (driver: UserRow) => (await t.request({ method: 'GET', url: '/api/wallet', as: driver })).json().walletBalance as number;
  const ledgerSum = async (driver: UserRow) => (await t.db.select().from(walletEntries).where(eq(walletEntries.uid, driver.id))).reduce((sum, entry) => sum + entry.amountMinor, 0) / 100;
  const refundsOf = (id: string) => t.db.select().from(walletEntries).where(eq(walletEntries.txRef, `WithdrawRejected:${id}`));
  const rowOf = async (id: string) => (await t.db.select().from(withdraws).where(eq(withdraws.id, id)))[0];
  const decide = (id: string, decision: 'complete' | 'reject', as: UserRow | null = admin) => t.request({ method: 'POST', url: `/api/withdraws/${id}/${decision}`, as });

  it('a rejection marks the request rejected and credits the amount back, naming the request', async () => {
    const { driver, id } = await pending(30, 20);
    expect(await balanceOf(driver)).toBe(10);
    const rejected = await decide(id, 'reject');
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json().withdraw).toMatchObject({ id, amount: 20, processed: false, rejected: true, procesDate: t.clock.now });
    expect(await balanceOf(driver)).toBe(30);
    expect(await ledgerSum(driver)).toBe(30);
    const wallet = (await t.request({ method: 'GET', url: '/api/wallet', as: driver })).json().walletHistory;
    expect(wallet[0]).toMatchObject({ type: 'Credit', amount: 20, txRef: `WithdrawRejected:${id}` });
    // The driver is told, and sees the request as rejected.
    const pushes = await t.db.select().from(outbox).where(and(eq(outbox.recipient, driver.id), eq(outbox.channel, 'push')));
    expect(pushes.map((push) => JSON.stringify(push.payload)).join()).toContain('declined');
    const own = (await t.request({ method: 'GET', url: '/api/withdraws', as: driver })).json().withdraws;
    expect(own).toEqual([expect.objectContaining({ id, rejected: true, processed: false })]);
  });

  it('a processed request lists rejected false, and neither decision comes twice', async () => {
    const { driver, id } = await pending(30, 20);
    const done = await decide(id, 'complete');
    expect(done.json().withdraw).toMatchObject({ processed: true, rejected: false, procesDate: t.clock.now });
    for (const decision of ['reject', 'complete'] as const) {
      const again = await decide(id, decision);
      expect([again.statusCode, again.json()]).toEqual([409, errorBody('withdraw_already_decided')]);
    }
    // No refund of a paid-out request: the money left once.
    expect(await refundsOf(id)).toHaveLength(0);
    expect(await balanceOf(driver)).toBe(10);

    const second = await pending(30, 5);
    expect((await decide(second.id, 'reject')).statusCode).toBe(200);
    for (const decision of ['reject', 'complete'] as const) expect(codeOf(await decide(second.id, decision))).toBe('withdraw_already_decided');
    // A rejected request is never paid out as well, nor refunded twice.
    expect(await rowOf(second.id)).toMatchObject({ processed: false, rejected: true });
    expect(await refundsOf(second.id)).toHaveLength(1);
    expect(await balanceOf(second.driver)).toBe(30);
  });

  it('only an admin decides: the driver, a rider and the fleet admin of the driver get 403, a visitor 401, and nothing changes', async () => {
    const fleet = await t.makeUser('fleetadmin');
    const { driver, id } = await pending(30, 20, { fleetadmin: fleet.id });
    const rider = await t.makeUser('rider');
    for (const decision of ['reject', 'complete'] as const) {
      for (const caller of [driver, rider, fleet]) {
        const refused = await decide(id, decision, caller);
        expect([refused.statusCode, codeOf(refused)], `${decision} as ${caller.usertype}`).toEqual([403, 'forbidden']);
      }
      const visitor = await decide(id, decision, null);
      expect([visitor.statusCode, codeOf(visitor)]).toEqual([401, 'not_logged_in']);
    }
    expect(await rowOf(id)).toMatchObject({ processed: false, rejected: false, procesDate: null });
    expect(await refundsOf(id)).toHaveLength(0);
    expect(await balanceOf(driver)).toBe(10);
    // Section 2 gives /withdraws to admins only: a fleet admin cannot list them either.
    expect((await t.request({ method: 'GET', url: '/api/withdraws', as: fleet })).statusCode).toBe(403);
  });

  it('a missing request is 404 for both decisions', async () => {
    for (const decision of ['reject', 'complete'] as const) {
      for (const id of [randomUUID(), 'no-such-withdraw']) {
        const missing = await decide(id, decision);
        expect([missing.statusCode, codeOf(missing)]).toEqual([404, 'not_found']);
      }
    }
  });

  it('two rejections at once refund once', async () => {
    const { driver, id } = await pending(30, 20);
    const answers = await Promise.all([decide(id, 'reject'), decide(id, 'reject')]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(answers.map(codeOf).filter(Boolean)).toEqual(['withdraw_already_decided']);
    expect(await refundsOf(id)).toHaveLength(1);
    expect(await balanceOf(driver)).toBe(30);
    expect(await ledgerSum(driver)).toBe(30);
  });

  it('a payout and a rejection at once: exactly one wins, and the wallet matches the winner', async () => {
    for (let round = 0; round < 3; round += 1) {
      const { driver, id } = await pending(30, 20);
      const answers = await Promise.all([decide(id, 'complete'), decide(id, 'reject'), decide(id, 'complete'), decide(id, 'reject')]);
      expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
      expect(answers.filter((answer) => answer.statusCode === 409).every((answer) => codeOf(answer) === 'withdraw_already_decided')).toBe(true);
      const row = await rowOf(id);
      expect(row?.processed !== row?.rejected).toBe(true);
      expect(await refundsOf(id)).toHaveLength(row?.rejected ? 1 : 0);
      expect(await balanceOf(driver)).toBe(row?.rejected ? 30 : 10);
      expect(await ledgerSum(driver)).toBe(await balanceOf(driver));
    }
  });

  it('a fault while refunding leaves the request undecided and the wallet untouched', async () => {
    const { driver, id } = await pending(30, 20);
    // The ledger refuses the refund's row, as a failing disk or a lost connection would.
    await t.db.execute(sql.raw("CREATE FUNCTION refuse_refund() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused for the test'; END $$"));
    await t.db.execute(sql.raw("CREATE TRIGGER refuse_refund BEFORE INSERT ON wallet_entries FOR EACH ROW WHEN (NEW.tx_ref LIKE 'WithdrawRejected:%') EXECUTE FUNCTION refuse_refund()"));
    try {
      const failed = await decide(id, 'reject');
      expect(failed.statusCode).toBe(500);
    } finally {
      await t.db.execute(sql.raw('DROP TRIGGER refuse_refund ON wallet_entries'));
      await t.db.execute(sql.raw('DROP FUNCTION refuse_refund()'));
    }
    expect(await rowOf(id)).toMatchObject({ processed: false, rejected: false, procesDate: null });
    expect(await t.db.select().from(walletEntries).where(like(walletEntries.txRef, `%${id}`))).toHaveLength(1);
    expect(await balanceOf(driver)).toBe(10);
    // Once the fault is gone, the same decision goes through.
    expect((await decide(id, 'reject')).statusCode).toBe(200);
    expect(await balanceOf(driver)).toBe(30);
  });
});

describe.each(ENGINES)('withdraw decisions are rate-limited on %s (issue 17)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT_OVERRIDES: 'withdraw-decision.user=2/1h' });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After past the limit, deciding nothing', async () => {
    const admin = await t.makeUser('admin');
    const driver = await t.makeUser('driver', BANK);
    await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: driver.id, amount: 30 } });
    const ids: string[] = [];
    for (let n = 0; n < 3; n += 1) ids.push((await t.request({ method: 'POST', url: '/api/withdraws', as: driver, payload: { amount: 5 } })).json().withdraw.id as string);
    const [first = '', second = '', third = ''] = ids;
    expect((await t.request({ method: 'POST', url: `/api/withdraws/${first}/reject`, as: admin })).statusCode).toBe(200);
    expect((await t.request({ method: 'POST', url: `/api/withdraws/${second}/complete`, as: admin })).statusCode).toBe(200);
    const refused = await t.request({ method: 'POST', url: `/api/withdraws/${third}/reject`, as: admin });
    expect([refused.statusCode, refused.json()]).toEqual([429, errorBody('too_many_requests')]);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await t.db.select().from(withdraws).where(eq(withdraws.id, third)))[0]).toMatchObject({ processed: false, rejected: false });
  });
});
