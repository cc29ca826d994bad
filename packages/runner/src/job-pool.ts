import type { Executor } from './local-executor.js';
import type { RunStatus } from './pytest-job.js';
import type { JobResult, RunJob } from './run-job.js';

/**
 * Where a pool keeps the jobs it ran, so that the same job again is answered from there (the pipeline keeps them in
 * its catalog; mining keeps its reference runs under its own key).
 */
export interface JobStore {
  /** The job's stored result, when every attempt it asks for is stored; null when it must run. */
  stored(job: RunJob): Promise<JobResult | null>;
  /** Keeps a finished job's result. */
  record(result: JobResult): Promise<void>;
}

/**
 * The one way a step gets a runner job's result: `submit(job)` answers it from the store or runs it, and
 * records what ran. The rules, stated once:
 * - A job is answered from the store when every attempt it asks for is stored and none of them ended in a
 *   status the caller reruns (`rerun`: by default a run that could not finish); `fresh` runs it regardless.
 * - The pool opens with `start()`: before it, submissions are only looked up, so that a step can say what it will
 *   run (`plan()`) before anything is answered; no result is delivered before `start()`.
 * - Jobs that must run go to the executor in batches, in the order they were submitted: every job queued when no
 *   batch runs (and no lookup is in flight) goes in one batch; a job submitted while a batch runs (a follow-up
 *   that a result asked for) waits for the next. A batch is one `executor.run`, so the executor's workers stay
 *   its own.
 * - Each result is recorded in the store before its submitter sees it: a killed run loses at most the jobs in
 *   hand, and a rerun finds the others there.
 * - A batch that fails (the executor throws) fails every job waiting in the pool.
 */
export interface SubmitOptions {
  /** Run the job even when the store holds its runs (a task judged afresh). */
  readonly fresh?: boolean;
  /** Stored statuses that do not answer the job: it runs again (default RERUN_UNFINISHED). */
  readonly rerun?: readonly RunStatus[];
}

/** Runs that could not finish: their job is run again rather than answered from the store. */
export const RERUN_UNFINISHED: readonly RunStatus[] = ['timeout', 'crashed', 'infra-error'];

/** How a pool's jobs were answered so far. */
export interface PoolCounts {
  /** Jobs answered from the store's runs (the name is the pipeline's, whose store is its catalog). */
  readonly fromCatalog: number;
  /** Jobs that must run, queued or run. */
  readonly toRun: number;
  /** Jobs the executor finished. */
  readonly ran: number;
}

interface Queued {
  readonly job: RunJob;
  readonly resolve: (result: JobResult) => void;
  readonly reject: (error: unknown) => void;
}

export class JobPool {
  private readonly queue: Queued[] = [];
  /** Answers from the store held until the pool opens, in the order they were submitted. */
  private readonly held: (() => void)[] = [];
  private lookups = 0;
  private started = false;
  private batch: Promise<void> | null = null;
  private failure: unknown;
  private readonly idle: (() => void)[] = [];
  private counts = { fromCatalog: 0, toRun: 0, ran: 0 };

  constructor(
    private readonly store: JobStore,
    private readonly executor: Executor,
    /** Told of each job the executor finished, once it is recorded (a step's progress). */
    private readonly onRan?: (result: JobResult, tally: PoolCounts) => void,
  ) {}

  /** How many jobs run at once (the executor's workers). */
  get parallelism(): number {
    return this.executor.parallelism;
  }

  /** The job's result: from the store where it answers, else run (in a batch) and recorded. */
  submit(job: RunJob, options: SubmitOptions = {}): Promise<JobResult> {
    const answer = new Promise<JobResult>((resolve, reject) => {
      if (this.failure !== undefined) {
        reject(this.failure);
        return;
      }
      if (options.fresh === true) {
        this.enqueue({ job, resolve, reject });
        return;
      }
      this.lookups++;
      this.stored(job, options.rerun ?? RERUN_UNFINISHED)
        .then((stored) => {
          if (stored === null) this.enqueue({ job, resolve, reject });
          else {
            this.counts.fromCatalog++;
            if (this.started) resolve(stored);
            else this.held.push(() => resolve(stored));
          }
        }, reject)
        .finally(() => {
          this.lookups--;
          this.wakeUp();
        });
    });
    // A failed batch fails every answer still waiting, and a step awaits its answers one after the other: the first
    // it awaits reports the failure; the others must not end the process as unhandled rejections meanwhile.
    answer.catch(() => undefined);
    return answer;
  }

  /** Once every submission so far is looked up: how many the store answered and how many must run. */
  async plan(): Promise<PoolCounts> {
    while (this.lookups > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
    return { ...this.counts };
  }

  /** Opens the pool: answers from the store are delivered and batches may start. */
  start(): void {
    this.started = true;
    for (const deliver of this.held.splice(0)) deliver();
    this.wakeUp();
  }

  /** Jobs answered from the store, to run, and run, so far. */
  get tally(): PoolCounts {
    return { ...this.counts };
  }

  private async stored(job: RunJob, rerun: readonly RunStatus[]): Promise<JobResult | null> {
    const result = await this.store.stored(job);
    if (result === null || result.runs.some((run) => rerun.includes(run.status))) return null;
    return result;
  }

  private enqueue(item: Queued): void {
    this.counts.toRun++;
    this.queue.push(item);
    this.wakeUp();
  }

  private wakeUp(): void {
    if (this.lookups === 0) for (const resolve of this.idle.splice(0)) resolve();
    if (!this.started || this.batch !== null || this.lookups > 0 || this.queue.length === 0) return;
    const items = this.queue.splice(0);
    this.batch = this.runBatch(items).finally(() => {
      this.batch = null;
      this.wakeUp();
    });
  }

  private async runBatch(items: readonly Queued[]): Promise<void> {
    const answered = new Set<number>();
    try {
      for await (const { index, result } of this.executor.run(items.map((item) => item.job))) {
        await this.store.record(result);
        this.counts.ran++;
        answered.add(index);
        this.onRan?.(result, { ...this.counts });
        items[index]?.resolve(result);
      }
    } catch (error) {
      this.failure = error;
      for (const [index, item] of items.entries()) if (!answered.has(index)) item.reject(error);
      for (const item of this.queue.splice(0)) item.reject(error);
    }
  }
}
