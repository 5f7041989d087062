// Issue 21 point 6: a city on one machine (`npm run bench:city`; not part of `npm run bench`).
// One compiled server process (dist/main.js, demo data, RATE_LIMITS=off: the load comes from a
// few local addresses and the bench measures the work), on PostgreSQL (a new database per run,
// dropped after) and on the embedded PGlite. The city's drivers and riders are cloned in SQL from
// the demo's driver3 and rider1 (approved, Economy, documents and vehicle in date), with sessions
// whose tokens the load generator derives. The load generator (city-load.ts) is a child process:
// each driver holds a WebSocket from one of several 127.0.0.x source addresses, follows `user:me`
// for offers and reports its position every 4 s; riders book and drive every trip through accept,
// arrive, start, reach, pay (cash) and complete over kept-alive HTTP. One trip is first run alone
// with a query log in the server (city-replay.ts): its SQL, replayed bare through pg on as many
// connections as the server's pool, is the baseline of the ratio.
//
// Settings (environment): CITY_DRIVERS=1000,10000,50000 (sizes; one the machine's open-files
// limit cannot hold is named with the reason instead of run), CITY_ENGINES=postgres,pglite,
// CITY_SECONDS=60 (measured), CITY_RIDERS=32 (riders booking at once), CITY_RATE=0 (trips a
// second for all riders together; 0: each rider books again as soon as its trip completes),
// CITY_STEP_PAUSE_MS=0 (a pause after each driver step), CITY_BUILD=0 (skip the build),
// CITY_SHOW_SQL=1 (print the recorded trip's statements), CITY_DEBUG=1 (each booking and offer,
// from the load generator). To find what limits it: CITY_SERVER_ARGS='--cpu-prof
// --cpu-prof-dir=/tmp/prof' profiles the server process, summed up after the table
// (city-profile.ts; the .cpuprofile opens in Chrome's DevTools).
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@rideway/server/db/client';
import pg from 'pg';
import { cityDriverToken, cityRiderToken, CITY_STEPS, type CityCommand, type CityReport, type CityStep } from './city-shared';
import { seedCity } from './city-seed';
import { pgConnection, queryLogModule, replayBare, type Connection, type Statement } from './city-replay';
import { profileSummary } from './city-profile';
import { SERVER_NODE_ARGS, startProcess, type ServerProcess } from './server-process';

const ROOT = join(import.meta.dirname, '..');
const SERVER_DIR = join(ROOT, 'apps', 'server');
/** The server's pg pool (db/client.ts): the bare replay gets as many connections. */
const POOL_SIZE = 10;
const REPLAY_MS = 10_000;
/** Sockets: one per driver in the server and in the load generator, past the default 20,000. */
const OPEN_FILES = 200_000;

const sizes = (process.env.CITY_DRIVERS ?? '1000,10000,50000').split(',').map(Number);
const engines = (process.env.CITY_ENGINES ?? 'postgres,pglite').split(',');
const seconds = Number(process.env.CITY_SECONDS ?? 60);
const riders = Number(process.env.CITY_RIDERS ?? 32);
const rate = Number(process.env.CITY_RATE ?? 0);
const stepPauseMs = Number(process.env.CITY_STEP_PAUSE_MS ?? 0);
/** Riders seeded: the load generator's, and one per replay connection. */
const riderRows = Math.max(riders, POOL_SIZE) + 1;
const serverArgs = (process.env.CITY_SERVER_ARGS ?? '').split(' ').filter(Boolean);

type Done = Extract<CityReport, { type: 'done' }>;
type Row = { profile: string[]; cores: { server: number; postgres: number; generator: number }; engine: string; drivers: number; done: Done; rssMb: number; peakRssMb: number; statements: Statement[]; bare: { tripsPerSecond: number; failed: number; firstFailure: string | null } | null };

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

