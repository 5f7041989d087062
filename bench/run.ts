// Runs every benchmark in this folder; each prints its ratio against a baseline from the same run.
import { readdirSync } from 'node:fs';

const files = readdirSync(import.meta.dirname).filter((file) => file.endsWith('.bench.ts')).sort();
let failures = 0;
for (const file of files) {
  const module = (await import(`./${file}`)) as { passed?: boolean };
  if (module.passed === false) failures += 1;
}
console.log(`${files.length} benchmarks, ${failures} below target`);
process.exitCode = failures > 0 ? 1 : 0;
