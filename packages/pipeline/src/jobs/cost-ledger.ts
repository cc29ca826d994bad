import { testExecutions } from '@repocod/mining';
import type { Executor, ExecutorFactory, JobResult, RunJob } from '@repocod/runner';
import { catalogName } from '@repocod/runner';
import type { CostPhase } from './job-phase.js';
import { COST_PHASES, jobPhase } from './job-phase.js';

/** What one repository's jobs of one phase cost: counts that do not depend on the machine, and its seconds. */
export interface PhaseCost {
  readonly repository: string;
  readonly stage: string;
  readonly phase: CostPhase;
  /** Runner jobs run (each one the catalog did not answer). */
  readonly jobs: number;
  /** pytest processes started: a job of k runs starts k. */
  readonly processes: number;
  /** Tests executed, summed over the processes (a test run three times counts three). */
  readonly testExecutions: number;
  /** The processes' own seconds, summed: the work of the phase whatever the number of workers. */
  readonly busySeconds: number;
}

/**
 * The cost of a build, counted at the executor: every job a stage hands to the runner (the stages pass on only
 * what the catalog does not answer, so a warm build counts nothing), under its stage and its phase (jobPhase).
 * Test executions are counted as mining's own phases count them (testExecutions).
 */
export class CostLedger {
  private readonly costs = new Map<string, Mutable<PhaseCost>>();
  /** The stage whose jobs are being run: the flow sets it as each stage starts. */
  stage = 'build';

  /**
   * @param keep where each finished job's cost is also kept (the catalog's job_costs), awaited before the job's
   *   result is handed on: a build killed after it keeps all but the job in hand.
   */
  constructor(private readonly keep?: (cost: PhaseCost) => Promise<void>) {}

  wrap(inner: ExecutorFactory): ExecutorFactory {
    return (repository) => {
      const executor = inner(repository);
      const name = catalogName(repository.entry);
      const ledger = this;
      const counted: Executor = {
        parallelism: executor.parallelism,
        async *run(jobs, onEvent) {
          const stage = ledger.stage;
          for await (const finished of executor.run(jobs, onEvent)) {
            const cost = ledger.record(name, stage, jobs[finished.index] as RunJob, finished.result);
            await ledger.keep?.(cost);
            yield finished;
          }
        },
      };
      return counted;
    };
  }

  /** One finished job, counted under its repository, stage and phase; gives that job's own cost. */
  record(repository: string, stage: string, job: RunJob, result: JobResult): PhaseCost {
    const phase = jobPhase(stage, job);
    const own: PhaseCost = {
      repository,
      stage,
      phase,
      jobs: 1,
      processes: result.runs.length,
      testExecutions: testExecutions(job, result),
      busySeconds: result.runs.reduce((sum, run) => sum + run.durationSeconds, 0),
    };
    const key = `${repository}\n${stage}\n${phase}`;
    const cost = this.costs.get(key) ?? {
      repository,
      stage,
      phase,
      jobs: 0,
      processes: 0,
      testExecutions: 0,
      busySeconds: 0,
    };
    cost.jobs += own.jobs;
    cost.processes += own.processes;
    cost.busySeconds += own.busySeconds;
    cost.testExecutions += own.testExecutions;
    this.costs.set(key, cost);
    return own;
  }

  /** The costs so far, by repository, then in the order of COST_PHASES. */
  rows(): PhaseCost[] {
    const order = (cost: PhaseCost): number => COST_PHASES.indexOf(cost.phase);
    return [...this.costs.values()]
      .map((cost) => ({ ...cost, busySeconds: Math.round(cost.busySeconds * 10) / 10 }))
      .sort(
        (a, b) => a.repository.localeCompare(b.repository) || order(a) - order(b) || a.stage.localeCompare(b.stage),
      );
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
