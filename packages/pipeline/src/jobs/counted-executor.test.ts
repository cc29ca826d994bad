import type { Executor, JobResult, PreparedRepository, RunJob } from '@repocod/runner';
import { describe, expect, it } from 'vitest';
import { describeJob, JobCounter, UnansweredJobsError } from './counted-executor.js';

/** An executor that answers each job at once: the counter's behaviour around it is what is tested. */
const instant = (): Executor => ({
  parallelism: 2,
  async *run(jobs) {
    for (const [index, job] of jobs.entries())
      yield { index, result: { job, jobHash: `h${index}`, patchError: null, runs: [], worker: 0 } as JobResult };
  },
});
const repository = { entry: { name: 'demo' } } as PreparedRepository;
const JOBS: RunJob[] = [
  { repository: 'demo', patches: ['a', 'b'], tests: ['tests/test_x.py::test_a', 'tests/test_x.py::test_b'], repeat: 3 },
  { repository: 'demo', patches: [], tests: 'all', paths: ['tests/test_y.py'], pytestArgs: ['--collect-only', '-q'] },
];

async function drain(executor: Executor, jobs: readonly RunJob[]): Promise<number> {
  let count = 0;
  for await (const _ of executor.run(jobs)) count++;
  return count;
}

describe('JobCounter', () => {
  it('counts the jobs each stage runs per repository when runs are allowed', async () => {
    const counter = new JobCounter(true);
    counter.stage = 'validate';
    const executor = counter.wrap(instant)(repository);
    expect(executor.parallelism).toBe(2);
    expect(await drain(executor, JOBS)).toBe(2);
    expect(await drain(executor, [])).toBe(0);
    expect([...counter.counts]).toEqual([['validate/demo', 2]]);
    expect(counter.total()).toBe(2);
  });

  it('refuses a batch the catalog did not answer before running any of it, naming each job', async () => {
    const counter = new JobCounter(false);
    counter.stage = 'tasks';
    const executor = counter.wrap(instant)(repository);
    expect(await drain(executor, [])).toBe(0);
    let error: unknown;
    try {
      await drain(executor, JOBS);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UnansweredJobsError);
    expect((error as UnansweredJobsError).jobs).toEqual([
      '2 test(s) (tests/test_x.py::test_a, …) on 2 patch(es), 3 runs',
      'the suite in 1 file(s) (tests/test_y.py…) on 0 patch(es), pytest --collect-only -q',
    ]);
    expect((error as Error).message).toMatch(
      /^tasks of demo: 2 job\(s\) the checkpoints do not answer; nothing was run:/,
    );
    expect(counter.total()).toBe(0);
    expect(describeJob({ repository: 'demo', patches: ['p'], tests: ['t.py::a'] })).toBe(
      '1 test(s) (t.py::a) on 1 patch(es)',
    );
  });
});
