import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Pool } from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
/** The database, whichever engine is behind it; every query goes through this type. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction, or the database itself where no transaction is needed. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export type Database = { db: Db; engine: 'pglite' | 'postgres'; close: () => Promise<void> };

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * The embedded database's memory (issue 21 point 4): PostgreSQL's default 128 MB of shared
 * buffers live inside PGlite's WebAssembly memory, all resident, for a database of a few MB that
 * the operating system's file cache holds anyway. 16 MB keeps the hot tables and indexes.
 */
const PGLITE_SETTINGS = ['-c', 'shared_buffers=16MB'];

/**
 * Opens the system of record and brings its schema up to date: PostgreSQL when `databaseUrl` is
 * given, else the embedded PGlite in `dataDir` (kept across restarts), or in memory for
 * `dataDir: 'memory://'`.
 */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
  onIdleError?: (error: Error) => void;
  /**
   * How long a request waits for a new PostgreSQL connection before it fails (issue 23 point 4):
   * while the server is down or restarting, requests answer 503 within this instead of queueing.
   */
  connectTimeoutMs?: number;
  /**
   * An in-memory PGlite starts from this data directory (a `dumpDataDir` tarball) instead of
   * running initdb: the tests' fresh databases start from a migrated copy (test/fresh-databases.ts).
   * The migrations still run, so a stale copy is brought up to date.
   */
  loadDataDir?: Blob;
}): Promise<Database> {
  // Each engine's driver loads only when it is the one opened: a server on PostgreSQL never loads
  // PGlite (its Emscripten module and its source maps: 4 to 5 MB resident, issue 21 point 4), and
  // an embedded one never loads node-postgres.
  if (options.databaseUrl) {
    const [{ default: pg }, { drizzle: drizzlePg }] = await Promise.all([import('pg'), import('drizzle-orm/node-postgres')]);
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10, connectionTimeoutMillis: options.connectTimeoutMs ?? 5000 });
    // An idle connection that the server drops (restart, failover) emits here; without a
    // listener that error would end the process. The pool replaces the connection on next use.
    pool.on('error', (error) => {
      options.onIdleError?.(error);
    });
    const db = drizzlePg(pool, { schema });
    await migrateOnce(pool);
    return { db: db as unknown as Db, engine: 'postgres', close: () => pool.end() };
  }
  const [{ PGlite }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([import('@electric-sql/pglite'), import('drizzle-orm/pglite'), import('drizzle-orm/pglite/migrator')]);
  const inMemory = options.dataDir.startsWith('memory://');
  if (!inMemory) mkdirSync(options.dataDir, { recursive: true });
  const client = await PGlite.create(inMemory ? undefined : `${options.dataDir}/pglite`, {
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS],
    ...(inMemory && options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  return { db: db as unknown as Db, engine: 'pglite', close: () => client.close() };
}

/** The advisory lock every process takes to migrate a PostgreSQL database (any constant; 'RIDE'). */
export const MIGRATION_LOCK = 0x52494445;

/**
 * Applies the pending migrations while holding a session-level advisory lock, so processes that
 * start together on an older schema (two app containers after an upgrade, a rolling restart
 * across machines) migrate one at a time: drizzle's migrator reads the last applied migration
 * before its transaction, and without the lock every process applied the same migration and all
 * but one failed at start (issue 23 point 6, docs/operations.md "Upgrades"). The next process
 * waits for the lock, then finds nothing pending.
 */
async function migrateOnce(pool: Pool): Promise<void> {
  const [{ drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([import('drizzle-orm/node-postgres'), import('drizzle-orm/node-postgres/migrator')]);
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
    } finally {
      // The lock is the session's: released here, or with the connection if that is gone.
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch((error: unknown) => {
        broken = error instanceof Error ? error : new Error(String(error));
      });
    }
  } catch (error) {
    broken ??= error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    // A connection that failed is destroyed rather than handed back to the pool.
    client.release(broken);
  }
}

/** The rows of a raw `execute` result: both engines answer `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  if (typeof result === 'object' && result !== null && 'rows' in result && Array.isArray(result.rows)) return result.rows as T[];
  return [];
}
