/** Runs `fn` repeatedly for about `ms` milliseconds after a warm-up and returns operations per second. */
export function opsPerSecond(fn: () => unknown, ms = 500): number {
  for (let i = 0; i < 1000; i += 1) fn();
  let ops = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < 1000; i += 1) fn();
    ops += 1000;
    elapsed = performance.now() - started;
  }
  return (ops / elapsed) * 1000;
}

/** Prints a benchmark's result as a ratio against its baseline measured in the same run. */
export function report(name: string, subject: number, baseline: number, target?: { min: number }): boolean {
  const ratio = subject / baseline;
  const verdict = target ? (ratio >= target.min ? `meets >= ${target.min}x` : `BELOW target ${target.min}x`) : '';
  console.log(`${name}: ${ratio.toFixed(2)}x of baseline (${Math.round(subject)} vs ${Math.round(baseline)} ops/s) ${verdict}`.trim());
  return !target || ratio >= target.min;
}
