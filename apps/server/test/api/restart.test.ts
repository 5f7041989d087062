import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { openDatabase } from '../../src/db/client';
import { memoryStorage } from '../../src/providers/storage';
import { prepareDatabase } from '../../src/seed/prepare';

describe('the embedded database keeps its data across a restart', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'rideway-restart-'));
  afterAll(() => { rmSync(dataDir, { recursive: true, force: true }); });

  async function start() {
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const database = await openDatabase({ dataDir });
    const logins = await prepareDatabase(database.db, config);
    const app = await buildApp({ config, db: database.db, storage: memoryStorage(), logger: false });
    return { app, logins, stop: async () => { await app.close(); await database.close(); } };
  }

  it('seeds demo data once, and what an admin adds is still there after a restart', async () => {
    const first = await start();
    expect(first.logins.map((l) => l.email)).toContain('admin@rideway.demo');
    const login = await first.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'admin@rideway.demo', password: 'demo123' } });
    const token = login.json().token as string;
    const created = await first.app.inject({ method: 'POST', url: '/api/cartypes', headers: { authorization: `Bearer ${token}` }, payload: { name: 'Kept', base_fare: 1, rate_per_unit_distance: 1, rate_per_hour: 1, min_fare: 1, convenience_fees: 1, convenience_fee_type: 'flat' } });
    expect(created.statusCode).toBe(201);
    await first.stop();

    const second = await start();
    const names = (await second.app.inject({ method: 'GET', url: '/api/cartypes' })).json().cartypes.map((c: { name: string }) => c.name);
    expect(names).toEqual(['Economy', 'Comfort', 'XL', 'Kept']);
    // The session survived too, and the demo data was not seeded twice.
    const me = await second.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });
    expect(me.json().user.email).toBe('admin@rideway.demo');
    const drivers = await second.app.inject({ method: 'GET', url: '/api/users?usertype=driver', headers: { authorization: `Bearer ${token}` } });
    expect(drivers.json().users).toHaveLength(5);
    await second.stop();
  });

  it('creates the bootstrap admin on an empty database, and no demo data with DEMO_DATA=0', async () => {
    const emptyDir = mkdtempSync(join(tmpdir(), 'rideway-bootstrap-'));
    try {
      const config = loadConfig({ DATA_DIR: emptyDir, DEMO_DATA: '0', BOOTSTRAP_ADMIN_EMAIL: 'Boss@Example.com', BOOTSTRAP_ADMIN_PASSWORD: 'boss123', LOG_LEVEL: 'silent' });
      const database = await openDatabase({ dataDir: emptyDir });
      expect(await prepareDatabase(database.db, config)).toEqual([]);
      const app = await buildApp({ config, db: database.db, storage: memoryStorage(), logger: false });
      const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'boss@example.com', password: 'boss123' } });
      expect(login.json().user).toMatchObject({ usertype: 'admin', email: 'boss@example.com' });
      expect((await app.inject({ method: 'GET', url: '/api/cartypes' })).json().cartypes).toEqual([]);
      await app.close();
      await database.close();
    } finally {
      rmSync(emptyDir, { recursive: true, force: true });
    }
  });
});
