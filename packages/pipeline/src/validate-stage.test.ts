import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Catalog, StoredValidation } from '@repocod/catalog';
import { openCatalog } from '@repocod/catalog';
import { REPOCOD_LITE_SPEC } from '@repocod/tasks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mineStage } from './mine-stage.js';
import { selectStage } from './select-stage.js';
import { tasksStage } from './tasks-stage.js';
import type { ValidateStageEvent, ValidateSummary } from './validate-stage.js';
import { validateStage } from './validate-stage.js';
import { checksOf } from './validation-summary.js';

const PROJECT_ROOT = resolve(new URL('../../..', import.meta.url).pathname);
const state = mkdtempSync(join(tmpdir(), 'repocod-validate-'));
const options = { projectRoot: PROJECT_ROOT, stateRoot: state, workers: 2 };
// Three tasks that hold, and two whose body, once removed, leaves tests passing: Record.__eq__ returns
// None, which is falsy, so `assert a != b` holds; Warehouse.pick returning None lets a progress report pass.
const CHOSEN = ['slugify', 'quote', 'PricedItem.price_for', 'Warehouse.pick', 'Record.__eq__'];
const PASSING = ['demo-inventory.pricing.PricedItem.price_for', 'demo-inventory.pricing.quote', 'demo-inventory.util.slugify'];
const EQ = 'demo-inventory.models.Record.__eq__';
const PICK = 'demo-inventory.warehouse.Warehouse.pick';
let catalog: Catalog;
let selectionId: string;
let first: ValidateSummary;
const events: ValidateStageEvent[] = [];

const byId = (summary: ValidateSummary): Map<string, StoredValidation> => new Map(summary.validations.map((row) => [row.instanceId, row]));

beforeAll(async () => {
  catalog = await openCatalog(join(state, 'catalog.duckdb'));
  await mineStage(catalog, { ...options, repository: 'demo', mode: 'fast' });
  await tasksStage(catalog, { ...options, repository: 'demo' });
  const selection = await selectStage(catalog, { ...REPOCOD_LITE_SPEC, filter: `qualname IN (${CHOSEN.map((name) => `'${name}'`).join(', ')})` });
  selectionId = selection.selectionId;
  first = await validateStage(catalog, { ...options, selectionId, onEvent: (event) => events.push(event) });
}, 600_000);

afterAll(async () => {
  await catalog.close();
});

