import { randomUUID } from 'node:crypto';
import type { UserType } from '@rideway/domain';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import type { Database } from '../src/db/client';
import { users, vehicles } from '../src/db/schema';
import { hashPassword } from '../src/modules/auth/passwords';
import { createSession } from '../src/modules/auth/sessions';
import { installLanguages } from '../src/modules/languages/service';
import { seedApprovedDocuments } from '../src/modules/documents/seed';
import { DEFAULT_SETTINGS } from '../src/modules/settings/defaults';
import { saveSettings } from '../src/modules/settings/service';
import { insertAccount, type UserRow } from '../src/modules/users/accounts';
import { memoryStorage, type FileStorage } from '../src/providers/storage';
import { runDueJobs } from '../src/jobs/runner';
import { jobHandlers } from '../src/job-handlers';
import { openLive, type LiveClient } from './live-client';
import { freshPglite, freshPostgres } from './fresh-databases';
import { checkDocumentedResponses } from './documented-responses';
import type { Settings } from '@rideway/contract';
import { eq } from 'drizzle-orm';
import type { Access } from '../src/http/routing';
import type { PaymentProviderPort } from '../src/providers/payments/port';
import type { MapsPort } from '../src/providers/maps/port';

export type Engine = 'pglite' | 'postgres';

/**
 * PGlite, and the real PostgreSQL too when DATABASE_URL is set (CI sets it). TEST_ENGINES narrows
 * the list: CI runs the PGlite pass on Node 20 and the PostgreSQL pass on a newer LTS (issue 23
 * point 9, scripts/unit-tests.mjs), so each engine's tests run once and both Node lines are tested.
 */
const wantedEngines = (process.env.TEST_ENGINES ?? 'pglite,postgres').split(',').map((name) => name.trim());
export const ENGINES: Engine[] = (['pglite', 'postgres'] as const).filter((engine) => wantedEngines.includes(engine) && (engine === 'pglite' || Boolean(process.env.DATABASE_URL)));

export const PASSWORD = 'secret1';
let passwordHash: Promise<string> | undefined;

/** A fresh database of the engine, migrated: PGlite in memory, or a new database on the server. */
async function freshDatabase(engine: Engine): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (engine === 'pglite') {
    const database = await freshPglite();
    return { database, drop: () => database.close() };
  }
  return freshPostgres(process.env.DATABASE_URL ?? '', 'test');
}

export type TestApp = {
  engine: Engine;
  app: FastifyInstance;
  db: Database['db'];
  config: Config;
  clock: { now: number };
  advance: (ms: number) => void;
  request: (options: InjectOptions & { as?: UserRow | null }) => Promise<LightMyRequestResponse>;
  makeUser: (usertype: UserType, extra?: Partial<Parameters<typeof insertAccount>[1]> & { documentless?: boolean }) => Promise<UserRow>;
  tokenOf: (user: UserRow) => Promise<string>;
  setSettings: (changes: Partial<Settings>) => Promise<void>;
  /** A driver goes online and reports a position through the API, as the driver app does. */
  goOnline: (driver: UserRow, position?: { lat: number; lng: number }) => Promise<void>;
  /** A WebSocket to /api/ws signed in as the user (the server starts listening on first use). */
  live: (user: UserRow) => Promise<LiveClient>;
  /** Runs the jobs due at the test clock's time, and delivers the events they wrote. */
  runJobs: () => Promise<{ done: number; failed: number }>;
  close: () => Promise<void>;
};

/** Near the fixtures' pickup at King's Cross. */
export const NEAR_PICKUP = { lat: 51.531, lng: -0.124 };

let sequence = 0;

