/**
 * `pnpm bench:extract <path>`: complexity of every function of a tree, by our code (tree-sitter +
 * escomplex, parallel workers) and by `radon cc -j` 5.1.0 (the baseline), in the same run, on the
 * same files. Prints both wall times, the ratio, function counts and mismatches.
 */
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { listPythonFiles } from '@repocod/python';
import { analyseFiles } from '@repocod/metrics';
import { compareComplexity, findRadon, runRadon } from '@repocod/testkit';

const USAGE =
  'usage: pnpm bench:extract <path-to-a-python-tree> [--workers N]\n' +
  '  the standard library: pnpm bench:extract "$(python3 -c \'import sysconfig; ' +
  'print(sysconfig.get_paths()["stdlib"])\')"';

function parseBenchArgs(argv: readonly string[]): { target: string; workers: number } {
  let target: string | undefined;
  let workers = cpus().length;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? '';
    if (arg === '--workers') {
      workers = Number(argv[++index]);
      if (!Number.isInteger(workers) || workers < 0)
        fail(`--workers needs a whole number >= 0 (got ${argv[index] ?? 'nothing'})`);
    } else if (arg.startsWith('--')) fail(`unknown option ${arg}`);
    else if (target === undefined) target = arg;
    else fail(`one path only (got ${target} and ${arg})`);
  }
  if (target === undefined) fail('give the path of a Python tree');
  return { target, workers };
}

function fail(message: string): never {
  console.error(`error: ${message}\n${USAGE}`);
  process.exit(2);
}

const projectRoot = resolve(new URL('../..', import.meta.url).pathname);
const { target, workers } = parseBenchArgs(process.argv.slice(2));
// pnpm runs scripts from the workspace root; a relative path means relative to where the user was.
const root = resolve(process.env.INIT_CWD ?? process.cwd(), target);
let files: string[];
try {
  files = listPythonFiles(root);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}

const radon = findRadon(projectRoot);
let started = performance.now();
const radonFunctions = await runRadon(radon, root, files);
const radonMs = performance.now() - started;

started = performance.now();
const sources = files.map((file) => ({ file, bytes: readFileSync(join(root, file)) }));
const ours: { file: string; name: string; defLine: number; cyclomatic: number }[] = [];
let problemFiles = 0;
for await (const result of analyseFiles(sources, { mode: 'complexity', workers })) {
  if (result.issue !== null) problemFiles++;
  for (const fn of result.functions)
    ours.push({ file: result.file, name: fn.name, defLine: fn.defLine, cyclomatic: fn.cyclomatic });
}
const oursMs = performance.now() - started;

const comparison = compareComplexity(radonFunctions, ours);
const bytes = sources.reduce((sum, source) => sum + source.bytes.byteLength, 0);
const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
console.log(`tree          ${root}`);
console.log(`files         ${files.length} (${(bytes / 1e6).toFixed(1)} MB); ${problemFiles} not parsed cleanly by us`);
console.log(`baseline      radon cc -j (${radon}): ${seconds(radonMs)}, ${radonFunctions.length} functions`);
console.log(
  `ours          tree-sitter + escomplex, ${workers === 0 ? 'in one thread' : `${workers} worker threads`}: ` +
    `${seconds(oursMs)}, ${ours.length} functions`,
);
const ratio = radonMs / oursMs;
console.log(
  `ratio         ${
    ratio >= 1 ? `${ratio.toFixed(2)}x faster than radon` : `${(1 / ratio).toFixed(2)}x slower than radon`
  } (radon runs in one process)`,
);
console.log(
  `compared      ${comparison.compared} functions seen by both; ${comparison.onlyRadon.length} only by radon`,
);
console.log(`mismatches    ${comparison.mismatches.length}`);
for (const mismatch of comparison.mismatches.slice(0, 20)) {
  console.log(
    `  ${mismatch.file}:${mismatch.defLine} ${mismatch.name}: ours ${mismatch.ours}, radon ${mismatch.radon}`,
  );
}
process.exitCode = comparison.mismatches.length === 0 ? 0 : 1;
