import type { JobResult, PytestRun, TestOutcome } from '@repocod/runner';
import { describe, expect, it } from 'vitest';
import { FIRST_FAILURE_ARGS } from './validation-jobs.js';
import type { FitEvidence, GoldEvidence } from './validation-verdict.js';
import { collectsCheck, needsTestsRemovedCollect, taskVerdict, withoutBodyUndecided } from './validation-verdict.js';

/** Results as the runner hands them over; the whole-flow tests run the real thing (validate-stage.test.ts). */
function run(
  outcomes: Record<string, TestOutcome>,
  status: PytestRun['status'] = 'ok',
  log = 'pytest output\n',
): PytestRun {
  return {
    status,
    exitCode: status === 'ok' ? 0 : 1,
    durationSeconds: 0.5,
    log,
    network: 'isolated',
    artifact: null,
    results: Object.entries(outcomes).map(([nodeId, outcome]) => ({
      nodeId,
      outcome,
      duration: 0.01,
      message: outcome === 'failed' ? 'E   assert None == 3\nmore' : null,
    })),
  };
}

function job(hash: string, runs: PytestRun[], patchError: string | null = null): JobResult {
  return { job: { repository: 'demo', patches: [], tests: 'all' }, jobHash: hash, patchError, runs, worker: 0 };
}

const goldRuns = (result: JobResult): GoldEvidence => ({ from: 'runs', job: result });

/** The run without the body as the default mode makes it: stopped at the first failure. */
function firstFailure(hash: string, runs: PytestRun[]): JobResult {
  return {
    ...job(hash, runs),
    job: {
      repository: 'demo',
      patches: [],
      tests: 'all',
      pytestArgs: ['--continue-on-collection-errors', ...FIRST_FAILURE_ARGS],
    },
  };
}

const TESTS = ['t.py::test_a', 't.py::test_b', 't.py::test_c'];
const ALL_FAIL = { 't.py::test_a': 'failed', 't.py::test_b': 'error', 't.py::test_c': 'failed' } as const;
const ALL_PASS = { 't.py::test_a': 'passed', 't.py::test_b': 'passed', 't.py::test_c': 'skipped' } as const;

