// One benchmark file in this process (run.ts): its exit code says whether it met its target.
/** The exit code of a benchmark that finished below its target. */
export const BELOW_TARGET = 3;

const [file] = process.argv.slice(2);
if (file) {
  const module = (await import(`./${file}`)) as { passed?: boolean };
  process.exitCode = module.passed === false ? BELOW_TARGET : 0;
}
