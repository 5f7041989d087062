// `npm start` builds the web app and the server only when their sources changed since the last
// build (issue 21 point 3), so a restart with nothing changed goes straight to `node dist/main.js`.
// A build is known by a hash of its inputs' contents, kept in its output folder: contents, not
// times, because a checkout or a copy changes every file's time without changing what it builds.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const shared = ['packages/domain/src', 'packages/contract/src', 'package-lock.json'];

const targets = [
  {
    name: 'web app',
    workspace: '@rideway/web',
    output: 'apps/web/dist',
    inputs: ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/vite-plugins', 'apps/web/package.json', ...shared],
  },
  {
    name: 'server',
    workspace: '@rideway/server',
    output: 'apps/server/dist',
    inputs: ['apps/server/src', 'apps/server/build.mjs', 'apps/server/package.json', ...shared],
  },
];

/** Tests are not part of a build: changing one rebuilds nothing. */
const isTest = (/** @type {string} */ path) => /\.test\.tsx?$/.test(path);

/** @param {string} path @returns {string[]} */
function filesUnder(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => filesUnder(join(path, entry.name)))
    .filter((file) => !isTest(file));
}

/** @param {string[]} inputs */
function hashOf(inputs) {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap((input) => filesUnder(join(root, input)))) {
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

// `node scripts/build-if-changed.mjs server` builds the server alone (npm run check-config needs no web app).
const only = process.argv[2];
for (const target of targets.filter((candidate) => !only || candidate.workspace === `@rideway/${only}`)) {
  const stamp = join(root, target.output, '.build-stamp');
  const wanted = hashOf(target.inputs);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) continue;
  console.log(`Building the ${target.name} (its sources changed since the last build)`);
  const result = spawnSync('npm', ['run', 'build', '-w', target.workspace], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(stamp, wanted);
}
