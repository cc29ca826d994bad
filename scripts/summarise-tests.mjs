// Sums the vitest JSON reports of every package (out/test-results/*.json) into the one plain line
// CI reads: "N passed, N failed". A package whose report is missing counts as one failure.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const folder = process.argv[2] ?? 'out/test-results';
const expected = (process.argv[3] ?? '').split(',').filter(Boolean);
let passed = 0;
let failed = 0;
let skipped = 0;
// The slowest test files, so that a CI run near its time limit shows where the time goes: read from the
// test output (vitest's line per file counts its hooks; the JSON report's times leave out beforeAll).
const output = process.argv[4];
const files = [];
if (output !== undefined && existsSync(output)) {
  const line = /(@repocod\/[\w-]+):test:\s+[✓❯×]\s+(src\/\S+)\s+\(\d+ tests?[^)]*\)\s+(\d+)ms/;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the colours of the output are stripped, on purpose
  const colours = /\u001b\[[0-9;]*m/g;
  for (const text of readFileSync(output, 'utf8').replace(colours, '').split('\n')) {
    const found = line.exec(text);
    if (found !== null) files.push({ seconds: Number(found[3]) / 1000, file: `${found[1]} ${found[2]}` });
  }
}
const reports = existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.json')) : [];
for (const name of reports) {
  const report = JSON.parse(readFileSync(join(folder, name), 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += (report.numFailedTests ?? 0) + (report.success === false && (report.numFailedTests ?? 0) === 0 ? 1 : 0);
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
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
