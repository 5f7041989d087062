import { createServer, connect, type Server, type Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client';
import { languages, sessions, settings } from '../../src/db/schema';
import { SESSION_CACHE_MS } from '../../src/http/session-cache';
import { createSession, hashToken } from '../../src/modules/accounts/sessions';
import { installLanguages } from '../../src/modules/languages/service';
import { DEFAULT_SETTINGS } from '../../src/modules/settings/defaults';
import { getSettings, saveSettings } from '../../src/modules/settings/service';
import type { UserRow } from '../../src/modules/users/accounts';
import { drop, pickup, sedan } from '../fixtures';
import { codeOf, createTestApp, ENGINES, PASSWORD, type TestApp } from '../harness';
import { countQueries } from '../query-count';

/**
 * Issue 21, point 1: read-mostly data (settings, car types, cancel reasons, languages) and the
 * sessions of hot routes are held in the process and forgotten on every change; each endpoint
 * issues the fewest queries it can (counted here). Behaviour, not timing: every change is in
 * force on the next request. The same across two processes: live/read-caches-scale-out.test.ts.
 */
describe.each(ENGINES)('caches of read-mostly data and sessions on %s (issue 21)', (engine) => {
  let t: TestApp;
  let rider: UserRow;
  let admin: UserRow;
  let sedanId: string;
  const estimate = (as: UserRow | null = rider, carType = 'Sedan') => t.request({ method: 'POST', url: '/api/estimates', as, payload: { pickup, drop, carType } });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const list = (token: string) => t.app.inject({ method: 'GET', url: '/api/bookings', headers: bearer(token) });

  beforeAll(async () => {
    t = await createTestApp(engine);
    rider = await t.makeUser('rider');
    admin = await t.makeUser('admin');
    const created = await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
    sedanId = created.json<{ cartype: { id: string } }>().cartype.id;
  });
  afterAll(() => t.close());

  it('answers an estimate without a database query once warm: settings, car type and session from memory', async () => {
    expect((await estimate()).statusCode).toBe(200);
    const queries = countQueries(t.db);
    try {
      const response = await estimate();
      expect(response.statusCode).toBe(200);
      expect(queries.statements).toEqual([]);
    } finally {
      queries.stop();
    }
  });

  it("lists a rider's bookings in one query once the session is cached, two with a session not seen before", async () => {
    for (let i = 0; i < 3; i += 1) {
      const booked = await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', bookLater: true, tripdate: t.clock.now + (60 + i) * 60_000 } });
      expect(booked.statusCode).toBe(201);
    }
    const token = await t.tokenOf(rider);
    expect((await list(token)).json<{ bookings: unknown[] }>().bookings).toHaveLength(3);
    const queries = countQueries(t.db);
    try {
      const warm = await list(token);
      expect(warm.json<{ bookings: unknown[] }>().bookings).toHaveLength(3);
      expect(queries.statements).toHaveLength(1);
      expect(queries.statements[0]).toMatch(/from "bookings"/);
      queries.reset();
      const fresh = await createSession(t.db, rider.id, t.clock.now);
      queries.reset();
      expect((await list(fresh)).json<{ bookings: unknown[] }>().bookings).toHaveLength(3);
      expect(queries.statements).toHaveLength(2);
    } finally {
      queries.stop();
    }
  });

  it('answers the hot and read-mostly endpoints with the fewest queries once warm (counted per endpoint)', async () => {
    const driver = await t.makeUser('driver');
    await t.goOnline(driver);
    const counted: [string, () => Promise<{ statusCode: number }>, number][] = [
      // A driver's position every few seconds: the geo index and the session in memory.
      ['POST /api/driver/location', () => t.request({ method: 'POST', url: '/api/driver/location', as: driver, payload: { lat: 51.531, lng: -0.124 } }), 0],
      // The driver's offers and trips: one read of the bookings.
      ['GET /api/driver/tasks', () => t.request({ method: 'GET', url: '/api/driver/tasks', as: driver }), 1],
      // Read by every app at start: from memory.
      ['GET /get_languages', () => t.request({ method: 'GET', url: '/get_languages' }), 0],
      ['GET /api/cancel-reasons', () => t.request({ method: 'GET', url: '/api/cancel-reasons', as: rider }), 0],
      ['GET /api/cartypes', () => t.request({ method: 'GET', url: '/api/cartypes', as: rider }), 0],
      ['GET /api/settings', () => t.request({ method: 'GET', url: '/api/settings', as: rider }), 0],
      // The profile reads what may have changed a second ago: the user, the saved places, the wallet balance.
      ['GET /api/me', () => t.request({ method: 'GET', url: '/api/me', as: rider }), 3],
    ];
    const found: Record<string, number> = {};
    for (const [name, call] of counted) {
      expect((await call()).statusCode).toBe(200);
      const queries = countQueries(t.db);
      try {
        expect((await call()).statusCode).toBe(200);
        found[name] = queries.statements.length;
      } finally {
        queries.stop();
      }
    }
    expect(found).toEqual(Object.fromEntries(counted.map(([name, , count]) => [name, count])));
  });

  it('puts a settings change in force on the next request: through the API, and saved directly', async () => {
    const km = (await estimate()).json<{ distance: number }>().distance;
    expect((await t.request({ method: 'PATCH', url: '/api/settings', as: admin, payload: { convert_to_mile: true } })).statusCode).toBe(200);
    const miles = (await estimate()).json<{ distance: number }>().distance;
    expect(miles).toBeLessThan(km);
    await t.setSettings({ convert_to_mile: false });
    expect((await estimate()).json<{ distance: number }>().distance).toBe(km);
    expect((await t.request({ method: 'GET', url: '/api/settings', as: admin })).json<{ settings: { convert_to_mile: boolean } }>().settings.convert_to_mile).toBe(false);
  });

  it('reads its own settings inside the transaction that saved them, and a rollback leaves the old ones in force', async () => {
    const before = (await getSettings(t.db)).appName;
    await expect(
      t.db.transaction(async (tx) => {
        await saveSettings(tx, { ...(await getSettings(tx)), appName: 'Inside the transaction' });
        expect((await getSettings(tx)).appName).toBe('Inside the transaction');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await getSettings(t.db)).appName).toBe(before);
  });

  it('puts a car type change in force on the next estimate: edited, then deleted', async () => {
    const fare = (await estimate()).json<{ estimateFare: number }>().estimateFare;
    expect((await t.request({ method: 'PATCH', url: `/api/cartypes/${sedanId}`, as: admin, payload: { base_fare: sedan.base_fare + 10 } })).statusCode).toBe(200);
    expect((await estimate()).json<{ estimateFare: number }>().estimateFare).toBeGreaterThan(fare);
    const other = await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: { ...sedan, name: 'Van' } });
    expect((await estimate(rider, 'Van')).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/cartypes', as: rider })).json<{ cartypes: { name: string }[] }>().cartypes.map((c) => c.name)).toEqual(['Sedan', 'Van']);
    expect((await t.request({ method: 'DELETE', url: `/api/cartypes/${other.json<{ cartype: { id: string } }>().cartype.id}`, as: admin })).statusCode).toBe(204);
    expect(codeOf(await estimate(rider, 'Van'))).toBe('select_proper');
  });

  it('puts cancel reason changes in force on the next list: added, renamed, deleted', async () => {
    const names = async () => (await t.request({ method: 'GET', url: '/api/cancel-reasons', as: rider })).json<{ reasons: { label: string }[] }>().reasons.map((reason) => reason.label);
    const start = await names();
    const added = await t.request({ method: 'POST', url: '/api/cancel-reasons', as: admin, payload: { label: 'Too slow' } });
    expect(added.statusCode).toBe(201);
    const id = added.json<{ reason: { id: string } }>().reason.id;
    expect(await names()).toEqual([...start, 'Too slow']);
    expect((await t.request({ method: 'PATCH', url: `/api/cancel-reasons/${id}`, as: admin, payload: { label: 'Much too slow' } })).statusCode).toBe(200);
    expect(await names()).toEqual([...start, 'Much too slow']);
    expect((await t.request({ method: 'DELETE', url: `/api/cancel-reasons/${id}`, as: admin })).statusCode).toBeLessThan(300);
    expect(await names()).toEqual(start);
  });

  it('holds the languages until they are installed again (a write that announces nothing is not seen: the cache is in use)', async () => {
    const names = async () => Object.values((await t.request({ method: 'GET', url: '/get_languages' })).json<Record<string, { name: string }>>()).map((language) => language.name);
    const shipped = await names();
    await t.db.update(languages).set({ name: 'Changed behind its back' }).where(eq(languages.code, 'en'));
    expect(await names()).toEqual(shipped);
    await t.db.update(languages).set({ name: 'Changed behind its back' }).where(eq(languages.code, 'en'));
    await installLanguages(t.db);
    expect(await names()).toEqual(shipped);
    expect((await t.db.select({ name: languages.name }).from(languages).where(eq(languages.code, 'en')))[0]?.name).toBe('English');
  });

  it('installs the languages again (a restart) without writing a file that has not changed, and writes back one that has', async () => {
    // xmin is the transaction that last wrote a row: unchanged means not written.
    const versions = async () => Object.fromEntries(rowsOf<{ code: string; xmin: string }>(await t.db.execute(sql`select code, xmin::text as xmin from languages order by code`)).map((row) => [row.code, row.xmin]));
    await installLanguages(t.db);
    const before = await versions();
    await installLanguages(t.db);
    expect(await versions()).toEqual(before);
    await t.db.update(languages).set({ messages: { welcome: 'An old file' } }).where(eq(languages.code, 'es'));
    const edited = await versions();
    await installLanguages(t.db);
    const after = await versions();
    expect(after.es).not.toBe(edited.es);
    expect({ ar: after.ar, en: after.en }).toEqual({ ar: before.ar, en: before.en });
    const spanish = (await t.db.select({ messages: languages.messages }).from(languages).where(eq(languages.code, 'es')))[0]?.messages;
    expect(spanish?.welcome).not.toBe('An old file');
    expect(Object.keys(spanish ?? {}).length).toBeGreaterThan(100);
  });

  describe('sessions of hot routes', () => {
    /** A new session of the user, already held by the session cache (a list was answered with it). */
    const warmSession = async (user: UserRow) => {
      const token = await createSession(t.db, user.id, t.clock.now);
      expect((await list(token)).statusCode).toBe(200);
      return token;
    };

    it('holds a session a few seconds at most: a session gone from the database is refused once its entry is older than that', async () => {
      const token = await warmSession(rider);
      await t.db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
      // Deleted behind the cache's back (no announcement): the cached entry still answers...
      expect((await list(token)).statusCode).toBe(200);
      t.advance(SESSION_CACHE_MS);
      // ...and no longer than SESSION_CACHE_MS.
      expect(codeOf(await list(token))).toBe('not_logged_in');
    });

    it('refuses a session at once after its logout', async () => {
      const token = await warmSession(rider);
      expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) })).statusCode).toBe(204);
      expect(codeOf(await list(token))).toBe('not_logged_in');
    });

    it("refuses the user's other sessions at once after a password change, and keeps the one that changed it", async () => {
      const user = await t.makeUser('rider');
      const other = await warmSession(user);
      const current = await warmSession(user);
      const changed = await t.app.inject({ method: 'POST', url: '/api/me/password', headers: bearer(current), payload: { currentPassword: PASSWORD, newPassword: 'newpass2' } });
      expect(changed.statusCode).toBe(200);
      expect(codeOf(await list(other))).toBe('not_logged_in');
      expect((await list(current)).statusCode).toBe(200);
    });

    it('refuses the sessions of a deleted user, and of a suspended driver, at once', async () => {
      const leaving = await t.makeUser('rider');
      const token = await warmSession(leaving);
      expect((await t.request({ method: 'DELETE', url: `/api/users/${leaving.id}`, as: admin })).statusCode).toBe(204);
      expect(codeOf(await list(token))).toBe('not_logged_in');

      const driver = await t.makeUser('driver');
      const driverToken = await warmSession(driver);
      expect((await t.app.inject({ method: 'GET', url: '/api/driver/tasks', headers: bearer(driverToken) })).statusCode).toBe(200);
      expect((await t.request({ method: 'POST', url: `/api/users/${driver.id}/approval`, as: admin, payload: { approved: false, reason: 'Documents expired' } })).statusCode).toBe(200);
      expect(codeOf(await t.app.inject({ method: 'GET', url: '/api/driver/tasks', headers: bearer(driverToken) }))).toBe('not_logged_in');
    });

    it("refuses a trip step at once with a session that ended: the steps take the cache too (a driver's logout, a rider's)", async () => {
      const driver = await t.makeUser('driver');
      const driverToken = await createSession(t.db, driver.id, t.clock.now);
      const missing = '00000000-0000-4000-8000-000000000000';
      const step = (token: string, path: string, payload?: Record<string, unknown>) => t.app.inject({ method: 'POST', url: `/api/bookings/${missing}/${path}`, headers: bearer(token), ...(payload ? { payload } : {}) });
      // Signed in: the step is reached (no such booking), and the session is now cached.
      expect(codeOf(await step(driverToken, 'accept'))).toBe('not_found');
      const queries = countQueries(t.db);
      try {
        expect(codeOf(await step(driverToken, 'arrive'))).toBe('not_found');
        expect(queries.statements.filter((statement) => statement.includes('"sessions"'))).toEqual([]);
      } finally {
        queries.stop();
      }
      expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(driverToken) })).statusCode).toBe(204);
      expect(codeOf(await step(driverToken, 'accept'))).toBe('not_logged_in');
      expect(codeOf(await step(driverToken, 'reach'))).toBe('not_logged_in');

      const riderToken = await warmSession(rider);
      expect(codeOf(await step(riderToken, 'complete', {}))).toBe('not_found');
      expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(riderToken) })).statusCode).toBe(204);
      expect(codeOf(await step(riderToken, 'cancel', { reason: 'Changed my mind' }))).toBe('not_logged_in');
    });
  });
});

