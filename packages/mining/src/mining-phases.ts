import type { Executor, JobResult, JobStore, RunJob } from '@repocod/runner';
import { JobPool } from '@repocod/runner';
import type { MiningEvent, MiningPhase, PhaseStats } from './mining-events.js';
import { testExecutions } from './test-executions.js';

/** One phase under way: its figures as its jobs finish, and its progress events. */
export class PhaseProgress {
  private readonly started = performance.now();
  private done = 0;
  private processes = 0;
  private busySeconds = 0;
  private testExecutions = 0;

  constructor(
    readonly phase: MiningPhase,
    /** The jobs to run now. */
    private readonly jobs: number,
    private readonly onEvent?: (event: MiningEvent) => void,
  ) {}

  /** A job of the phase finished (and its result was handed over). */
  ran(job: RunJob, result: JobResult): void {
    this.processes += result.runs.length;
    this.busySeconds += result.runs.reduce((sum, run) => sum + run.durationSeconds, 0);
    this.testExecutions += testExecutions(job, result);
    this.done++;
    this.onEvent?.({ kind: 'job-done', phase: this.phase, done: this.done, total: this.jobs });
  }

  /** The phase's figures, once its last job finished. */
  stats(): PhaseStats {
    return {
      phase: this.phase,
      wallSeconds: (performance.now() - this.started) / 1000,
      processes: this.processes,
      busySeconds: this.busySeconds,
      testExecutions: this.testExecutions,
    };
  }
}

/** The phases of one mining run: each runs its jobs on the executor, and its figures are kept. */
export class MiningPhases {
  readonly stats: PhaseStats[] = [];

  constructor(
    private readonly executor: Executor,
    private readonly onEvent?: (event: MiningEvent) => void,
  ) {}

  /** How many jobs run at once (the executor's workers). */
  get parallelism(): number {
    return this.executor.parallelism;
  }

  /** A phase with `jobs` to run (`resumed` more were done by an earlier run) begins; none begins without jobs. */
  begin(phase: MiningPhase, jobs: number, functions: number, resumed = 0): PhaseProgress | null {
    if (jobs === 0) return null;
    this.onEvent?.({ kind: 'phase-start', phase, jobs, resumed, functions });
    return new PhaseProgress(phase, jobs, this.onEvent);
  }

  /** The phase ended: its figures are kept and told. */
  end(progress: PhaseProgress): void {
    const stats = progress.stats();
    this.stats.push(stats);
    this.onEvent?.({ kind: 'phase-done', stats });
  }

  /** Runs one phase's jobs on the executor, handing each result over as it finishes. */
  async run(
    phase: MiningPhase,
    jobs: readonly RunJob[],
    functions: number,
    onResult: (job: RunJob, result: JobResult) => Promise<void>,
  ): Promise<void> {
    const progress = this.begin(phase, jobs.length, functions);
    if (progress === null) return;
    for await (const { index, result } of this.executor.run(jobs)) {
      const job = jobs[index] as RunJob;
      await onResult(job, result);
      progress.ran(job, result);
    }
    this.end(progress);
  }

  /**
   * Runs one phase's jobs through a job pool over `store`: a job the store holds is answered from there (an earlier,
   * stopped run finished it), the others run and each is recorded as it ends. The results, by job.
   */
  async runStored(
    phase: MiningPhase,
    jobs: readonly RunJob[],
    functions: number,
    store: JobStore,
  ): Promise<Map<RunJob, JobResult>> {
    let progress: PhaseProgress | null = null;
    const pool = new JobPool(store, this.executor, (result) => progress?.ran(result.job, result));
    const answers = jobs.map((job) => pool.submit(job));
    const { fromCatalog, toRun } = await pool.plan();
    progress = this.begin(phase, toRun, functions, fromCatalog);
    pool.start();
    const results = await Promise.all(answers);
    if (progress !== null) this.end(progress);
    return new Map(jobs.map((job, index) => [job, results[index] as JobResult]));
  }
}
