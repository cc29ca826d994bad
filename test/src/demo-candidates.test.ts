import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { isTestCodePath } from '@repocod/core';
import { listPythonFiles, openCatalog, extractStep } from '@repocod/pipeline';
import { describe, expect, it } from 'vitest';
import { DEMO_ROOT, PROJECT_ROOT, toolsPython } from './project-paths.js';

const ORACLE = resolve(PROJECT_ROOT, 'packages/python/oracle/ast_functions.py');

interface OracleFunction {
  readonly file: string;
  readonly qualname: string;
  readonly def_line: number;
  readonly docstring: [number, number] | null;
}

/**
 * The candidates the headless extract stores for the demo are exactly REPOCOD's rule applied by
 * Python's own ast: library code, docstring literal spanning more than 10 lines.
 */
describe('demo candidates', () => {
  it('equal the ones Python ast finds', { timeout: 60_000 }, async () => {
    const files = listPythonFiles(DEMO_ROOT).filter((file) => !isTestCodePath(file));
    const oracle = execFileSync(toolsPython(), [ORACLE, DEMO_ROOT], { input: files.join('\n'), encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as OracleFunction);
    const expected = oracle
      .filter((fn) => fn.docstring !== null && fn.docstring[1] - fn.docstring[0] + 1 > 10)
      .map((fn) => `${fn.file}:${fn.def_line} ${fn.qualname}`)
      .sort();

    const catalog = await openCatalog(':memory:');
    try {
      await extractStep(catalog, { root: DEMO_ROOT, repository: 'demo' });
      const ours = (await catalog.functions('demo', { candidatesOnly: true }))
        .map((fn) => `${fn.file}:${fn.signatureSpan.start} ${fn.qualname}`)
        .sort();
      expect(ours).toEqual(expected);
      expect(ours.length).toBeGreaterThanOrEqual(20);
    } finally {
      await catalog.close();
    }
  });
});
