// Starting a server (or a baseline) as its own process for the benches that measure a process:
// start time, resident memory, Lighthouse.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';

/**
 * The node flags `npm start` runs the compiled server with (the root package's start script), so a
 * bench measures the process an operator runs: `node ${SERVER_NODE_ARGS} dist/main.js`.
 */
export const SERVER_NODE_ARGS: readonly string[] = (() => {
  const { scripts } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } };
  const flags = /\bexec node ((?:--\S+ )*)dist\/main\.js\b/.exec(scripts.start)?.[1];
  if (flags === undefined) throw new Error(`the start script runs no 'exec node … dist/main.js': ${scripts.start}`);
  return flags.split(' ').filter(Boolean);
})();

export type ServerProcess = { child: ChildProcess; base: string; healthyAfterMs: number; stop: () => Promise<number> };

/**
 * Runs `command args` in `cwd` with PORT set, in a process group of its own, until GET /api/health
 * answers; `stop` sends SIGTERM to the group and answers how long the exit took.
 */
/**
 * What every bench server gets unless the bench says otherwise: the demo city (on PostgreSQL too,
 * where it is off unless asked, issue 23 point 3) and the secrets a server on a real database
 * must be given (fixed values for benches, never a deployment's).
 */
const BENCH_ENV = { DEMO_DATA: '1', PAYMENT_SECRET: 'bench-only-payment-secret-0123456789', TWO_FACTOR_KEY: '0123456789abcdef'.repeat(4) };

/** A loopback port the system hands out as free: a port drawn from a fixed range can meet the machine's own services (epmd listens on 4369). */
async function systemPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export async function startProcess(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<ServerProcess> {
  const port = await systemPort();
  const started = performance.now();
  const child = spawn(command, args, { cwd, detached: true, stdio: 'ignore', env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...BENCH_ENV, ...env } });
  const exited = new Promise<void>((resolve) => child.once('exit', () => { resolve(); }));
  const base = `http://127.0.0.1:${String(port)}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited with ${String(child.exitCode)}`);
    if (await fetch(`${base}/api/health`).then((r) => r.ok, () => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    child,
    base,
    healthyAfterMs: performance.now() - started,
    stop: async () => {
      const signalled = performance.now();
      process.kill(-(child.pid ?? 0), 'SIGTERM');
      await exited;
      return performance.now() - signalled;
    },
  };
}
