import { randomUUID } from 'node:crypto';
import { rowsOf } from '@rideway/server/db/client';
import { bookings } from '@rideway/server/db/schema';
import { eq, sql } from 'drizzle-orm';
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { apiWorld, median } from './api-setup';
import { requestsPerSecond } from './http-load';
import { report } from './measure';

/**
 * A rider's bookings list (issue 21, point 6): GET /api/bookings through the whole API (session,
 * route table, the list query, each booking's view, response schema) against a bare Fastify route
 * answering one raw query for the same 20 booking rows, over a pg pool of the same size (on
 * PostgreSQL, when DATABASE_URL is set; else the same PGlite), in the same run. Target: at least
 * 0.5x of the raw query.
 */
const BOOKINGS = 20;
const world = await apiWorld('bookings');
const auth = { authorization: `Bearer ${world.riderToken}` };
const first = await world.app.inject({ method: 'POST', url: '/api/bookings', headers: auth, payload: { pickup: { lat: 51.53, lng: -0.12, add: 'A' }, drop: { lat: 51.5, lng: -0.08, add: 'B' }, carType: 'Economy', bookLater: true, tripdate: Date.now() + 3_600_000 } });
if (first.statusCode !== 201) throw new Error(`booking: ${first.body}`);
const [template] = await world.database.db.select().from(bookings).where(eq(bookings.id, first.json<{ id: string }>().id));
if (!template) throw new Error('no template booking');
// The rest are copies of the first, a minute apart, finished trips (a rider's history).
await world.database.db.insert(bookings).values(
  Array.from({ length: BOOKINGS - 1 }, (_, i) => {
    const id = randomUUID();
    return { ...template, id, reference: id.slice(0, 12), status: 'COMPLETE' as const, bookingDate: template.bookingDate - (i + 1) * 60_000 };
  }),
);
const listed = await world.app.inject({ method: 'GET', url: '/api/bookings', headers: auth });
if (listed.json<{ bookings: unknown[] }>().bookings.length !== BOOKINGS) throw new Error(`list: ${listed.body.slice(0, 200)}`);

const pool = world.url ? new pg.Pool({ connectionString: world.url, max: 10 }) : undefined;
const rawQuery = async (): Promise<unknown[]> => {
  if (pool) return (await pool.query<Record<string, unknown>>('select * from bookings where customer = $1 order by booking_date desc limit 500', [world.riderId])).rows;
  return rowsOf(await world.database.db.execute(sql`select * from bookings where customer = ${world.riderId} order by booking_date desc limit 500`));
};
const bare = Fastify({ logger: false });
bare.get('/api/bookings', async () => ({ bookings: await rawQuery() }));
await bare.listen({ port: 0, host: '127.0.0.1' });

const load = (port: number, signed: boolean) =>
  requestsPerSecond({ port, path: '/api/bookings', method: 'GET', bodies: [''], concurrency: 16, ms: 1500, ...(signed ? { authorizations: [auth.authorization] } : {}) });
const apiRuns: number[] = [];
const bareRuns: number[] = [];
for (let round = 0; round < 5; round += 1) {
  apiRuns.push(await load(world.port, true));
  bareRuns.push(await load((bare.server.address() as AddressInfo).port, false));
}
export const passed = report(`rider's bookings list of ${String(BOOKINGS)} (${world.engine}): GET /api/bookings through the API vs one raw query over a pg pool`, median(apiRuns), median(bareRuns), { min: 0.5 });
// Both answer with one query (the session comes from the session cache); what is left, by CPU
// profile, is the API's own work on 20 rows.
if (!passed) console.log("  note: the API's one query matches the baseline's; the rest is drizzle's row mapping, the booking views and writing 20 bookings through their schema (compiled), which the bare route does not do (docs/decisions.md, issue 21 point 1)");
await bare.close();
await pool?.end();
await world.close();
