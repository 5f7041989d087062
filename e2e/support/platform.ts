import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVER_DIR = fileURLToPath(new URL('../../apps/server', import.meta.url));

/** A platform started by a test, compiled as production runs it (the suite's first server, `npm start`, built the web app and dist/), stopped with stop(). */
export async function startPlatform(port: number, env: Record<string, string>): Promise<{ stop: () => void }> {
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', 'dist/main.js'], {
    cwd: SERVER_DIR,
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '', DATA_DIR: join(tmpdir(), `rideway-e2e-${String(port)}-${String(Date.now())}`), ...env },
  });
  const stop = () => {
    if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the platform on port ${String(port)} exited with ${String(child.exitCode)}`);
    const healthy = await fetch(`http://127.0.0.1:${String(port)}/api/health`).then((response) => response.ok, () => false);
    if (healthy) return { stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  stop();
  throw new Error(`the platform on port ${String(port)} did not start`);
}

/** A 256-pixel map tile: pale green with a dark edge, so the grid shows on a screenshot. */
const TILE_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAQAAAAEACAIAAADTED8xAAACEElEQVR42u3TQQ0AMAgAMeRMBMImcR+UYAIFU0CTKrjk4tyEtUICDJCvCxYyAAYwAAYAA4ABwABgADAAGAAMAAYAA4ABwABgADAAGAAMAAYAA4ABwABgADAAGAAMAAYAA4ABwABgADAAGAAMAAYAA4ABwABgADAAGAAMAAYAA4ABwABgADAAGAAMAAYAA2AAA2AAITAAGAAMAAYAA4ABwABgADAAGAAMAAYAA4ABwABgADAAGAAMAAYAA4ABwABgADAAGAAMAAYAA4ABwABgADAAGAAMAAYAA4ABwABgADAAGAAMAAYAA4ABwABgADAAGAADGAADaIEBwABgADAAGAAMAAYAA4ABwABgADAAGAAMAAYAA4ABwABgADAAGAAMAAYAA4ABwABgADAAGAAMAAYAA4ABwABgADAAGAAMAAYAA4ABwABgADAAGAAMAAYAA4ABMIABMIABMAAYAAwABgADgAHAAGAAMAAYAAwABgADgAHAAGAAMAAYAAwABgADgAHAAGAAMAAYAAwABgADgAHAAGAAMAAYAAwABgADgAHAAGAAMAAYAAwABgADgAHAAGAAMAAYAAMYAANogQHAAGAAMAAYAAwABgADgAHAAGAAMAAYAAwABgADgAHAAGAAMAAYAAwABgADgAHAAGAAMAAYAAwABgADgAHAAGAAMAAYAAwABgADgAHAAGAAMAB8DS7bm6jVwCgBAAAAAElFTkSuQmCC',
  'base64',
);

/** A local tile server answering /{z}/{x}/{y}.png; `requests` lists the paths it served. */
export async function startTileServer(): Promise<{ port: number; requests: string[]; close: () => Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '';
    if (!/^\/\d+\/\d+\/\d+\.png$/.test(path)) {
      response.writeHead(404).end();
      return;
    }
    requests.push(path);
    response.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' }).end(TILE_PNG);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { port, requests, close: () => new Promise((resolve) => { server.close(() => { resolve(); }); }) };
}