/**
 * With REDIS_URL set the caches rely on the bus's announcements: while the bus is down they are
 * off (every read goes to the database), and when it is back they start empty. Redis is reached
 * through a TCP relay that the test cuts, so only this app loses its bus.
 */
describe.skipIf(!process.env.REDIS_URL)('with the bus down the caches are off (issue 21)', () => {
  const redis = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  let relay: Server;
  let port = 0;
  const open = new Set<Socket>();
  let t: TestApp;
  let rider: UserRow;

  const listen = () =>
    new Promise<void>((resolve) => {
      relay = createServer((client) => {
        const upstream = connect(Number(redis.port || 6379), redis.hostname);
        for (const socket of [client, upstream]) {
          open.add(socket);
          socket.on('close', () => open.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      relay.listen(port, '127.0.0.1', () => {
        const address = relay.address();
        port = typeof address === 'object' && address ? address.port : 0;
        resolve();
      });
    });
  const cut = async () => {
    const closed = new Promise((resolve) => relay.close(resolve));
    for (const socket of open) socket.destroy();
    await closed;
  };
  const health = (wanted: boolean) =>
    new Promise<void>((resolve) => {
      if (t.app.ctx.live.bus.healthy() === wanted) resolve();
      else t.app.ctx.live.bus.onHealthChange((now) => { if (now === wanted) resolve(); });
    });

  beforeAll(async () => {
    await listen();
    t = await createTestApp('pglite', { REDIS_URL: `redis://127.0.0.1:${String(port)}`, REDIS_PREFIX: `rideway-test-${randomUUID().slice(0, 8)}` });
    rider = await t.makeUser('rider');
  });
  afterAll(async () => {
    if (!relay.listening) await listen();
    await t.close();
    await cut();
  });

  it('reads settings and sessions from the database while the bus is down, and caches again once it is back', async () => {
    const token = await t.tokenOf(rider);
    await getSettings(t.db);
    expect((await list()).statusCode).toBe(200);
    const queries = countQueries(t.db);
    try {
      await getSettings(t.db);
      expect((await list()).statusCode).toBe(200);
      // Healthy: the settings and the session from memory, the list from the database.
      expect(queries.statements).toHaveLength(1);

      await cut();
      await health(false);
      queries.reset();
      // A change made elsewhere whose announcement this process cannot hear: in force at once.
      await t.db.update(settings).set({ value: { ...DEFAULT_SETTINGS, appName: 'Changed elsewhere' } }).where(eq(settings.id, 1));
      queries.reset();
      expect((await getSettings(t.db)).appName).toBe('Changed elsewhere');
      expect((await list()).statusCode).toBe(200);
      expect((await list()).statusCode).toBe(200);
      // Off: one settings read, and a session read with each list.
      expect(queries.statements).toHaveLength(1 + 2 * 2);

      await listen();
      await health(true);
      queries.reset();
      await getSettings(t.db);
      await getSettings(t.db);
      expect(queries.statements).toHaveLength(1);
    } finally {
      queries.stop();
    }

    function list() {
      return t.app.inject({ method: 'GET', url: '/api/bookings', headers: { authorization: `Bearer ${token}` } });
    }
  });
});
