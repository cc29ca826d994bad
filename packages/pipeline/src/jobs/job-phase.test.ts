import type { RunJob } from '@repocod/runner';
import { fitRunJob, testsRemovedCollectJob, validationJobs, wholeWithoutBodyJob } from '@repocod/validate';
import { describe, expect, it } from 'vitest';
import { jobPhase } from './job-phase.js';

const TASK = {
  instanceId: 'demo-slugify',
  repository: 'demo',
  baseCommit: 'c'.repeat(40),
  preCode: 'pre code patch',
  preTest: 'pre test patch',
  goldCode: 'gold code patch',
  goldTest: 'gold test patch',
  failToPass: ['tests/test_text.py::test_slugify', 'tests/test_other.py::test_uses_slugify'],
  file: 'demo/text.py',
};
const MINING_ARGS = ['--continue-on-collection-errors', '--timeout=600'];

describe('jobPhase', () => {
  it("tells validation's jobs apart by their shape, as validation builds them", () => {
    const jobs = validationJobs(TASK, 3, 600);
    expect(jobPhase('validate', jobs.collects)).toBe('collect');
    expect(jobPhase('validate', jobs['fails-without-body'])).toBe('without-body');
    expect(jobPhase('validate', wholeWithoutBodyJob(TASK, 600))).toBe('without-body');
    expect(jobPhase('validate', jobs['passes-with-gold'])).toBe('gold');
    expect(jobPhase('validate', fitRunJob(TASK, 600))).toBe('gold');
    expect(jobPhase('validate', testsRemovedCollectJob(TASK))).toBe('collect');
    // The tasks stage runs validation's collect job as its check, in Lite-first mining's stage too.
    expect(jobPhase('mine', jobs.collects)).toBe('collect');
  });

  it("tells mining's jobs apart by their plugins, and its patched runs by the stage", () => {
    const reference: RunJob = { repository: 'demo', patches: [], tests: 'all', paths: ['tests/test_text.py'] };
    expect(jobPhase('mine', { ...reference, pytestArgs: MINING_ARGS, plugins: ['repocod_coverage'] })).toBe('traced');
    expect(jobPhase('mine', { ...reference, pytestArgs: MINING_ARGS, repeat: 2 })).toBe('baseline');
    const mutated = { repository: 'demo', patches: ['mutation'], pytestArgs: [...MINING_ARGS, '--tb=native'] };
    expect(jobPhase('mine', { ...mutated, tests: ['t.py::a'], plugins: ['repocod_mutate'] })).toBe('mutation');
    expect(jobPhase('mine', { ...mutated, tests: ['t.py::a'] })).toBe('mutation-fresh');
    expect(jobPhase('mine', { ...mutated, tests: 'all' })).toBe('mutation-suite');
    expect(
      jobPhase('mine', {
        ...mutated,
        tests: 'all',
        pytestArgs: ['--collect-only', '-q'],
        plugins: ['repocod_collect'],
      }),
    ).toBe('import-time');
    expect(jobPhase('validate', { ...mutated, tests: 'all' })).toBe('other');
  });
});
