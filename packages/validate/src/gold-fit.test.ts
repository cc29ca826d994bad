import { describe, expect, it } from 'vitest';
import { describeFit, fitFromDurations, fitRunJob } from './gold-fit.js';

const durations = new Map([
  ['t.py::a', 100],
  ['t.py::b', 150],
  ['t.py::c', 400],
]);

describe('fitFromDurations', () => {
  it('answers "exceeds" when the tests alone take longer than the limit', () => {
    expect(fitFromDurations(['t.py::a', 't.py::b', 't.py::c'], durations, 600)).toEqual({
      kind: 'exceeds',
      seconds: 650,
      limitSeconds: 600,
    });
  });

  it('leaves every other task to one run, however short the durations: they do not show tests run together', () => {
    expect(fitFromDurations(['t.py::a'], durations, 600)).toEqual({ kind: 'run', seconds: 100, limitSeconds: 600 });
    expect(fitFromDurations(['t.py::c'], durations, 600).kind).toBe('run');
    expect(fitFromDurations(['t.py::a', 't.py::unknown'], durations, 600)).toEqual({
      kind: 'run',
      seconds: null,
      limitSeconds: 600,
    });
  });
});

describe('fitRunJob', () => {
  it('is the gold evaluation: the pre state, the gold code, the hidden tests, the whole FAIL_TO_PASS once', () => {
    const job = fitRunJob(
      { repository: 'demo', preCode: 'pre', preTest: '', goldTest: 'tests', goldCode: 'gold', failToPass: ['t.py::a'] },
      600,
    );
    expect(job).toEqual({
      repository: 'demo',
      patches: ['pre', 'gold', 'tests'],
      tests: ['t.py::a'],
      repeat: 1,
      timeoutSeconds: 600,
    });
  });
});

describe('describeFit', () => {
  it('names the limit, the time and how it was measured', () => {
    expect(describeFit({ fits: true, seconds: 42.123, limitSeconds: 600, from: 'fit-run' })).toBe(
      'fits the 600 s limit: 42.1 s (one run of the gold state)',
    );
    expect(describeFit({ fits: false, seconds: 1234.5, limitSeconds: 600, from: 'baseline-durations' })).toBe(
      "does not fit the 600 s limit: 1234.5 s (mining's baseline durations summed)",
    );
  });
});
