import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { join } from 'node:path';
import { bookings } from '@rideway/server/db/schema';
import { createSession } from '@rideway/server/modules/auth/sessions';
import { DEFAULT_SETTINGS } from '@rideway/server/modules/settings/defaults';
import { insertAccount } from '@rideway/server/modules/users/accounts';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { apiWorld, median } from './api-setup';
import type { RaceCommand, RaceResult } from './accept-racers';
import { report } from './measure';

/**
 * The accept race: 8 drivers accept one booking at once, exactly one wins. Through the HTTP API
 * (the drivers' apps in a child process, keep-alive requests to the listening server: session,
 * route table, the locked booking, the domain's plan, driver details, queue flag, notices and
 * events in one transaction; the racers after the winner are refused from the process's memory
 * of the taken booking) against the bare conditional UPDATE that decides the race, sent by 8
 * connections at once, in the same run: on PostgreSQL when DATABASE_URL is set (issue 21 point 6),
 * else on the embedded PGlite. Races per second. Target: at least 0.3x of the bare UPDATE; below
 * it the bench prints BELOW and why.
 */
const RACERS = 8;
const RACES = 60;
const world = await apiWorld('accept');
const { database } = world;
const adminAuth = { authorization: `Bearer ${world.adminToken}` };
await world.app.inject({ method: 'PATCH', url: '/api/settings', headers: adminAuth, payload: { ...DEFAULT_SETTINGS, autoDispatch: false } });
const drivers = await Promise.all(
  Array.from({ length: RACERS }, (_, i) =>
    insertAccount(database.db, { firstName: 'Bench', lastName: `driver${String(i)}`, email: `driver${String(i)}@bench.local`, mobile: `79${String(i).padStart(3, '0')}00000`, usertype: 'driver', passwordHash: null, loginType: 'email', approved: true, emailVerified: true, createdByAdmin: true, referralSource: 'admin', carType: 'Economy' }, Date.now()),
  ),
);
const auths = await Promise.all(drivers.map(async (d) => `Bearer ${await createSession(database.db, d.id, Date.now())}`));
const created = await world.app.inject({ method: 'POST', url: '/api/bookings', headers: { authorization: `Bearer ${world.riderToken}` }, payload: { pickup: { lat: 51.53, lng: -0.12, add: 'A' }, drop: { lat: 51.5, lng: -0.08, add: 'B' }, carType: 'Economy', bookLater: true, tripdate: Date.now() + 3_600_000 } });
const template = (await database.db.select().from(bookings).where(eq(bookings.id, created.json<{ id: string }>().id)))[0];
if (!template) throw new Error(`no template booking: ${created.body}`);
const base: typeof bookings.$inferSelect = template;

/** Fresh NEW bookings offered to every racer. */
async function freshBookings(count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  await database.db.insert(bookings).values(ids.map((id) => ({ ...base, id, reference: id.slice(0, 12), requestedDrivers: Object.fromEntries(drivers.map((d) => [d.id, true as const])) })));
  return ids;
}
/** Frees the drivers between races: each holds one active trip at most. */
const freeDrivers = () => database.db.execute(sql`update users set queue = false where usertype = 'driver'`).then(() => database.db.execute(sql`update bookings set status = 'COMPLETE' where status = 'ACCEPTED'`));

/** A race: its time (ms) and how many won. */
type Race = (id: string) => Promise<{ ms: number; winners: number }>;

async function racesPerSecond(race: Race): Promise<number> {
  const ids = await freshBookings(RACES);
  let elapsed = 0;
  for (const id of ids) {
    const { ms, winners } = await race(id);
    elapsed += ms;
    if (winners !== 1) throw new Error(`race on ${id} had ${String(winners)} winners`);
    await freeDrivers();
  }
  return (RACES / elapsed) * 1000;
}

// The drivers' apps race from a child process (accept-racers.ts), as a load generator would: the
// race is timed there, from the first request sent to the last answer read.
const racers = fork(join(import.meta.dirname, 'accept-racers.ts'), [String(world.port), ...auths], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
await once(racers, 'message');
const throughApi: Race = (id) =>
  new Promise((resolve) => {
    racers.once('message', (result: RaceResult) => { resolve(result); });
    racers.send({ type: 'race', bookingId: id } satisfies RaceCommand);
  });
/** A race in this process, timed here. */
const timed = (race: (id: string) => Promise<number>): Race => async (id) => {
  const started = performance.now();
  const winners = await race(id);
  return { ms: performance.now() - started, winners };
};
// The bare race on as many connections as racers: a pg pool on PostgreSQL; PGlite has one connection.
const pool = world.url ? new pg.Pool({ connectionString: world.url, max: RACERS }) : undefined;
const BARE_ACCEPT = 'update bookings set status = $1, driver = $2 where id = $3 and status = $4 returning id';
const bareUpdate = (id: string) =>
  Promise.all(
    drivers.map((d) =>
      pool
        ? pool.query<{ id: string }>(BARE_ACCEPT, ['ACCEPTED', d.id, id, 'NEW']).then((result) => result.rows)
        : database.db.update(bookings).set({ status: 'ACCEPTED', driver: d.id }).where(and(eq(bookings.id, id), eq(bookings.status, 'NEW'))).returning({ id: bookings.id }),
    ),
  ).then((answers) => answers.filter((rows) => rows.length === 1).length);

// A round of each first, not counted: connections opened, code warm.
await racesPerSecond(throughApi);
await racesPerSecond(timed(bareUpdate));
// Interleaved rounds, medians: the machine's drift falls on both alike.
const api: number[] = [];
const bare: number[] = [];
for (let round = 0; round < 3; round += 1) {
  api.push(await racesPerSecond(throughApi));
  bare.push(await racesPerSecond(timed(bareUpdate)));
}
export const passed = report(`accept race (${world.engine}), ${String(RACERS)} drivers at once, exactly one wins: through the HTTP API vs a bare conditional UPDATE`, median(api), median(bare), { min: 0.3 });
if (!passed) {
  // Why, for the note: the bare race is 8 single statements; through the API each of the 8 is a
  // request (session, route, validation, answer), and the winner's is a transaction (begin, the
  // booking locked with its rider's language, the driver locked, the queue flag, the booking's
  // write, its notices and live events in one insert, commit) and the live index's update; the
  // seven after it are refused from what the process kept of the taken booking (takenOffers).
  console.log("  note: each racer is a whole HTTP request; the winner's transaction writes the booking, the driver's queue flag, its notices and live events, which the bare UPDATE does not, and the live relay numbers and publishes the events; the seven after it are refused from memory, without a transaction");
}
racers.disconnect();
await pool?.end();
await world.close();
