import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client';
import { keepDemoDriversOnline } from '../../src/seed/demo-presence';
import { createDemoDatabase } from '../postgres';
import { serve } from './served';

/**
 * Issue 23 point 6: the backup and restore docs/operations.md prescribes, done for real on
 * PostgreSQL: a dump in pg_dump's custom format taken while the platform serves, the database
 * dropped, created again and restored with pg_restore, and the platform serving what was there:
 * the account made before the dump signs in, its booking and wallet are there, and the session it
 * had still works.
 */
const serverUrl = process.env.DATABASE_URL;

describe.skipIf(!serverUrl)('a PostgreSQL backup, a dropped database, and its restore', () => {
  const workDir = mkdtempSync(join(tmpdir(), 'rideway-backup-'));
  let drop = () => Promise.resolve();
  afterAll(async () => {
    await drop();
    rmSync(workDir, { recursive: true, force: true });
  });

  /** A statement on the server's maintenance database (where `DATABASE_URL` points), as an operator's psql. */
  const onServer = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      return (await client.query<{ datname: string }>(statement)).rows;
    } finally {
      await client.end();
    }
  };

  it('serves the restored data: sign-in, the booking, the wallet and the session made before the dump', async () => {
    const created = await createDemoDatabase(serverUrl ?? '', 'backup');
    drop = created.drop;
    const name = new URL(created.url).pathname.slice(1);

    // Before: a rider signs up, books a trip, and an admin credits the rider's wallet.
    const before = await openDatabase({ databaseUrl: created.url, dataDir: '' });
    const platform = await serve(before.db, { DATABASE_URL: created.url });
    await keepDemoDriversOnline(platform.app.ctx);
    const email = `backup-${randomUUID().slice(0, 8)}@example.com`;
    const signup = await platform.call('POST', '/api/auth/register', undefined, { firstName: 'Bea', lastName: 'Backup', email, mobile: `77${String(Date.now()).slice(-7)}`, password: 'secret123' });
    expect(signup.status, JSON.stringify(signup.body)).toBe(201);
    const session = await platform.login(email, 'secret123');
    const me = (await platform.call('GET', '/api/me', session)).body.user as { id: string };
    const booked = await platform.call('POST', '/api/bookings', session, { pickup: { lat: 51.5152, lng: -0.1301, add: "King's Cross" }, drop: { lat: 51.5081, lng: -0.0759, add: 'Tower of London' }, carType: 'Economy' });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const admin = await platform.login('admin@rideway.demo');
    expect((await platform.call('POST', '/api/wallet/credit', admin, { uid: me.id, amount: 20 })).status).toBe(200);

    // The backup, taken while the platform serves (pg_dump reads one consistent snapshot).
    const dump = join(workDir, 'rideway.dump');
    execFileSync('pg_dump', ['--format=custom', '--file', dump, created.url]);
    expect(statSync(dump).size).toBeGreaterThan(10_000);
    await platform.close();
    await before.close();

    // The loss: the database is gone.
    await onServer(`drop database ${name} with (force)`);
    expect(await onServer(`select datname from pg_database where datname = '${name}'`)).toEqual([]);

    // The restore: an empty database of the same name, filled from the dump.
    await onServer(`create database ${name}`);
    execFileSync('pg_restore', ['--no-owner', '--exit-on-error', '--dbname', created.url, dump]);

    // After: the platform starts on it and serves what was there.
    const after = await openDatabase({ databaseUrl: created.url, dataDir: '' });
    const restored = await serve(after.db, { DATABASE_URL: created.url });
    try {
      const ready = await restored.call('GET', '/api/health/ready');
      expect(ready.status).toBe(200);
      expect(ready.body.checks).toMatchObject({ database: 'ok', migrations: 'ok' });
      // The session made before the dump is still valid: sessions live in the database.
      expect(((await restored.call('GET', '/api/me', session)).body.user as { email: string }).email).toBe(email);
      const again = await restored.login(email, 'secret123');
      const bookings = (await restored.call('GET', '/api/bookings', again)).body.bookings as { id: string; status: string }[];
      expect(bookings.map((booking) => booking.id)).toEqual([booked.body.id]);
      expect((await restored.call('GET', '/api/wallet', again)).body.walletBalance).toBe(20);
      // The demo data came back too, and was not seeded again.
      const riders = (await restored.call('GET', '/api/users?usertype=rider', await restored.login('admin@rideway.demo'))).body.users as unknown[];
      expect(riders).toHaveLength(3);
    } finally {
      await restored.close();
      await after.close();
    }
  }, 120_000);
});