function memoryMb(server: ServerProcess, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${String(server.child.pid)}/status`, 'utf8');
  return Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
}

/** CPU seconds the processes used so far (user and system, from /proc). */
function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${String(pid)}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      ticks += Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
    } catch {
      // The process ended meanwhile: its time is no longer counted.
    }
  }
  return ticks / 100;
}

/** PostgreSQL's processes on this machine (all of its databases: run nothing else beside the bench). */
function postgresPids(): number[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number).filter((pid) => {
    try {
      return readFileSync(`/proc/${String(pid)}/comm`, 'utf8').trim() === 'postgres';
    } catch {
      return false;
    }
  });
}

/** The id seedCity gives driver ('d') or rider ('r') `n`: PostgreSQL's md5(text)::uuid. */
function cityId(who: 'd' | 'r', stamp: string, n: number): string {
  const hex = createHash('md5').update(`${who}${stamp}${String(n)}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** `node args` with the open-files limit raised (the bench runs as root; else the default stays). */
const withOpenFiles = (args: string[]): [string, string[]] => ['sh', ['-c', `ulimit -n ${String(OPEN_FILES)} 2>/dev/null; exec "$0" "$@"`, process.execPath, ...args]];

/**
 * The open files a process started through withOpenFiles may hold: OPEN_FILES where the machine
 * lets the limit be raised, else its own hard limit (a container without CAP_SYS_RESOURCE keeps
 * root to it too).
 */
const openFilesLimit = (): number => Number(spawnSync('sh', ['-c', `ulimit -n ${String(OPEN_FILES)} 2>/dev/null; ulimit -n`], { encoding: 'utf8' }).stdout.trim()) || 0;

/** Files a process holds beside the drivers' sockets: the riders' connections, the pool, the listening socket, logs, modules. */
const SPARE_FILES = 200;

/** Why a city of this size cannot run on this machine, or null: the server holds one socket per driver, and so does the load generator. */
function cannotRun(drivers: number): string | null {
  const limit = openFilesLimit();
  const needed = drivers + riders + POOL_SIZE + SPARE_FILES;
  return needed > limit
    ? `one process may hold ${String(limit)} open files here (RLIMIT_NOFILE; raising it needs CAP_SYS_RESOURCE, which this machine does not give even to root), and the server process holds one socket per driver: ${String(drivers)} drivers need about ${String(needed)}`
    : null;
}

/** The load generator in its own process, until it reports; `record` toggles the server's query log. */
function generate(start: Extract<CityCommand, { type: 'start' }>, record: (on: boolean) => Promise<void>, window: (open: boolean) => void): Promise<Done> {
  const [command, args] = withOpenFiles(['--max-old-space-size=8192', '--import', 'tsx', 'city-load.ts']);
  const child = spawn(command, args, { cwd: import.meta.dirname, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    let done: Done | null = null;
    child.on('message', (message: CityReport) => {
      if (message.type === 'done') done = message;
      else if (message.type === 'window') window(message.open);
      else void record(message.type === 'record-on').then(() => child.send({ type: 'ack' } satisfies CityCommand));
    });
    // 'close', not 'exit': the report may still be in the channel when the process has exited.
    child.on('close', (code) => { if (done) resolve(done); else reject(new Error(`the load generator exited with ${String(code)}`)); });
    child.send(start);
  });
}

/** The SQL of the trip recorded on PostgreSQL, with the stamp of its city (the PGlite run replays it too). */
let recording: { stamp: string; statements: Statement[] } | null = null;

/**
 * The recorded trip replayed bare on this run's database, its server stopped: through pg on as
 * many connections as the server's pool, or on PGlite's one connection. Replay connection c plays
 * driver c + 2 and rider c + 1 (ids and session tokens) where the recorded trip had driver 1 and rider 0.
 */
async function replay(recorded: { stamp: string; statements: Statement[] }, stamp: string, databaseUrl: string, dataDir: string): ReturnType<typeof replayBare> {
  const sha = (token: string) => createHash('sha256').update(token).digest('hex');
  const people = (c: number) =>
    new Map([
      [cityId('d', recorded.stamp, 1), cityId('d', stamp, c + 2)],
      [cityId('r', recorded.stamp, 0), cityId('r', stamp, c + 1)],
      [sha(cityDriverToken(recorded.stamp, 1)), sha(cityDriverToken(stamp, c + 2))],
      [sha(cityRiderToken(recorded.stamp, 0)), sha(cityRiderToken(stamp, c + 1))],
    ]);
  if (databaseUrl) return replayBare(() => pgConnection(databaseUrl), recorded.statements, POOL_SIZE, REPLAY_MS, people);
  const database = await openDatabase({ dataDir });
  try {
    const client = (database.db as unknown as { $client: { query: Connection['query'] } }).$client;
    return await replayBare(() => Promise.resolve({ query: (text, values) => client.query(text, values), end: () => Promise.resolve() }), recorded.statements, 1, REPLAY_MS, people);
  } finally {
    await database.close();
  }
}

async function city(engine: 'postgres' | 'pglite', drivers: number): Promise<Row> {
  const stamp = randomUUID().slice(0, 6);
  const work = mkdtempSync(join(tmpdir(), 'rideway-bench-city-'));
  const dataDir = join(work, 'data');
  let databaseUrl = '';
  let dropDatabase = async () => {};
  const serverUrl = process.env.DATABASE_URL;
  if (engine === 'postgres') {
    if (!serverUrl) throw new Error('DATABASE_URL is needed for the PostgreSQL run');
    const name = `rideway_bench_city_${randomUUID().replaceAll('-', '').slice(0, 8)}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const parsed = new URL(serverUrl);
    parsed.pathname = `/${name}`;
    databaseUrl = parsed.toString();
    dropDatabase = async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  }
  const env = { DATA_DIR: dataDir, DATABASE_URL: databaseUrl, REDIS_URL: '', RATE_LIMITS: 'off', LOG_LEVEL: 'error' };
  try {
    // A first start migrates and seeds the demo; the city is cloned from it with the server stopped
    // (PGlite has one process at a time), then the measured server starts with the query log.
    await (await startProcess(process.execPath, [...SERVER_NODE_ARGS, 'dist/main.js'], SERVER_DIR, env)).stop();
    await seedCity({ databaseUrl: databaseUrl || undefined, dataDir, stamp, drivers, riders: riderRows });
    const logFile = join(work, 'trip-sql.json');
    const hook = join(work, 'query-log.mjs');
    writeFileSync(hook, queryLogModule(logFile));
    const [command, args] = withOpenFiles(['--import', hook, ...SERVER_NODE_ARGS, ...serverArgs, 'dist/main.js']);
    const serverStarted = Date.now();
    const server = await startProcess(command, args, SERVER_DIR, env);
    let peakRssMb = 0;
    const sampler = setInterval(() => { peakRssMb = Math.max(peakRssMb, memoryMb(server, 'VmRSS')); }, 1000);
    let done: Done;
    let rssMb: number;
    let cpuOpen: { at: number; server: number; postgres: number } | null = null;
    let cores = { server: Number.NaN, postgres: Number.NaN, seconds: Number.NaN };
    try {
      done = await generate({ type: 'start', base: server.base, stamp, drivers, riders, seconds, rate, stepPauseMs }, async (on) => {
        process.kill(server.child.pid ?? 0, 'SIGUSR2');
        // The server takes the signal on its next turn; the recording ends when the log is written.
        if (on) await new Promise((resolve) => setTimeout(resolve, 200));
        else for (let waited = 0; !existsSync(logFile) && waited < 5000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      }, (open) => {
        const now = { at: performance.now(), server: cpuSeconds([server.child.pid ?? 0]), postgres: cpuSeconds(postgresPids()) };
        if (open) cpuOpen = now;
        else if (cpuOpen) cores = { server: (now.server - cpuOpen.server) / ((now.at - cpuOpen.at) / 1000), postgres: (now.postgres - cpuOpen.postgres) / ((now.at - cpuOpen.at) / 1000), seconds: (now.at - cpuOpen.at) / 1000 };
      });
      rssMb = memoryMb(server, 'VmRSS');
    } finally {
      clearInterval(sampler);
      await server.stop();
    }
    if (engine === 'postgres' && existsSync(logFile)) recording = { stamp, statements: JSON.parse(readFileSync(logFile, 'utf8')) as Statement[] };
    const statements = recording?.statements ?? [];
    const bare = recording ? await replay(recording, stamp, databaseUrl, dataDir) : null;
    if (process.env.CITY_SHOW_SQL) for (const statement of statements) console.log(statement.text.replaceAll(/\s+/g, ' ').slice(0, 160));
    const profileDir = serverArgs.find((arg) => arg.startsWith('--cpu-prof-dir='))?.slice('--cpu-prof-dir='.length) ?? SERVER_DIR;
    const profile = serverArgs.includes('--cpu-prof') ? profileSummary(profileDir, serverStarted) : [];
    return { profile, engine, drivers, done, rssMb, peakRssMb, statements, bare, cores: { ...cores, generator: done.cpuSeconds / cores.seconds } };
  } finally {
    await dropDatabase();
    rmSync(work, { recursive: true, force: true });
  }
}

// CITY_BUILD=0 runs the dist already built (while another build must not be disturbed).
if (process.env.CITY_BUILD !== '0') {
  const built = spawnSync(process.execPath, ['scripts/build-if-changed.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the build failed');
}

const rows: Row[] = [];
/** Sizes that did not run, and why: printed with the table, which still shows the sizes that ran. */
const notRun: string[] = [];
for (const engine of engines) {
  for (const drivers of sizes) {
    if (engine !== 'postgres' && engine !== 'pglite') throw new Error(`unknown engine ${engine}`);
    if (engine === 'postgres' && !process.env.DATABASE_URL) continue;
    const limit = cannotRun(drivers);
    if (limit) {
      notRun.push(`${engine} ${String(drivers)} drivers: not run: ${limit}`);
      continue;
    }
    try {
      const row = await city(engine, drivers);
      rows.push(row);
      console.log(`  done: ${engine} ${String(drivers)} drivers, ${String(row.done.completed)} trips, ${String(row.done.errors)} errors`);
    } catch (error) {
      notRun.push(`${engine} ${String(drivers)} drivers: failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** How many statements of each kind, by their first word. */
const kinds = (statements: Statement[]): string => {
  const counts = new Map<string, number>();
  for (const { text } of statements) {
    const word = /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase() ?? '?';
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return [...counts].map(([word, count]) => `${String(count)} ${word}`).join(', ');
};
const ms = (value: number) => (Number.isNaN(value) ? '-' : String(Math.round(value)));
console.log(`city: ${String(riders)} riders ${rate > 0 ? `booking ${String(rate)} trips/s together` : 'each booking again as soon as a trip completes'}, ${String(seconds)} s measured; drivers report every 4 s over WebSockets; rate limits: off (RATE_LIMITS=off)`);
console.log('  engine    drivers  trips/min  errors  positions/s  server RSS (peak)  bare SQL trips/min  ratio');
for (const row of rows) {
  const perMinute = (row.done.completed * 60_000) / row.done.measuredMs;
  const bare = row.bare ? row.bare.tripsPerSecond * 60 : Number.NaN;
  console.log(`  ${row.engine.padEnd(9)} ${String(row.drivers).padStart(7)} ${ms(perMinute).padStart(10)} ${String(row.done.errors).padStart(7)} ${ms(row.done.positionsPerSecond).padStart(12)} ${`${String(row.rssMb)} MB (${String(row.peakRssMb)})`.padStart(18)} ${ms(bare).padStart(19)} ${row.bare ? `${(perMinute / bare).toFixed(2)}x` : 'n/a'}`);
}
console.log(`  p50 / p99 ms per step (offer: from the booking's answer to the first idle driver hearing of it)`);
console.log(`  engine    drivers  ${CITY_STEPS.map((step) => step.padStart(11)).join(' ')}`);
for (const row of rows) {
  const cell = (step: CityStep) => `${ms(percentile(row.done.latencies[step], 50))}/${ms(percentile(row.done.latencies[step], 99))}`.padStart(11);
  console.log(`  ${row.engine.padEnd(9)} ${String(row.drivers).padStart(7)}  ${CITY_STEPS.map(cell).join(' ')}`);
}
for (const row of rows) {
  console.log(`  ${row.engine} ${String(row.drivers)}: ${String(row.done.addresses)} source addresses, drivers connected and online in ${ms(row.done.connectMs / 1000)} s, ${String(row.done.reconnects)} driver sockets reconnected after a close, ${String(row.done.booked)} trips booked, ${String(row.statements.length)} SQL statements in one trip (${kinds(row.statements)}); CPU cores busy in the window: server ${row.cores.server.toFixed(2)}, PostgreSQL ${row.engine === 'postgres' ? row.cores.postgres.toFixed(2) : '-'}, load generator ${row.cores.generator.toFixed(2)} (of ${String(availableParallelism())})`);
  for (const error of row.done.firstErrors) console.log(`    error: ${error}`);
  for (const line of row.profile) console.log(line);
  if (row.bare && row.bare.failed > 0) console.log(`    bare replay: ${String(row.bare.failed)} statements failed, first: ${row.bare.firstFailure ?? ''}`);
}
for (const line of notRun) console.log(`  ${line}`);
const passed = rows.every((row) => row.done.errors === 0) && notRun.every((line) => !line.includes(': failed: '));
console.log(passed ? '  no errors' : '  BELOW: every trip must complete without an error');
process.exitCode = passed ? 0 : 1;
