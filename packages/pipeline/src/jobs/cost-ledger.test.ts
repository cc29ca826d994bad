import type { Executor, JobResult, PreparedRepository, PytestRun, RunJob } from '@repocod/runner';
import { describe, expect, it } from 'vitest';
import { CostLedger, type PhaseCost } from './cost-ledger.js';
import { costTable, wholeSuites } from './cost-table.js';

/** A pytest process that reported these outcomes in `seconds`. */
function run(outcomes: readonly string[], seconds: number, artifact: string | null = null): PytestRun {
  return {
    status: 'ok',
    exitCode: 0,
    durationSeconds: seconds,
    results: outcomes.map((outcome, index) => ({ nodeId: `t.py::t${index}`, outcome, duration: 0, message: null })),
    log: '',
    artifact,
  } as unknown as PytestRun;
}

/** An executor that answers each job with the runs given for it, in order: the ledger around it is what is tested. */
function answering(runs: readonly (readonly PytestRun[])[]): Executor {
  return {
    parallelism: 2,
    async *run(jobs) {
      for (const [index, job] of jobs.entries())
        yield {
          index,
          result: { job, jobHash: `h${index}`, patchError: null, runs: runs[index], worker: 0 } as JobResult,
        };
    },
  };
}

const repository = { entry: { name: 'demo', baseCommit: null } } as unknown as PreparedRepository;
const SHARD: RunJob = { repository: 'demo', patches: [], tests: 'all', plugins: ['repocod_coverage'] };
const PLAIN: RunJob = { repository: 'demo', patches: [], tests: 'all', repeat: 2 };
const BATCH: RunJob = { repository: 'demo', patches: [], tests: ['t.py::t0'], plugins: ['repocod_mutate'] };
const MUTATIONS = [
  JSON.stringify({ id: 'f1', status: 'ok', outcomes: { 't.py::t0': 'failed', 't.py::t1': 'passed' }, seconds: 1 }),
  JSON.stringify({ id: 'f2', status: 'ok', outcomes: { 't.py::t0': 'passed' }, seconds: 1 }),
  JSON.stringify({ id: 'f3', status: 'unswappable', reason: 'a C function' }),
].join('\n');

async function drain(executor: Executor, jobs: readonly RunJob[]): Promise<void> {
  for await (const _ of executor.run(jobs)) {
    // Each result is counted as it passes through.
  }
}

describe('CostLedger', () => {
  it('counts jobs, processes, test executions and busy seconds per stage and phase as results pass', async () => {
    const kept: PhaseCost[] = [];
    const ledger = new CostLedger(async (cost) => {
      kept.push(cost);
    });
    ledger.stage = 'mine';
    const runs = [[run(['passed', 'failed', 'missing'], 10)], [run(['passed', 'passed'], 4), run(['passed'], 5)]];
    await drain(ledger.wrap(() => answering(runs))(repository), [SHARD, PLAIN]);
    await drain(ledger.wrap(() => answering([[run([], 3, MUTATIONS)]]))(repository), [BATCH]);
    ledger.stage = 'validate';
    await drain(ledger.wrap(() => answering([[run(['passed'], 2), run(['passed'], 2)]]))(repository), [
      { repository: 'demo', patches: ['gold'], tests: ['t.py::t0'], repeat: 2 },
    ]);
    expect(ledger.rows()).toEqual([
      {
        repository: 'demo',
        stage: 'mine',
        phase: 'baseline',
        jobs: 1,
        processes: 2,
        testExecutions: 3,
        busySeconds: 9,
      },
      { repository: 'demo', stage: 'mine', phase: 'traced', jobs: 1, processes: 1, testExecutions: 2, busySeconds: 10 },
      // The in-process batch ran three tests for two functions; the unswappable one ran none.
      {
        repository: 'demo',
        stage: 'mine',
        phase: 'mutation',
        jobs: 1,
        processes: 1,
        testExecutions: 3,
        busySeconds: 3,
      },
      {
        repository: 'demo',
        stage: 'validate',
        phase: 'gold',
        jobs: 1,
        processes: 2,
        testExecutions: 2,
        busySeconds: 4,
      },
    ]);
    // Each job's own cost was kept as it ended: the two mine shards apart, summing to the rows above.
    expect(kept.map(({ phase, testExecutions }) => `${phase} ${testExecutions}`)).toEqual([
      'traced 2',
      'baseline 3',
      'mutation 3',
      'gold 2',
    ]);
  });

  it('prints a table per repository with whole-suite equivalents, and nothing when nothing ran', async () => {
    const ledger = new CostLedger();
    ledger.stage = 'mine';
    await drain(ledger.wrap(() => answering([[run(['passed', 'passed'], 10)]]))(repository), [SHARD]);
    expect(costTable({ phases: ledger.rows(), suiteTests: { demo: 2 } })).toEqual([
      'cost of demo: the jobs run now, whole suite = 2 tests',
      '  phase                                     jobs  processes  test executions  whole suites  busy s',
      '  mine: traced run (whole suite, coverage)     1          1                2          1.00    10.0',
      '  total                                        1          1                2          1.00    10.0',
    ]);
    expect(costTable({ phases: ledger.rows(), suiteTests: {} })[3]).toMatch(/ 2 +- +10\.0$/);
    expect(costTable({ phases: [], suiteTests: { demo: 2 } })).toEqual([]);
    expect(wholeSuites(30, 20)).toBe(1.5);
    expect(wholeSuites(30, 0)).toBeNull();
  });
});
