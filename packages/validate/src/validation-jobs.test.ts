import { describe, expect, it } from 'vitest';
import type { ValidatedTask } from './validation-jobs.js';
import { contentHash } from '@repocod/core';
import {
  evidenceLimitSeconds,
  likeliestFailingFirst,
  preStateCollectJob,
  taskHash,
  taskHashOf,
  validationJobs,
  wholeWithoutBodyJob,
} from './validation-jobs.js';

const task: ValidatedTask = {
  instanceId: 'sphinx-doc__sphinx-sphinx.application.Sphinx.require_sphinx',
  repository: 'sphinx',
  baseCommit: '0a162fa8da21154011a2c890bb82fd0ce96ebf16',
  preCode: 'pre code\n',
  preTest: '',
  goldCode: 'gold code\n',
  goldTest: 'gold test\n',
  failToPass: [
    'tests/test_build.py::test_a',
    'tests/test_build.py::test_b',
    'tests/test_application.py::test_c',
    'tests/test_util.py::test_d[x::y]',
  ],
  file: 'sphinx/application.py',
};

describe('the runs of validation', () => {
  it('give a run without the body the per-test limit once per test file, and each test the limit alone', () => {
    const jobs = validationJobs(task, 3, 600);
    expect(evidenceLimitSeconds(task.failToPass, 600)).toBe(2400);
    expect(wholeWithoutBodyJob(task, 600).timeoutSeconds).toBe(2400);
    // The run that stops at the first failure holds one file's tests: its limit, and one for the start.
    expect(jobs['fails-without-body'].timeoutSeconds).toBe(1200);
    for (const job of [jobs['fails-without-body'], wholeWithoutBodyJob(task, 600)])
      expect(job.pytestArgs).toContain('--timeout=600');
    expect(jobs['fails-without-body'].pytestArgs).toContain('--maxfail=1');
    expect(wholeWithoutBodyJob(task, 600).pytestArgs).not.toContain('--maxfail=1');
  });

  it('keep REPOCOD limit on the gold runs and the collect check: a solution must pass within it', () => {
    const jobs = validationJobs(task, 3, 600);
    expect(jobs['passes-with-gold'].timeoutSeconds).toBe(600);
    expect(jobs['passes-with-gold'].pytestArgs).toBeUndefined();
    expect(jobs.collects.timeoutSeconds).toBe(600);
    expect(jobs['passes-with-gold'].repeat).toBe(3);
  });

  it('run the tests of the target module first without the body, and every test in narrow mode', () => {
    const jobs = validationJobs(task, 3, 60, true);
    expect(jobs['fails-without-body'].tests).toEqual(task.failToPass);
    expect(jobs['fails-without-body'].pytestArgs).not.toContain('--maxfail=1');
    expect(likeliestFailingFirst(task)).toEqual([
      'tests/test_application.py::test_c',
      'tests/test_build.py::test_a',
      'tests/test_build.py::test_b',
      'tests/test_util.py::test_d[x::y]',
    ]);
    // Without the body, the run that stops at a failure takes the likeliest file's tests alone.
    expect(validationJobs(task, 3, 60)['fails-without-body'].tests).toEqual(['tests/test_application.py::test_c']);
    const noDirectFile = { ...task, file: 'sphinx/other.py' };
    expect(validationJobs(noDirectFile, 3, 60)['fails-without-body'].tests).toEqual([
      'tests/test_build.py::test_a',
      'tests/test_build.py::test_b',
    ]);
  });

  it('give a task with no listed test file one limit, and one for the start', () => {
    expect(evidenceLimitSeconds([], 600)).toBe(1200);
  });

  it("collect the pre state in the files of the task's tests, not the whole suite", () => {
    const job = preStateCollectJob(task);
    expect(job).toMatchObject({
      tests: 'all',
      paths: ['tests/test_application.py', 'tests/test_build.py', 'tests/test_util.py'],
      patches: ['pre code\n'],
    });
    expect(job.pytestArgs).toEqual(['--collect-only', '-q']);
    expect(validationJobs(task, 3, 600).collects).toMatchObject({ paths: job.paths, timeoutSeconds: 600 });
  });
});

describe('the task hash', () => {
  it("is the same from the patches' hashes (the catalog's summaries) as from the patches", () => {
    const patchHashes = [task.preCode, task.preTest, task.goldCode, task.goldTest].map((patch) => contentHash(patch));
    expect(taskHashOf({ ...task, patchHashes })).toBe(taskHash(task));
    expect(taskHashOf({ ...task, patchHashes: [...patchHashes].reverse() })).not.toBe(taskHash(task));
  });
});
