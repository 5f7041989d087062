import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { freePort } from './free-port';
import { createDemoDatabase } from './postgres';
import { startSourceServer, waitForHealth } from './server-process';

export type ProcessIndex = 0 | 1;

export type TwoProcessOptions = {
  /** More environment for both processes (a metrics token, a log level). */
  env?: Record<string, string>;
  /** Keep what each process writes to stdout (its JSON log lines), for `output`; stderr is always kept, for a start that fails. */
  keepOutput?: boolean;
};

/**
 * Two real server processes (`src/main.ts`) on one new PostgreSQL database with the demo data and
 * one Redis (under a prefix of their own): what the multi-process tests start, call and stop.
 */
export function twoProcesses(databaseServerUrl: string, redisUrl: string, name: string, options: TwoProcessOptions = {}) {
  const prefix = `rideway-test-${randomUUID().slice(0, 8)}`;
  // Ports the system hands out as free, taken at start: a port drawn from a fixed range once landed
  // on the machine's PostgreSQL (5432) and the server exited at start.
  let ports: readonly [number, number] | undefined;
  const servers: ChildProcess[] = [];
  const outputs: [string[], string[]] = [[], []];
  let dropDatabase = () => Promise.resolve();

  const base = (index: ProcessIndex) => {
    if (!ports) throw new Error('twoProcesses: not started');
    return `http://127.0.0.1:${String(ports[index])}`;
  };
  const call = async (index: ProcessIndex, method: string, path: string, token?: string, body?: unknown) => {
    const response = await fetch(`${base(index)}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json().catch(() => ({}))) as Record<string, unknown> };
  };
  const login = async (index: ProcessIndex, email: string) => (await call(index, 'POST', '/api/auth/login', undefined, { email, password: 'demo123' })).body.token as string;

  const start = async () => {
    const created = await createDemoDatabase(databaseServerUrl, name);
    dropDatabase = created.drop;
    const first = await freePort();
    let second = await freePort();
    // Each port is free when asked, and the system may hand the same one out twice.
    while (second === first) second = await freePort();
    ports = [first, second];
    for (const [index, port] of ports.entries()) {
      const server = startSourceServer(port, { DATABASE_URL: created.url, REDIS_URL: redisUrl, REDIS_PREFIX: prefix, DRIVER_TIMEOUT_S: '0', ...options.env }, ['ignore', options.keepOutput ? 'pipe' : 'ignore', 'pipe']);
      // Read as it comes, so a full pipe never stalls the process.
      const lines = outputs[index] ?? [];
      for (const stream of [server.stdout, server.stderr]) {
        let partial = '';
        stream?.setEncoding('utf8').on('data', (chunk: string) => {
          const parts = (partial + chunk).split('\n');
          partial = parts.pop() ?? '';
          lines.push(...parts);
        });
      }
      servers.push(server);
    }
    for (const [index, server] of servers.entries()) {
      await waitForHealth(base(index as ProcessIndex), server, `server ${String(index)}`).catch((error: unknown) => {
        // What the process said (with `keepOutput`) is what tells why it did not start.
        throw new Error(`${String(error)}\n${(outputs[index] ?? []).slice(-20).join('\n')}`);
      });
    }
    return created.url;
  };

  const stop = async () => {
    const running = servers.filter((server) => server.exitCode === null && server.signalCode === null);
    for (const server of running) server.kill('SIGTERM');
    await Promise.all(running.map((server) => new Promise((resolve) => server.once('exit', resolve))));
    await dropDatabase();
  };

  /** What the process wrote so far, line by line (with `keepOutput`). */
  const output = (index: ProcessIndex): readonly string[] => outputs[index];

  return { prefix, base, call, login, start, stop, output };
}
