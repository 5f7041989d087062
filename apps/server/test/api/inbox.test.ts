import { and, asc, eq } from 'drizzle-orm';
import { errorBody } from '@rideway/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../src/db/schema';
import { enqueue } from '../../src/modules/outbox/service';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';
import type { UserRow } from '../../src/modules/users/accounts';

/** Issue 19 point 6: each user's inbox is the push rows of the outbox addressed to them. */
describe.each(ENGINES)('the in-app inbox on %s (issue 19)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(() => t.close());

  const push = (to: UserRow, msg: string, extra: { screen?: 'BookedCab' | 'wallet' | 'DriverTrips'; params?: Record<string, string> } = {}) =>
    enqueue(t.db, { channel: 'push', recipient: to.id, payload: { title: 'Rideway', msg, ...extra } }, t.clock.now);
  const inbox = async (as: UserRow) => {
    const response = await t.request({ method: 'GET', url: '/api/me/notifications', as });
    expect(response.statusCode).toBe(200);
    const body: { notifications: { id: number; msg: string; screen?: string; params?: Record<string, string>; readAt: number | null }[]; unread: number } = response.json();
    return body;
  };
  const readMarks = async (uid: string) =>
    (await t.db.select({ id: outbox.id, readAt: outbox.readAt }).from(outbox).where(and(eq(outbox.recipient, uid), eq(outbox.channel, 'push'))).orderBy(asc(outbox.id))).map((row) => row.readAt);

  it('lists the caller\'s own push messages, newest first, with the unread count', async () => {
    const rider = await t.makeUser('rider');
    const other = await t.makeUser('rider');
    await push(rider, 'first');
    t.advance(1000);
    await push(rider, 'second', { screen: 'BookedCab', params: { bookingId: 'b-1' } });
    await push(other, 'not yours');
    // The same user's mail and SMS rows are not push messages: not in the inbox.
    await enqueue(t.db, { channel: 'mail', recipient: rider.id, payload: { subject: 'Mail', text: 'a mail' } }, t.clock.now);
    await enqueue(t.db, { channel: 'sms', recipient: rider.id, payload: { text: 'an sms' } }, t.clock.now);
    const mine = await inbox(rider);
    expect(mine.notifications.map((n) => n.msg)).toEqual(['second', 'first']);
    expect(mine.notifications[0]).toMatchObject({ title: 'Rideway', screen: 'BookedCab', params: { bookingId: 'b-1' }, readAt: null, createdAt: t.clock.now });
    expect(mine.unread).toBe(2);
    expect((await inbox(other)).notifications.map((n) => n.msg)).toEqual(['not yours']);
  });

  it('is filled by what the server sends: an admin\'s wallet credit lands in the rider\'s inbox once', async () => {
    const admin = await t.makeUser('admin');
    const rider = await t.makeUser('rider');
    expect((await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: rider.id, amount: 12 } })).statusCode).toBe(200);
    const { notifications, unread } = await inbox(rider);
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toMatchObject({ screen: 'wallet', readAt: null });
    expect(notifications[0]?.msg).toContain('12.00');
    expect(unread).toBe(1);
  });

  it('marks one read, keeps the first time on a replay, and marks all read', async () => {
    const rider = await t.makeUser('rider');
    for (const msg of ['a', 'b', 'c']) await push(rider, msg);
    const [c, b] = (await inbox(rider)).notifications;
    const first = await t.request({ method: 'POST', url: `/api/me/notifications/${String(c?.id)}/read`, as: rider });
    expect([first.statusCode, first.json()]).toEqual([200, { unread: 2 }]);
    const readAt = t.clock.now;
    t.advance(5000);
    expect((await t.request({ method: 'POST', url: `/api/me/notifications/${String(c?.id)}/read`, as: rider })).json()).toEqual({ unread: 2 });
    expect((await inbox(rider)).notifications.find((n) => n.id === c?.id)?.readAt).toBe(readAt);
    expect((await inbox(rider)).notifications.find((n) => n.id === b?.id)?.readAt).toBeNull();
    const all = await t.request({ method: 'POST', url: '/api/me/notifications/read-all', as: rider });
    expect([all.statusCode, all.json()]).toEqual([200, { unread: 0 }]);
    // Oldest first: a and b now, c when it was first marked.
    expect(await readMarks(rider.id)).toEqual([t.clock.now, t.clock.now, readAt]);
  });

  it('answers the newest 50 and counts every unread one', async () => {
    const rider = await t.makeUser('rider');
    for (let n = 0; n < 53; n += 1) await push(rider, `m${String(n)}`);
    const { notifications, unread } = await inbox(rider);
    expect(notifications).toHaveLength(50);
    expect(notifications[0]?.msg).toBe('m52');
    expect(notifications.at(-1)?.msg).toBe('m3');
    expect(unread).toBe(53);
  });

  describe('attacks', () => {
    it('another user\'s message, or an own mail row, is not found, like a missing one, and stays unread', async () => {
      const rider = await t.makeUser('rider');
      const attacker = await t.makeUser('driver');
      await push(rider, 'private');
      const [target] = (await inbox(rider)).notifications;
      const foreign = await t.request({ method: 'POST', url: `/api/me/notifications/${String(target?.id)}/read`, as: attacker });
      const missing = await t.request({ method: 'POST', url: `/api/me/notifications/${String(Number.MAX_SAFE_INTEGER)}/read`, as: attacker });
      expect([foreign.statusCode, foreign.json()]).toEqual([404, errorBody('not_found')]);
      expect([missing.statusCode, missing.json()]).toEqual([404, errorBody('not_found')]);
      // read-all of the attacker touches only the attacker's rows.
      await t.request({ method: 'POST', url: '/api/me/notifications/read-all', as: attacker });
      expect(await readMarks(rider.id)).toEqual([null]);
      await enqueue(t.db, { channel: 'mail', recipient: rider.id, payload: { subject: 'S', text: 'T' } }, t.clock.now);
      const mail = (await t.db.select({ id: outbox.id }).from(outbox).where(and(eq(outbox.recipient, rider.id), eq(outbox.channel, 'mail'))))[0];
      expect(codeOf(await t.request({ method: 'POST', url: `/api/me/notifications/${String(mail?.id)}/read`, as: rider }))).toBe('not_found');
      expect((await t.db.select({ readAt: outbox.readAt }).from(outbox).where(eq(outbox.id, mail?.id ?? 0)))[0]?.readAt).toBeNull();
    });

    it('a signed-out caller gets not_logged_in and reads nothing', async () => {
      for (const [method, url] of [['GET', '/api/me/notifications'], ['POST', '/api/me/notifications/1/read'], ['POST', '/api/me/notifications/read-all']] as const) {
        const response = await t.request({ method, url });
        expect([response.statusCode, codeOf(response)], url).toEqual([401, 'not_logged_in']);
      }
    });

    it('a bad id answers not_found, never a 500, and marks nothing', async () => {
      const rider = await t.makeUser('rider');
      await push(rider, 'x');
      for (const id of ['abc', '0', '-1', '1.5', '1e400', '99999999999999999999', '%00', "1' OR '1'='1", '0x10']) {
        const response = await t.request({ method: 'POST', url: `/api/me/notifications/${encodeURIComponent(id)}/read`, as: rider });
        expect([response.statusCode, codeOf(response)], id).toEqual([404, 'not_found']);
      }
      expect(await readMarks(rider.id)).toEqual([null]);
    });
  });
});