describe('taskVerdict', () => {
  it(
    'passes a task whose pre state collects, whose tests all fail without the body and all ' + 'pass k times with it',
    () => {
      const verdict = taskVerdict({
        failToPass: TESTS,
        collects: job('c', [run({})]),
        withoutBody: job('w', [run(ALL_FAIL)]),
        gold: goldRuns(job('g', [run(ALL_PASS), run(ALL_PASS), run(ALL_PASS)])),
      });
      expect(verdict.status).toBe('passed');
      expect(verdict.checks.map((check) => [check.check, check.status, check.runIds])).toEqual([
        ['collects', 'passed', ['c:1']],
        ['fails-without-body', 'passed', ['w:1']],
        ['passes-with-gold', 'passed', ['g:1', 'g:2', 'g:3']],
      ]);
      expect(verdict.failToPass).toEqual(TESTS);
      expect(verdict.flakyTests).toEqual([]);
    },
  );

  it('keeps FAIL_TO_PASS whole when one test fails without the body, recording the ones that pass (REPOCOD)', () => {
    const verdict = taskVerdict({
      failToPass: TESTS,
      collects: job('c', [run({})]),
      withoutBody: job('w', [run({ 't.py::test_a': 'failed', 't.py::test_b': 'passed', 't.py::test_c': 'skipped' })]),
      gold: goldRuns(job('g', [run(ALL_PASS)])),
    });
    expect(verdict.status).toBe('passed');
    expect(verdict.checks[1]?.detail).toBe(
      '1 of 3 FAIL_TO_PASS test(s) fail without the body; 2 pass without it (kept)',
    );
    expect(verdict).toMatchObject({
      failToPass: TESTS,
      droppedTests: [],
      passingWithoutBody: ['t.py::test_b', 't.py::test_c'],
      withoutBodyComplete: true,
      goldFrom: 'runs',
      goldBaselineKey: null,
    });
  });

  it('fails the check, naming the tests, when none fails without the body', () => {
    const verdict = taskVerdict({
      failToPass: TESTS,
      collects: job('c', [run({})]),
      withoutBody: job('w', [
        run({ 't.py::test_a': 'passed', 't.py::test_b': 'passed', 't.py::test_c': 'missing' }, 'collection-error'),
      ]),
      gold: goldRuns(job('g', [run(ALL_PASS)])),
    });
    expect(verdict.status).toBe('failed');
    const check = verdict.checks[1];
    expect(check).toMatchObject({
      check: 'fails-without-body',
      status: 'failed',
      tests: ['t.py::test_a (passed)', 't.py::test_b (passed)', 't.py::test_c (missing)'],
    });
    expect(check?.detail).toBe(
      'no FAIL_TO_PASS test fails without the body (2 pass, 1 missing from the report (collection error))',
    );
    expect(check?.log).toBe('pytest output\n');
    expect(verdict).toMatchObject({
      failToPass: TESTS,
      passingWithoutBody: ['t.py::test_a', 't.py::test_b'],
      withoutBodyComplete: false,
    });
  });

  it(
    'judges a run stopped at the first failure by the failure it saw, and says when only the ' + 'whole run can tell',
    () => {
      const gold = goldRuns(job('g', [run(ALL_PASS)]));
      const stopped = firstFailure('w', [run({ 't.py::test_a': 'passed', 't.py::test_b': 'failed' })]);
      const verdict = taskVerdict({ failToPass: TESTS, collects: job('c', [run({})]), withoutBody: stopped, gold });
      expect(verdict.status).toBe('passed');
      expect(verdict.checks[1]?.detail).toBe(
        '1 of 3 FAIL_TO_PASS test(s) fail without the body (the run stops at the first failure: 1 passed before it, ' +
          '1 ' +
          'not run)',
      );
      expect(verdict).toMatchObject({ passingWithoutBody: ['t.py::test_a'], withoutBodyComplete: false });
      expect(withoutBodyUndecided({ failToPass: TESTS, withoutBody: stopped, gold })).toBe(false);
      // A collection error counts as a failure for --maxfail: the run stopped without a failing test.
      const collectionError = firstFailure('w', [run({ 't.py::test_a': 'passed' }, 'collection-error')]);
      expect(withoutBodyUndecided({ failToPass: TESTS, withoutBody: collectionError, gold })).toBe(true);
      // The same outcomes from a whole run are an answer: no test fails.
      expect(
        withoutBodyUndecided({
          failToPass: TESTS,
          withoutBody: job('w', [run({ 't.py::test_a': 'passed' }, 'collection-error')]),
          gold,
        }),
      ).toBe(false);
      // A run that saw every test is an answer too, even stopped at the first failure.
      expect(withoutBodyUndecided({ failToPass: TESTS, withoutBody: firstFailure('w', [run(ALL_PASS)]), gold })).toBe(
        false,
      );
    },
  );

  it('answers the gold check from mining’s baseline runs, with their flaky tests, citing no run of its own', () => {
    const outcomes = new Map<string, TestOutcome[]>([
      ['t.py::test_a', ['passed', 'passed', 'passed']],
      ['t.py::test_b', ['passed', 'failed', 'passed']],
      ['t.py::test_c', ['passed', 'passed', 'passed']],
    ]);
    const gold: GoldEvidence = { from: 'baseline', miningKey: 'm1', runs: 3, outcomes };
    const verdict = taskVerdict({
      failToPass: TESTS,
      collects: job('c', [run({})]),
      withoutBody: job('w', [run(ALL_FAIL)]),
      gold,
    });
    expect(verdict).toMatchObject({
      status: 'passed',
      failToPass: ['t.py::test_a', 't.py::test_c'],
      goldFrom: 'baseline',
      goldBaselineKey: 'm1',
    });
    expect(verdict.flakyTests).toEqual([{ nodeId: 't.py::test_b', outcomes: ['passed', 'failed', 'passed'] }]);
    expect(verdict.checks[2]).toMatchObject({ status: 'passed', runIds: [] });
    expect(verdict.checks[2]?.detail).toBe(
      'all 2 test(s) pass in each of 3 baseline run(s) of mining at the base commit; 1 flaky test(s) left ' +
        'FAIL_TO_PASS ' +
        '(t.py::test_b: passed, failed, passed)',
    );
    const notPassing = taskVerdict({
      failToPass: ['t.py::test_a', 't.py::test_z'],
      collects: job('c', [run({})]),
      withoutBody: job('w', [run(ALL_FAIL)]),
      gold,
    });
    expect(notPassing.checks[2]).toMatchObject({
      status: 'failed',
      tests: ['t.py::test_z (missing)'],
      detail:
        '1 of 2 test(s) do not pass with the gold patches in any of 3 baseline run(s) of mining at the base commit',
    });
  });

  it('narrows FAIL_TO_PASS to the tests that fail without the body when asked, and fails when none is left', () => {
    const someFail = taskVerdict({
      failToPass: TESTS,
      narrow: true,
      collects: job('c', [run({})]),
      withoutBody: job('w', [run({ ...ALL_FAIL, 't.py::test_b': 'passed' })]),
      gold: goldRuns(job('g', [run(ALL_PASS)])),
    });
    expect(someFail.status).toBe('passed');
    expect(someFail.failToPass).toEqual(['t.py::test_a', 't.py::test_c']);
    expect(someFail.droppedTests).toEqual(['t.py::test_b']);
    const noneFail = taskVerdict({
      failToPass: TESTS,
      narrow: true,
      collects: job('c', [run({})]),
      withoutBody: job('w', [run(ALL_PASS)]),
      gold: goldRuns(job('g', [run(ALL_PASS)])),
    });
    expect(noneFail.status).toBe('failed');
    expect(noneFail.checks[1]?.detail).toBe('no FAIL_TO_PASS test fails without the body');
    // The gold check still judges the tests themselves, and they pass: one failure, reported once.
    expect(noneFail.checks.map((check) => check.status)).toEqual(['passed', 'failed', 'passed']);
  });

  it('removes and records the tests that flip across the k runs, and judges the rest', () => {
    const flips = { ...ALL_PASS, 't.py::test_c': 'failed' } as const;
    const verdict = taskVerdict({
      failToPass: TESTS,
      collects: job('c', [run({})]),
      withoutBody: job('w', [run({ ...ALL_FAIL, 't.py::test_c': 'passed' })]),
      gold: goldRuns(job('g', [run(ALL_PASS), run(flips), run(ALL_PASS)])),
    });
    // test_c passed without the body too, but it is flaky: it left FAIL_TO_PASS before check 2 judged.
    expect(verdict.status).toBe('passed');
    expect(verdict.flakyTests).toEqual([{ nodeId: 't.py::test_c', outcomes: ['skipped', 'failed', 'skipped'] }]);
    expect(verdict.failToPass).toEqual(['t.py::test_a', 't.py::test_b']);
    expect(verdict.checks[2]?.detail).toBe(
      'all 2 test(s) pass in each of 3 run(s); 1 flaky test(s) left FAIL_TO_PASS (t.py::test_c: skipped, failed, ' +
        'skipped)',
    );
    const allFlaky = taskVerdict({
      failToPass: ['t.py::test_c'],
      collects: job('c', [run({})]),
      withoutBody: job('w', [run(ALL_FAIL)]),
      gold: goldRuns(job('g', [run(ALL_PASS), run(flips)])),
    });
    expect(allFlaky.status).toBe('failed');
    expect(allFlaky.checks[2]).toMatchObject({ status: 'failed', tests: ['t.py::test_c'] });
  });

  it('fails the gold check for a test that never passes, with its first message line', () => {
    const verdict = taskVerdict({
      failToPass: TESTS,
      collects: job('c', [run({})]),
      withoutBody: job('w', [run(ALL_FAIL)]),
      gold: goldRuns(job('g', [run(ALL_FAIL), run(ALL_FAIL)])),
    });
    expect(verdict.checks[2]).toMatchObject({
      status: 'failed',
      detail: '3 of 3 test(s) do not pass with the gold patches in any of 2 run(s)',
    });
    expect(verdict.checks[2]?.tests[0]).toBe('t.py::test_a (failed: E   assert None == 3)');
  });

  it('fails a task whose whole FAIL_TO_PASS does not fit the limit on the gold state, with the time measured', () => {
    const limited = (result: JobResult): JobResult => ({ ...result, job: { ...result.job, timeoutSeconds: 600 } });
    const slow = { ...run(ALL_PASS), status: 'timeout' as const, durationSeconds: 600.2 };
    const timedOut = taskVerdict({
      failToPass: TESTS,
      collects: job('c', [run({})]),
      withoutBody: job('w', [run(ALL_FAIL)]),
      gold: goldRuns(limited(job('g', [run(ALL_PASS), slow, run(ALL_PASS)]))),
    });
    expect(timedOut.status).toBe('failed');
    expect(timedOut.checks[2]).toMatchObject({
      status: 'failed',
      detail:
        'the whole FAIL_TO_PASS (3 test(s)) with the gold patches does not fit the 600 s limit: 600.2 s (the ' +
        'longest gold run)',
      fit: { fits: false, seconds: 600.2, limitSeconds: 600, from: 'gold-runs' },
    });
    const fitting = taskVerdict({
      failToPass: TESTS,
      collects: job('c', [run({})]),
      withoutBody: job('w', [run(ALL_FAIL)]),
      gold: goldRuns(limited(job('g', [run(ALL_PASS)]))),
    });
    expect(fitting.checks[2]?.detail).toBe(
      'all 3 test(s) pass in each of 1 run(s); fits the 600 s limit: 0.5 s (the longest gold run)',
    );
    expect(fitting.checks[2]?.fit).toEqual({ fits: true, seconds: 0.5, limitSeconds: 600, from: 'gold-runs' });

    const outcomes = new Map<string, TestOutcome[]>(TESTS.map((test) => [test, ['passed']]));
    const baseline: GoldEvidence = { from: 'baseline', miningKey: 'm1', runs: 1, outcomes };
    const verdictWith = (fit: FitEvidence) =>
      taskVerdict({
        failToPass: TESTS,
        collects: job('c', [run({})]),
        withoutBody: job('w', [run(ALL_FAIL)]),
        gold: baseline,
        fit,
      });
    const summed = verdictWith({ from: 'baseline-durations', fits: false, seconds: 1_234.5, limitSeconds: 600 });
    expect(summed.checks[2]).toMatchObject({
      status: 'failed',
      runIds: [],
      detail:
        "the whole FAIL_TO_PASS (3 test(s)) with the gold patches does not fit the 600 s limit: 1234.5 s (mining's " +
        'baseline durations summed)',
    });
    const measured = verdictWith({ from: 'fit-run', job: job('f', [run(ALL_PASS)]), limitSeconds: 600 });
    expect(measured.checks[2]).toMatchObject({
      status: 'passed',
      runIds: ['f:1'],
      fit: { fits: true, seconds: 0.5, from: 'fit-run' },
    });
    const failingThere = verdictWith({
      from: 'fit-run',
      job: job('f', [run({ ...ALL_PASS, 't.py::test_b': 'failed' })]),
      limitSeconds: 600,
    });
    expect(failingThere.checks[2]).toMatchObject({
      status: 'failed',
      tests: ['t.py::test_b (failed: E   assert None == 3)'],
    });
    const brokenRun = verdictWith({ from: 'fit-run', job: job('f', [run({}, 'crashed')]), limitSeconds: 600 });
    expect(brokenRun.checks[2]).toMatchObject({
      status: 'infra-error',
      detail: 'the fit run: the run ended with crashed (exit code 1, 0.5 s)',
    });
  });

  it('keeps infrastructure failures apart from failed checks, and a patch that does not apply is a failure', () => {
    const timedOut = taskVerdict({
      failToPass: TESTS,
      collects: job('c', [run({})]),
      withoutBody: job('w', [run({}, 'timeout', 'x'.repeat(20_000))]),
      gold: goldRuns(job('g', [run(ALL_PASS)])),
    });
    expect(timedOut.status).toBe('infra-error');
    expect(timedOut.checks[1]).toMatchObject({
      status: 'infra-error',
      detail: 'the run ended with timeout (exit code 1, 0.5 s)',
    });
    expect(timedOut.checks[1]?.log?.length).toBeLessThan(9_000);
    const notCollecting = taskVerdict({
      failToPass: TESTS,
      collects: job('c', [run({}, 'collection-error', 'E   ImportError')]),
      withoutBody: job('w', [run({}, 'crashed')]),
      gold: goldRuns(job('g', [run(ALL_PASS)])),
    });
    expect(notCollecting.status).toBe('failed');
    expect(notCollecting.checks.map((check) => check.status)).toEqual(['failed', 'infra-error', 'passed']);
    expect(notCollecting.checks[0]?.log).toBe('E   ImportError');
    const unpatched = taskVerdict({
      failToPass: TESTS,
      collects: job('c', [], 'patch 1 of 2 does not apply: error: corrupt patch\nmore'),
      withoutBody: job('w', [run(ALL_FAIL)]),
      gold: goldRuns(job('g', [run(ALL_PASS)])),
    });
    expect(unpatched.checks[0]).toMatchObject({
      status: 'failed',
      detail: 'patch 1 of 2 does not apply: error: corrupt patch',
      runIds: ['c:1'],
    });
  });
});

