import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/client';
import { prepareDatabase } from '../src/seed/prepare';

const run = async (serverUrl: string, statement: string) => {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(statement);
  await admin.end();
};

/** A new database on the test's PostgreSQL server, empty or a copy of `template`; `drop` removes it, connections and all. */
export async function createPostgresDatabase(serverUrl: string, label: string, template?: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `rideway_${label}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  await run(serverUrl, `create database ${name}${template ? ` template ${template}` : ''}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(serverUrl, `drop database if exists ${name} with (force)`) };
}

/** The same, migrated and seeded with the demo data, for tests that start real server processes. */
export async function createDemoDatabase(serverUrl: string, label: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const created = await createPostgresDatabase(serverUrl, label);
  const database = await openDatabase({ databaseUrl: created.url, dataDir: '' });
  await prepareDatabase(database.db, loadConfig({ DEMO_DATA: '1' }));
  await database.close();
  return created;
}
