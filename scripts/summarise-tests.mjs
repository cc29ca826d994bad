// Sums the vitest JSON reports of every package (out/test-results/*.json) into the one plain line
// CI reads: "N passed, N failed". A package whose report is missing counts as one failure.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const folder = process.argv[2] ?? 'out/test-results';
const expected = (process.argv[3] ?? '').split(',').filter(Boolean);
let passed = 0;
let failed = 0;
let skipped = 0;
// The slowest test files, so that a CI run near its time limit shows where the time goes.
const files = [];
const reports = existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.json')) : [];
for (const name of reports) {
  const report = JSON.parse(readFileSync(join(folder, name), 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += (report.numFailedTests ?? 0) + (report.success === false && (report.numFailedTests ?? 0) === 0 ? 1 : 0);
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  for (const result of report.testResults ?? []) {
    const seconds = (result.endTime - result.startTime) / 1000;
    if (Number.isFinite(seconds)) files.push({ seconds, file: result.name.replace(`${process.cwd()}/`, '') });
  }
}
files.sort((a, b) => b.seconds - a.seconds);
if (files.length > 0) console.log('slowest test files (s):');
for (const { seconds, file } of files.slice(0, 15)) console.log(`${seconds.toFixed(0).padStart(6)}  ${file}`);
for (const name of expected) {
  if (!reports.includes(`${name}.json`)) {
    console.log(`no test report from ${name}: counted as a failure`);
    failed++;
  }
}
console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
