import type { JobResult, RunJob } from './run-job.js';
import { runJob } from './run-job.js';
import type { PreparedRepository } from './prepare-repository.js';

/** Typed progress of an executor: the CLI and the TUI render the same events. */
export type ExecutorEvent =
  | { readonly kind: 'job-start'; readonly index: number; readonly worker: number; readonly total: number }
  | {
      readonly kind: 'job-done';
      readonly index: number;
      readonly worker: number;
      readonly done: number;
      readonly total: number;
      readonly result: JobResult;
    };

/**
 * The runner's one executor interface: jobs in, results out as each finishes. The local pool is the
 * default; a distributed executor plugs in behind the same interface.
 */
export interface Executor {
  /** How many jobs run at once: what callers size their batches and shards by. */
  readonly parallelism: number;
  run(
    jobs: readonly RunJob[],
    onEvent?: (event: ExecutorEvent) => void,
  ): AsyncGenerator<{ readonly index: number; readonly result: JobResult }>;
}

/** Makes the executor a stage runs a prepared repository's jobs on (local pool or distributed queue). */
export type ExecutorFactory = (repository: PreparedRepository) => Executor;

export const localExecutor: ExecutorFactory = (repository) => new LocalExecutor(repository);

/**
 * A pool of workers on this machine, one per worktree of the prepared repository: each takes the
 * next job from a shared queue, so jobs of the same repository run in parallel in separate copies.
 */
export class LocalExecutor implements Executor {
  constructor(private readonly repository: PreparedRepository) {
    if (repository.worktrees.length === 0)
      throw new Error(`${repository.entry.name}: the local executor needs at least one worktree`);
  }

  get parallelism(): number {
    return this.repository.worktrees.length;
  }

  async *run(
    jobs: readonly RunJob[],
    onEvent?: (event: ExecutorEvent) => void,
  ): AsyncGenerator<{ readonly index: number; readonly result: JobResult }> {
    const finished: { index: number; result: JobResult }[] = [];
    let failure: unknown;
    let wake: (() => void) | undefined;
    let next = 0;
    let done = 0;
    const worker = async (worktreeIndex: number): Promise<void> => {
      const worktree = this.repository.worktrees[worktreeIndex];
      if (worktree === undefined) return;
      for (let index = next++; index < jobs.length && failure === undefined; index = next++) {
        const job = jobs[index] as RunJob;
        onEvent?.({ kind: 'job-start', index, worker: worktreeIndex, total: jobs.length });
        try {
          const result = await runJob(job, this.repository, worktree);
          done++;
          finished.push({ index, result });
          onEvent?.({ kind: 'job-done', index, worker: worktreeIndex, done, total: jobs.length, result });
        } catch (error) {
          failure ??= error;
        }
        wake?.();
      }
    };
    let stopped = false;
    const workers = Promise.all(this.repository.worktrees.map((_, index) => worker(index))).then(() => {
      stopped = true;
      wake?.();
    });
    while (!stopped || finished.length > 0) {
      if (finished.length === 0) {
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      yield finished.shift() as { index: number; result: JobResult };
    }
    await workers;
    if (failure !== undefined) throw failure;
  }
}
