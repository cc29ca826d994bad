import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Catalog, StoredValidation } from '@repocod/catalog';
import { REPOCOD_LITE_SPEC } from '@repocod/tasks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMinedDemo } from '../testing/mined-demo.js';
import { selectStep } from './select.js';
import type { FlowEvent } from '../flow/flow-events.js';
import { runFlow } from '../flow/flow.js';
import { runTasksCommand } from '../commands/tasks.js';
import type { ValidateEvent, ValidateSummary } from './validate.js';
import { runValidateCommand } from '../commands/validate.js';
import { checksOf } from '@repocod/validate';

const PROJECT_ROOT = resolve(new URL('../../../..', import.meta.url).pathname);
const state = mkdtempSync(join(tmpdir(), 'repocod-validate-'));
const options = { projectRoot: PROJECT_ROOT, stateRoot: state, workers: 2 };
// Three tasks whose every test fails without the body, and two whose body, once removed, leaves some
// passing: Record.__eq__ returns None, which is falsy, so `assert a != b` holds; Warehouse.pick returning
// None lets a progress report pass. REPOCOD's rule keeps them (one failing test is enough); --narrow drops those tests.
const CHOSEN = ['slugify', 'quote', 'PricedItem.price_for', 'Warehouse.pick', 'Record.__eq__'];
const EQ = 'demo-inventory.models.Record.__eq__';
const PICK = 'demo-inventory.warehouse.Warehouse.pick';
let catalog: Catalog;
let selectionId: string;
let first: ValidateSummary;
const events: ValidateEvent[] = [];

const byId = (summary: ValidateSummary): Map<string, StoredValidation> =>
  new Map(summary.validations.map((row) => [row.instanceId, row]));

beforeAll(async () => {
  catalog = await openMinedDemo(state);
  await runTasksCommand(catalog, { ...options, repository: 'demo' });
  const selection = await selectStep(catalog, {
    ...REPOCOD_LITE_SPEC,
    filter: `qualname IN (${CHOSEN.map((name) => `'${name}'`).join(', ')})`,
  });
  selectionId = selection.selectionId;
  first = await runValidateCommand(catalog, { ...options, selectionId, onEvent: (event) => events.push(event) });
}, 600_000);

afterAll(async () => {
  await catalog.close();
});

