// `npm start` builds the web app and the server only when their sources changed since the last
// build (issue 21 point 3), so a restart with nothing changed goes straight to `node dist/main.js`.
// How a build is known to be current: scripts/build-stamp.mjs.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkStamp, writeStamp } from './build-stamp.mjs';

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

// `node scripts/build-if-changed.mjs server` builds the server alone (npm run check-config needs no web app).
const only = process.argv[2];
for (const target of targets.filter((candidate) => !only || candidate.workspace === `@rideway/${only}`)) {
  const stampPath = join(root, target.output, '.build-stamp');
  const { current, stamp, changedTimes } = checkStamp(root, target.inputs, stampPath);
  if (current) {
    // Same contents under new times (a checkout, a copy): the next start need not read them again.
    if (changedTimes) writeStamp(stampPath, stamp);
    continue;
  }
  console.log(`Building the ${target.name} (its sources changed since the last build)`);
  const result = spawnSync('npm', ['run', 'build', '-w', target.workspace], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeStamp(stampPath, stamp);
}
