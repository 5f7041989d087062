// The city of the benchmarks, seeded in SQL: its drivers and riders cloned from the demo's, with
// sessions whose tokens the load generator derives (city-shared.ts).
import { openDatabase, rowsOf } from '@rideway/server/db/client';

const DAY_MS = 86_400_000;

export type CitySeed = {
  /** A PostgreSQL database; undefined: the PGlite one in `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Names this city's people and their session tokens (city-shared.ts derives the tokens). */
  stamp: string;
  /** Drivers 1 to `drivers`. */
  drivers: number;
  /** Riders 0 to `riders` (rider 0 drives the bench's recorded trip). */
  riders: number;
};

/**
 * The city's drivers and riders, cloned from the demo's driver3 and rider1 with their documents,
 * vehicle and sessions, into a database that holds the demo data (city.ts, and the scale-out test
 * of issue 23, apps/server/test/live/city-scale-out.test.ts).
 */
export async function seedCity({ databaseUrl, dataDir, stamp, drivers, riders }: CitySeed): Promise<void> {
  const database = await openDatabase({ databaseUrl, dataDir });
  try {
    const run = (statement: string) => database.db.execute(statement);
    const columns = async (table: string) => rowsOf<{ column_name: string }>(await run(`select column_name from information_schema.columns where table_schema = 'public' and table_name = '${table}' order by ordinal_position`)).map((row) => row.column_name);
    const clone = async (table: string, from: string, overrides: Record<string, string>) => {
      const names = await columns(table);
      await run(`insert into ${table} (${names.map((name) => `"${name}"`).join(', ')}) select ${names.map((name) => overrides[name] ?? `src."${name}"`).join(', ')} ${from}`);
    };
    const driverId = (g: string) => `md5('d${stamp}' || ${g})::uuid::text`;
    const riderId = (g: string) => `md5('r${stamp}' || ${g})::uuid::text`;
    const vehicleId = (g: string) => `md5('v${stamp}' || ${g})::uuid::text`;
    const template = (email: string) => `(select id from users where email = '${email}')`;
    const now = Date.now();
    const people = (who: 'd' | 'r', id: (g: string) => string) => ({
      id: id('g'),
      first_name: "'City'",
      last_name: `'${who === 'd' ? 'Driver' : 'Rider'} ' || g`,
      email: `'city-${who}' || g || '-${stamp}@bench.local'`,
      mobile: `'${who === 'd' ? '71' : '72'}' || lpad(g::text, 8, '0')`,
      referral_id: `'C${who.toUpperCase()}${stamp}' || g`,
      push_token: 'null',
    });
    await clone('users', `from users src cross join generate_series(1, ${String(drivers)}) g where src.email = 'driver3@rideway.demo'`, {
      ...people('d', driverId),
      driver_active_status: 'false',
      queue: 'false',
      location_lat: 'null',
      location_lng: 'null',
      location_at: 'null',
      vehicle_number: `'CITY ' || g`,
    });
    await clone('vehicles', `from vehicles src cross join generate_series(1, ${String(drivers)}) g where src.uid = ${template('driver3@rideway.demo')} and src.active`, {
      id: vehicleId('g'),
      uid: driverId('g'),
      vehicle_number: `'CITY ' || g`,
      image: `case when src.image is null then null else src.image || '#' || g end`,
    });
    await clone('driver_documents', `from driver_documents src cross join generate_series(1, ${String(drivers)}) g where src.uid = ${template('driver3@rideway.demo')}`, {
      id: `md5('doc${stamp}' || g || src.kind)::uuid::text`,
      uid: driverId('g'),
      vehicle_id: `case when src.vehicle_id is null then null else ${vehicleId('g')} end`,
      image: `src.image || '#' || g`,
    });
    await clone('users', `from users src cross join generate_series(0, ${String(riders)}) g where src.email = 'rider1@rideway.demo'`, people('r', riderId));
    const sessions = (who: 'd' | 'r', id: (g: string) => string, first: number, last: number) =>
      run(`insert into sessions (token_hash, uid, created_at, expires_at) select encode(sha256(convert_to('city${stamp}${who}' || g, 'UTF8')), 'hex'), ${id('g')}, ${String(now)}, ${String(now + 30 * DAY_MS)} from generate_series(${String(first)}, ${String(last)}) g`);
    await sessions('d', driverId, 1, drivers);
    await sessions('r', riderId, 0, riders);
    // The demo's own drivers never accept: out of dispatch, they cannot hold an offer for its timeout.
    await run(`update users set approved = false where usertype = 'driver' and email like '%@rideway.demo'`);
  } finally {
    await database.close();
  }
}
