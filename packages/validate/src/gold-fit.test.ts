import { describe, expect, it } from 'vitest';
import { describeFit, FIT_SHARE, fitFromDurations, fitRunJob } from './gold-fit.js';

const durations = new Map([
  ['t.py::a', 100],
  ['t.py::b', 150],
  ['t.py::c', 400],
]);

describe('fitFromDurations', () => {
  it('answers "fits" when the summed durations are within FIT_SHARE of the limit', () => {
    expect(FIT_SHARE).toBe(0.5);
    expect(fitFromDurations(['t.py::a', 't.py::b'], durations, 600)).toEqual({
      kind: 'fits',
      seconds: 250,
      limitSeconds: 600,
    });
    expect(fitFromDurations(['t.py::a', 't.py::b'], durations, 500).kind).toBe('fits');
  });

  it('answers "exceeds" when the tests alone take longer than the limit', () => {
    expect(fitFromDurations(['t.py::a', 't.py::b', 't.py::c'], durations, 600)).toEqual({
      kind: 'exceeds',
      seconds: 650,
      limitSeconds: 600,
    });
  });

  it('leaves it to a run between the two, or when a test has no duration', () => {
    expect(fitFromDurations(['t.py::c'], durations, 600).kind).toBe('undecided');
    expect(fitFromDurations(['t.py::a', 't.py::unknown'], durations, 600).kind).toBe('undecided');
  });
});

describe('fitRunJob', () => {
  it('is the gold state (pre, tests restored, gold code) with the whole FAIL_TO_PASS, run once under the limit', () => {
    const job = fitRunJob(
      { repository: 'demo', preCode: 'pre', preTest: '', goldTest: 'tests', goldCode: 'gold', failToPass: ['t.py::a'] },
      600,
    );
    expect(job).toEqual({
      repository: 'demo',
      patches: ['pre', 'tests', 'gold'],
      tests: ['t.py::a'],
      repeat: 1,
      timeoutSeconds: 600,
    });
  });
});

describe('describeFit', () => {
  it('names the limit, the time and how it was measured', () => {
    expect(describeFit({ fits: true, seconds: 42.123, limitSeconds: 600, from: 'baseline-durations' })).toBe(
      "fits the 600 s limit: 42.1 s (mining's baseline durations summed)",
    );
    expect(describeFit({ fits: false, seconds: 600.4, limitSeconds: 600, from: 'fit-run' })).toBe(
      'does not fit the 600 s limit: 600.4 s (one run of the gold state)',
    );
  });
});
