// Runs every benchmark in this folder; each prints its ratio against a baseline from the same run.
// Each runs in a process of its own (one.ts): in one process, what a benchmark leaves on the heap
// (the dispatch bench's index of a million drivers) made the garbage collector's work heavier in
// every benchmark after it, on the API's side more than on its bare baseline's.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BELOW_TARGET } from './one';

const files = readdirSync(import.meta.dirname).filter((file) => file.endsWith('.bench.ts')).sort();
let failures = 0;
let crashes = 0;
for (const file of files) {
  const { status } = spawnSync(process.execPath, [...process.execArgv, join(import.meta.dirname, 'one.ts'), file], { stdio: 'inherit' });
  if (status === BELOW_TARGET) failures += 1;
  else if (status !== 0) {
    crashes += 1;
    console.log(`${file} did not finish (exit ${String(status)})`);
  }
}
console.log(`${files.length} benchmarks, ${failures} below target${crashes > 0 ? `, ${crashes} did not finish` : ''}`);
process.exitCode = failures + crashes > 0 ? 1 : 0;
