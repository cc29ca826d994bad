import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import { REPOCOD_LITE_SPEC } from '@repocod/tasks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMinedDemo } from '../testing/mined-demo.js';
import { selectStep } from './select.js';
import { runTasksCommand } from '../commands/tasks.js';
import type { ValidateSummary } from './validate.js';
import { runValidateCommand } from '../commands/validate.js';
import { checksOf } from '@repocod/validate';

const PROJECT_ROOT = resolve(new URL('../../../..', import.meta.url).pathname);
const state = mkdtempSync(join(tmpdir(), 'repocod-validate-gold-'));
const options = { projectRoot: PROJECT_ROOT, stateRoot: state, workers: 2 };
let catalog: Catalog;
let fromBaseline: ValidateSummary;
let fromRuns: ValidateSummary;

beforeAll(async () => {
  catalog = await openMinedDemo(state);
  await runTasksCommand(catalog, { ...options, repository: 'demo' });
  const { selectionId } = await selectStep(catalog, REPOCOD_LITE_SPEC);
  fromBaseline = await runValidateCommand(catalog, { ...options, selectionId });
  fromRuns = await runValidateCommand(catalog, { ...options, selectionId, goldRuns: true });
}, 1_800_000);

afterAll(async () => {
  await catalog.close();
});

/** What a verdict decides: the status, each check's status, FAIL_TO_PASS as validated and the flaky tests. */
const verdicts = (summary: ValidateSummary): unknown[] =>
  summary.validations.map((row) => [
    row.instanceId,
    row.status,
    checksOf(row).map((check) => check.status),
    row.failToPass,
    row.flakyTests,
  ]);

describe('the gold check on the whole demo selection', () => {
  it('gives the same verdicts answered by mining’s baseline as by k runs of the gold patches', () => {
    expect(fromBaseline.validations).toHaveLength(52);
    expect(fromBaseline.repositories[0]).toMatchObject({ goldFromBaseline: 52 });
    expect(fromRuns.repositories[0]).toMatchObject({ goldFromBaseline: 0, baselineKey: null });
    expect(fromBaseline.validations.every((row) => row.goldFrom === 'baseline')).toBe(true);
    // Five runs each (collect, without the body, gold k = 3); retry's collect check has two (see collectsCheck).
    const runCount = (row: ValidateSummary['validations'][number]): number =>
      row.instanceId === 'demo-inventory.util.retry' ? 6 : 5;
    expect(fromRuns.validations.every((row) => row.goldFrom === 'runs' && row.runIds.length === runCount(row))).toBe(
      true,
    );
    expect(verdicts(fromRuns)).toEqual(verdicts(fromBaseline));
  });

  it('measures each task’s fit within the limit: by one run of the gold evaluation, or by the gold runs', () => {
    const fits = (summary: ValidateSummary) =>
      summary.validations.map((row) => checksOf(row).find((check) => check.check === 'passes-with-gold')?.fit);
    // The demo's limit is 120 s (its manifest); its durations never exceed it, so each task's fit is one run.
    const byRun = fits(fromBaseline);
    expect(byRun.every((fit) => fit?.from === 'fit-run' && fit.fits && fit.limitSeconds === 120)).toBe(true);
    const measured = fits(fromRuns);
    expect(measured.every((fit) => fit?.from === 'gold-runs' && fit.fits && fit.seconds > 0)).toBe(true);
    const detail = checksOf(fromRuns.validations[0] as ValidateSummary['validations'][number])[2]?.detail;
    expect(detail).toMatch(/; fits the 120 s limit: \d+\.\d s \(the longest gold run\)$/);
  });
});
