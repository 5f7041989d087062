import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { migrationsFolder, openDatabase, rowsOf, type Database, type Db } from '../../src/db/client';
import { createPostgresDatabase } from '../postgres';
import { serve } from './served';

/**
 * Issue 23 point 6: an upgrade from the schema landed before this first migration (0027,
 * the last of issue 22) with the demo data and a trip in progress in it. The fixture was dumped
 * from a database the code of that commit made and used (fixtures/make-upgrade-fixture.ts); the
 * current code opens it as a deployment would (openDatabase applies the migrations since), and the
 * data must be intact and served through the API, the trip in progress able to finish.
 */
const FIXTURES = join(import.meta.dirname, 'fixtures');
const FIXTURE_SQL = readFileSync(join(FIXTURES, 'schema-0027-demo.sql'), 'utf8');
const EXPECTED = JSON.parse(readFileSync(join(FIXTURES, 'schema-0027-demo.expected.json'), 'utf8')) as {
  schema: string;
  migrations: number;
  now: number;
  rider: { email: string; lastName: string; walletBalance: number; bookings: { id: string; status: string }[] };
  tripInProgress: { id: string; status: string; driver: string };
  companyName: string;
};
const JOURNAL = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] };
const serverUrl = process.env.DATABASE_URL;

/** A loaded fixture: how many migrations it held, and the database opened as a process opens it. */
type Loaded = { migrationsBefore: number; open: () => Promise<Database>; drop: () => Promise<void> };

const MIGRATIONS_APPLIED = sql`select created_at::text as created_at from drizzle.__drizzle_migrations order by id`;
/** The migrations a database records, by their journal time, in the order they were applied. */
const applied = async (db: Db) => rowsOf<{ created_at: string }>(await db.execute(MIGRATIONS_APPLIED)).map((row) => Number(row.created_at));

/** The fixture loaded into a new PostgreSQL database, as `psql -f` would (plain SQL, no COPY). */
async function onPostgres(): Promise<Loaded> {
  const created = await createPostgresDatabase(serverUrl ?? '', 'upgrade');
  const client = new pg.Client({ connectionString: created.url });
  await client.connect();
  try {
    await client.query(FIXTURE_SQL);
    const { rows } = await client.query<{ count: string }>('select count(*)::text as count from drizzle.__drizzle_migrations');
    return { migrationsBefore: Number(rows[0]?.count), open: () => openDatabase({ databaseUrl: created.url, dataDir: '' }), drop: created.drop };
  } finally {
    await client.end();
  }
}

/** The same into an embedded PGlite data folder, as DATA_DIR holds one. */
async function onPglite(): Promise<Loaded> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rideway-upgrade-'));
  // Where openDatabase keeps it; closed before the process opens it (one PGlite per folder).
  const client = await PGlite.create(join(dataDir, 'pglite'));
  try {
    await client.exec(FIXTURE_SQL);
    const { rows } = await client.query<{ count: string }>('select count(*)::text as count from drizzle.__drizzle_migrations');
    return { migrationsBefore: Number(rows[0]?.count), open: () => openDatabase({ dataDir }), drop: () => { rmSync(dataDir, { recursive: true, force: true }); return Promise.resolve(); } };
  } finally {
    await client.close();
  }
}

const engines = [['pglite', onPglite], ...(serverUrl ? [['postgres', onPostgres] as const] : [])] as const;

describe.each(engines)(`an upgrade from schema ${EXPECTED.schema} with the demo data in it, on %s`, (_engine, load) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('applies every later migration once, keeps the data, serves it, and the trip in progress finishes', async () => {
    const loaded = await load();
    cleanups.push(loaded.drop);
    // The fixture is the old schema: its 28 migrations and none of the later ones.
    expect(loaded.migrationsBefore).toBe(EXPECTED.migrations);
    expect(JOURNAL.entries.length).toBeGreaterThanOrEqual(EXPECTED.migrations);
    expect(readdirSync(migrationsFolder).filter((name) => name.endsWith('.sql'))).toHaveLength(JOURNAL.entries.length);

    const database = await loaded.open();
    cleanups.push(() => database.close());
    // An hour after the fixture was made: the trip's driver is still at the pickup.
    const platform = await serve(database.db, {}, () => EXPECTED.now + 3_600_000);
    cleanups.push(platform.close);
    const { call, login } = platform;

    // Ready: the database answers with every migration of this build applied.
    const ready = await call('GET', '/api/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toMatchObject({ database: 'ok', migrations: 'ok' });
    // No demo data was seeded again into a database that has users.
    const admin = await login('admin@rideway.demo');
    const riders = await call('GET', '/api/users?usertype=rider', admin);
    expect((riders.body.users as unknown[]).length).toBe(2);

    // The rider's account, bookings (the trip in progress first) and wallet, as before the upgrade.
    const rider = await login(EXPECTED.rider.email);
    expect((await call('GET', '/api/me', rider)).body.user).toMatchObject({ email: EXPECTED.rider.email, lastName: EXPECTED.rider.lastName });
    const bookings = (await call('GET', '/api/bookings', rider)).body.bookings as { id: string; status: string }[];
    expect(bookings.map(({ id, status }) => ({ id, status }))).toEqual(EXPECTED.rider.bookings);
    expect((await call('GET', '/api/wallet', rider)).body.walletBalance).toBe(EXPECTED.rider.walletBalance);
    expect(((await call('GET', '/api/settings')).body.settings as { CompanyName: string }).CompanyName).toBe(EXPECTED.companyName);

    // The trip in progress goes on under the new code: started, the drop reached, paid in cash
    // into the driver's hand (the ledger written), completed by the rider.
    const trip = EXPECTED.tripInProgress.id;
    const driver = await login(EXPECTED.tripInProgress.driver);
    expect((await call('GET', `/api/bookings/${trip}`, driver)).body.status).toBe(EXPECTED.tripInProgress.status);
    for (const [step, payload] of [['start', {}], ['reach', {}], ['pay', { payment_mode: 'cash' }]] as const) {
      const answer = await call('POST', `/api/bookings/${trip}/${step}`, driver, payload);
      expect(answer.status, `${step}: ${JSON.stringify(answer.body)}`).toBe(200);
    }
    const completed = await call('POST', `/api/bookings/${trip}/complete`, rider, { rating: 5 });
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    expect(completed.body.status).toBe('COMPLETE');

    // Every migration of this build is recorded once, in order, with its journal's time.
    expect(await applied(database.db)).toEqual(JOURNAL.entries.map((entry) => entry.when));
    // PGlite creating its data folder takes 10 s or more on a loaded 2-core machine.
  }, 120_000);
});

describe.skipIf(!serverUrl)(`processes that start together on schema ${EXPECTED.schema}`, () => {
  it('all start, and each migration is applied once (the migration lock)', async () => {
    const loaded = await onPostgres();
    try {
      // Three processes' pools at once, as two app containers and a third machine after an upgrade.
      const opened = await Promise.allSettled([0, 1, 2].map(() => loaded.open()));
      const started = opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      try {
        expect(opened.map((result) => (result.status === 'rejected' ? String(result.reason) : 'started'))).toEqual(['started', 'started', 'started']);
        expect(await applied((started[0] as Database).db)).toEqual(JOURNAL.entries.map((entry) => entry.when));
      } finally {
        for (const database of started) await database.close();
      }
    } finally {
      await loaded.drop();
    }
  });
});