describe('collectsCheck', () => {
  const broken = run({}, 'collection-error', 'E   TypeError: cannot unpack non-iterable NoneType object\n');
  it('passes a pre state that collects, asking nothing more', () => {
    expect(needsTestsRemovedCollect(job('p', [run({})]))).toBe(false);
    expect(collectsCheck(job('p', [run({})]), null)).toMatchObject({
      status: 'passed',
      bodyNeededAtCollection: false,
      runIds: ['p:1'],
    });
  });

  it('passes one that does not collect when it does with the body kept: the tests need the body at collection', () => {
    const pre = job('p', [broken]);
    expect(needsTestsRemovedCollect(pre)).toBe(true);
    // Until base + pre.test has been collected, the check cannot pass.
    expect(collectsCheck(pre, null)).toMatchObject({
      status: 'failed',
      detail: 'the pre state does not collect (collection-error, exit code 1)',
    });
    const check = collectsCheck(pre, job('t', [run({})]));
    expect(check).toMatchObject({ status: 'passed', bodyNeededAtCollection: true, runIds: ['p:1', 't:1'], log: null });
    expect(check.detail).toMatch(/does not collect, and does with the body/);
  });

  it('fails when the files do not collect with the body either, and keeps a broken run an infrastructure error', () => {
    const check = collectsCheck(job('p', [broken]), job('t', [run({}, 'collection-error', 'E   SyntaxError\n')]));
    expect(check).toMatchObject({ status: 'failed', bodyNeededAtCollection: false });
    expect(check.detail).toMatch(
      /nor with the body \(collection-error\): the removed tests or the files themselves break collection$/,
    );
    expect(check.log).toContain('SyntaxError');
    expect(collectsCheck(job('p', [broken]), job('t', [run({}, 'timeout')]))).toMatchObject({ status: 'infra-error' });
    // A pre state whose patches do not apply is no question of collection.
    expect(needsTestsRemovedCollect(job('p', [], 'error: patch failed: m.py:3'))).toBe(false);
    expect(collectsCheck(job('p', [], 'error: patch failed: m.py:3'), null)).toMatchObject({
      status: 'failed',
      detail: 'error: patch failed: m.py:3',
    });
  });
});
