import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FunctionRecord } from '@repocod/core';
import { describe, expect, it } from 'vitest';
import { listPythonFiles } from './list-python-files.js';
import { parsePythonFile } from './parse-python-file.js';
import { loadPythonParser } from './python-parser.js';
import { pythonExecutable, pythonStdlibPath } from './python-stdlib.js';

interface OracleFunction {
  readonly file: string;
  readonly qualname: string;
  readonly def_line: number;
  readonly end_line: number;
  readonly docstring: [number, number] | null;
  readonly is_async: boolean;
  readonly decorators: readonly string[];
}

const ORACLE = new URL('../oracle/ast_functions.py', import.meta.url).pathname;

/** The oracle's JSON lines for `files` under `root` (it reads the paths on stdin). */
function runOracle(root: string, files: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const options = { maxBuffer: 1 << 30, encoding: 'utf8' } as const;
    const child = execFile(pythonExecutable(), [ORACLE, root], options, (error, stdout) => {
      if (error === null) resolve(stdout);
      else reject(error);
    });
    child.stdin?.end(files.join('\n'));
  });
}

/**
 * Differential test against Python's own `ast` over every file of the standard library: the same
 * functions, qualnames, `def` and last lines, docstring spans, async flags and decorator counts.
 */
describe('source model vs Python ast on the standard library', () => {
  it('agrees on every function both parse', { timeout: 300_000 }, async () => {
    const root = pythonStdlibPath();
    const files = listPythonFiles(root);
    // Python's side runs while we parse ours: the two take about as long, and CI has two cores.
    const oracleOutput = runOracle(root, files);
    void oracleOutput.catch(() => undefined); // awaited below: an early failure is reported there, not as unhandled

    const parser = await loadPythonParser();
    const ours = new Map<string, FunctionRecord>();
    const reported = new Set<string>();
    for (const file of files) {
      const outcome = parsePythonFile(parser, readFileSync(join(root, file)), file);
      if (!outcome.ok) {
        reported.add(file);
        continue;
      }
      if (outcome.parsed.issue !== null) reported.add(file);
      for (const fn of outcome.parsed.functions) ours.set(`${file}:${fn.signatureSpan.start}`, fn);
      outcome.parsed.tree.delete();
    }

    const entries = (await oracleOutput)
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as OracleFunction | { file: string; error: string });
    const oracle = entries.filter((entry): entry is OracleFunction => !('error' in entry));
    // Files Python itself cannot parse (Python 2 fixtures, deliberate syntax errors) have no oracle.
    const pythonRejects = new Set(entries.filter((entry) => 'error' in entry).map((entry) => entry.file));
    const mismatches: string[] = [];
    const unexplained: string[] = [];
    let compared = 0;
    for (const expected of oracle) {
      const fn = ours.get(`${expected.file}:${expected.def_line}`);
      if (fn === undefined) {
        // Only a file we reported (syntax error, encoding) may lose functions.
        if (!reported.has(expected.file))
          unexplained.push(`${expected.file}:${expected.def_line} ${expected.qualname}`);
        continue;
      }
      compared++;
      const docstring = fn.docstringSpan === null ? null : [fn.docstringSpan.start, fn.docstringSpan.end];
      const actual = {
        qualname: fn.qualname,
        end: fn.definitionSpan.end,
        docstring,
        isAsync: fn.isAsync,
        decorators: fn.decorators,
      };
      const wanted = {
        qualname: expected.qualname,
        end: expected.end_line,
        docstring: expected.docstring,
        isAsync: expected.is_async,
        decorators: expected.decorators,
      };
      if (JSON.stringify(actual) !== JSON.stringify(wanted))
        mismatches.push(
          `${expected.file}:${expected.def_line} ours ${JSON.stringify(actual)} ast ${JSON.stringify(wanted)}`,
        );
    }
    expect(mismatches.slice(0, 20)).toEqual([]);
    expect(unexplained.slice(0, 20)).toEqual([]);
    // And no function of ours that Python does not know.
    const oursWithOracle = [...ours.values()].filter((fn) => !pythonRejects.has(fn.file));
    expect(oursWithOracle.length).toBe(compared);
  });
});