export async function createTestApp(engine: Engine, env: Record<string, string> = {}, options: { paymentProviders?: PaymentProviderPort[]; maps?: MapsPort; storage?: FileStorage; webRoot?: string } = {}): Promise<TestApp> {
  const { database, drop } = await freshDatabase(engine);
  const config = loadConfig({ LOG_LEVEL: 'silent', ...env });
  const clock = { now: Date.UTC(2026, 10, 22, 10, 0, 0) };
  await installLanguages(database.db);
  await saveSettings(database.db, DEFAULT_SETTINGS);
  const app = await buildApp({ config, db: database.db, storage: memoryStorage(), now: () => clock.now, logger: false, background: false, checkResponses: true, ...options });
  const documented = checkDocumentedResponses(app);
  const failOnUndocumented = () => {
    const [violation] = documented.violations.splice(0);
    if (violation !== undefined) throw new Error(`undocumented response: ${violation}`);
  };
  const jobs = jobHandlers(app.ctx);
  const tokens = new Map<string, string>();
  let listening: Promise<string> | undefined;
  const clients: LiveClient[] = [];

  const tokenOf = async (user: UserRow): Promise<string> => {
    const known = tokens.get(user.id);
    if (known) return known;
    const token = await createSession(database.db, user.id, clock.now);
    tokens.set(user.id, token);
    return token;
  };

  return {
    engine,
    app,
    db: database.db,
    config,
    clock,
    advance: (ms) => {
      clock.now += ms;
    },
    async request({ as, ...options }) {
      const headers = { ...(options.headers ?? {}) } as Record<string, string>;
      if (as) headers.authorization = `Bearer ${await tokenOf(as)}`;
      const response = await app.inject({ ...options, headers });
      // A logout ends the session: the next request as this user signs in afresh.
      if (as && options.url === '/api/auth/logout') tokens.delete(as.id);
      failOnUndocumented();
      return response;
    },
    async makeUser(usertype, { documentless = false, ...extra } = {}) {
      sequence += 1;
      passwordHash ??= hashPassword(PASSWORD);
      const row = await insertAccount(
        database.db,
        {
          firstName: `${usertype}${sequence}`,
          lastName: 'Test',
          email: `${usertype}${sequence}.${randomUUID().slice(0, 6)}@example.com`,
          mobile: `5${String(Date.now()).slice(-6)}${String(sequence).padStart(4, '0')}`.slice(0, 12),
          usertype,
          passwordHash: await passwordHash,
          loginType: 'email',
          approved: true,
          emailVerified: true,
          createdByAdmin: false,
          referralSource: 'admin',
          ...extra,
        },
        clock.now,
      );
      // Issue 20: a driver made here has its documents approved for years, so it goes online as
      // before; the document rules' own tests make drivers without them (documentless: true).
      // Its car too (issue 20 point 3), whatever the account's own approval: an unapproved driver
      // is kept from trips by the account rule, which the dispatch tests check on their own.
      if (usertype === 'driver' && !documentless) {
        await seedApprovedDocuments(database.db, row.id, clock.now, '2036-12-31');
        await database.db.update(vehicles).set({ status: 'approved', reviewedBy: 'seed', reviewedAt: clock.now }).where(eq(vehicles.uid, row.id));
      }
      return row;
    },
    tokenOf,
    async setSettings(changes) {
      await saveSettings(database.db, { ...DEFAULT_SETTINGS, ...changes });
    },
    async goOnline(driver, position = NEAR_PICKUP) {
      const token = await tokenOf(driver);
      const headers = { authorization: `Bearer ${token}` };
      const status = await app.inject({ method: 'PATCH', url: '/api/driver/status', headers, payload: { driverActiveStatus: true } });
      const located = await app.inject({ method: 'POST', url: '/api/driver/location', headers, payload: position });
      if (status.statusCode !== 200 || located.statusCode !== 200) throw new Error(`driver could not go online: ${status.body} ${located.body}`);
    },
    async live(user) {
      listening ??= app.listen({ port: 0, host: '127.0.0.1' });
      const address = await listening;
      const client = await openLive(`${address.replace('http', 'ws')}/api/ws`, await tokenOf(user));
      clients.push(client);
      return client;
    },
    async runJobs() {
      const result = await runDueJobs(database.db, jobs, clock.now);
      await app.ctx.live.relay.drain();
      return result;
    },
    async close() {
      for (const client of clients) await client.close();
      await app.close();
      await drop();
      failOnUndocumented();
    },
  };
}

/**
 * The driver runs an accepted trip: arrives, starts, drives along `route` reporting its position
 * (section 4 tracks it while STARTED) and reaches the last point. Answers the REACHED booking.
 */
export async function driveTrip(t: TestApp, driver: UserRow, id: string, route: { lat: number; lng: number }[]) {
  for (const step of ['arrive', 'start']) {
    const response = await t.request({ method: 'POST', url: `/api/bookings/${id}/${step}`, as: driver, payload: {} });
    if (response.statusCode !== 200) throw new Error(`${step}: ${response.body}`);
  }
  for (const point of route) {
    t.advance(60_000);
    await t.request({ method: 'POST', url: '/api/driver/location', as: driver, payload: { lat: point.lat, lng: point.lng } });
  }
  const reached = await t.request({ method: 'POST', url: `/api/bookings/${id}/reach`, as: driver, payload: {} });
  if (reached.statusCode !== 200) throw new Error(`reach: ${reached.body}`);
  return reached.json<{ id: string; status: string; trip_cost: number; customer_paid: number; driver_share: number; convenience_fees: number; distance: number; total_trip_time: number; drop: { lat: number; lng: number; add: string } }>();
}

/** Re-reads a user row (after the API changed it). */
export async function reload(t: TestApp, user: UserRow): Promise<UserRow | undefined> {
  return (await t.db.select().from(users).where(eq(users.id, user.id)))[0];
}

/** The error code of a response body. */
export const codeOf = (response: LightMyRequestResponse): string | undefined =>
  String(response.headers['content-type']).startsWith('application/json')
    ? response.json<{ error?: { code?: string } }>().error?.code
    : undefined;

type RouteRow = { key: string; method: NonNullable<InjectOptions['method']>; url: string; access: Access };

/** Every route the server registers, with its declared access (from a server built for the purpose). */
export async function registeredRoutes(): Promise<RouteRow[]> {
  const t = await createTestApp('pglite');
  try {
    await t.app.ready();
    return [...t.app.routeAccess].map(([key, access]) => {
      const [method = '', url = ''] = key.split(' ');
      return { key, method: method as RouteRow['method'], url, access };
    });
  } finally {
    await t.close();
  }
}