describe('validating the demo selection', () => {
  it('runs the three checks of every task and stores a verdict per task', async () => {
    expect(first.validations.map((row) => [row.instanceId, row.status])).toEqual([
      [EQ, 'failed'],
      ['demo-inventory.pricing.PricedItem.price_for', 'passed'],
      ['demo-inventory.pricing.quote', 'passed'],
      ['demo-inventory.util.slugify', 'passed'],
      [PICK, 'failed'],
    ]);
    const rows = byId(first);
    const eq = checksOf(rows.get(EQ) as StoredValidation);
    expect(eq.map((check) => [check.check, check.status])).toEqual([
      ['collects', 'passed'],
      ['fails-without-body', 'failed'],
      ['passes-with-gold', 'passed'],
    ]);
    expect(eq[1]?.tests).toEqual(['tests/test_models.py::test_records_with_different_fields_differ (passed)', 'tests/test_pricing.py::test_priced_item_is_not_equal_to_plain_item (passed)']);
    expect(eq[1]?.detail).toBe('2 of 13 FAIL_TO_PASS test(s) do not fail without the body');
    expect(eq[1]?.log).toMatch(/11 failed, 2 passed/);
    expect(checksOf(rows.get(PICK) as StoredValidation)[1]?.tests).toEqual(['tests/test_orders.py::TestFulfil::test_reports_progress_for_every_line (passed)']);
    for (const id of PASSING) {
      const task = await catalog.task(id);
      expect(rows.get(id)?.failToPass).toEqual(task?.failToPass);
      expect(checksOf(rows.get(id) as StoredValidation).map((check) => check.detail)).toEqual([
        'the pre state collects',
        `all ${task?.failToPass.length} FAIL_TO_PASS test(s) fail without the body`,
        `all ${task?.failToPass.length} test(s) pass in each of 3 run(s)`,
      ]);
    }
    expect((await catalog.validations()).map((row) => row.instanceId)).toEqual(first.validations.map((row) => row.instanceId));
    expect(events.filter((event) => event.kind === 'validate-task').map((event) => (event.kind === 'validate-task' ? event.done : 0))).toEqual([1, 2, 3, 4, 5]);
  });

  it('answers the collect check from the tasks stage’s own runs and carries the provenance of every task', async () => {
    // The tasks stage ran this very job (the pre state, collected) and stored it: 5 of the 15 jobs.
    expect(first.repositories).toEqual([expect.objectContaining({ repository: 'demo', tasks: 5, validatedNow: 5, jobsRun: 10, jobsFromCatalog: 5, workers: 2 })]);
    const repository = first.repositories[0];
    expect(first.toolVersion).toMatch(/^repocod-kit \d+\.\d+\.\d+/);
    for (const row of first.validations) {
      expect(row).toMatchObject({ toolVersion: first.toolVersion, pythonVersion: repository?.pythonVersion, packagesHash: repository?.packagesHash, environmentKey: repository?.environmentKey, repeat: 3 });
      expect(row.pythonVersion).toMatch(/^3\.\d+\.\d+$/);
      expect(row.packagesHash).toMatch(/^[0-9a-f]{64}$/);
      // One collect run, one run without the body, three with the gold patches: all in the catalog.
      expect(row.runIds).toHaveLength(5);
      const stored = await catalog.query(`SELECT count(*) FROM runs WHERE run_id IN (${row.runIds.map((id) => `'${id}'`).join(', ')})`);
      expect(Number(stored.rows[0]?.[0])).toBe(5);
    }
  });

  it('resumes: a rerun redoes nothing, and a task whose verdict was lost is judged again from its stored runs', async () => {
    const again = await validateStage(catalog, { ...options, selectionId });
    expect(again.repositories[0]).toMatchObject({ validatedNow: 0, jobsRun: 0 });
    expect(again.validations).toEqual(first.validations);
    // A run killed after a task's jobs finished but before its verdict was stored.
    await catalog.query(`DELETE FROM validations WHERE instance_id = 'demo-inventory.util.slugify'`);
    const resumed = await validateStage(catalog, { ...options, selectionId });
    expect(resumed.repositories[0]).toMatchObject({ validatedNow: 1, jobsRun: 0, jobsFromCatalog: 3 });
    expect(byId(resumed).get('demo-inventory.util.slugify')).toMatchObject({ status: 'passed', runIds: byId(first).get('demo-inventory.util.slugify')?.runIds });
  });

  it('validates the failed tasks again with --retry-failed, running their jobs afresh', async () => {
    const retried = await validateStage(catalog, { ...options, selectionId, retryFailed: true });
    expect(retried.repositories[0]).toMatchObject({ validatedNow: 2, jobsRun: 6, jobsFromCatalog: 0 });
    expect(retried.validations.map((row) => row.status)).toEqual(first.validations.map((row) => row.status));
  });

  it('narrows FAIL_TO_PASS to the tests that fail without the body when asked', async () => {
    const narrowed = await validateStage(catalog, { ...options, selectionId, narrow: true, repositories: ['demo'] });
    const rows = byId(narrowed);
    expect(narrowed.validations.map((row) => row.status)).toEqual(['passed', 'passed', 'passed', 'passed', 'passed']);
    expect(rows.get(PICK)?.droppedTests).toEqual(['tests/test_orders.py::TestFulfil::test_reports_progress_for_every_line']);
    const pick = await catalog.task(PICK);
    expect(rows.get(PICK)?.failToPass).toEqual(pick?.failToPass.filter((test) => test !== 'tests/test_orders.py::TestFulfil::test_reports_progress_for_every_line'));
    expect(checksOf(rows.get(EQ) as StoredValidation)[1]?.detail).toBe('11 test(s) fail without the body; 2 that pass without it left FAIL_TO_PASS');
    // Another setting, another validation key: the strict verdicts stay stored beside these.
    expect((await catalog.validations({ instanceIds: [EQ] })).map((row) => row.status)).toEqual(['passed', 'failed']);
  });

  it('refuses a repository the selection has no task of, and a missing selection', async () => {
    await expect(validateStage(catalog, { ...options, selectionId, repositories: ['flask'] })).rejects.toThrow(/--repo flask: selection \w+ has no task of it \(it has tasks of demo\)/);
    await expect(validateStage(catalog, { ...options, selectionId: 'nope' })).rejects.toThrow(/no selection nope in the catalog/);
  });
});
