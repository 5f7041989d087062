import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from './postgres';
import { SERVER_SECRETS } from './server-secrets';
import { SPAN_KIND_SERVER, startOtlpStandIn, type OtlpStandIn, type ReceivedSpan } from './stand-ins/otlp';
import { freePort } from './free-port';

/**
 * Issue 23 point 2: OpenTelemetry traces when OTEL_EXPORTER_OTLP_ENDPOINT is set, and every line
 * the server prints a JSON line of its logger, request logs with their request id and, when
 * tracing, their trace id. Tried on the compiled server (`node dist/main.js`, built by build.mjs)
 * as production runs it, since the modules are hooked as the bundle loads them; the collector is
 * a local OTLP/HTTP stand-in (stand-ins/otlp.ts).
 */
const SERVER_DIR = join(import.meta.dirname, '..');
// Inside the server's folder, so the bundle resolves node_modules as dist/ does.
const OUT_DIR = join(SERVER_DIR, 'test-results', `telemetry-${randomUUID().slice(0, 8)}`);
const serverUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;

beforeAll(() => {
  const built = spawnSync(process.execPath, ['build.mjs', OUT_DIR], { cwd: SERVER_DIR, encoding: 'utf8' });
  expect(built.stderr).toBe('');
  expect(built.status).toBe(0);
}, 120_000);
afterAll(() => { rmSync(OUT_DIR, { recursive: true, force: true }); });

type Running = { child: ChildProcess; base: string; exited: Promise<number | null>; lines: () => string[] };

