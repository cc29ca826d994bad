import { describe, expect, it } from 'vitest';
import type { PytestRun } from '@repocod/runner';
import { fitRunJob } from '@repocod/validate';
import { evaluationJob, modelPatchPosition } from './evaluation-job.js';
import { gradeEvaluation } from './evaluation-outcome.js';

const task = {
  instanceId: 'demo-1',
  repository: 'demo',
  baseCommit: 'c',
  preCode: 'pre-code',
  preTest: '',
  goldCode: 'gold-code',
  goldTest: '',
  failToPass: ['t.py::a', 't.py::b'],
};

function run(status: PytestRun['status'], outcomes: Record<string, string>): PytestRun {
  return {
    status,
    exitCode: 0,
    durationSeconds: 1.5,
    log: 'line 1\nlast line',
    network: 'isolated',
    artifact: null,
    results: Object.entries(outcomes).map(([nodeId, outcome]) => ({
      nodeId,
      outcome: outcome as never,
      duration: 0,
      message: null,
    })),
  };
}

describe('evaluationJob', () => {
  it('applies the pre patches, the model change and the hidden tests, and runs FAIL_TO_PASS once', () => {
    const job = evaluationJob({ ...task, preTest: 'pre-test', goldTest: 'gold-test' }, 'model', 600);
    expect(job).toEqual({
      repository: 'demo',
      patches: ['pre-code', 'pre-test', 'model', 'gold-test'],
      tests: task.failToPass,
      repeat: 1,
      timeoutSeconds: 600,
    });
    expect(modelPatchPosition({ preCode: 'x', preTest: 'y' })).toBe(3);
    expect(modelPatchPosition(task)).toBe(2);
    // REPOCOD's evaluator stops at the first failing test (pytest -x): --exit-first.
    expect(evaluationJob(task, 'model', 600, true).pytestArgs).toEqual(['-x']);
    // Validation's fit run is this very job with the gold code as the change: evaluate --gold finds its runs.
    const full = { ...task, preTest: 'pre-test', goldTest: 'gold-test', goldCode: 'gold-code' };
    expect(evaluationJob(full, full.goldCode, 600)).toEqual(fitRunJob(full, 600));
  });
});

describe('gradeEvaluation with --exit-first', () => {
  it('names the first failing test and how many the stopped run left unrun', () => {
    const graded = gradeEvaluation(task, { patchError: null, runs: [run('ok', { 't.py::a': 'failed' })] }, 2, {
      exitFirst: true,
    });
    expect(graded).toMatchObject({
      outcome: 'unresolved',
      detail: 'stopped at the first failing test, t.py::a: failed (1 of 2 not run)',
    });
  });

  it("names the test pytest stopped at, not FAIL_TO_PASS's first, which it never reached", () => {
    // astropy's convolve: its list starts with test_dtype[…], pytest ran test_list first and stopped there.
    const graded = gradeEvaluation(task, { patchError: null, runs: [run('ok', { 't.py::b': 'failed' })] }, 2, {
      exitFirst: true,
    });
    expect(graded).toMatchObject({
      outcome: 'unresolved',
      detail: 'stopped at the first failing test, t.py::b: failed (1 of 2 not run)',
      failingTests: [
        { nodeId: 't.py::a', outcome: 'missing' },
        { nodeId: 't.py::b', outcome: 'failed' },
      ],
    });
  });
});

describe('gradeEvaluation', () => {
  const grade = (result: Parameters<typeof gradeEvaluation>[1]) => gradeEvaluation(task, result, 2);
  it('resolves when every test passes, skips and xfails allowed', () => {
    expect(grade({ patchError: null, runs: [run('ok', { 't.py::a': 'passed', 't.py::b': 'skipped' })] })).toMatchObject(
      {
        outcome: 'resolved',
        failingTests: [],
      },
    );
  });
  it('lists the tests that fail or are missing', () => {
    const graded = grade({ patchError: null, runs: [run('collection-error', { 't.py::a': 'failed' })] });
    expect(graded.outcome).toBe('unresolved');
    expect(graded.failingTests).toEqual([
      { nodeId: 't.py::a', outcome: 'failed' },
      { nodeId: 't.py::b', outcome: 'missing' },
    ]);
    expect(graded.detail).toBe('2 of 2 tests do not pass (collection error), first t.py::a: failed');
  });
  it("tells the model's patch from the task's own", () => {
    expect(grade({ patchError: 'patch 2 of 2 does not apply: error: corrupt patch', runs: [] }).outcome).toBe(
      'patch-failed',
    );
    expect(grade({ patchError: 'patch 3 of 3 does not apply: x', runs: [] }).detail).toMatch(/^the hidden tests/);
    expect(grade({ patchError: 'patch 1 of 2 does not apply: x', runs: [] }).outcome).toBe('error');
    expect(grade({ patchError: 'build_ext failed', runs: [] }).outcome).toBe('unresolved');
  });
  it('keeps timeouts and harness failures apart', () => {
    expect(grade({ patchError: null, runs: [run('timeout', {})] }).outcome).toBe('timeout');
    expect(grade({ patchError: null, runs: [run('infra-error', {})] })).toMatchObject({
      outcome: 'error',
      detail: 'pytest could not run: last line',
    });
  });
});
