import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { migrationsFolder, openDatabase, type Database } from '../src/db/client';
import { createPostgresDatabase } from './postgres';

/**
 * Fresh, migrated databases for the tests, made by copying one migrated database instead of
 * building each from nothing. A new in-memory PGlite runs initdb and every migration: measured at
 * five to eight times the cost of starting from a migrated data directory, paid once per test file,
 * it was the largest part of the unit phase's time. The copies are keyed by the migrations' text and
 * the engine's version, so a new migration makes a new copy; and the migrations still run on every
 * fresh database (a no-op on an up-to-date copy), so a copy can never hide one.
 */

const NODE_MODULES = join(import.meta.dirname, '..', '..', '..', 'node_modules');
const CACHE_DIR = join(NODE_MODULES, '.cache', 'rideway-tests');

/** The migrations' names and text, and the PGlite version: what a migrated copy depends on. */
function migrationsKey(): string {
  const hash = createHash('sha256');
  const pgliteVersion = (JSON.parse(readFileSync(join(NODE_MODULES, '@electric-sql', 'pglite', 'package.json'), 'utf8')) as { version: string }).version;
  hash.update(pgliteVersion);
  for (const folder of [migrationsFolder, join(migrationsFolder, 'meta')]) {
    for (const name of readdirSync(folder).sort()) {
      if (!name.endsWith('.sql') && name !== '_journal.json') continue;
      hash.update(name).update(readFileSync(join(folder, name)));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

let key: string | undefined;
const keyOnce = () => (key ??= migrationsKey());

let snapshot: Promise<Blob> | undefined;

/** A migrated PGlite's data directory, made once per migration set and kept on disk for every test process. */
function migratedPglite(): Promise<Blob> {
  snapshot ??= (async () => {
    const file = join(CACHE_DIR, `pglite-${keyOnce()}.tar`);
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const database = await openDatabase({ dataDir: 'memory://' });
    const client = (database.db as unknown as { $client: PGlite }).$client;
    const dump = await client.dumpDataDir('none');
    await database.close();
    mkdirSync(CACHE_DIR, { recursive: true });
    // Written aside and renamed: test processes making it at once never read half a file.
    const partial = `${file}.${randomUUID()}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
    return dump;
  })();
  return snapshot;
}

/** A fresh in-memory PGlite with every migration applied. */
export async function freshPglite(): Promise<Database> {
  return openDatabase({ dataDir: 'memory://', loadDataDir: await migratedPglite() });
}

const TEMPLATE_PREFIX = 'rideway_template_';

/**
 * A migrated template database on the server, made once per migration set under an advisory lock
 * (test processes start together); templates of older migration sets are dropped.
 */
async function migratedTemplate(serverUrl: string): Promise<string> {
  const name = `${TEMPLATE_PREFIX}${keyOnce()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock(hashtext($1))', [TEMPLATE_PREFIX]);
    const found = await admin.query('select datname from pg_database where datname like $1', [`${TEMPLATE_PREFIX}%`]);
    const names = found.rows.map((row: { datname: string }) => row.datname);
    if (!names.includes(name)) {
      const building = `${name}_building`;
      await admin.query(`drop database if exists ${building} with (force)`);
      await admin.query(`create database ${building}`);
      const url = new URL(serverUrl);
      url.pathname = `/${building}`;
      const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
      await database.close();
      await admin.query(`alter database ${building} rename to ${name}`);
      for (const old of names) await admin.query(`drop database if exists ${old} with (force)`).catch(() => undefined);
    }
    return name;
  } finally {
    await admin.query('select pg_advisory_unlock(hashtext($1))', [TEMPLATE_PREFIX]).catch(() => undefined);
    await admin.end();
  }
}

/** A new database on the test's PostgreSQL server, copied from the migrated template; `drop` removes it. */
export async function freshPostgres(serverUrl: string, label: string): Promise<{ database: Database; drop: () => Promise<void> }> {
  const created = await createPostgresDatabase(serverUrl, label, await migratedTemplate(serverUrl));
  const database = await openDatabase({ databaseUrl: created.url, dataDir: '' });
  return {
    database,
    drop: async () => {
      await database.close();
      await created.drop();
    },
  };
}
