import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import { openCatalog } from '@repocod/catalog';
import { REPOCOD_LITE_SPEC } from '@repocod/tasks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EXTRACTION_CONFIG } from './extractor-fingerprint.js';
import { runMineCommand } from '../commands/mine.js';
import { selectStep } from './select.js';
import { runTasksCommand } from '../commands/tasks.js';
import type { ValidateSummary } from './validate.js';
import { runValidateCommand } from '../commands/validate.js';
import { checksOf } from '@repocod/validate';

const PROJECT_ROOT = resolve(new URL('../../../..', import.meta.url).pathname);
const state = mkdtempSync(join(tmpdir(), 'repocod-validate-flaky-'));
const options = {
  projectRoot: PROJECT_ROOT,
  stateRoot: state,
  manifest: join(PROJECT_ROOT, 'datasets/mining-edge-cases/manifest.yaml'),
  repository: 'mining-edge-cases',
  workers: 2,
};
const FLAKY_TARGET = 'mining-edge-cases-edgecases.core.flaky_target';
const SQUARE_CASES = 'mining-edge-cases-edgecases.cases.square_cases';
let catalog: Catalog;
let summary: ValidateSummary;

beforeAll(async () => {
  catalog = await openCatalog(join(state, 'catalog.duckdb'));
  // Mined while test_flaky is stable (no counter file): it is flaky_target's one relevant test.
  delete process.env.EDGE_FLAKY_FILE;
  await runMineCommand(catalog, {
    ...options,
    mode: 'fast',
    extraction: {
      ...DEFAULT_EXTRACTION_CONFIG,
      candidateFilter: { minDocstringLinesExclusive: 0, includeNested: true },
    },
  });
  await runTasksCommand(catalog, options);
  const { selectionId } = await selectStep(catalog, {
    ...REPOCOD_LITE_SPEC,
    filter: "qualname IN ('flaky_target', 'fib', 'square_cases')",
  });
  // From now on test_flaky fails on every other run (see its docstring): the k runs must catch it. Mining's
  // baseline saw it stable, so the gold patches run k times here (--gold-runs) rather than the baseline answering.
  process.env.EDGE_FLAKY_FILE = join(state, 'flaky-runs');
  summary = await runValidateCommand(catalog, {
    projectRoot: PROJECT_ROOT,
    stateRoot: state,
    manifest: options.manifest,
    workers: 2,
    selectionId,
    repeat: 3,
    goldRuns: true,
  });
}, 600_000);

afterAll(async () => {
  delete process.env.EDGE_FLAKY_FILE;
  await catalog.close();
});

describe('validation of a task whose test turns flaky', () => {
  it(
    'removes the test that flips across the k runs from FAIL_TO_PASS, records it, and fails the task left with no ' +
      'test',
    async () => {
      expect((await catalog.task(FLAKY_TARGET))?.failToPass).toEqual(['tests/test_core.py::test_flaky']);
      const row = summary.validations.find((validation) => validation.instanceId === FLAKY_TARGET);
      expect(row).toMatchObject({ status: 'failed', flakyTests: ['tests/test_core.py::test_flaky'], failToPass: [] });
      const gold = checksOf(row ?? { checks: [] })[2];
      expect(gold).toMatchObject({
        check: 'passes-with-gold',
        status: 'failed',
        tests: ['tests/test_core.py::test_flaky'],
      });
      expect(gold?.detail).toMatch(
        new RegExp(
          String.raw`^no FAIL_TO_PASS test is left to pass; 1 flaky test\(s\) left FAIL_TO_PASS \(tests\/test_core\.p` +
            String.raw`y::test_flaky: (passed|failed), (passed|failed), (passed|failed)\)$`,
        ),
      );
      expect(gold?.detail).toContain('passed');
      expect(gold?.detail).toContain('failed');
    },
  );

  it('leaves the other task as it was', () => {
    expect(
      summary.validations.find((validation) => validation.instanceId === 'mining-edge-cases-edgecases.core.fib'),
    ).toMatchObject({ status: 'passed', flakyTests: [] });
  });
});

describe('a task whose function runs while pytest collects', () => {
  it(
    'passes the collect check of the tasks stage: the pre state does not collect, and does ' + 'with the body',
    async () => {
      const task = await catalog.task(SQUARE_CASES);
      expect(task?.failToPass).toEqual([
        'tests/test_cases.py::test_square[1]',
        'tests/test_cases.py::test_square[2]',
        'tests/test_cases.py::test_square[3]',
      ]);
      expect(task?.checksPassed).toBe(true);
      expect(task?.checks).toMatchObject({
        collects: true,
        bodyNeededAtCollection: true,
        messages: [],
      });
    },
  );

  it('validates: its tests fail at collection without the body (errors, not missing) and pass with it', () => {
    const row = summary.validations.find((validation) => validation.instanceId === SQUARE_CASES);
    expect(row).toMatchObject({ status: 'passed', passingWithoutBody: [], withoutBodyComplete: true });
    const [collects, withoutBody] = checksOf(row ?? { checks: [] });
    expect(collects).toMatchObject({ check: 'collects', status: 'passed', bodyNeededAtCollection: true });
    expect(collects?.detail).toMatch(/does not collect, and does with the body/);
    // Both collect runs are cited: the pre state's and the one with the body kept.
    expect(collects?.runIds).toHaveLength(2);
    expect(withoutBody).toMatchObject({ check: 'fails-without-body', status: 'passed' });
  });
});
