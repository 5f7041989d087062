import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from './postgres';
import { SERVER_SECRETS } from './server-secrets';
import { databaseRelay } from './database-relay';
import { freePort } from './free-port';

/**
 * Issue 21 point 3: the server as production runs it, `node dist/main.js` built by build.mjs, and
 * its shutdown on SIGTERM to the process group: requests in flight finish, WebSockets close with
 * 1001, and the process exits even when its database is gone.
 */
const SERVER_DIR = join(import.meta.dirname, '..');
// Inside the server's folder, so the bundle resolves node_modules (and the web app) as dist/ does.
const OUT_DIR = join(SERVER_DIR, 'test-results', `compiled-${randomUUID().slice(0, 8)}`);
const GRACE_MS = 3000;
const serverUrl = process.env.DATABASE_URL;

beforeAll(() => {
  const built = spawnSync(process.execPath, ['build.mjs', OUT_DIR], { cwd: SERVER_DIR, encoding: 'utf8' });
  expect(built.stderr).toBe('');
  expect(built.status).toBe(0);
});
afterAll(() => { rmSync(OUT_DIR, { recursive: true, force: true }); });

type Running = { child: ChildProcess; base: string; exited: Promise<number | null> };

async function startCompiled(env: Record<string, string>): Promise<Running> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'rideway-compiled-'));
  const child = spawn(process.execPath, ['--enable-source-maps', join(OUT_DIR, 'main.js')], {
    cwd: SERVER_DIR,
    // Its own process group, signalled as a supervisor (systemd, a container runtime) would.
    detached: true,
    stdio: ['ignore', process.env.DEBUG_COMPILED ? 'inherit' : 'ignore', 'inherit'],
    env: { ...process.env, ...SERVER_SECRETS, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: process.env.DEBUG_COMPILED ? 'info' : 'silent', DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', DEMO_DATA: '0', SHUTDOWN_GRACE_MS: String(GRACE_MS), ...env },
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => { rmSync(dataDir, { recursive: true, force: true }); resolve(code); }));
  const base = `http://127.0.0.1:${String(port)}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the compiled server exited with ${String(child.exitCode)}`);
    if (await fetch(`${base}/api/health`).then((r) => r.ok, () => false)) return { child, base, exited };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const terminateGroup = (running: Running) => { process.kill(-(running.child.pid ?? 0), 'SIGTERM'); };

describe('the compiled server (node dist/main.js)', () => {
  it('serves, and on SIGTERM to its group closes WebSockets with 1001 and exits 0', async () => {
    const running = await startCompiled({});
    const health = await (await fetch(`${running.base}/api/health`)).json() as { status: string };
    expect(health.status).toBe('ok');
    const post = (path: string, body: unknown) => fetch(`${running.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const email = `compiled-${randomUUID().slice(0, 8)}@example.com`;
    expect((await post('/api/auth/register', { firstName: 'Comp', lastName: 'Iled', email, mobile: `77${String(Date.now()).slice(-7)}`, password: 'secret123' })).status).toBe(201);
    const { token } = await (await post('/api/auth/login', { email, password: 'secret123' })).json() as { token: string };
    const socket = new WebSocket(`${running.base.replace('http', 'ws')}/api/ws`, { headers: { authorization: `Bearer ${token}` } });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => { resolve(code); }));
    terminateGroup(running);
    expect(await closed).toBe(1001);
    expect(await running.exited).toBe(0);
  });
});

describe.skipIf(!serverUrl)('the compiled server on PostgreSQL, shutting down', () => {
  let database: { url: string; drop: () => Promise<void> };
  beforeAll(async () => { database = await createPostgresDatabase(serverUrl ?? '', 'shutdown'); });
  afterAll(async () => { await database.drop(); });

  it('lets a request in flight finish before it exits', async () => {
    const relay = await databaseRelay(new URL(database.url));
    const running = await startCompiled({ DATABASE_URL: relay.url });
    relay.hold();
    // A session lookup: it waits on the database the relay is holding back.
    const inFlight = fetch(`${running.base}/api/me`, { headers: { authorization: 'Bearer not-a-session' } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    terminateGroup(running);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(running.child.exitCode).toBeNull();
    relay.release();
    const answer = await inFlight;
    expect(answer.status).toBe(401);
    expect(await running.exited).toBe(0);
    await relay.vanish();
  });

  it('exits within its grace when the database is gone', async () => {
    const relay = await databaseRelay(new URL(database.url));
    const running = await startCompiled({ DATABASE_URL: relay.url });
    relay.hold();
    // Stuck on a database that will never answer: the grace ends it.
    const stuck = fetch(`${running.base}/api/me`, { headers: { authorization: 'Bearer not-a-session' } }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await relay.vanish();
    terminateGroup(running);
    // It exits (the test's own time limit catches a hang): cleanly if the pool lets go, else when
    // SHUTDOWN_GRACE_MS (3 s here) runs out.
    expect([0, 1]).toContain(await running.exited);
    await stuck;
  }, 30_000);
});

/**
 * Issue 23 point 3: `npm run check-config` (dist/check-config.js) and the start itself tell an
 * operator what a configuration lacks, by variable name, never by value.
 */
describe('the configuration check (npm run check-config)', () => {
  const check = (env: Record<string, string>) => spawnSync(process.execPath, [join(OUT_DIR, 'check-config.js')], { cwd: SERVER_DIR, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env } });

  it('passes a laptop, names what a real database lacks, and names a variable that does not parse', () => {
    const laptop = check({});
    expect(laptop.status).toBe(0);
    expect(laptop.stdout).toContain('database: embedded PGlite');
    expect(laptop.stdout).toContain('The server can start with this configuration.');

    const production = check({ DATABASE_URL: 'postgres://rideway:hunter2@db.internal/rideway', SMTP_URL: 'smtp://mail.internal:587' });
    expect(production.status).toBe(1);
    expect(production.stdout).toMatch(/^ERROR {2}PAYMENT_SECRET: required with a real database/m);
    expect(production.stdout).toMatch(/^ERROR {2}TWO_FACTOR_KEY: required/m);
    expect(production.stdout).toMatch(/^warning {2}PUBLIC_URL: .*mail/m);
    expect(production.stdout).toContain('demo data: off');
    expect(production.stdout + production.stderr).not.toContain('hunter2');

    expect(check({ DATABASE_URL: 'postgres://db.internal/rideway', ...SERVER_SECRETS }).status).toBe(0);
    const wrong = check({ PORT: 'eighty' });
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain('PORT');
  });

  it('the server refuses to start on a real database without its secrets, and says which', async () => {
    const child = spawn(process.execPath, [join(OUT_DIR, 'main.js')], { cwd: SERVER_DIR, env: { PATH: process.env.PATH ?? '', DATABASE_URL: 'postgres://127.0.0.1:9/none', LOG_LEVEL: 'silent' } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('Rideway cannot start with this configuration');
    expect(stderr).toMatch(/PAYMENT_SECRET: required/);
    expect(stderr).toMatch(/TWO_FACTOR_KEY: required/);
  });
});