/** The compiled server, its stdout and stderr kept line by line; `nodeArgs` go before main.js. */
async function startCompiled(env: Record<string, string>, nodeArgs: string[] = []): Promise<Running> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'rideway-telemetry-'));
  const child = spawn(process.execPath, [...nodeArgs, '--enable-source-maps', join(OUT_DIR, 'main.js')], {
    cwd: SERVER_DIR,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...SERVER_SECRETS, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', DEMO_DATA: '0', OTEL_EXPORTER_OTLP_ENDPOINT: '', SHUTDOWN_GRACE_MS: '9000', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => { rmSync(dataDir, { recursive: true, force: true }); resolve(code); }));
  const base = `http://127.0.0.1:${String(port)}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the compiled server exited with ${String(child.exitCode)}:\n${output}`);
    if (await fetch(`${base}/api/health`).then((r) => r.ok, () => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, base, exited, lines: () => output.split('\n').filter((line) => line !== '') };
}

const terminate = (running: Running) => { process.kill(-(running.child.pid ?? 0), 'SIGTERM'); };

async function until<T>(what: string, find: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Whether `span` descends from `ancestor` through the spans received. */
function descendsFrom(span: ReceivedSpan, ancestor: ReceivedSpan, spans: ReceivedSpan[]): boolean {
  const byId = new Map(spans.map((each) => [each.spanId, each]));
  let parent = span.parentSpanId ? byId.get(span.parentSpanId) : undefined;
  while (parent) {
    if (parent.spanId === ancestor.spanId) return true;
    parent = parent.parentSpanId ? byId.get(parent.parentSpanId) : undefined;
  }
  return false;
}

type LogLine = { level: number; msg: string; reqId?: string; trace_id?: string; component?: string; req?: { url: string } };

/** Every line as JSON; a line that is not fails here, naming it. */
const parsed = (lines: string[]): LogLine[] =>
  lines.map((line) => {
    try {
      return JSON.parse(line) as LogLine;
    } catch {
      throw new Error(`not a JSON line: ${line}`);
    }
  });

describe.skipIf(!serverUrl)('tracing on PostgreSQL and Redis (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  let database: { url: string; drop: () => Promise<void> };
  let collector: OtlpStandIn;
  let running: Running;
  const email = `traced-${randomUUID().slice(0, 8)}@example.com`;
  let token = '';

  beforeAll(async () => {
    collector = await startOtlpStandIn();
    database = await createPostgresDatabase(serverUrl ?? '', 'telemetry');
    running = await startCompiled({
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl ?? '',
      REDIS_PREFIX: `telemetry-${randomUUID().slice(0, 8)}`,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      // A collector's or vendor's credentials, and resource attributes beside the service's name.
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer collector-token',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test',
      // Batches leave within 200 ms, and an export the collector does not answer gives up after 2 s.
      OTEL_BSP_SCHEDULE_DELAY: '200',
      OTEL_EXPORTER_OTLP_TIMEOUT: '2000',
    });
  }, 120_000);
  afterAll(async () => {
    if (running.child.exitCode === null) terminate(running);
    await running.exited;
    await collector.close();
    await database.drop();
  });

  const post = (path: string, body: unknown) => fetch(`${running.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('sends a server span per request, named by its route, with its queries and Redis commands under it', async () => {
    expect((await post('/api/auth/register', { firstName: 'Tra', lastName: 'Ced', email, mobile: `78${String(Date.now()).slice(-7)}`, password: 'secret123' })).status).toBe(201);
    const login = await post('/api/auth/login', { email, password: 'secret123' });
    expect(login.status).toBe(200);
    token = ((await login.json()) as { token: string }).token;
    expect((await fetch(`${running.base}/api/bookings`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

    const server = (name: string) => collector.spans.find((span) => span.kind === SPAN_KIND_SERVER && span.name === name);
    const loginSpan = await until('the login span', () => server('POST /api/auth/login'));
    const listSpan = await until('the booking list span', () => server('GET /api/bookings'));
    await until('the booking list queries', () => collector.spans.find((span) => span.traceId === listSpan.traceId && span.scope === '@opentelemetry/instrumentation-pg'));

    expect(loginSpan.attributes['http.route']).toBe('/api/auth/login');
    expect(loginSpan.resource['service.name']).toBe('rideway');
    expect(loginSpan.resource['deployment.environment.name']).toBe('test');
    expect(loginSpan.parentSpanId ?? '').toBe('');
    // The health checks the test waited on are not traced.
    expect(collector.spans.filter((span) => span.kind === SPAN_KIND_SERVER).map((span) => span.name)).not.toContainEqual(expect.stringContaining('/api/health'));

    for (const request of [loginSpan, listSpan]) {
      const trace = collector.spans.filter((span) => span.traceId === request.traceId);
      const queries = trace.filter((span) => span.name.startsWith('pg.query'));
      expect(queries.length, request.name).toBeGreaterThan(0);
      for (const query of queries) {
        expect(query.attributes['db.system.name'] ?? query.attributes['db.system']).toBe('postgresql');
        expect(descendsFrom(query, request, collector.spans), query.name).toBe(true);
      }
      expect(trace.filter((span) => span.scope === '@fastify/otel').map((span) => span.name)).toContain(`handler ${String(request.attributes['http.route'])}`);
    }
    // Signing in is rate-limited, and the limits are counted in Redis.
    if (redisUrl) {
      const commands = collector.spans.filter((span) => span.traceId === loginSpan.traceId && span.scope === '@opentelemetry/instrumentation-ioredis');
      expect(commands.length).toBeGreaterThan(0);
      for (const command of commands) {
        expect(command.attributes['db.system.name'] ?? command.attributes['db.system']).toBe('redis');
        expect(descendsFrom(command, loginSpan, collector.spans)).toBe(true);
      }
    }
    expect(collector.requests.every((request) => request.path === '/v1/traces' && request.headers['content-type'] === 'application/json' && request.headers.authorization === 'Bearer collector-token')).toBe(true);
  }, 60_000);

  it('keeps answering while the collector fails or hangs, and sends again once it is back', async () => {
    const list = async () => {
      const started = Date.now();
      const answer = await fetch(`${running.base}/api/bookings`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(10_000) });
      return { status: answer.status, ms: Date.now() - started };
    };
    collector.mode = 'fail';
    const failing = collector.requests.length;
    for (let i = 0; i < 3; i += 1) expect((await list()).status).toBe(200);
    await until('an export answered 503', () => collector.requests.slice(failing).find((request) => request.status === 503));
    // The exporter gives up on the batch and says so, as a JSON line of the logger.
    await until('the failed export logged', () => parsed(running.lines()).find((line) => line.component === 'opentelemetry' && line.level >= 40));

    collector.mode = 'hang';
    const hanging = collector.requests.length;
    for (let i = 0; i < 3; i += 1) expect((await list()).status).toBe(200);
    await until('an export left unanswered', () => collector.requests.slice(hanging).find((request) => request.status === 'none'));
    // Still answering while an export waits on the collector.
    expect((await list()).status).toBe(200);

    collector.mode = 'ok';
    const before = collector.spans.length;
    expect((await list()).status).toBe(200);
    await until('spans received again', () => collector.spans.slice(before).find((span) => span.kind === SPAN_KIND_SERVER && span.name === 'GET /api/bookings'));
  }, 90_000);

  it('prints nothing but JSON lines, request logs with reqId and trace_id, and exits 0 on SIGTERM', async () => {
    collector.mode = 'hang';
    expect((await fetch(`${running.base}/api/bookings`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    terminate(running);
    // The spans still queued cannot reach a collector that hangs: the shutdown gives up on them within its bound.
    expect(await running.exited).toBe(0);

    const lines = parsed(running.lines());
    const messages = lines.map((line) => line.msg);
    expect(messages).toContain('tracing: OpenTelemetry spans are sent to the OTLP/HTTP collector');
    expect(messages).toContain('Rideway is running');
    expect(messages).toContain('shutting down');
    expect(messages).toContain('shut down');
    const incoming = lines.filter((line) => line.msg === 'incoming request');
    const completed = lines.filter((line) => line.msg === 'request completed');
    expect(incoming.length).toBeGreaterThan(5);
    for (const line of [...incoming, ...completed]) expect(line.reqId, line.msg).toMatch(/^req-/);
    const traced = new Set(incoming.filter((line) => !line.req?.url.startsWith('/api/health')).map((line) => line.reqId));
    for (const line of [...incoming, ...completed].filter((each) => traced.has(each.reqId))) expect(line.trace_id, `${line.msg} ${String(line.reqId)}`).toMatch(/^[0-9a-f]{32}$/);
    // A log line leads to its trace: the login's lines carry the login span's trace id.
    const loginSpan = collector.spans.find((span) => span.kind === SPAN_KIND_SERVER && span.name === 'POST /api/auth/login');
    const loginLine = incoming.find((line) => line.req?.url === '/api/auth/login');
    expect(loginLine?.trace_id).toBe(loginSpan?.traceId);
  }, 60_000);
});

/**
 * Without an endpoint nothing of OpenTelemetry's SDK is in memory (issue 21): a preload lists the
 * modules the process loaded (require's cache, which holds the CommonJS modules ES modules import
 * too) as it exits. The same with tracing on shows the list would name them. The API package alone
 * (@opentelemetry/api, a no-op facade until an SDK registers) is loaded either way: prom-client
 * requires it.
 */
describe('without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  const OTEL_MODULES = /[/\\](@opentelemetry[/\\](?!api[/\\])|import-in-the-middle[/\\]|require-in-the-middle[/\\]|@fastify[/\\]otel[/\\])/;
  const listLoaded = (file: string) =>
    `data:text/javascript,${encodeURIComponent(`import { writeFileSync } from 'node:fs'; import Module from 'node:module'; process.on('exit', () => { writeFileSync(${JSON.stringify(file)}, Object.keys(Module._cache).join('\\n')); });`)}`;

  async function loadedModules(env: Record<string, string>): Promise<{ modules: string[]; lines: string[] }> {
    const file = join(OUT_DIR, `loaded-${randomUUID().slice(0, 8)}.txt`);
    const running = await startCompiled(env, ['--import', listLoaded(file)]);
    terminate(running);
    expect(await running.exited).toBe(0);
    return { modules: readFileSync(file, 'utf8').split('\n'), lines: running.lines() };
  }

  it('loads no OpenTelemetry module, and with an endpoint it does', async () => {
    const off = await loadedModules({});
    expect(off.modules.some((path) => path.includes(join('node_modules', 'fastify')))).toBe(true);
    expect(off.modules.filter((path) => OTEL_MODULES.test(path))).toEqual([]);
    for (const line of parsed(off.lines)) expect(line.trace_id).toBeUndefined();

    const collector = await startOtlpStandIn();
    try {
      const on = await loadedModules({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url });
      expect(on.modules.filter((path) => OTEL_MODULES.test(path)).length).toBeGreaterThan(0);
      parsed(on.lines);
    } finally {
      await collector.close();
    }
  }, 120_000);
});
