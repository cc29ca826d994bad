import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listPythonFiles, pythonStdlibPath } from '@repocod/python';
import { describe, expect, it } from 'vitest';
import { analyseFiles } from './analyse-files.js';
import { compareComplexity, findRadon, runRadon } from '@repocod/testkit';
import { PROJECT_ROOT } from './testing/test-support.js';

/**
 * The proof that our complexity is radon's: `radon cc -j` 5.1.0 and our code over every .py file of
 * the Python standard library on this machine, zero mismatches over all functions both see.
 */
describe('cyclomatic complexity vs radon cc 5.1.0 on the standard library', () => {
  it('has zero mismatches', { timeout: 600_000 }, async () => {
    const root = pythonStdlibPath();
    const files = listPythonFiles(root);
    // radon runs in its own process while our workers analyse the same files.
    const radonRun = runRadon(findRadon(PROJECT_ROOT), root, files);
    void radonRun.catch(() => undefined); // awaited below: an early failure is reported there, not as unhandled
    const sources = files.map((file) => ({ file, bytes: readFileSync(join(root, file)) }));
    const ours: { file: string; name: string; defLine: number; cyclomatic: number }[] = [];
    const reported = new Set<string>();
    for await (const result of analyseFiles(sources, { mode: 'complexity' })) {
      if (result.issue !== null) reported.add(result.file);
      for (const fn of result.functions) ours.push({ file: result.file, ...fn });
    }
    const comparison = compareComplexity(await radonRun, ours);
    // Only a file we reported (syntax error, encoding) may lose functions radon sees.
    const unexplained = comparison.onlyRadon
      .filter((fn) => !reported.has(fn.file))
      .map((fn) => `${fn.file}:${fn.defLine} ${fn.name}`);
    console.log(
      `stdlib ${root}: ${files.length} files, radon ${comparison.radonFunctions} functions, ours ` +
        `${comparison.ourFunctions}, ` +
        `compared ${comparison.compared}, only radon ${comparison.onlyRadon.length} (all in ${reported.size} ` +
        `reported ` +
        `files), mismatches ${comparison.mismatches.length}`,
    );
    expect(comparison.mismatches.slice(0, 20)).toEqual([]);
    expect(unexplained.slice(0, 20)).toEqual([]);
  });
});
