// Issue 21 point 2: a crowd at once. 200 clients, each sending its next request as soon as its last
// is answered, for 20 s per step, against the compiled server as an operator runs it (its own
// process, demo data), on the embedded PGlite and, when DATABASE_URL is set, on PostgreSQL. Steps:
// estimates (POST /api/estimates), and book-later bookings each cancelled at once (POST
// /api/bookings, POST /api/bookings/:id/cancel), every client with a rider of its own. Rate limits
// are off (RATE_LIMITS=off): one address sends everything, and the bench measures the work.
// A request unanswered after 10 s counts as a timeout. Target: no timeout and no error on either
// engine; the rates and p50/p99 are printed beside the server's resident memory.
// To find what limits a step: CROWD_ENGINES=pglite CROWD_SERVER_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'
// profiles the server process (the .cpuprofile opens in Chrome's DevTools).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { SERVER_NODE_ARGS, startProcess, type ServerProcess } from './server-process';

const ROOT = join(import.meta.dirname, '..');
const CLIENTS = 200;
const STEP_MS = 20_000;
const TIMEOUT_MS = 10_000;
const PICKUP = { lat: 51.5308, lng: -0.1238, add: "King's Cross Station, London" };
const DROP = { lat: 51.5081, lng: -0.0759, add: 'Tower of London, London' };

type Tally = { latencies: number[]; timeouts: number; errors: number; firstError: string | null };
type Row = { engine: string; step: string; perSecond: number; p50: number; p99: number; timeouts: number; errors: number; rssMb: number; firstError: string | null };

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

function residentMb(server: ServerProcess): number {
  const status = readFileSync(`/proc/${String(server.child.pid)}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

/** One request; counts it in the tally, answers its JSON (undefined when it failed). */
async function call(tally: Tally, url: string, init: { method: string; token: string; body?: unknown }): Promise<unknown> {
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method: init.method,
      headers: { authorization: `Bearer ${init.token}`, 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await response.text();
    tally.latencies.push(performance.now() - started);
    if (!response.ok) {
      tally.errors += 1;
      tally.firstError ??= `${String(response.status)} ${text.slice(0, 120)}`;
      return undefined;
    }
    return text ? (JSON.parse(text) as unknown) : null;
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') tally.timeouts += 1;
    else {
      tally.errors += 1;
      tally.firstError ??= error instanceof Error ? error.message : String(error);
    }
    return undefined;
  }
}

async function step(engine: string, name: string, server: ServerProcess, client: (tally: Tally, index: number, until: number) => Promise<void>): Promise<Row> {
  const tally: Tally = { latencies: [], timeouts: 0, errors: 0, firstError: null };
  const started = performance.now();
  const until = started + STEP_MS;
  await Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(tally, index, until)));
  const seconds = (performance.now() - started) / 1000;
  const sorted = [...tally.latencies].sort((a, b) => a - b);
  return { engine, step: name, perSecond: Math.round(sorted.length / seconds), p50: Math.round(percentile(sorted, 50)), p99: Math.round(percentile(sorted, 99)), timeouts: tally.timeouts, errors: tally.errors, rssMb: residentMb(server), firstError: tally.firstError };
}

async function signIn(base: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  if (!response.ok) throw new Error(`sign-in of ${email}: ${String(response.status)} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

async function crowd(engine: 'pglite' | 'postgres', databaseUrl: string): Promise<Row[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rideway-bench-crowd-'));
  const serverArgs = (process.env.CROWD_SERVER_ARGS ?? '').split(' ').filter(Boolean);
  const server = await startProcess(process.execPath, [...SERVER_NODE_ARGS, ...serverArgs, 'dist/main.js'], join(ROOT, 'apps', 'server'), { DATA_DIR: dataDir, DATABASE_URL: databaseUrl, REDIS_URL: '', RATE_LIMITS: 'off', LOG_LEVEL: 'error' });
  try {
    const admin = await signIn(server.base, 'admin@rideway.demo', 'demo123');
    // A rider per client: book-later has a per-rider cap, and each rider's bookings are its own.
    const riders: string[] = [];
    const stamp = randomUUID().slice(0, 6);
    for (let i = 0; i < CLIENTS; i += 1) {
      const email = `crowd-${stamp}-${String(i)}@bench.local`;
      const added = await fetch(`${server.base}/api/users`, { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: JSON.stringify({ firstName: 'Crowd', lastName: `Rider${String(i)}`, email, mobile: `77${String(i).padStart(8, '0')}`, usertype: 'rider', password: 'crowd123' }) });
      if (!added.ok) throw new Error(`adding a rider: ${String(added.status)} ${await added.text()}`);
      riders.push(await signIn(server.base, email, 'crowd123'));
    }
    const rows: Row[] = [];
    rows.push(await step(engine, 'estimate', server, async (tally, index, until) => {
      const token = riders[index] ?? '';
      while (performance.now() < until) {
        await call(tally, `${server.base}/api/estimates`, { method: 'POST', token, body: { pickup: PICKUP, drop: { ...DROP, lat: DROP.lat + (index % 20) / 10_000 }, carType: 'Economy' } });
      }
    }));
    rows.push(await step(engine, 'book later + cancel', server, async (tally, index, until) => {
      const token = riders[index] ?? '';
      let n = 0;
      while (performance.now() < until) {
        n += 1;
        const booked = (await call(tally, `${server.base}/api/bookings`, { method: 'POST', token, body: { pickup: PICKUP, drop: DROP, carType: 'Economy', bookLater: true, tripdate: Date.now() + 86_400_000 + n * 60_000 } })) as { id?: string } | undefined;
        const id = booked?.id;
        if (id) await call(tally, `${server.base}/api/bookings/${id}/cancel`, { method: 'POST', token, body: { reason: 'Changed plans' } });
      }
    }));
    return rows;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const built = spawnSync(process.execPath, ['scripts/build-if-changed.mjs'], { cwd: ROOT, stdio: 'inherit' });
if (built.status !== 0) throw new Error('the build failed');

const engines = (process.env.CROWD_ENGINES ?? 'pglite,postgres').split(',');
const rows = engines.includes('pglite') ? await crowd('pglite', '') : [];
const serverUrl = process.env.DATABASE_URL;
if (serverUrl && engines.includes('postgres')) {
  const name = `rideway_bench_crowd_${randomUUID().replaceAll('-', '').slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const parsed = new URL(serverUrl);
  parsed.pathname = `/${name}`;
  try {
    rows.push(...(await crowd('postgres', parsed.toString())));
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

console.log(`crowd: ${String(CLIENTS)} clients at once, ${String(STEP_MS / 1000)} s per step, a timeout after ${String(TIMEOUT_MS / 1000)} s (rate limits off)`);
console.log('  engine    step                  req/s    p50 ms   p99 ms  timeouts  errors  server RSS');
for (const row of rows) {
  console.log(`  ${row.engine.padEnd(9)} ${row.step.padEnd(20)} ${String(row.perSecond).padStart(6)} ${String(row.p50).padStart(9)} ${String(row.p99).padStart(8)} ${String(row.timeouts).padStart(9)} ${String(row.errors).padStart(7)} ${String(row.rssMb).padStart(8)} MB`);
  if (row.firstError) console.log(`    first error: ${row.firstError}`);
}
export const passed = rows.every((row) => row.timeouts === 0 && row.errors === 0);
console.log(passed ? '  target met: no timeout and no error' : '  BELOW: target is no timeout and no error (see the rows above)');
