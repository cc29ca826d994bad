import { RepocodError } from '@repocod/core';
import type { Executor, ExecutorEvent, JobResult, PreparedRepository, RunJob } from '@repocod/runner';
import type { JobMessage } from './job-message.js';
import { describeTests, jobMessage } from './job-message.js';
import type { JobQueue, QueueArrival } from './job-queue.js';
import { DEFAULT_PREFIX } from './queue-names.js';
import { readResultMessage } from './result-message.js';

/** While nothing arrives, the coordinator reads its jobs' states this often (events can be missed). */
const SWEEP_MS = 10_000;

export interface RedisExecutorOptions {
  /**
   * Jobs that run at once over all workers (mining sizes its shards by it); default the job slots of
   * the workers connected when the executor is made.
   */
  readonly parallelism?: number;
  /** Things the user should know while the coordinator waits (no worker connected, workers back). */
  readonly onNotice?: (line: string) => void;
}

/**
 * The runner's executor over a BullMQ queue: every job goes on the queue under its hash, workers on
 * any machine run it, and results come back as they finish. Nothing is lost: a job whose worker dies
 * goes back on the queue (BullMQ's stalled-job check) and runs elsewhere; a job finished while the
 * coordinator was away is found by its hash when it asks again; a second result for a job already
 * handed over is ignored; a result that is not a result, or was made at another checkout or
 * environment than the coordinator's, is an error naming the worker.
 */
export class RedisExecutor implements Executor {
  /** Results that arrived for jobs this run had already handed over (and were ignored). */
  duplicatesIgnored = 0;

  readonly parallelism: number;

  constructor(
    private readonly queue: JobQueue,
    private readonly repository: PreparedRepository,
    private readonly options: RedisExecutorOptions = {},
  ) {
    this.parallelism = Math.max(1, options.parallelism ?? queue.knownSlots);
  }

  async *run(
    jobs: readonly RunJob[],
    onEvent?: (event: ExecutorEvent) => void,
  ): AsyncGenerator<{ readonly index: number; readonly result: JobResult }> {
    if (jobs.length === 0) return;
    const messages = new Map<string, { message: JobMessage; indices: number[] }>();
    jobs.forEach((job, index) => {
      const message = jobMessage(job, this.repository);
      const known = messages.get(message.jobHash);
      if (known === undefined) messages.set(message.jobHash, { message, indices: [index] });
      else known.indices.push(index);
    });
    const inbox: QueueArrival[] = [];
    let wake: (() => void) | undefined;
    const unsubscribe = this.queue.watch((arrival) => {
      if (!messages.has(arrival.jobId)) return;
      inbox.push(arrival);
      wake?.();
    });
    const outstanding = new Set(messages.keys());
    let done = 0;
    // The first sweep comes right after the jobs go on: results that came in while no coordinator listened.
    let lastSweep = Number.NEGATIVE_INFINITY;
    const watcher = new WorkerWatch(this.queue, this.options.onNotice);
    try {
      // Subscribed before the jobs go on: an event cannot fall between the two.
      await this.queue.submit([...messages.values()].map((entry) => entry.message));
      while (outstanding.size > 0) {
        const arrival = inbox.shift();
        if (arrival === undefined) {
          if (performance.now() - lastSweep >= SWEEP_MS) {
            lastSweep = performance.now();
            await this.sweep(outstanding, inbox, messages);
            await watcher.check();
            continue;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
            setTimeout(resolve, SWEEP_MS).unref();
          });
          wake = undefined;
          continue;
        }
        const entry = messages.get(arrival.jobId) as { message: JobMessage; indices: number[] };
        if (!outstanding.has(arrival.jobId)) {
          if (arrival.kind === 'completed') this.duplicatesIgnored++;
          continue;
        }
        if (arrival.kind === 'active') {
          for (const index of entry.indices) onEvent?.({ kind: 'job-start', index, worker: 0, total: jobs.length });
          continue;
        }
        if (arrival.kind === 'failed') throw this.failure(entry.message, arrival.reason);
        const result = this.resultOf(entry.message, arrival.value, jobs[entry.indices[0] as number] as RunJob);
        outstanding.delete(arrival.jobId);
        for (const index of entry.indices) {
          done++;
          const own = { ...result, job: jobs[index] as RunJob };
          onEvent?.({ kind: 'job-done', index, worker: own.worker, done, total: jobs.length, result: own });
          yield { index, result: own };
        }
        // The caller has stored the result when it asks for the next one: only then is it let go.
        await this.queue.forget(arrival.jobId);
      }
    } finally {
      unsubscribe();
    }
  }

  /** The state of every job still out, for events missed (a dropped connection, a trimmed stream). */
  private async sweep(
    outstanding: ReadonlySet<string>,
    inbox: QueueArrival[],
    messages: ReadonlyMap<string, { message: JobMessage }>,
  ): Promise<void> {
    const missing: string[] = [];
    const ids = [...outstanding];
    for (let start = 0; start < ids.length; start += 200) {
      for (const state of await Promise.all(ids.slice(start, start + 200).map((jobId) => this.queue.lookup(jobId)))) {
        if (state.kind === 'completed' || state.kind === 'failed') inbox.push(state);
        if (state.kind === 'missing') missing.push(state.jobId);
      }
    }
    // Taken off by hand (or by a second coordinator that stored it): asked for again.
    if (missing.length > 0)
      await this.queue.submit(missing.map((jobId) => (messages.get(jobId) as { message: JobMessage }).message));
  }

  private resultOf(message: JobMessage, value: unknown, job: RunJob): JobResult {
    const result = readResultMessage(value, job, message.jobHash);
    if (result.jobHash !== message.jobHash || result.result.jobHash !== message.jobHash) {
      throw new RepocodError(
        'executor-failed',
        `${this.repository.entry.name}: worker ${result.worker.id} answered job ${short(message.jobHash)} with the ` +
          `result of job ${short(result.result.jobHash)}: its checkout or environment is not the coordinator's ` +
          `(commit ` +
          `${short(message.baseCommit)}, environment ${short(message.environmentKey)}); run the same repocod ` +
          `version and manifest ` +
          `on every machine`,
      );
    }
    return result.result;
  }

  private failure(message: JobMessage, reason: string): RepocodError {
    const tests = describeTests(message.job);
    return new RepocodError(
      'executor-failed',
      `${this.repository.entry.name}: job ${short(message.jobHash)} (${tests}) failed on the workers: ${reason}`,
    );
  }
}

/** Tells the user once when no worker is connected, and again when workers come. */
class WorkerWatch {
  private warned = false;

  constructor(
    private readonly queue: JobQueue,
    private readonly onNotice: ((line: string) => void) | undefined,
  ) {}

  async check(): Promise<void> {
    if (this.onNotice === undefined) return;
    const workers = await this.queue.workers();
    if (workers.length === 0 && !this.warned) {
      this.warned = true;
      const namespace = this.queue.prefix === DEFAULT_PREFIX ? '' : ` --namespace ${this.queue.prefix}`;
      this.onNotice(
        `no worker is connected to ${this.queue.address.display}${namespace}: the jobs wait on the queue; start ` +
          `\`repocod worker --redis ${this.queue.address.display}${namespace}\` on each machine`,
      );
    } else if (workers.length > 0 && this.warned) {
      this.warned = false;
      this.onNotice(`${workers.length} worker(s) connected: ${workers.map((worker) => worker.id).join(', ')}`);
    }
  }
}

function short(hash: string): string {
  return hash.slice(0, 12);
}