describe.each(ENGINES)('the inbox under a flood on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT_OVERRIDES: 'inbox.user=3/1h, inbox-read.user=2/1h' });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After past the limits, marking nothing more', async () => {
    const rider = await t.makeUser('rider');
    await enqueue(t.db, { channel: 'push', recipient: rider.id, payload: { title: 'T', msg: 'a' } }, t.clock.now);
    await enqueue(t.db, { channel: 'push', recipient: rider.id, payload: { title: 'T', msg: 'b' } }, t.clock.now);
    const reads = [];
    for (let n = 0; n < 4; n += 1) reads.push(await t.request({ method: 'GET', url: '/api/me/notifications', as: rider }));
    expect(reads.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
    expect(reads[3]?.json()).toEqual(errorBody('too_many_requests'));
    expect(Number(reads[3]?.headers['retry-after'])).toBeGreaterThan(0);
    const ids = (await t.db.select({ id: outbox.id }).from(outbox).where(eq(outbox.recipient, rider.id))).map((row) => row.id).sort((x, y) => x - y);
    expect((await t.request({ method: 'POST', url: `/api/me/notifications/${String(ids[0])}/read`, as: rider })).statusCode).toBe(200);
    expect((await t.request({ method: 'POST', url: `/api/me/notifications/${String(ids[0])}/read`, as: rider })).statusCode).toBe(200);
    const refused = await t.request({ method: 'POST', url: '/api/me/notifications/read-all', as: rider });
    expect([refused.statusCode, codeOf(refused)]).toEqual([429, 'too_many_requests']);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const marks = (await t.db.select({ readAt: outbox.readAt }).from(outbox).where(eq(outbox.recipient, rider.id))).filter((row) => row.readAt !== null);
    expect(marks).toHaveLength(1);
  });
});
