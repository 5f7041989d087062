// The unit and API tests, in two passes (issue 23 point 9: the project runs on Node 20.19+, 22 and
// 24, and CI tests a newer LTS than the one it runs on):
// 1. on the running Node: every test on the embedded PGlite, the web's tests and the domain's
//    coverage, with DATABASE_URL left out so the PostgreSQL-only files skip;
// 2. when DATABASE_URL is set: the server's tests on PostgreSQL only, on the newer LTS
//    (TEST_NEWER_NODE, 24 by default), fetched as the npm `node` package; the registry is the one
//    host CI reaches.
// Each engine's tests run once and each Node line runs the API tests. The two passes run at the
// same time: a PGlite test keeps one core busy in its own process, a PostgreSQL test spends much of
// its time waiting on the server, and one vitest worker each keeps a two-core machine busy without
// the contention of two workers on the same engine. The second pass's output is kept in a file and
// printed when both are done, so the two never interleave.
import { createWriteStream, readFileSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';

const VITEST = 'node_modules/vitest/vitest.mjs';
const NEWER_NODE = process.env.TEST_NEWER_NODE ?? '24';
const NEWER_REPORT = '.vitest-report-lts.json';
const NEWER_LOG = '.vitest-lts.log';

/**
 * Runs a command to its end; its output goes to this process's or to `logFile`.
 * @param {string} command @param {string[]} args @param {NodeJS.ProcessEnv} env @param {string} [logFile]
 * @returns {Promise<number>}
 */
function run(command, args, env, logFile) {
  return new Promise((resolve, reject) => {
    const log = logFile ? createWriteStream(logFile) : undefined;
    const child = spawn(command, args, { env, stdio: log ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    if (log) {
      child.stdout?.pipe(log, { end: false });
      child.stderr?.pipe(log, { end: false });
    }
    child.once('error', reject);
    child.once('close', (code, signal) => {
      const status = code ?? (signal ? 1 : 0);
      if (log) log.end(() => { resolve(status); });
      else resolve(status);
    });
  });
}

rmSync(NEWER_REPORT, { force: true });
const { DATABASE_URL: databaseUrl, ...withoutDatabase } = process.env;

const newer = databaseUrl
  ? run(
      process.platform === 'win32' ? 'npm.cmd' : 'npm',
      ['exec', '--yes', `--package=node@${NEWER_NODE}`, '--', 'node', VITEST, 'run', '--project', 'node', 'apps/server', '--reporter=default', '--reporter=json', `--outputFile.json=${NEWER_REPORT}`],
      { ...process.env, TEST_ENGINES: 'postgres' },
      NEWER_LOG,
    )
  : Promise.resolve(undefined);
if (!databaseUrl) console.log('DATABASE_URL is not set: the PostgreSQL pass (on the newer Node LTS) is skipped.');
else console.log(`The server's tests on PostgreSQL run meanwhile on Node ${NEWER_NODE}; their output follows these.`);

const embedded = await run(process.execPath, [VITEST, 'run', '--coverage'], withoutDatabase);
const newerStatus = await newer;
if (newerStatus !== undefined) {
  console.log(`\nThe server's tests on PostgreSQL, on Node ${NEWER_NODE}:`);
  process.stdout.write(readFileSync(NEWER_LOG, 'utf8'));
}
process.exit(embedded !== 0 ? embedded : (newerStatus ?? 0));
