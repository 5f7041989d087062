// Issue 21 point 4: the compiled server's resident memory after warm-up, on PostgreSQL (target
// under 150 MB) and on the embedded PGlite (under 300 MB), against a bare Fastify process that
// answered as many requests, measured in the same run. Each server is measured on its second
// start: the first seeds the demo data, as an operator's server does once in its life.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { SERVER_NODE_ARGS, startProcess } from './server-process';

const ROOT = join(import.meta.dirname, '..');
const SERVER_DIR = join(ROOT, 'apps', 'server');
const TARGETS_MB = { postgres: 150, pglite: 300 } as const;
const WARM_UP_REQUESTS = 200;

const residentMb = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${String(pid)}/status`, 'utf8'))?.[1] ?? Number.NaN) / 1024;

/** What a rider's first minutes ask of a server: sign-in, place searches, addresses, an estimate, lists. */
async function warmUp(base: string): Promise<void> {
  const json = async (path: string, body?: unknown, token?: string) => {
    const response = await fetch(`${base}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path} answered ${String(response.status)}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const { token } = (await json('/api/auth/login', { email: 'rider1@rideway.demo', password: 'demo123' })) as { token: string };
  for (const searchKeyword of ['kings', 'san j', 'paris', 'tokyo']) await json('/googleapis-autocomplete', { searchKeyword }, token);
  for (const latlng of ['51.5,-0.12', '-33.9,151.2', '40.7,-74.0']) await json('/googleapis-getaddress', { latlng }, token);
  const pickup = { lat: 51.5308, lng: -0.1238, add: "King's Cross" };
  const drop = { lat: 51.5033, lng: -0.1195, add: 'London Eye' };
  await json('/api/estimates', { pickup, drop, carType: 'Economy' }, token);
  for (let i = 0; i < WARM_UP_REQUESTS; i += 1) await json(i % 2 === 0 ? '/api/bookings' : '/api/cartypes', undefined, token);
}

const BARE = `import Fastify from 'fastify';
const app = Fastify();
app.get('/api/health', () => ({ status: 'ok' }));
app.get('/api/x', () => ({ bookings: [] }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });`;

async function bareResident(): Promise<number> {
  const bare = await startProcess(process.execPath, ['--input-type=module', '-e', BARE], ROOT, {});
  for (let i = 0; i < WARM_UP_REQUESTS; i += 1) await (await fetch(`${bare.base}/api/x`)).json();
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const mb = residentMb(bare.child.pid ?? 0);
  await bare.stop();
  return mb;
}

async function serverResident(env: Record<string, string>): Promise<{ seeded: number; warm: number }> {
  const args = [...SERVER_NODE_ARGS, 'dist/main.js'];
  const first = await startProcess(process.execPath, args, SERVER_DIR, { REDIS_URL: '', ...env });
  const seeded = residentMb(first.child.pid ?? 0);
  await first.stop();
  const second = await startProcess(process.execPath, args, SERVER_DIR, { REDIS_URL: '', ...env });
  await warmUp(second.base);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const warm = residentMb(second.child.pid ?? 0);
  await second.stop();
  return { seeded, warm };
}

function print(engine: keyof typeof TARGETS_MB, measured: { seeded: number; warm: number }, bare: number): boolean {
  const met = measured.warm < TARGETS_MB[engine];
  console.log(
    `memory on ${engine}: ${measured.warm.toFixed(0)} MB resident after warm-up, ${(measured.warm / bare).toFixed(2)}x of a bare Fastify process (${bare.toFixed(0)} MB); ` +
      `${measured.seeded.toFixed(0)} MB right after the first start's demo seeding; ${met ? `meets < ${String(TARGETS_MB[engine])} MB` : `BELOW target < ${String(TARGETS_MB[engine])} MB`}`,
  );
  return met;
}

async function measure(): Promise<boolean> {
  // The compiled server as `npm start` runs it; built here when its sources changed.
  const built = spawnSync(process.execPath, ['scripts/build-if-changed.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the build failed');
  const bare = await bareResident();
  let passed = true;

  const dataDir = mkdtempSync(join(tmpdir(), 'rideway-bench-memory-'));
  try {
    passed = print('pglite', await serverResident({ DATA_DIR: dataDir, DATABASE_URL: '' }), bare) && passed;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    console.log('memory on postgres: not measured (DATABASE_URL is not set)');
    return passed;
  }
  const name = `rideway_bench_memory_${randomUUID().replaceAll('-', '').slice(0, 10)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const pgDataDir = mkdtempSync(join(tmpdir(), 'rideway-bench-memory-pg-'));
  try {
    passed = print('postgres', await serverResident({ DATA_DIR: pgDataDir, DATABASE_URL: url.toString() }), bare) && passed;
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    rmSync(pgDataDir, { recursive: true, force: true });
  }
  return passed;
}

export const passed = await measure();