describe('validating the demo selection', () => {
  it(
    'runs the checks of every task and stores a verdict per task, FAIL_TO_PASS kept whole ' + '(REPOCOD’s rule)',
    async () => {
      expect(first.validations.map((row) => [row.instanceId, row.status])).toEqual([
        [EQ, 'passed'],
        ['demo-inventory.pricing.PricedItem.price_for', 'passed'],
        ['demo-inventory.pricing.quote', 'passed'],
        ['demo-inventory.util.slugify', 'passed'],
        [PICK, 'passed'],
      ]);
      const rows = byId(first);
      for (const row of first.validations) {
        const task = await catalog.task(row.instanceId);
        expect(row.failToPass).toEqual(task?.failToPass);
        expect(row.droppedTests).toEqual([]);
        const checks = checksOf(row);
        expect(checks.map((check) => check.check)).toEqual(['collects', 'fails-without-body', 'passes-with-gold']);
        // The run without the body stops at its first failure: it saw one failing test, and what passed before it.
        expect(checks[1]?.detail).toMatch(
          new RegExp(
            String.raw`^1 of \d+ FAIL_TO_PASS test\(s\) fail without the body \(the run stops at the first failure: ` +
              String.raw`\d+ passed before it, \d+ not run\)$|^all 1 FAIL_TO_PASS test\(s\) fail without the body$`,
          ),
        );
        // The demo's tests take milliseconds: mining's durations answer the fit within its 120 s limit.
        expect(checks[2]?.detail).toMatch(
          new RegExp(
            String.raw`^all ${task?.failToPass.length} test\(s\) pass in each of 3 baseline run\(s\) of mining ` +
              String.raw`at the base commit; fits the 120 s limit: \d+\.\d s \(one run of the gold state\)$`,
          ),
        );
        expect(row).toMatchObject({ goldFrom: 'baseline', goldBaselineKey: first.repositories[0]?.baselineKey });
      }
      // Record.__eq__ without its body returns None, which is falsy: `assert a != b` holds. Those tests are kept.
      const eq = rows.get(EQ) as StoredValidation;
      expect(eq.withoutBodyComplete).toBe(false);
      expect((await catalog.validations()).map((row) => row.instanceId)).toEqual(
        first.validations.map((row) => row.instanceId),
      );
      expect(
        events
          .filter((event) => event.kind === 'validate-task')
          .map((event) => (event.kind === 'validate-task' ? event.done : 0)),
      ).toEqual([1, 2, 3, 4, 5]);
    },
  );

  it(
    'answers the collect check from the tasks stage’s runs and the gold check from mining’s baseline, with ' +
      'provenance',
    async () => {
      // The tasks stage ran the collect job and stored it; mining's baseline answers the gold check's k runs: per task
      // the run without the body and the one run of the gold evaluation that measures the fit.
      expect(first.repositories).toEqual([
        expect.objectContaining({
          repository: 'demo',
          tasks: 5,
          validatedNow: 5,
          jobsRun: 10,
          jobsFromCatalog: 5,
          goldFromBaseline: 5,
          workers: 2,
        }),
      ]);
      const repository = first.repositories[0];
      expect(repository?.baselineKey).toMatch(/^[0-9a-f]{64}$/);
      expect(await catalog.miningBaseline('demo', repository?.baselineKey as string)).not.toBeNull();
      expect(first.toolVersion).toMatch(/^repocod-kit \d+\.\d+\.\d+/);
      for (const row of first.validations) {
        expect(row).toMatchObject({
          toolVersion: first.toolVersion,
          pythonVersion: repository?.pythonVersion,
          packagesHash: repository?.packagesHash,
          environmentKey: repository?.environmentKey,
          repeat: 3,
        });
        expect(row.pythonVersion).toMatch(/^3\.\d+\.\d+$/);
        expect(row.packagesHash).toMatch(/^[0-9a-f]{64}$/);
        // One collect run, one run without the body and the fit run, in the catalog.
        expect(row.runIds).toHaveLength(3);
        const stored = await catalog.query(
          `SELECT count(*) FROM runs WHERE run_id IN (${row.runIds.map((id) => `'${id}'`).join(', ')})`,
        );
        expect(Number(stored.rows[0]?.[0])).toBe(3);
      }
    },
  );

  it('resumes: a rerun redoes nothing, and a task whose verdict was lost is judged again from its stored runs', {
    timeout: 300_000,
  }, async () => {
    const again = await runValidateCommand(catalog, { ...options, selectionId });
    expect(again.repositories[0]).toMatchObject({ validatedNow: 0, jobsRun: 0 });
    expect(again.validations).toEqual(first.validations);
    // A run killed after a task's jobs finished but before its verdict was stored.
    await catalog.query(`DELETE FROM validations WHERE instance_id = 'demo-inventory.util.slugify'`);
    const resumed = await runValidateCommand(catalog, { ...options, selectionId });
    expect(resumed.repositories[0]).toMatchObject({ validatedNow: 1, jobsRun: 0, jobsFromCatalog: 3 });
    expect(byId(resumed).get('demo-inventory.util.slugify')).toMatchObject({
      status: 'passed',
      runIds: byId(first).get('demo-inventory.util.slugify')?.runIds,
    });
  });

  it('validates the failed tasks again with --retry-failed, running their jobs afresh', {
    timeout: 300_000,
  }, async () => {
    // A verdict stored as failed (by an earlier, broken run): only that task is validated again.
    await catalog.query(`UPDATE validations SET status = 'failed' WHERE instance_id = '${EQ}'`);
    const retried = await runValidateCommand(catalog, { ...options, selectionId, retryFailed: true });
    expect(retried.repositories[0]).toMatchObject({ validatedNow: 1, jobsRun: 3, jobsFromCatalog: 0 });
    expect(retried.validations.map((row) => row.status)).toEqual(first.validations.map((row) => row.status));
  });

  it('runs the gold patches k times when asked, and finds the same verdicts', { timeout: 300_000 }, async () => {
    const runs = await runValidateCommand(catalog, { ...options, selectionId, goldRuns: true });
    // The collect and the without-body jobs are the same jobs: only the gold ones run.
    expect(runs.repositories[0]).toMatchObject({
      validatedNow: 5,
      jobsRun: 5,
      jobsFromCatalog: 10,
      goldFromBaseline: 0,
      baselineKey: null,
    });
    expect(runs.validations.map((row) => [row.instanceId, row.status, row.failToPass, row.flakyTests])).toEqual(
      first.validations.map((row) => [row.instanceId, row.status, row.failToPass, row.flakyTests]),
    );
    for (const row of runs.validations) {
      expect(row).toMatchObject({ goldFrom: 'runs', goldBaselineKey: null });
      expect(row.runIds).toHaveLength(5);
      expect(checksOf(row)[2]?.detail).toMatch(
        /^all \d+ test\(s\) pass in each of 3 run\(s\); fits the 120 s limit: \d+\.\d s \(the longest gold run\)$/,
      );
    }
  });

  it('narrows FAIL_TO_PASS to the tests that fail without the body when asked, from a whole run', {
    timeout: 300_000,
  }, async () => {
    const narrowed = await runValidateCommand(catalog, {
      ...options,
      selectionId,
      narrow: true,
      repositories: ['demo'],
    });
    const rows = byId(narrowed);
    expect(narrowed.validations.map((row) => row.status)).toEqual(['passed', 'passed', 'passed', 'passed', 'passed']);
    expect(rows.get(PICK)?.droppedTests).toEqual([
      'tests/test_orders.py::TestFulfil::test_reports_progress_for_every_line',
    ]);
    expect(rows.get(PICK)?.passingWithoutBody).toEqual([
      'tests/test_orders.py::TestFulfil::test_reports_progress_for_every_line',
    ]);
    const pick = await catalog.task(PICK);
    expect(rows.get(PICK)?.failToPass).toEqual(
      pick?.failToPass.filter(
        (test) => test !== 'tests/test_orders.py::TestFulfil::test_reports_progress_for_every_line',
      ),
    );
    const eq = rows.get(EQ) as StoredValidation;
    expect(checksOf(eq)[1]?.detail).toBe('11 test(s) fail without the body; 2 that pass without it left FAIL_TO_PASS');
    expect(eq.droppedTests).toEqual([
      'tests/test_models.py::test_records_with_different_fields_differ',
      'tests/test_pricing.py::test_priced_item_is_not_equal_to_plain_item',
    ]);
    expect(eq.withoutBodyComplete).toBe(true);
    // Another setting, another validation key: the default verdicts stay stored beside these.
    expect((await catalog.validations({ instanceIds: [EQ] })).map((row) => row.droppedTests.length).sort()).toEqual([
      0, 0, 2,
    ]);
  });

  it('refuses a repository the selection has no task of, and a missing selection', { timeout: 300_000 }, async () => {
    await expect(runValidateCommand(catalog, { ...options, selectionId, repositories: ['flask'] })).rejects.toThrow(
      /--repo flask: selection \w+ has no task of it \(it has tasks of demo\)/,
    );
    await expect(runValidateCommand(catalog, { ...options, selectionId: 'nope' })).rejects.toThrow(
      /no selection nope in the catalog/,
    );
  });

  it('replaces a selected task that fails validation by the next of its level, in the flow and in select', {
    timeout: 300_000,
  }, async () => {
    const filter = `qualname IN (${CHOSEN.map((name) => `'${name}'`).join(', ')})`;
    const ranked = await catalog.rankTasks({ ...REPOCOD_LITE_SPEC, filter });
    const level = ranked.find((task) => ranked.filter((other) => other.level === task.level).length >= 2)?.level;
    if (level === undefined) throw new Error('the chosen demo tasks have no level with two of them');
    const [top, next] = ranked.filter((task) => task.level === level);
    const spec = {
      ...REPOCOD_LITE_SPEC,
      filter,
      quotas: { 'self-contained': 0, 'file-level': 0, 'repo-level': 0, [level]: 1 },
    };
    // The top task made unsolvable for real: its only listed test (of the errors module) passes without its
    // body, so check 2 fails when the flow validates it (a new task hash: its stored verdicts no longer count).
    const unrelated = 'tests/test_errors.py::test_validation_error_keeps_the_field';
    const saved = (await catalog.task(top?.instanceId ?? ''))?.failToPass ?? [];
    await catalog.query(`UPDATE tasks SET fail_to_pass = ['${unrelated}'] WHERE instance_id = '${top?.instanceId}'`);
    try {
      const events: FlowEvent[] = [];
      const result = await runFlow(catalog, {
        ...options,
        repositories: ['demo'],
        spec,
        stages: ['select', 'validate'],
        out: join(state, 'release'),
        onEvent: (event) => events.push(event),
      });
      expect(result.failures).toEqual([]);
      const problems = events.flatMap((event) => (event.kind === 'stage-problem' ? [event.message] : []));
      expect(problems).toEqual([
        expect.stringMatching(new RegExp(`^${top?.instanceId} failed: fails-without-body`)),
        expect.stringMatching(/^1 selected task\(s\) failed validation: selection \w+ takes the next of their levels/),
      ]);
      const selection = await catalog.selection();
      expect(selection?.picks.map((pick) => pick.instanceId)).toEqual([next?.instanceId]);
      // select on its own passes over the failed task too, and says so.
      const again = await selectStep(catalog, spec);
      expect(again.picks.map((pick) => pick.instanceId)).toEqual([next?.instanceId]);
      expect(again.passedOver).toEqual([top?.instanceId]);
    } finally {
      await catalog.query(
        `UPDATE tasks SET fail_to_pass = [${saved.map((test) => `'${test}'`).join(', ')}] ` +
          `WHERE instance_id = '${top?.instanceId}'`,
      );
    }
    // Restored, the task is as it was validated: its passed verdict is current again and select takes it.
    expect((await selectStep(catalog, spec)).picks.map((pick) => pick.instanceId)).toEqual([top?.instanceId]);
  });

  it('fails at select, before validating anything, when the selection holds a repository it cannot prepare', {
    timeout: 300_000,
  }, async () => {
    const filter = `qualname IN (${CHOSEN.map((name) => `'${name}'`).join(', ')})`;
    const [top] = await catalog.rankTasks({ ...REPOCOD_LITE_SPEC, filter });
    const task = await catalog.task(top?.instanceId ?? '');
    if (task === null) throw new Error('no chosen task');
    // An era of a project in no manifest, as a catalog pooled from other invocations may hold one.
    const ghost = `ghost@${'b'.repeat(12)}`;
    await catalog.replaceTasks(ghost, [{ ...task, instanceId: `ghost-${task.instanceId}`, repository: ghost }]);
    try {
      const events: FlowEvent[] = [];
      const result = await runFlow(catalog, {
        ...options,
        repositories: ['demo'],
        spec: { ...REPOCOD_LITE_SPEC, filter },
        stages: ['select', 'validate'],
        out: join(state, 'release-ghost'),
        onEvent: (event) => events.push(event),
      });
      expect(result.ok).toBe(false);
      const failed = events.find((event) => event.kind === 'stage-failed');
      expect(failed).toMatchObject({ stage: 'select' });
      expect(JSON.stringify(failed)).toMatch(/1 repository\(ies\) that cannot be prepared here: ghost@b{12} \(/);
      expect(events.some((event) => event.kind === 'stage-start' && event.stage === 'validate')).toBe(false);
    } finally {
      await catalog.replaceTasks(ghost, []);
    }
  });
});
