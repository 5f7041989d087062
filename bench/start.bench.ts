// Issue 21 point 3: how long `npm start` takes to be healthy on a restart with nothing changed
// (target: under 3 s), against a bare Fastify process started the same way in the same run, and
// how long a SIGTERM to its process group takes to end it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProcess } from './server-process';

const ROOT = join(import.meta.dirname, '..');
const RUNS = 3;
const TARGET_S = 3;

const BARE = `import Fastify from 'fastify';
const app = Fastify();
app.get('/api/health', () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.once('SIGTERM', () => { void app.close().then(() => process.exit(0)); });`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function measure(): Promise<boolean> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rideway-bench-start-'));
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '' };
  try {
    // The first start builds what changed and seeds the demo data: not a restart, not counted.
    await (await startProcess('npm', ['start'], ROOT, env)).stop();
    const restarts: number[] = [];
    const stops: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const server = await startProcess('npm', ['start'], ROOT, env);
      restarts.push(server.healthyAfterMs);
      stops.push(await server.stop());
      const baseline = await startProcess(process.execPath, ['--input-type=module', '-e', BARE], ROOT, {});
      bare.push(baseline.healthyAfterMs);
      await baseline.stop();
    }
    const restartMs = median(restarts);
    const met = restartMs < TARGET_S * 1000;
    console.log(`npm start, restart to healthy (embedded database): ${(median(bare) / restartMs).toFixed(2)}x of a bare Fastify process's start; healthy after ${(restartMs / 1000).toFixed(2)} s (bare Fastify ${(median(bare) / 1000).toFixed(2)} s) ${met ? `meets < ${String(TARGET_S)} s` : `BELOW target < ${String(TARGET_S)} s`}; SIGTERM to exit ${String(Math.round(median(stops)))} ms`);
    return met;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const passed = await measure();
