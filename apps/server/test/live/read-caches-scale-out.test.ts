import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twoProcesses } from '../two-processes';

const serverUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;

/**
 * Issue 21, point 1, across two real server processes on one PostgreSQL database and one Redis:
 * process B holds the settings, car types and sessions in memory; a change made through process A
 * is in force on B once the bus has delivered its event. The test waits for that event (it listens
 * on the same Redis channel), never for a fixed time. A revoked session is refused by both.
 */
describe.skipIf(!serverUrl || !redisUrl)('caches across two server processes (issue 21)', () => {
  const processes = twoProcesses(serverUrl ?? '', redisUrl ?? '', 'caches');
  const { call, login } = processes;
  const listener = new Redis(redisUrl ?? '');
  const publisher = new Redis(redisUrl ?? '');
  let databaseUrl = '';
  const heard: { channel: string; message: string }[] = [];
  /** Waits until the bus has carried an event on the channel that satisfies `matches` (new since `since`). */
  const event = async (channel: 'changes' | 'sessions', since: number, matches: (message: string) => boolean) => {
    for (;;) {
      if (heard.slice(since).some((one) => one.channel === `${processes.prefix}:${channel}` && matches(one.message))) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  beforeAll(async () => {
    databaseUrl = await processes.start();
    listener.on('message', (channel: string, message: string) => heard.push({ channel, message }));
    await listener.subscribe(`${processes.prefix}:changes`, `${processes.prefix}:sessions`);
  }, 180_000);

  afterAll(async () => {
    await listener.quit();
    await publisher.quit();
    await processes.stop();
  }, 60_000);

  const trip = { pickup: { lat: 51.515, lng: -0.13, add: 'A' }, drop: { lat: 51.503, lng: -0.119, add: 'B' }, carType: 'Economy' };

  it('a setting saved on process A is in force on process B once the bus delivered its event', async () => {
    const admin = await login(0, 'admin@rideway.demo');
    const bonusOn = async (index: 0 | 1) => ((await call(index, 'GET', '/api/settings', admin)).body.settings as { bonus: number }).bonus;
    const before = await bonusOn(1);
    // Twice: the second answer comes from B's memory.
    expect(await bonusOn(1)).toBe(before);
    const since = heard.length;
    expect((await call(0, 'PATCH', '/api/settings', admin, { bonus: before + 2 })).status).toBe(200);
    await event('changes', since, (message) => message.includes('settings'));
    expect(await bonusOn(1)).toBe(before + 2);
    expect(await bonusOn(0)).toBe(before + 2);
  });

  it('a car type changed on process A prices the next estimate on process B once the event arrived', async () => {
    const [admin, rider] = await Promise.all([login(0, 'admin@rideway.demo'), login(1, 'rider1@rideway.demo')]);
    const fareOn = async (index: 0 | 1) => (await call(index, 'POST', '/api/estimates', rider, trip)).body.estimateFare as number;
    const before = await fareOn(1);
    expect(await fareOn(1)).toBe(before);
    const economy = ((await call(0, 'GET', '/api/cartypes', admin)).body.cartypes as { id: string; name: string; base_fare: number }[]).find((carType) => carType.name === 'Economy');
    if (!economy) throw new Error('no Economy car type');
    const since = heard.length;
    expect((await call(0, 'PATCH', `/api/cartypes/${economy.id}`, admin, { base_fare: economy.base_fare + 20 })).status).toBe(200);
    await event('changes', since, (message) => message.includes('carTypes'));
    expect(await fareOn(1)).toBeGreaterThan(before);
  });

  it('a cancel reason added on process A is offered by process B once the bus delivered its event', async () => {
    const admin = await login(0, 'admin@rideway.demo');
    const reasonsOn = async (index: 0 | 1) => ((await call(index, 'GET', '/api/cancel-reasons', admin)).body.reasons as { label: string }[]).map((reason) => reason.label);
    const before = await reasonsOn(1);
    // Twice: the second answer comes from B's memory.
    expect(await reasonsOn(1)).toEqual(before);
    const since = heard.length;
    expect((await call(0, 'POST', '/api/cancel-reasons', admin, { label: 'Driver asked me to cancel' })).status).toBe(201);
    await event('changes', since, (message) => message.includes('cancelReasons'));
    expect(await reasonsOn(1)).toEqual([...before, 'Driver asked me to cancel']);
  });

  it('language files written by another process (an upgraded one installing its languages) are served by B once their change is announced', async () => {
    const spanishOn = async () => ((await call(1, 'GET', '/get_languages')).body as Record<string, { name: string }>).es?.name;
    const before = await spanishOn();
    expect(before).toBe('Español');
    // What a newer process does at start (installLanguages): writes the files, then announces the
    // change on the bus, in the message bus.ts's announceChanges publishes.
    const database = new pg.Client({ connectionString: databaseUrl });
    await database.connect();
    try {
      await database.query("update languages set name = 'Español (España)' where code = 'es'");
      // Until the announcement B answers from its memory: the cache really is in use.
      expect(await spanishOn()).toBe('Español');
      const since = heard.length;
      await publisher.publish(`${processes.prefix}:changes`, JSON.stringify({ data: ['languages'] }));
      await event('changes', since, (message) => message.includes('languages'));
      expect(await spanishOn()).toBe('Español (España)');
    } finally {
      await database.query("update languages set name = 'Español' where code = 'es'");
      await database.end();
    }
  });

  it('a session ended on process A is refused by both processes: logout, password change, deletion', async () => {
    const admin = await login(0, 'admin@rideway.demo');
    const list = (index: 0 | 1, token: string) => call(index, 'GET', '/api/bookings', token).then((answer) => answer.status);
    /** A session each process has just answered with, so both hold it in memory. */
    const warm = async (email: string) => {
      const token = await login(0, email);
      expect([await list(0, token), await list(1, token)]).toEqual([200, 200]);
      return token;
    };

    const leaving = await warm('rider1@rideway.demo');
    let since = heard.length;
    expect((await call(0, 'POST', '/api/auth/logout', leaving)).status).toBe(204);
    await event('sessions', since, () => true);
    expect([await list(0, leaving), await list(1, leaving)]).toEqual([401, 401]);

    const other = await warm('rider2@rideway.demo');
    const current = await warm('rider2@rideway.demo');
    since = heard.length;
    expect((await call(0, 'POST', '/api/me/password', current, { currentPassword: 'demo123', newPassword: 'newpass2' })).status).toBe(200);
    await event('sessions', since, () => true);
    expect([await list(0, other), await list(1, other)]).toEqual([401, 401]);
    expect([await list(0, current), await list(1, current)]).toEqual([200, 200]);

    const me = (await call(1, 'GET', '/api/me', current)).body.user as { id: string };
    since = heard.length;
    expect((await call(0, 'DELETE', `/api/users/${me.id}`, admin)).status).toBe(204);
    await event('sessions', since, () => true);
    expect([await list(0, current), await list(1, current)]).toEqual([401, 401]);
  });
});
