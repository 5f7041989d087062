import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { openDatabase, rowsOf, type Database } from '../../src/db/client';
import { prepareDatabase } from '../../src/seed/prepare';
import { createPostgresDatabase } from '../postgres';

const serverUrl = process.env.DATABASE_URL;
const PROCESSES = 3;

/**
 * Issue 23 point 5: the compose file starts two app processes (and an operator may start more) on
 * a new, empty database at the same moment. Each readies it at start (the bootstrap admin, the
 * demo data when asked); they must do it once between them: every process starts, and the
 * database holds one admin, one set of demo accounts, car types and cancel reasons.
 */
describe.skipIf(!serverUrl)('processes readying one empty PostgreSQL database at once', () => {
  const opened: Database[] = [];
  let drop = () => Promise.resolve();

  afterAll(async () => {
    for (const database of opened) await database.close();
    await drop();
  });

  it('seed it once between them, and each answers the same demo logins', async () => {
    const created = await createPostgresDatabase(serverUrl ?? '', 'firststart');
    drop = created.drop;
    // Each with its own pool, as separate processes: the migrations take their lock, then each readies the database.
    for (let i = 0; i < PROCESSES; i += 1) opened.push(await openDatabase({ databaseUrl: created.url, dataDir: '' }));
    const config = loadConfig({ DATABASE_URL: created.url, DEMO_DATA: '1', BOOTSTRAP_ADMIN_EMAIL: 'ops@example.org', BOOTSTRAP_ADMIN_PASSWORD: 'a-long-bootstrap-password' });
    const logins = await Promise.all(opened.map((database) => prepareDatabase(database.db, config)));
    for (const answered of logins) expect(answered.map((login) => login.email)).toEqual(logins[0]?.map((login) => login.email));
    expect(logins[0]).toHaveLength(9);

    const count = async (table: string, where = 'true') => Number(rowsOf<{ n: string }>(await opened[0]?.db.execute(sql.raw(`select count(*)::text as n from ${table} where ${where}`)))[0]?.n);
    expect(await count('users', `email = 'ops@example.org'`)).toBe(1);
    expect(await count('users', `email like '%@rideway.demo'`)).toBe(9);
    expect(await count('car_types')).toBe(await count('(select distinct name from car_types) as names'));
    expect(await count('cancel_reasons')).toBe(await count('(select distinct value from cancel_reasons) as reasons'));
    expect(await count('settings')).toBe(1);
  }, 180_000);
});
