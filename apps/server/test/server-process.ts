import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { join } from 'node:path';
import { SERVER_SECRETS } from './server-secrets';

/**
 * A loaded CI machine (two vitest passes at once, one of them on Node 24 through tsx) can take
 * well past twenty seconds to start a server from source and migrate: wait up to two minutes,
 * but fail at once when the process exits.
 */
const START_LIMIT_MS = 120_000;

/**
 * A real server process from source (`src/main.ts` through tsx) on the given port, with the
 * secrets a server on a real database must be given, quiet unless `env` says otherwise.
 */
export function startSourceServer(port: number, env: Record<string, string>, stdio: StdioOptions = 'ignore'): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '..', 'src', 'main.ts')], {
    cwd: join(import.meta.dirname, '..'),
    env: { ...process.env, ...SERVER_SECRETS, PORT: String(port), DEMO_DATA: '0', LOG_LEVEL: 'silent', ...env },
    stdio,
  });
}

/** Resolves once `base`'s /api/health answers 200; rejects when `server` exits first or after the limit. */
export async function waitForHealth(base: string, server: ChildProcess, name = 'server'): Promise<void> {
  const exited = new Promise<string>((resolve) => {
    if (server.exitCode !== null || server.signalCode !== null) resolve(String(server.exitCode ?? server.signalCode));
    server.once('exit', (code, signal) => { resolve(String(code ?? signal)); });
  });
  const deadline = Date.now() + START_LIMIT_MS;
  while (Date.now() < deadline) {
    if (await fetch(`${base}/api/health`).then((response) => response.ok, () => false)) return;
    const outcome = await Promise.race([exited, new Promise<'running'>((resolve) => setTimeout(() => { resolve('running'); }, 100))]);
    if (outcome !== 'running') throw new Error(`${name} exited with ${outcome} before it answered`);
  }
  throw new Error(`${name} did not answer /api/health within ${String(START_LIMIT_MS / 1000)} s`);
}
