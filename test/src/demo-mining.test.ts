import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MineCommandOptions, MineSummary } from '@repocod/pipeline';
import { runMineCommand, openCatalog } from '@repocod/pipeline';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './project-paths.js';

let fast: MineSummary;
let exact: MineSummary;

beforeAll(async () => {
  const state = mkdtempSync(join(tmpdir(), 'repocod-demo-mining-'));
  const options: MineCommandOptions = {
    projectRoot: PROJECT_ROOT,
    stateRoot: state,
    repository: 'demo',
    workers: 2,
    mode: 'fast',
  };
  // Separate catalogs: each mode runs its own baseline, from nothing, as the benchmark does.
  const fastCatalog = await openCatalog(join(state, 'fast.duckdb'));
  const exactCatalog = await openCatalog(join(state, 'exact.duckdb'));
  try {
    fast = await runMineCommand(fastCatalog, { ...options, confirm: true });
    exact = await runMineCommand(exactCatalog, { ...options, mode: 'exact' });
  } finally {
    await fastCatalog.close();
    await exactCatalog.close();
  }
}, 900_000);

/**
 * The fast mode (coverage map, in-process mutations) must give REPOCOD's answer: for every candidate
 * of the demo, the very FAIL_TO_PASS set that the whole suite per mutation gives.
 */
describe('mining the demo', () => {
  it('finds identical FAIL_TO_PASS sets in the fast and the exact mode for all 52 candidates', () => {
    expect(fast.functions).toHaveLength(52);
    const sets = (summary: MineSummary): Map<string, readonly string[]> =>
      new Map(summary.functions.map((fn) => [fn.qualname, fn.tests]));
    expect(sets(fast)).toEqual(sets(exact));
    expect(fast.functions.every((fn) => fn.status === 'tests')).toBe(true);
  });

  it('answers in process, confirmed in fresh processes, and what runs at import time by collecting the suite', () => {
    expect(fast.mismatches).toEqual([]);
    const byMethod = (method: string): string[] =>
      fast.functions
        .filter((fn) => fn.method === method)
        .map((fn) => fn.qualname)
        .sort();
    // Import-time code: the suite collected with the mutation, its candidates run (no exception is swallowed here).
    expect(byMethod('whole-suite')).toEqual([]);
    expect(byMethod('fresh-process')).toEqual(expect.arrayContaining(['build_unit_table', 'retry']));
    expect(fast.confirmed).toBe(byMethod('in-process').length);
    // Reached only through `python -c` in the CLI tests.
    expect(fast.functions.find((fn) => fn.qualname === 'main')?.tests).toHaveLength(6);
    // Called only from the `catalog` fixture.
    expect(fast.functions.find((fn) => fn.qualname === 'make_sample_catalog')?.method).toBe('in-process');
  });

  it('runs far fewer tests than the exact mode', () => {
    const executions = (summary: MineSummary): number =>
      summary.phases.reduce((sum, phase) => sum + phase.testExecutions, 0);
    const fastMining = fast.phases.filter((phase) => phase.phase !== 'confirm');
    expect(executions({ ...fast, phases: fastMining }) * 5).toBeLessThan(executions(exact));
  });
});
