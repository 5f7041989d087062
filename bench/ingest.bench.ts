import { createSession } from '@rideway/server/modules/auth/sessions';
import { seedApprovedDocuments } from '@rideway/server/modules/documents/seed';
import { insertAccount } from '@rideway/server/modules/users/accounts';
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { apiWorld, median } from './api-setup';
import { requestsPerSecond } from './http-load';
import { report } from './measure';

/**
 * Location ingest: POST /api/driver/location through the whole API (session, route table,
 * validation, live index, live map event, batched write-behind) against a bare Fastify route
 * that parses the same body and answers, over the same keep-alive HTTP load. Target: at least
 * 0.5x of the bare route.
 */
const DRIVERS = 200;
// On PostgreSQL when DATABASE_URL is set, with the background on: the positions' write-behind is part of the work.
const world = await apiWorld('ingest', { background: true });
const { app, database } = world;
const tokens: string[] = [];
for (let i = 0; i < DRIVERS; i += 1) {
  const driver = await insertAccount(database.db, { firstName: 'Bench', lastName: `Driver${String(i)}`, email: `bench${String(i)}@example.com`, mobile: `7000${String(i).padStart(6, '0')}`, usertype: 'driver', passwordHash: null, loginType: 'email', approved: true, emailVerified: true, createdByAdmin: true, referralSource: 'admin', carType: 'Economy' }, Date.now());
  // Issue 20: a driver goes online only with its documents approved and in date.
  await seedApprovedDocuments(database.db, driver.id, Date.now(), '2036-12-31');
  tokens.push(await createSession(database.db, driver.id, Date.now()));
  const online = await app.inject({ method: 'PATCH', url: '/api/driver/status', headers: { authorization: `Bearer ${tokens[i] ?? ''}` }, payload: { driverActiveStatus: true } });
  // An offline driver's position is refused early (and costs a read): the benchmark measures online drivers.
  if (online.statusCode !== 200) throw new Error(`driver could not go online: ${online.body}`);
}

const bare = Fastify({ logger: false });
bare.post('/api/driver/location', (request) => {
  const body = request.body as { lat?: unknown; lng?: unknown };
  return { at: Date.now(), online: typeof body.lat === 'number' && typeof body.lng === 'number' };
});
await bare.listen({ port: 0, host: '127.0.0.1' });

// Each request signs in as one of the drivers, in turn.
const bodies = Array.from({ length: 3700 }, (_, i) => JSON.stringify({ lat: 51.5 + (i % 100) / 1000, lng: -0.12 + (i % 37) / 1000 }));
const load = (port: number, signed: boolean) =>
  requestsPerSecond({ port, path: '/api/driver/location', method: 'POST', bodies, concurrency: 16, ms: 1500, ...(signed ? { authorizations: tokens.map((token) => `Bearer ${token}`) } : {}) });
// Interleaved rounds, medians: the machine's drift falls on both alike.
const apiRuns: number[] = [];
const bareRuns: number[] = [];
for (let round = 0; round < 5; round += 1) {
  apiRuns.push(await load(world.port, true));
  bareRuns.push(await load((bare.server.address() as AddressInfo).port, false));
}
const api = median(apiRuns);
const baseline = median(bareRuns);
export const passed = report(`location ingest (${world.engine}): POST /api/driver/location through the API vs a bare Fastify route`, api, baseline, { min: 0.5 });
// By CPU profile (issue 21): on PGlite the database's work (wasm) runs in the server's own thread.
if (!passed) console.log(`  note: the route validates the body, moves the driver in the live index and publishes the live map's event, which the bare route does not${world.engine === 'pglite' ? "; on PGlite the positions' write-behind (one statement per 2 s for the 200 drivers) and the sessions' reads run in the server's own thread" : ''}`);
await bare.close();
await world.close();
