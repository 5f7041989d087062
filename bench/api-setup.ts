import { randomUUID } from 'node:crypto';
import { buildApp } from '@rideway/server/app';
import { loadConfig } from '@rideway/server/config';
import { openDatabase, type Database } from '@rideway/server/db/client';
import { createSession } from '@rideway/server/modules/auth/sessions';
import { installLanguages } from '@rideway/server/modules/languages/service';
import { DEFAULT_SETTINGS } from '@rideway/server/modules/settings/defaults';
import { saveSettings } from '@rideway/server/modules/settings/service';
import { insertAccount } from '@rideway/server/modules/users/accounts';
import { memoryStorage } from '@rideway/server/providers/storage';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';

/** The same car type the API's estimates price, for the bare baselines. */
export const ECONOMY = { name: 'Economy', base_fare: 2, rate_per_unit_distance: 1, rate_per_hour: 10, min_fare: 5, convenience_fees: 10, convenience_fee_type: 'percentage' as const };

const onServer = async (serverUrl: string, statement: string) => {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(statement);
  await admin.end();
};

/**
 * A server as an operator runs it, on PostgreSQL when DATABASE_URL is set (a new database on that
 * server, dropped at the end) and else on the embedded PGlite, listening on a local port, with an
 * admin, the Economy car type and a rider signed in. Rate limits off: the load comes from one
 * address and one user, and the benchmark measures the work, not refusals.
 */
export async function apiWorld(label: string, options: { /** The background jobs (the positions' write-behind, say): off unless asked. */ background?: boolean } = {}): Promise<{
  engine: Database['engine'];
  app: FastifyInstance;
  database: Database;
  /** The database's connection string, PostgreSQL only: the bare baselines open their own pool. */
  url: string | undefined;
  port: number;
  riderId: string;
  riderToken: string;
  adminToken: string;
  close: () => Promise<void>;
}> {
  const serverUrl = process.env.DATABASE_URL;
  let url: string | undefined;
  let drop = async () => {};
  if (serverUrl) {
    const name = `rideway_bench_${label}_${randomUUID().replaceAll('-', '').slice(0, 8)}`;
    await onServer(serverUrl, `create database ${name}`);
    const parsed = new URL(serverUrl);
    parsed.pathname = `/${name}`;
    url = parsed.toString();
    drop = () => onServer(serverUrl, `drop database if exists ${name} with (force)`);
  }
  const database = await openDatabase(url ? { databaseUrl: url, dataDir: '' } : { dataDir: 'memory://' });
  await installLanguages(database.db);
  await saveSettings(database.db, DEFAULT_SETTINGS);
  const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent', RATE_LIMITS: 'off' }), db: database.db, storage: memoryStorage(), logger: false, background: options.background ?? false });
  const account = (usertype: 'admin' | 'rider', n: number) =>
    insertAccount(database.db, { firstName: 'Bench', lastName: `${usertype}${String(n)}`, email: `${usertype}${String(n)}@bench.local`, mobile: `7${String(n).padStart(3, '0')}${String(usertype.length)}00000`, usertype, passwordHash: null, loginType: 'email', approved: true, emailVerified: true, createdByAdmin: true, referralSource: 'admin' }, Date.now());
  const admin = await account('admin', 0);
  const rider = await account('rider', 1);
  const adminToken = await createSession(database.db, admin.id, Date.now());
  const riderToken = await createSession(database.db, rider.id, Date.now());
  const created = await app.inject({ method: 'POST', url: '/api/cartypes', headers: { authorization: `Bearer ${adminToken}` }, payload: ECONOMY });
  if (created.statusCode >= 300) throw new Error(`car type: ${created.body}`);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    engine: database.engine,
    app,
    database,
    url,
    port,
    riderId: rider.id,
    riderToken,
    adminToken,
    close: async () => {
      await app.close();
      await database.close();
      await drop();
    },
  };
}

export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
