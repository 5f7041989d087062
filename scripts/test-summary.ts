// Prints one closing line over every suite `npm test` ran: "tests: N passed, N failed".
import { existsSync, readFileSync } from 'node:fs';

type Counts = { passed: number; failed: number };
type VitestReport = { numPassedTests: number; numFailedTests: number };
type PlaywrightReport = { stats: { expected: number; unexpected: number; flaky: number } };

const readVitest = (report: unknown): Counts => {
  const r = report as VitestReport;
  return { passed: r.numPassedTests, failed: r.numFailedTests };
};

const reports: { name: string; file: string; optional?: boolean; read: (report: unknown) => Counts }[] = [
  { name: 'unit', file: '.vitest-report.json', read: readVitest },
  // The PostgreSQL pass on the newer Node LTS runs only with DATABASE_URL (scripts/unit-tests.mjs).
  { name: 'unit (PostgreSQL, newer Node LTS)', file: '.vitest-report-lts.json', optional: true, read: readVitest },
  {
    name: 'browser',
    file: 'e2e/test-results/report.json',
    read: (report) => {
      const r = report as PlaywrightReport;
      return { passed: r.stats.expected, failed: r.stats.unexpected + r.stats.flaky };
    },
  },
];

let passed = 0;
let failed = 0;
for (const report of reports) {
  if (!existsSync(report.file)) {
    if (report.optional) continue;
    console.error(`missing ${report.name} test report: ${report.file}`);
    process.exit(1);
  }
  const counts = report.read(JSON.parse(readFileSync(report.file, 'utf8')));
  console.log(`${report.name}: ${counts.passed} passed, ${counts.failed} failed`);
  passed += counts.passed;
  failed += counts.failed;
}
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
