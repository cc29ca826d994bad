// Sums the vitest JSON reports of every package (out/test-results/*.json) into the one plain line
// CI reads: "N passed, N failed". A package whose report is missing counts as one failure.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const folder = process.argv[2] ?? 'out/test-results';
const expected = (process.argv[3] ?? '').split(',').filter(Boolean);
let passed = 0;
let failed = 0;
let skipped = 0;
const reports = existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.json')) : [];
for (const name of reports) {
  const report = JSON.parse(readFileSync(join(folder, name), 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += (report.numFailedTests ?? 0) + (report.success === false && (report.numFailedTests ?? 0) === 0 ? 1 : 0);
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
for (const name of expected) {
  if (!reports.includes(`${name}.json`)) {
    console.log(`no test report from ${name}: counted as a failure`);
    failed++;
  }
}
console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
