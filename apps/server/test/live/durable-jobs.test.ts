import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { openDatabase } from '../../src/db/client';
import { jobHandlers } from '../../src/job-handlers';
import { runDueJobs } from '../../src/jobs/runner';
import { memoryStorage } from '../../src/providers/storage';
import { keepDemoDriversOnline } from '../../src/seed/demo-presence';
import { prepareDatabase } from '../../src/seed/prepare';

describe('a book-later job survives a restart (issue 5)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'rideway-jobs-'));
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });
  const baseEnv = { DATA_DIR: dataDir, LOG_LEVEL: 'silent', DRIVER_TIMEOUT_S: '0', OFFER_BATCH_SIZE: '5' };
  const sharedConfig = loadConfig(baseEnv);

  async function start(now: number, env: Record<string, string> = {}) {
    const database = await openDatabase({ dataDir });
    const config = env.DRIVER_TIMEOUT_S ? loadConfig({ ...baseEnv, ...env }) : sharedConfig;
    await prepareDatabase(database.db, config);
    const app = await buildApp({ config, db: database.db, storage: memoryStorage(), logger: false, now: () => now, background: false });
    const call = async (method: 'GET' | 'POST', url: string, token?: string, payload?: Record<string, unknown>) =>
      app.inject({ method, url, ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}), ...(payload ? { payload } : {}) });
    const login = async (email: string) => (await call('POST', '/api/auth/login', undefined, { email, password: 'demo123' })).json<{ token: string }>().token;
    return { app, database, call, login, stop: async () => { await app.close(); await database.close(); } };
  }

  it('books later, restarts, and the search starts at its time', async () => {
    const bookedAt = Date.now();
    const tripdate = bookedAt + 60 * 60_000;
    const first = await start(bookedAt);
    const rider = await first.login('rider1@rideway.demo');
    const booked = await first.call('POST', '/api/bookings', rider, { pickup: { lat: 51.5308, lng: -0.1238, add: "King's Cross" }, drop: { lat: 51.5081, lng: -0.0759, add: 'Tower of London' }, carType: 'Economy', bookLater: true, tripdate });
    expect(booked.statusCode).toBe(201);
    const id = booked.json<{ id: string }>().id;
    expect(booked.json()).toMatchObject({ status: 'NEW', bookLater: true });
    await first.stop();

    // Ten minutes before the tripdate (BOOK_LATER_DISPATCH_AHEAD_S), on a new process.
    const second = await start(tripdate - 10 * 60_000);
    const before = await second.call('GET', `/api/bookings/${id}`, await second.login('admin@rideway.demo'));
    expect(before.json()).toMatchObject({ status: 'NEW', requestedDrivers: {} });
    expect(await runDueJobs(second.database.db, jobHandlers(second.app.ctx), tripdate - 10 * 60_000)).toEqual({ done: 1, failed: 0 });
    const offered = (await second.call('GET', `/api/bookings/${id}`, await second.login('admin@rideway.demo'))).json<{ requestedDrivers: Record<string, true> }>().requestedDrivers;
    expect(Object.keys(offered).length).toBeGreaterThan(0);
    const drivers = ['driver1', 'driver2', 'driver3', 'driver4', 'driver5'];
    const tasks = await Promise.all(drivers.map(async (name) => (await second.call('GET', '/api/driver/tasks', await second.login(`${name}@rideway.demo`))).json<{ tasks: { id: string }[] }>().tasks.map((task) => task.id)));
    expect(tasks.filter((list) => list.includes(id))).toHaveLength(Object.keys(offered).length);
    await second.stop();
  });

  it('keeps the demo drivers online with demo data, so a visitor can book long after the start', async () => {
    const later = Date.now() + 3 * 60 * 60_000;
    const app = await start(later, { DRIVER_TIMEOUT_S: '300' });
    const rider = await app.login('rider2@rideway.demo');
    const trip = { pickup: { lat: 51.5308, lng: -0.1238, add: "King's Cross" }, drop: { lat: 51.5081, lng: -0.0759, add: 'Tower of London' }, carType: 'Economy' };
    // Hours after their seeded positions, the demo drivers have gone silent...
    expect((await app.call('POST', '/api/bookings', rider, trip)).json()).toMatchObject({ error: { code: 'no_driver_found_alert_messege' } });
    // ...until the demo presence keeps them online, as main.ts does with DEMO_DATA.
    expect(await keepDemoDriversOnline(app.app.ctx)).toBeGreaterThan(0);
    expect((await app.call('POST', '/api/bookings', rider, trip)).statusCode).toBe(201);
    await app.stop();
  });
});
