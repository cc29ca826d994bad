import { describe, expect, it } from 'vitest';
import { JobPool } from './job-pool.js';
import type { Executor } from './local-executor.js';
import { MemoryJobStore } from './memory-job-store.js';
import type { PreparedRepository } from './prepare-repository.js';
import type { PytestRun, RunStatus } from './pytest-job.js';
import type { JobResult, RunJob } from './run-job.js';
import { jobHash } from './run-job.js';

/**
 * The pool over a store in memory with an executor that answers each job at once from its first test's name: what
 * is tested is the pool around it (what it asks the store, what it batches, what it records). How the pipeline's
 * catalog keeps a job's runs is catalog-job-store.test.ts's.
 */
const prepared = {
  entry: { name: 'demo', timeoutSeconds: 60 },
  checkout: { baseCommit: 'c0ffee' },
  environment: { key: 'env-1', recipeHash: 'recipe-1' },
} as unknown as PreparedRepository;

function job(test: string, repeat = 1): RunJob {
  return { repository: 'demo', patches: ['p'], tests: [test], repeat };
}

/** The status a job's runs end in: its test's name says (`t.py::timeout` times out). */
function statusOf(job: RunJob): RunStatus {
  const test = job.tests === 'all' ? '' : (job.tests[0] ?? '');
  return (['timeout', 'crashed', 'infra-error'] as const).find((status) => test.endsWith(status)) ?? 'ok';
}

class RecordingExecutor implements Executor {
  readonly parallelism = 2;
  readonly batches: string[][] = [];
  failOn: string | null = null;
  async *run(jobs: readonly RunJob[]): AsyncGenerator<{ readonly index: number; readonly result: JobResult }> {
    this.batches.push(jobs.map((job) => (job.tests === 'all' ? 'all' : job.tests.join())));
    for (const [index, job] of jobs.entries()) {
      const test = job.tests === 'all' ? 'all' : (job.tests[0] ?? '');
      if (test === this.failOn) throw new Error(`the worker running ${test} went away`);
      const status = statusOf(job);
      const run: PytestRun = {
        status,
        exitCode: status === 'ok' ? 0 : 1,
        durationSeconds: 1,
        log: `ran ${test}`,
        network: 'isolated',
        artifact: null,
        results: [{ nodeId: test, outcome: status === 'ok' ? 'passed' : 'failed', duration: 0.5, message: null }],
      };
      const runs = Array.from({ length: job.repeat ?? 1 }, () => run);
      yield { index, result: { job, jobHash: jobHash(job, prepared), patchError: null, runs, worker: index % 2 } };
    }
  }
}

const store = new MemoryJobStore();

describe('JobPool', () => {
  it('says what it will run before it opens, runs it in one batch, records it, and answers it again', async () => {
    const executor = new RecordingExecutor();
    const pool = new JobPool(store, executor);
    const answers = [pool.submit(job('t.py::a')), pool.submit(job('t.py::b', 3))];
    expect(await pool.plan()).toEqual({ fromCatalog: 0, toRun: 2, ran: 0 });
    expect(executor.batches).toEqual([]);
    pool.start();
    const [a, b] = await Promise.all(answers);
    expect(executor.batches).toEqual([['t.py::a', 't.py::b']]);
    expect(b?.runs).toHaveLength(3);
    expect(pool.tally).toEqual({ fromCatalog: 0, toRun: 2, ran: 2 });
    expect(await store.stored(job('t.py::a'))).toEqual(a);

    const again = new JobPool(store, new RecordingExecutor());
    const stored = again.submit(job('t.py::b', 3));
    expect(await again.plan()).toEqual({ fromCatalog: 1, toRun: 0, ran: 0 });
    again.start();
    expect((await stored).runs.map((run) => run.results[0]?.outcome)).toEqual(['passed', 'passed', 'passed']);
    // Asked fresh, it runs anyway.
    const fresh = new JobPool(store, new RecordingExecutor());
    const rerun = fresh.submit(job('t.py::b', 3), { fresh: true });
    fresh.start();
    await rerun;
    expect(fresh.tally).toEqual({ fromCatalog: 0, toRun: 1, ran: 1 });
  });

  it('runs a follow-up asked for by a result in the next batch, after the one it came from', async () => {
    const executor = new RecordingExecutor();
    const pool = new JobPool(store, executor);
    const chain = pool.submit(job('t.py::first')).then(() => pool.submit(job('t.py::then')));
    const beside = pool.submit(job('t.py::beside'));
    pool.start();
    await Promise.all([chain, beside]);
    expect(executor.batches).toEqual([['t.py::first', 't.py::beside'], ['t.py::then']]);
  });

  it('runs a stored run that could not finish again, unless the caller takes its status as the answer', async () => {
    const first = new JobPool(store, new RecordingExecutor());
    const ran = [first.submit(job('t.py::timeout')), first.submit(job('t.py::crashed'))];
    first.start();
    await Promise.all(ran);
    const executor = new RecordingExecutor();
    const pool = new JobPool(store, executor);
    const answers = [
      pool.submit(job('t.py::timeout'), { rerun: ['crashed', 'infra-error'] }),
      pool.submit(job('t.py::crashed'), { rerun: ['crashed', 'infra-error'] }),
      pool.submit(job('t.py::timeout')),
    ];
    expect(await pool.plan()).toEqual({ fromCatalog: 1, toRun: 2, ran: 0 });
    pool.start();
    await Promise.all(answers);
    expect(executor.batches).toEqual([['t.py::crashed', 't.py::timeout']]);
  });

  it('fails every job waiting in the pool when a batch fails, and keeps what it recorded before', async () => {
    const executor = new RecordingExecutor();
    executor.failOn = 't.py::lost';
    const pool = new JobPool(store, executor);
    const kept = pool.submit(job('t.py::kept'));
    const lost = pool.submit(job('t.py::lost'));
    const after = pool.submit(job('t.py::after'));
    pool.start();
    expect((await kept).runs).toHaveLength(1);
    await expect(lost).rejects.toThrow('the worker running t.py::lost went away');
    await expect(after).rejects.toThrow('went away');
    await expect(pool.submit(job('t.py::later'))).rejects.toThrow('went away');
    // A step that awaits one answer first sees the failure there; the others' rejections are not unhandled.
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const failing = new RecordingExecutor();
    failing.failOn = 't.py::x';
    const second = new JobPool(store, failing);
    const first = second.submit(job('t.py::x'));
    second.submit(job('t.py::y'));
    second.start();
    await expect(first).rejects.toThrow('went away');
    await new Promise((resolve) => setTimeout(resolve, 50));
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toEqual([]);
    expect((await store.stored(job('t.py::kept')))?.runs).toHaveLength(1);
    expect(await store.stored(job('t.py::lost'))).toBeNull();
  });
});
