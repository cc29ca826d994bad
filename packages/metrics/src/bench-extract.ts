/**
 * `pnpm bench:extract <path>`: complexity of every function of a tree, by our code (tree-sitter +
 * escomplex, parallel workers) and by `radon cc -j` 5.1.0 (the baseline), in the same run, on the
 * same files. Prints both wall times, the ratio, function counts and mismatches.
 */
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { listPythonFiles } from '@repocod/python';
import { analyseFiles } from './analyse-files.js';
import { compareComplexity, findRadon, runRadon } from './radon-oracle.js';

const projectRoot = resolve(new URL('../../..', import.meta.url).pathname);
const target = process.argv[2];
if (target === undefined) {
  console.error('usage: pnpm bench:extract <path-to-a-python-tree>   (for the standard library: python3 -c "import sysconfig; print(sysconfig.get_paths()[\'stdlib\'])")');
  process.exit(2);
}
const root = resolve(process.env['INIT_CWD'] ?? process.cwd(), target);
const files = listPythonFiles(root);
const workersArg = process.argv.indexOf('--workers');
const workers = workersArg === -1 ? undefined : Number(process.argv[workersArg + 1]);

const radon = findRadon(projectRoot);
let started = performance.now();
const radonFunctions = await runRadon(radon, root, files);
const radonMs = performance.now() - started;

started = performance.now();
const sources = files.map((file) => ({ file, bytes: readFileSync(join(root, file)) }));
const ours: { file: string; name: string; defLine: number; cyclomatic: number }[] = [];
let problemFiles = 0;
for await (const result of analyseFiles(sources, { mode: 'complexity', workers: workers ?? cpus().length })) {
  if (result.issue !== null) problemFiles++;
  for (const fn of result.functions) ours.push({ file: result.file, name: fn.name, defLine: fn.defLine, cyclomatic: fn.cyclomatic });
}
const oursMs = performance.now() - started;

const comparison = compareComplexity(radonFunctions, ours);
const bytes = sources.reduce((sum, source) => sum + source.bytes.byteLength, 0);
const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
console.log(`tree          ${root}`);
console.log(`files         ${files.length} (${(bytes / 1e6).toFixed(1)} MB); ${problemFiles} not parsed cleanly by us`);
console.log(`baseline      radon cc -j (${radon}): ${seconds(radonMs)}, ${radonFunctions.length} functions`);
console.log(`ours          tree-sitter + escomplex, ${workers ?? cpus().length} workers: ${seconds(oursMs)}, ${ours.length} functions`);
console.log(`ratio         ${(radonMs / oursMs).toFixed(2)}x faster than radon`);
console.log(`compared      ${comparison.compared} functions seen by both; ${comparison.onlyRadon} only by radon`);
console.log(`mismatches    ${comparison.mismatches.length}`);
for (const mismatch of comparison.mismatches.slice(0, 20)) {
  console.log(`  ${mismatch.file}:${mismatch.defLine} ${mismatch.name}: ours ${mismatch.ours}, radon ${mismatch.radon}`);
}
process.exitCode = comparison.mismatches.length === 0 ? 0 : 1;
